/**
 * Stretching a chain: segment `joint` changes its length and the vertices beyond it translate
 * along it, with the continuous check of foldChain (see fold.ts for what "exact" means: the
 * motion is the exact translation, poses are its rounding, certified intervals keep every pair
 * farther than thickness + E apart, the returned pose is checked exactly).
 *
 * Which pairs change: with v the unit direction of segment J and φ the length change so far,
 * - a segment before J against one after it: the second translates by φ·v. Their distance
 *   f(φ) = dist(A, B + φ·v) is convex in φ (the distance from φ·v to the convex set A − B), so
 *   along any fixed direction n the separation min n·B − max n·A + φ·(n·v) is a certified lower
 *   bound with a closed-form step; the search is the fold's best-first search with axis-aligned
 *   boxes whose windows are slab intervals;
 * - segment J itself, which grows or shrinks at its far end: against the part before it (in
 *   place) and the part after it (seen from the moving part, J grows or shrinks at its near end).
 *   Lengthening only adds points to J, so those distances only fall: the last certified φ is
 *   found by bisection (monotone). Shortening only removes points: they cannot touch;
 * - pairs within either part keep their distance (pairs after J are rechecked exactly on the
 *   returned pose when they start within the rounding of the thickness, as in the fold).
 */
import { EPS } from '../core/eft.js';
import { checkOptions } from '../core/options.js';
import { SkewlineInputError } from '../core/primitives.js';
import type { VecLike } from '../core/types.js';
import { closestSegSeg2, closestSegSeg3 } from '../closest/segment-kernels.js';
import type { ChainPoints } from '../chain/input.js';
import { pairWithin } from '../chain/narrow.js';
import { advance } from './advance.js';
import type { PairMotion } from './advance.js';
import { FOUND, WIN, bestFirst, pairsAt } from './motion-search.js';
import { foldStats, nearFree, nearOffender, output, problem, startCheck } from './motion-input.js';
import type { Problem, SegmentPair } from './motion-input.js';

/** Options of {@link stretchChain}. */
export interface StretchOptions {
  /** Coordinates per vertex (2 or 3); required when `points` is a flat array. */
  dim?: number | undefined;
  /** The segment to stretch: segment `joint` runs from vertex joint to joint + 1; vertices joint + 1 … n − 1 move. */
  joint: number;
  /** Its new length: a finite number > 0 (longer or shorter than now). */
  length: number;
  /** Contact distance, as in `chainContacts` (a length ≥ 0; default 0). */
  thickness?: number | undefined;
}

const STRETCH_KEYS = ['dim', 'joint', 'length', 'thickness'] as const;

/** What {@link stretchChain} did. */
export interface StretchResult<T = Float64Array | number[][]> {
  /** The length reached: the requested one when not blocked. */
  length: number;
  /** True when a contact stopped the stretch first. */
  blocked: boolean;
  /** The first pair to touch when blocked (i < j, input segment indices), else null. */
  contact: SegmentPair | null;
  /** The chain at the returned length (a new array, the input's layout). */
  points: T;
}

// Module state for one stretch (not re-entrant).
let DIM = 2;
let P: Float64Array = new Float64Array(0);
let F = 0; // compact index of the stretched segment
let M = 0;
let TAU = 0;
let EPOSE = 0;
let TAUB = 0;
let L0 = 1;
let SGN = 1;
const V = new Float64Array(3); // unit direction of the motion (sign included): w = s·D/L0
const D = new Float64Array(3); // p[J+1] − p[J]
const Q = new Float64Array(12);
const OUT = new Float64Array(2);
let QHI = 0;
let NX = 0, NY = 0, NZ = 0;
let HAVE_N = false;

/** Pose of compact vertex k at length change φ (vertices after the stretched segment move) into out[o…]. */
function poseInto(k: number, phi: number, out: Float64Array, o: number): void {
  const b = k * DIM;
  if (k <= F || phi === 0) {
    for (let c = 0; c < DIM; c++) out[o + c] = P[b + c];
    return;
  }
  const f = (SGN * phi) / L0;
  for (let c = 0; c < DIM; c++) out[o + c] = P[b + c] + f * D[c];
}

