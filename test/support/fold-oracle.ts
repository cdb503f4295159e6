/**
 * A reference for folding and stretching a chain, independent of src/fold/fold.ts and
 * src/fold/stretch.ts: brute force over every pair (fixed segment, moving segment), the motion
 * sampled densely, each sampled pose decided with exact distances (BigInt, core/exact.ts) near
 * the thickness, and refined near contacts:
 * - a sample in contact: bisection (60 steps) on the exact contact test between it and the free
 *   sample before it gives the pair's first contact angle;
 * - a local minimum of the sampled distance that could dip to the thickness between samples (the
 *   distance is Lipschitz in the angle with the moving segment's largest radius): golden-section
 *   search for the minimum; if that pose is in exact contact, bisection as above; if it is
 *   within η = 2⁻⁴⁰·S of the thickness (S the chain's extent) without exact contact — a grazing
 *   or an isolated contact (two thin segments crossing in 3D meet at one instant only, which no
 *   rounded pose hits exactly) — the minimiser is the contact angle;
 * - the two segments at the joint (folding only): the distance between their unit directions
 *   (one reversed), refined the same way; a minimum below 1e-9 is a fold-back.
 * Poses are rotated here with a quaternion matrix (different rounding from the library's
 * Rodrigues formula) and translated with the stretch's own arithmetic.
 */
import { SEGMENT, exactClosestFlat } from '../../src/core/exact.js';
import { compareWithSquare } from '../../src/closest/within.js';
import { closestSegSeg2, closestSegSeg3 } from '../../src/closest/segment-kernels.js';

/** One pair's first contact along the motion. */
export interface PairContact {
  /** Input segment indices (i fixed, j moving). */
  i: number;
  j: number;
  /** Motion parameter (|angle| or |length change|) of the first contact. */
  at: number;
}

/** What the reference found over the whole path. */
export interface Reference {
  /** Every pair that touches somewhere on the path, by first contact. */
  contacts: PairContact[];
  /** The first contact (Infinity when the path is free). */
  first: number;
  /** The chain's extent S (largest |p − q| over vertices p, q bounds it). */
  size: number;
}

/** A motion: the pose at parameter φ ≥ 0 (a new flat array), and how fast a moving point can go. */
interface Motion {
  pose(phi: number): Float64Array;
  /** Speed bound per unit of φ for the moving segment starting at vertex k. */
  speed(k: number): number;
  /** The end of the path to examine. */
  end: number;
}

const Q = new Float64Array(12);

function load(X: Float64Array, dim: number, i: number, j: number): void {
  for (let c = 0; c < 2 * dim; c++) {
    Q[c] = X[i * dim + c];
    Q[2 * dim + c] = X[j * dim + c];
  }
}

function dist(X: Float64Array, dim: number, i: number, j: number): number {
  load(X, dim, i, j);
  return dim === 2 ? closestSegSeg2(Q, 0, null, 0) : closestSegSeg3(Q, 0, null, 0);
}

/** Exact: is segment i within τ of segment j in pose X? (float distance when clearly decided.) */
function touching(X: Float64Array, dim: number, i: number, j: number, tau: number, size: number): boolean {
  const d = dist(X, dim, i, j);
  if (d > tau + 1e-9 * size) return false;
  if (d < tau - 1e-9 * size) return true;
  load(X, dim, i, j);
  const { distanceSq } = exactClosestFlat(SEGMENT, SEGMENT, dim, Q, 0);
  return compareWithSquare(distanceSq.num, distanceSq.den, tau) <= 0;
}

function extent(flat: Float64Array, dim: number): number {
  let s = 0;
  for (let c = 0; c < dim; c++) {
    let lo = Infinity, hi = -Infinity;
    for (let k = c; k < flat.length; k += dim) {
      lo = Math.min(lo, flat[k]);
      hi = Math.max(hi, flat[k]);
    }
    s += hi - lo;
  }
  return s;
}

function sameVertex(f: Float64Array, dim: number, a: number, b: number): boolean {
  for (let c = 0; c < dim; c++) if (f[a * dim + c] !== f[b * dim + c]) return false;
  return true;
}

const GOLD = (Math.sqrt(5) - 1) / 2;