/** Bounds on the motion's distance of compact segments a and b at φ (lower returned, upper in QHI, nearest-points direction in N). */
function evalPair(a: number, b: number, phi: number): number {
  const dim = DIM, d2 = 2 * dim;
  poseInto(a, phi, Q, 0);
  poseInto(a + 1, phi, Q, dim);
  poseInto(b, phi, Q, d2);
  poseInto(b + 1, phi, Q, d2 + dim);
  foldStats.evaluations++;
  const d = dim === 2 ? closestSegSeg2(Q, 0, OUT, 0) : closestSegSeg3(Q, 0, OUT, 0);
  let size = 0;
  for (let k = 0; k < dim; k++) {
    const a0 = Q[k], b0 = Q[d2 + k];
    size += Math.abs(Q[dim + k] - a0) + Math.abs(Q[d2 + dim + k] - b0) + Math.abs(b0 - a0);
  }
  const err = 64 * EPS * size + EPOSE;
  QHI = d + err;
  HAVE_N = false;
  if (d > 0) {
    const s = OUT[0], t = OUT[1];
    NX = Q[d2] + t * (Q[d2 + dim] - Q[d2]) - (Q[0] + s * (Q[dim] - Q[0]));
    NY = Q[d2 + 1] + t * (Q[d2 + dim + 1] - Q[d2 + 1]) - (Q[1] + s * (Q[dim + 1] - Q[1]));
    NZ = dim === 3 ? Q[d2 + 2] + t * (Q[d2 + dim + 2] - Q[d2 + 2]) - (Q[2] + s * (Q[dim + 2] - Q[2])) : 0;
    HAVE_N = NX !== 0 || NY !== 0 || NZ !== 0;
  }
  return d - err;
}

/**
 * The step the separating direction n certifies from the pose in Q (fixed segment first): the
 * separation min n·b − max n·a changes by φ·(n·w) exactly, so it stays above the threshold for
 * (sep − threshold)/(−n·w) (forever if n·w ≥ 0).
 */
function sepStep(nx: number, ny: number, nz: number, tauE: number): number {
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(l > 0)) return 0;
  nx /= l;
  ny /= l;
  nz /= l;
  const dim = DIM, d2 = 2 * dim;
  const z3 = dim === 3;
  const a0 = nx * Q[0] + ny * Q[1] + (z3 ? nz * Q[2] : 0);
  const a1 = nx * Q[dim] + ny * Q[dim + 1] + (z3 ? nz * Q[dim + 2] : 0);
  const b0 = nx * Q[d2] + ny * Q[d2 + 1] + (z3 ? nz * Q[d2 + 2] : 0);
  const b1 = nx * Q[d2 + dim] + ny * Q[d2 + dim + 1] + (z3 ? nz * Q[d2 + dim + 2] : 0);
  const sep = Math.min(b0, b1) - Math.max(a0, a1);
  let mag = 0;
  for (let k = 0; k < d2 * 2; k++) mag = Math.max(mag, Math.abs(Q[k]));
  const thr = tauE + 64 * EPS * (4 * mag + tauE);
  if (!(sep > thr)) return 0;
  const rate = nx * V[0] + ny * V[1] + nz * V[2];
  const down = -rate + 8 * EPS;
  if (down <= 0) return Infinity;
  return ((sep - thr) / down) * (1 - 8 * EPS);
}

/** The longest step a separating direction certifies: nearest points, then segment normals / cross products. */
function sepBest(tauE: number, want: number): number {
  let h = HAVE_N ? sepStep(NX, NY, NZ, tauE) : 0;
  if (h >= want) return h;
  const dim = DIM, d2 = 2 * dim;
  const ux = Q[dim] - Q[0], uy = Q[dim + 1] - Q[1], uz = dim === 3 ? Q[dim + 2] - Q[2] : 0;
  const vx = Q[d2 + dim] - Q[d2], vy = Q[d2 + dim + 1] - Q[d2 + 1], vz = dim === 3 ? Q[d2 + dim + 2] - Q[d2 + 2] : 0;
  const wx = V[0], wy = V[1], wz = V[2];
  for (let c = 0; c < (dim === 2 ? 2 : 3); c++) {
    let x: number, y: number, z: number;
    if (dim === 2) {
      if (c === 0) { x = -uy; y = ux; } else { x = -vy; y = vx; }
      z = 0;
    } else if (c === 0) {
      x = uy * vz - uz * vy; y = uz * vx - ux * vz; z = ux * vy - uy * vx;
    } else if (c === 1) {
      x = uy * wz - uz * wy; y = uz * wx - ux * wz; z = ux * wy - uy * wx;
    } else {
      x = vy * wz - vz * wy; y = vz * wx - vx * wz; z = vx * wy - vy * wx;
    }
    const h1 = sepStep(x, y, z, tauE);
    const h2 = sepStep(-x, -y, -z, tauE);
    if (h1 > h) h = h1;
    if (h2 > h) h = h2;
    if (h >= want) return h;
  }
  return h;
}

/**
 * First φ in [s, e] at which fixed compact segment a and moving compact segment b are not
 * certified apart (Infinity: all certified). Steps: the separating-direction step and the
 * Lipschitz step (points move at speed 1), and longer trials by the two-point bounds (Lipschitz
 * both ends; the chord bound on the squared distance, whose second derivative is 2·|w|²).
 */
function solveTranslation(a: number, b: number, s: number, e: number): number {
  foldStats.pairs++;
  SA = a;
  SB = b;
  return advance(TRANSLATION, s, e, TAU, (TAU + EPOSE) * (1 + 4 * EPS), 1 + 16 * EPS, 0.25 * (1 + 16 * EPS));
}

let SA = 0, SB = 0; // the pair advance() is working on
/** The translation as advance() sees it: fixed compact segment SA against moving SB. */
const TRANSLATION: PairMotion = {
  lower: (phi) => evalPair(SA, SB, phi),
  upper: () => QHI,
  sepStep: (_phi, tauE, want) => sepBest(tauE, want),
};

let SOLVE_BASE = 0;
function solveAt(i: number, jl: number, s: number, e: number): number {
  return solveTranslation(i, SOLVE_BASE + jl, s, e);
}

// Axis-aligned hierarchy: per node dim minima then dim maxima.
function buildBoxes(c0: number, c1: number): Float64Array[] {
  const dim = DIM, st = 2 * dim, n = c1 - c0;
  const levels: Float64Array[] = [];
  if (n <= 0) return levels;
  let box = new Float64Array(n * st);
  for (let q = 0; q < n; q++) {
    const a = (c0 + q) * dim, o = q * st;
    for (let k = 0; k < dim; k++) {
      const x = P[a + k], y = P[a + dim + k];
      box[o + k] = x < y ? x : y;
      box[o + dim + k] = x < y ? y : x;
    }
  }
  levels.push(box);
  let count = n;
  while (count > 1) {
    const up = (count + 1) >> 1;
    const parent = new Float64Array(up * st);
    for (let q = 0; q < up; q++) {
      const a = 2 * q * st, o = q * st;
      if (2 * q + 1 >= count) {
        for (let k = 0; k < st; k++) parent[o + k] = box[a + k];
        continue;
      }
      const b = a + st;
      for (let k = 0; k < dim; k++) {
        parent[o + k] = Math.min(box[a + k], box[b + k]);
        parent[o + dim + k] = Math.max(box[a + dim + k], box[b + dim + k]);
      }
    }
    levels.push(parent);
    box = parent;
    count = up;
  }
  return levels;
}

/**
 * Slab window of a fixed box f and a moving box g translating by φ·w: per axis the overlap
 * within TAUB is a linear condition on φ; the window is their intersection with [s0, s1],
 * widened by a few ulps for the divisions.
 */
function windowTr(f: Float64Array, fo: number, g: Float64Array, go: number, s0: number, s1: number): boolean {
  const dim = DIM;
  let lo = s0, hi = s1;
  for (let k = 0; k < dim; k++) {
    const w = V[k];
    const A = TAUB + f[fo + dim + k] - g[go + k]; // g_lo + φw − f_hi ≤ τ
    const B = TAUB + g[go + dim + k] - f[fo + k]; // f_lo − g_hi − φw ≤ τ
    if (w === 0) {
      if (A < 0 || B < 0) return false;
      continue;
    }
    let u1: number, u2: number;
    if (w > 0) {
      u1 = -B / w; // φ ≥
      u2 = A / w; // φ ≤
    } else {
      u1 = A / w;
      u2 = -B / w;
    }
    u1 -= 8 * EPS * Math.abs(u1);
    u2 += 8 * EPS * Math.abs(u2);
    if (u1 > lo) lo = u1;
    if (u2 < hi) hi = u2;
    if (lo > hi) return false;
  }
  WIN[0] = lo;
  WIN[1] = hi;
  return true;
}

/**
 * Lengthening: the last φ in [0, end] before the stretched segment (compact F) and compact
 * segment c stop being certified apart (Infinity: never). The distance only falls as J grows,
 * so a certified value at φ certifies all of [0, φ]: bisection.
 */
function solveStretched(c: number, end: number): number {
  foldStats.pairs++;
  const tauE = (TAU + EPOSE) * (1 + 4 * EPS);
  const a = c < F ? c : F, b = c < F ? F : c;
  if (evalPair(a, b, end) > tauE) return Infinity;
  if (!(evalPair(a, b, 0) > tauE)) return 0;
  let lo = 0, hi = end;
  for (let it = 0; it < 80 && hi - lo > (1 + lo) * 2 ** -44; it++) {
    const mid = lo + (hi - lo) / 2;
    if (evalPair(a, b, mid) > tauE) lo = mid;
    else hi = mid;
  }
  return lo;
}