/** Minimiser of g on [a, b] by golden-section search. */
function goldenMin(g: (x: number) => number, a: number, b: number): { x: number; v: number } {
  let x1 = b - GOLD * (b - a), x2 = a + GOLD * (b - a);
  let f1 = g(x1), f2 = g(x2);
  for (let it = 0; it < 90 && b - a > 1e-16 * (1 + Math.abs(a)); it++) {
    if (f1 <= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - GOLD * (b - a);
      f1 = g(x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + GOLD * (b - a);
      f2 = g(x2);
    }
  }
  const fa = g(a), fb = g(b);
  let best = { x: x1, v: f1 };
  if (f2 < best.v) best = { x: x2, v: f2 };
  if (fa < best.v) best = { x: a, v: fa };
  if (fb < best.v) best = { x: b, v: fb };
  return best;
}

/** First parameter in (free, hit] where `hit` holds, by bisection (free: does not hold at a). */
function boundary(test: (x: number) => boolean, a: number, b: number): number {
  for (let it = 0; it < 60; it++) {
    const mid = a + (b - a) / 2;
    if (mid <= a || mid >= b) break;
    if (test(mid)) b = mid;
    else a = mid;
  }
  return b;
}

function sweep(flat: Float64Array, dim: number, joint: number, tau: number, motion: Motion, samples: number, foldBack: boolean): Reference {
  const n = flat.length / dim;
  const size = extent(flat, dim);
  const eta = 2 ** -40 * size;
  const fixed: number[] = [];
  const moving: number[] = [];
  for (let k = 0; k + 1 < n; k++) {
    if (sameVertex(flat, dim, k, k + 1)) continue;
    (k < joint ? fixed : moving).push(k);
  }
  const N = samples;
  const h = motion.end / N;
  const at = (k: number): number => (k === N ? motion.end : k * h);
  const poses: Float64Array[] = [];
  for (let k = 0; k <= N; k++) poses.push(motion.pose(at(k)));
  const contacts: PairContact[] = [];
  const adjacent = (i: number, j: number): boolean => i === fixed[fixed.length - 1] && j === moving[0];
  for (const i of fixed) {
    for (const j of moving) {
      let first = Infinity;
      if (adjacent(i, j)) {
        if (!foldBack) continue; // a stretch never turns a segment: no fold-back can appear
        // fold-back: distance between the direction of j and the reversed direction of i
        const g = (phi: number): number => {
          const X = motion.pose(phi);
          let nu = 0, nw = 0;
          const u: number[] = [], w: number[] = [];
          for (let c = 0; c < dim; c++) {
            u.push(X[i * dim + c] - X[(i + 1) * dim + c]);
            w.push(X[(j + 1) * dim + c] - X[j * dim + c]);
            nu += u[c] ** 2;
            nw += w[c] ** 2;
          }
          let s = 0;
          for (let c = 0; c < dim; c++) s += (u[c] / Math.sqrt(nu) - w[c] / Math.sqrt(nw)) ** 2;
          return Math.sqrt(s);
        };
        const G = poses.map((_, k) => g(at(k)));
        for (let k = 0; k <= N && first === Infinity; k++) {
          const l = k > 0 ? G[k - 1] : Infinity, r = k < N ? G[k + 1] : Infinity;
          if (G[k] <= l && G[k] <= r && G[k] < 2 * h + 1e-9) {
            const m = goldenMin(g, at(Math.max(0, k - 1)), at(Math.min(N, k + 1)));
            if (m.v <= 1e-9) first = m.x;
          }
        }
        if (first < Infinity) contacts.push({ i, j, at: first });
        continue;
      }
      const L = motion.speed(j);
      const D = poses.map((X) => dist(X, dim, i, j));
      const test = (phi: number): boolean => touching(motion.pose(phi), dim, i, j, tau, size);
      for (let k = 0; k <= N; k++) {
        if (at(k) >= first) break;
        if (D[k] <= tau + 1e-9 * size && touching(poses[k], dim, i, j, tau, size)) {
          first = Math.min(first, k === 0 ? 0 : boundary(test, at(k - 1), at(k)));
          break;
        }
        const l = k > 0 ? D[k - 1] : Infinity, r = k < N ? D[k + 1] : Infinity;
        if (D[k] <= l && D[k] <= r && D[k] - tau <= L * h * 1.01 + eta) {
          const a = at(Math.max(0, k - 1)), b = at(Math.min(N, k + 1));
          const m = goldenMin((phi) => dist(motion.pose(phi), dim, i, j), a, b);
          if (m.x < first) {
            if (touching(motion.pose(m.x), dim, i, j, tau, size)) first = test(a) ? a : boundary(test, a, m.x);
            else if (m.v <= tau + eta) first = m.x;
          }
        }
      }
      if (first < Infinity) contacts.push({ i, j, at: first });
    }
  }
  contacts.sort((p, q) => p.at - q.at);
  return { contacts, first: contacts.length > 0 ? contacts[0].at : Infinity, size };
}

/** The reference fold: rotation by sign(angle)·φ, φ ∈ [0, min(|angle|, 2π)]. */
export function referenceFold(
  flat: Float64Array,
  dim: number,
  joint: number,
  angle: number,
  axis: readonly number[] | undefined,
  tau: number,
  samples = 2048,
): Reference {
  const n = flat.length / dim;
  const c = Array.from(flat.subarray(joint * dim, joint * dim + dim));
  const sign = angle < 0 ? -1 : 1;
  let k = [0, 0, 1];
  if (dim === 3) {
    const l = Math.hypot(axis![0], axis![1], axis![2]);
    k = axis!.map((x) => x / l);
  }
  const pose = (phi: number): Float64Array => {
    const X = flat.slice();
    if (phi === 0) return X;
    const th = sign * phi;
    // Rotation matrix from the unit quaternion (cos θ/2, sin θ/2 · k).
    const w = Math.cos(th / 2), s = Math.sin(th / 2);
    const x = s * k[0], y = s * k[1], z = s * k[2];
    const R = [
      1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
      2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
      2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
    ];
    for (let v = joint + 1; v < n; v++) {
      const d = [0, 0, 0];
      for (let a = 0; a < dim; a++) d[a] = flat[v * dim + a] - c[a];
      for (let a = 0; a < dim; a++) X[v * dim + a] = c[a] + (R[3 * a] * d[0] + R[3 * a + 1] * d[1] + R[3 * a + 2] * d[2]);
    }
    return X;
  };
  const speed = (j: number): number => {
    let r = 0;
    for (const v of [j, j + 1]) {
      const d: number[] = [];
      for (let a = 0; a < dim; a++) d.push(flat[v * dim + a] - c[a]);
      while (d.length < 3) d.push(0);
      const ax = d[0] * k[0] + d[1] * k[1] + d[2] * k[2];
      r = Math.max(r, Math.sqrt(Math.max(0, d[0] ** 2 + d[1] ** 2 + d[2] ** 2 - ax * ax)));
    }
    return r * 1.001 + 1e-300;
  };
  return sweep(flat, dim, joint, tau, { pose, speed, end: Math.min(Math.abs(angle), 2 * Math.PI) }, samples, true);
}

/**
 * The reference stretch: segment `joint` (from vertex joint to joint + 1) goes from its length
 * L₀ to `length`; the vertices beyond it translate by (ℓ − L₀)/L₀ · (p₁ − p₀) at length ℓ. The
 * stretched segment itself is "moving" (its pairs with the fixed part are examined too, and its
 * pairs with the part beyond it: with `fixed` and `moving` as defined in sweep, the segment
 * `joint` counts as moving, and the part beyond it is handled by a second sweep in the moving
 * frame).
 */
export function referenceStretch(flat: Float64Array, dim: number, joint: number, length: number, tau: number, samples = 2048): Reference {
  const n = flat.length / dim;
  const p0 = flat.subarray(joint * dim, joint * dim + dim);
  const p1 = flat.subarray((joint + 1) * dim, (joint + 2) * dim);
  let L0 = 0;
  for (let a = 0; a < dim; a++) L0 += (p1[a] - p0[a]) ** 2;
  L0 = Math.sqrt(L0);
  const delta = length - L0;
  const sign = delta < 0 ? -1 : 1;
  const pose = (phi: number): Float64Array => {
    const X = flat.slice();
    if (phi === 0) return X;
    const f = (sign * phi) / L0;
    for (let v = joint + 1; v < n; v++) for (let a = 0; a < dim; a++) X[v * dim + a] = flat[v * dim + a] + f * (p1[a] - p0[a]);
    return X;
  };
  const motion = { pose, speed: () => 1.001, end: Math.abs(delta) };
  // Pairs (i < joint, j ≥ joint): the stretched segment and the part beyond against the part before.
  const before = sweep(flat, dim, joint, tau, motion, samples, false);
  // Pairs (joint, j > joint + 1): the stretched segment against the part beyond it.
  const contacts = before.contacts.slice();
  const N = samples;
  const size = before.size;
  const eta = 2 ** -40 * size;
  let next = joint + 1;
  while (next + 1 < n && sameVertex(flat, dim, next, next + 1)) next++; // adjacent to the stretched segment
  for (let j = next + 1; j + 1 < n; j++) {
    if (sameVertex(flat, dim, j, j + 1)) continue;
    const test = (phi: number): boolean => touching(pose(phi), dim, joint, j, tau, size);
    let first = Infinity;
    for (let k = 0; k <= N; k++) {
      const phi = (k / N) * motion.end;
      if (test(phi)) {
        first = k === 0 ? 0 : boundary(test, ((k - 1) / N) * motion.end, phi);
        break;
      }
    }
    if (first === Infinity) {
      const m = goldenMin((phi) => dist(pose(phi), dim, joint, j), 0, motion.end);
      if (m.v <= tau + eta) first = m.x;
    }
    if (first < Infinity) contacts.push({ i: joint, j, at: first });
  }
  contacts.sort((p, q) => p.at - q.at);
  return { contacts, first: contacts.length > 0 ? contacts[0].at : Infinity, size };
}