let VI = -1, VJ = -1;
const VQ = new Float64Array(12);
let VPHI = 0;

function touchingAt(i: number, jl: number): boolean {
  const j = F + 1 + jl, dim = DIM, d2 = 2 * dim;
  poseInto(i, VPHI, VQ, 0);
  poseInto(i + 1, VPHI, VQ, dim);
  poseInto(j, VPHI, VQ, d2);
  poseInto(j + 1, VPHI, VQ, d2 + dim);
  if (!pairWithin(VQ, dim, TAU)) return false;
  VI = i;
  VJ = j;
  return true;
}

/** Exact check of the pose at φ: pairs across the stretched segment (hierarchy), the stretched segment against all non-adjacent ones. */
function poseFree(fixed: Float64Array[], moving: Float64Array[], phi: number): boolean {
  VI = VJ = -1;
  VPHI = phi;
  if (pairsAt(fixed, moving, 2 * DIM, windowTr, phi, touchingAt)) return false;
  const dim = DIM, d2 = 2 * dim;
  poseInto(F, phi, VQ, 0);
  poseInto(F + 1, phi, VQ, dim);
  for (let c = 0; c < M; c++) {
    if (c >= F - 1 && c <= F + 1) continue;
    poseInto(c, phi, VQ, d2);
    poseInto(c + 1, phi, VQ, d2 + dim);
    let k = 0;
    while (k < dim && Math.min(VQ[d2 + k], VQ[d2 + dim + k]) - Math.max(VQ[k], VQ[dim + k]) <= TAU && Math.min(VQ[k], VQ[dim + k]) - Math.max(VQ[d2 + k], VQ[d2 + dim + k]) <= TAU) k++;
    if (k < dim) continue;
    if (pairWithin(VQ, dim, TAU)) {
      VI = c < F ? c : F;
      VJ = c < F ? F : c;
      return false;
    }
  }
  return true;
}

/** The full pose at length change φ: vertices after the stretched segment moved, the others copied. */
function fullPose(pr: Problem, phi: number): Float64Array {
  const out = pr.flat.slice();
  if (phi === 0) return out;
  const f = (SGN * phi) / L0, dim = pr.dim;
  for (let k = pr.joint + 1; k < pr.n; k++) for (let c = 0; c < dim; c++) out[k * dim + c] = pr.flat[k * dim + c] + f * D[c];
  return out;
}

/**
 * Stretches a chain: segment `joint` (from vertex joint to joint + 1) takes the new `length`,
 * the vertices beyond it translating along it, and the motion stops at the first contact (as
 * defined by `chainContacts` with this `thickness`), checked continuously as in
 * {@link foldChain}: the returned pose has no contact (checked exactly), the motion up to it has
 * none (certified with rounding bounds), and when blocked the returned length is within the
 * rounding noise of the first contact.
 *
 * Edge cases:
 * - segment `joint` must have positive length (a repeated vertex has no direction to stretch
 *   along), and `length` must be a finite number > 0;
 * - a chain already in contact at the start throws a SkewlineInputError naming the pair; a
 *   ring is refused; shortening never brings segment `joint` itself into contact (it only loses
 *   points), lengthening can;
 * - `length` equal to the current one returns the chain unchanged (after the start check).
 * Not re-entrant (module scratch).
 *
 * @returns `length` reached (the request when not blocked), `blocked`, the first `contact` pair
 *   and the `points` (a Float64Array for flat input, else arrays of numbers).
 * @throws SkewlineInputError for bad points, a dimension other than 2 or 3, a joint that is not
 *   a segment index or names a zero-length segment, a bad length or thickness, a ring, or a
 *   chain in contact at the start.
 */
export function stretchChain(points: ArrayLike<number>, options: StretchOptions): StretchResult<Float64Array>;
export function stretchChain(points: readonly VecLike[], options: StretchOptions): StretchResult<number[][]>;
export function stretchChain(points: ChainPoints, options: StretchOptions): StretchResult;
export function stretchChain(points: ChainPoints, options: StretchOptions): StretchResult {
  checkOptions(options, STRETCH_KEYS, 'stretchChain');
  const length = (options as { length?: unknown } | null)?.length;
  if (typeof length !== 'number' || !Number.isFinite(length) || length <= 0) {
    throw new SkewlineInputError(`stretchChain: options.length must be a finite number > 0 (got ${String(length)})`);
  }
  const pr = problem(points, options, 'stretchChain');
  const { C, dim, joint } = pr;
  F = pr.F;
  if (F >= C.m || C.orig[F] !== joint) {
    throw new SkewlineInputError(`stretchChain: segment ${joint} has zero length (its two vertices are equal): there is no direction to stretch along`);
  }
  DIM = dim;
  P = C.P;
  M = C.m;
  TAU = pr.tau;
  let l2 = 0;
  for (let c = 0; c < dim; c++) {
    D[c] = pr.flat[(joint + 1) * dim + c] - pr.flat[joint * dim + c];
    l2 += D[c] * D[c];
  }
  D[2] = dim === 3 ? D[2] : 0;
  L0 = Math.sqrt(l2);
  const delta = length / pr.unit - L0;
  SGN = delta < 0 ? -1 : 1;
  for (let c = 0; c < 3; c++) V[c] = (SGN * D[c]) / L0;
  const end = Math.abs(delta);
  // Rounding of a pose: p + f·D with f = φ/L0: a few ulps of |p| and of φ per coordinate.
  let pmax = 0;
  for (let k = 0; k <= M; k++) {
    let l1 = 0;
    for (let c = 0; c < dim; c++) l1 += Math.abs(P[k * dim + c]);
    if (l1 > pmax) pmax = l1;
  }
  EPOSE = 64 * EPS * (pmax + 2 * end + L0);
  TAUB = (TAU + EPOSE + 64 * EPS * (pmax + end)) * (1 + 8 * EPS);
  startCheck(pr, end === 0 ? 0 : 2 * EPOSE, 'stretchChain', (k) => k > joint);
  if (end === 0) return { length, blocked: false, contact: null, points: output(pr, pr.flat.slice()) };

  let best = end;
  let bi = -1, bj = -1;
  if (SGN > 0) {
    // J grows: in place against the part before it, and at its near end seen from the part after it.
    const jlo = new Float64Array(dim), jhi = new Float64Array(dim), klo = new Float64Array(dim), khi = new Float64Array(dim);
    for (let c = 0; c < dim; c++) {
      const p0 = P[F * dim + c], p1 = P[(F + 1) * dim + c], far = p1 + end * V[c], near = p0 - end * V[c];
      jlo[c] = Math.min(p0, far) - TAUB;
      jhi[c] = Math.max(p0, far) + TAUB;
      klo[c] = Math.min(near, p1) - TAUB;
      khi[c] = Math.max(near, p1) + TAUB;
    }
    for (let c = 0; c < M; c++) {
      if (c >= F - 1 && c <= F + 1) continue;
      const lo = c < F ? jlo : klo, hi = c < F ? jhi : khi;
      let k = 0;
      while (k < dim && Math.min(P[c * dim + k], P[(c + 1) * dim + k]) <= hi[k] && Math.max(P[c * dim + k], P[(c + 1) * dim + k]) >= lo[k]) k++;
      if (k < dim) continue;
      const r = solveStretched(c, best);
      if (r < best) {
        best = r;
        bi = c < F ? c : F;
        bj = c < F ? F : c;
      }
    }
  }
  const fixed = buildBoxes(0, F);
  const moving = buildBoxes(F + 1, M);
  SOLVE_BASE = F + 1;
  bestFirst(fixed, moving, 2 * dim, windowTr, solveAt, best);
  if (FOUND.i >= 0) {
    best = FOUND.best;
    bi = FOUND.i;
    bj = F + 1 + FOUND.j;
  }
  let blocked = bi >= 0;
  let phi = blocked ? best : end;
  let ci = blocked ? C.orig[bi] : -1, cj = blocked ? C.orig[bj] : -1;
  let back = phi * 2 ** -30 + L0 * 2 ** -40;
  let out = fullPose(pr, phi);
  for (let tries = 0; ; tries++) {
    if (!poseFree(fixed, moving, phi)) {
      ci = C.orig[VI];
      cj = C.orig[VJ];
      if (VI !== F && VJ !== F) foldStats.fallbacks++;
      else foldStats.nearFallbacks++; // J against its neighbours' neighbours, within the pose rounding
    } else if (!nearFree(out, dim, pr.tau)) {
      ({ i: ci, j: cj } = nearOffender());
      foldStats.nearFallbacks++;
    } else break;
    blocked = true;
    phi = phi - back > 0 && tries < 40 ? phi - back : 0;
    back *= 4;
    out = fullPose(pr, phi);
  }
  return {
    length: blocked ? (L0 + SGN * phi) * pr.unit : length,
    blocked,
    contact: blocked ? { i: ci, j: cj } : null,
    points: output(pr, out),
  };
}
