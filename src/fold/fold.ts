/**
 * Folding a chain at a joint without passing through itself (Boes' chain builder, done
 * continuously): the part beyond the joint turns rigidly about an axis through the joint vertex,
 * and the motion stops at the first contact (the chains issue's definition, with a thickness).
 *
 * What "exact" means here. A rotation by an angle cannot be carried out exactly in doubles
 * (cos and sin are irrational), so three things are kept apart:
 * - the motion: the exact rotation of the input vertices (real numbers), θ from 0 to the
 *   requested angle; its first contact angle θ* is what "blocked" refers to;
 * - a pose: the rotation of the input by θ, each coordinate computed in doubles (2D: the
 *   rotation matrix; 3D: Rodrigues' formula v·cosθ + (k × v)·sinθ + k·(k·v)·(1 − cosθ), O. Rodrigues,
 *   1840; any linear-algebra text). Every pose differs from the
 *   motion's exact position by at most E (a bound of 64·u·(3·R + ‖c‖₁), R the largest distance
 *   of a moving vertex from the joint c, u = 2⁻⁵³); the pose at 0 is the input itself;
 * - certification: an interval of angles is accepted only when bounds that include E and the
 *   segment kernel's error prove that the motion keeps every pair across the joint farther
 *   than thickness + E apart on it; so the exact motion is contact-free up to the returned
 *   angle, and so is every pose on the way for those pairs (pairs within one part keep their
 *   exact distance; in a pose, one that starts within 2E of the thickness may round into
 *   contact, which is why such pairs are rechecked). The returned pose is then checked once
 *   more with the exact contact predicates (`pairWithin`, foldsBack), near pairs included.
 * The returned angle is the last certified angle. It is never beyond θ*; when blocked it trails
 * θ* by the rounding noise only: the pose at the returned angle lies within a few E of contact
 * (in distance), i.e. about E / v radians for a contact approached at speed v per radian
 * (≈ 1e-14 rad for a chain of unit size), more for a grazing contact, where the distance
 * touches the thickness tangentially and no double computation can resolve the angle better
 * than √(E / curvature). The tests measure both against a dense exact reference.
 *
 * Method. Only pairs (fixed segment, moving segment) change their distance. Both parts get a
 * hierarchy in chain order (as src/chain/tree.ts) over cylindrical bounds about the axis: the
 * range of distance r from the axis, of height z along it, and the angular sector the node
 * spans. Rotation changes neither r nor z, and turns the moving sector; two nodes can come
 * within the thickness only at angles where their r and z ranges come within it and their
 * sectors come within the angle the chord bound allows (|p − q| ≥ 2·√(r_p·r_q)·sin(Δφ / 2)).
 * So each node pair gets a window of angles, a subset of its parent's, and a best-first search
 * by window start visits pairs in the order of the earliest angle they could touch, stopping
 * when that start passes the best contact found. Each candidate segment pair is solved on its
 * window by certified advancement (conservative advancement, B. Mirtich, "Impulse-based
 * dynamic simulation of rigid body systems", 1996, §2.4, with sharper bounds): from φ, a step is
 * certified by
 * - the Lipschitz bound: the moving segment's points move at most ρ_B (their largest distance
 *   from the axis) per radian, so the distance cannot fall below thickness + E before
 *   (D(φ) − thickness − E) / ρ_B;
 * - a separating direction n (the nearest-points direction, and directions rounding cannot
 *   spoil near a tangency: the segments' normals in 2D, u × k, v × k, u × v in 3D): the distance
 *   is at least min over the moving ends b of n·(b − c) minus max over the fixed ends a of
 *   n·(a − c), and each n·(b − c) is a sinusoid in θ whose first drop to the threshold has a
 *   closed form (acos), checked afterwards on values so acos's conditioning never matters;
 * - a separating direction that turns with the moving segment (the frame step): seen from B, a
 *   point of the fixed segment A moves at most r (its distance from the axis) per radian, and r
 *   is convex along A, so the bound from the nearest-points direction falls at most r_a per
 *   radian at each end a of A. A fixed segment ending at the joint (r = 0 there) whose nearest
 *   point to B is that end keeps its distance while B turns (a hairpin at the joint): the step is
 *   then about (what A's far end adds to the gap) / r, not the gap over B's speed, which crawled;
 * and a longer trial step [φ, φ + h] is accepted by two-point bounds: Lipschitz from both ends
 * (min ≥ (D(φ) + D(φ + h) − ρ_B·h) / 2), or the chord bound (for any two fixed points of the two
 * segments the squared distance is c − b·cos(θ − θ₀) with |b| ≤ 2·ρ_A·ρ_B, so over the interval
 * it is at least the smaller end value minus ρ_A·ρ_B·h² / 4). Trials double after a success and
 * shrink after a failure; near a transversal contact this converges like bisection, near a
 * tangential one the separating direction lands at the rounding floor in a few steps.
 */
import { EPS } from '../core/eft.js';
import { toScaledBigInts } from '../core/exact.js';
import { checkOptions } from '../core/options.js';
import { SkewlineInputError, toVector } from '../core/primitives.js';
import type { VecLike } from '../core/types.js';
import { closestSegSeg2, closestSegSeg3 } from '../closest/segment-kernels.js';
import type { ChainPoints } from '../chain/input.js';
import { foldsBack, pairWithin } from '../chain/narrow.js';
import { advance } from './advance.js';
import type { PairMotion } from './advance.js';
import { FOUND, WIN, bestFirst, pairsAt } from './motion-search.js';
import { foldStats, nearFree, nearOffender, output, problem, startCheck } from './motion-input.js';
import type { Problem, SegmentPair } from './motion-input.js';

export { foldStats };
export type { SegmentPair };

/** Options of {@link foldChain}. */
export interface FoldOptions {
  /** Coordinates per vertex (2 or 3); required when `points` is a flat array. */
  dim?: number | undefined;
  /** The joint: the index of the vertex the chain bends at. Vertices joint + 1 … n − 1 turn. */
  joint: number;
  /** How far to turn, in radians: either sign, any size (several turns included). */
  angle: number;
  /** 3D only: the rotation axis direction (nonzero; right-hand rule). 2D has none: positive is counter-clockwise. */
  axis?: VecLike | undefined;
  /** Contact distance, as in `chainContacts` (a length ≥ 0; default 0: sharing a point). */
  thickness?: number | undefined;
}


const FOLD_KEYS = ['dim', 'joint', 'angle', 'axis', 'thickness'] as const;

/** What {@link foldChain} did. */
export interface FoldResult<T = Float64Array | number[][]> {
  /** The angle reached, in radians, with the sign of the request: all of it when not blocked. */
  angle: number;
  /** True when a contact stopped the fold before the requested angle. */
  blocked: boolean;
  /** The first pair to touch when blocked (null otherwise). */
  contact: SegmentPair | null;
  /** The chain at the returned angle: a new flat Float64Array for flat input, else new arrays of numbers. */
  points: T;
}

const TWO_PI = 2 * Math.PI;
/** Slack for angle bookkeeping (values stay within a few turns): 64·u of 8π. */
const ANGSLACK = 64 * EPS * 8 * Math.PI;

// ---------------------------------------------------------------------------------------------
// The rotation (module state for one fold; not re-entrant)

let DIM = 3;
let CX = 0, CY = 0, CZ = 0; // the joint
let KX = 0, KY = 0, KZ = 1; // unit axis (3D)
let E1X = 1, E1Y = 0, E1Z = 0; // frame: e1, e2 = k × e1 span the plane of rotation
let E2X = 0, E2Y = 1, E2Z = 0;
let COS = 1, SIN = 0, OMC = 0;
let SIGN = 1;

/** Sets the pose angle θ for {@link rotateInto}. */
function setAngle(theta: number): void {
  COS = Math.cos(theta);
  SIN = Math.sin(theta);
  OMC = 1 - COS;
}

/** The pose of vertex k of P (dim numbers from k·dim) at the current angle, into out[o…]. */
function rotateInto(P: Float64Array, k: number, out: Float64Array, o: number): void {
  const b = k * DIM;
  if (DIM === 2) {
    const vx = P[b] - CX, vy = P[b + 1] - CY;
    out[o] = CX + (vx * COS - vy * SIN);
    out[o + 1] = CY + (vx * SIN + vy * COS);
    return;
  }
  // Rodrigues: v cosθ + (k × v) sinθ + k (k·v)(1 − cosθ).
  const vx = P[b] - CX, vy = P[b + 1] - CY, vz = P[b + 2] - CZ;
  const d = (KX * vx + KY * vy + KZ * vz) * OMC;
  out[o] = CX + (vx * COS + (KY * vz - KZ * vy) * SIN + KX * d);
  out[o + 1] = CY + (vy * COS + (KZ * vx - KX * vz) * SIN + KY * d);
  out[o + 2] = CZ + (vz * COS + (KX * vy - KY * vx) * SIN + KZ * d);
}

/**
 * Sets the joint and the axis: `axis` is normalised (3D) and completed to a right-handed frame
 * (e1, e2, k), so that a rotation by θ adds θ to the angle atan2(v·e2, v·e1).
 */
function setRotation(flat: Float64Array, dim: number, joint: number, axis: Float64Array | null): void {
  DIM = dim;
  CX = flat[joint * dim];
  CY = flat[joint * dim + 1];
  CZ = dim === 3 ? flat[joint * dim + 2] : 0;
  if (dim === 2 || axis === null) {
    KX = 0; KY = 0; KZ = 1;
    E1X = 1; E1Y = 0; E1Z = 0;
    E2X = 0; E2Y = 1; E2Z = 0;
    return;
  }
  // Scale first so that squaring neither overflows nor underflows.
  const s = Math.max(Math.abs(axis[0]), Math.abs(axis[1]), Math.abs(axis[2]));
  const ax = axis[0] / s, ay = axis[1] / s, az = axis[2] / s;
  const len = Math.sqrt(ax * ax + ay * ay + az * az);
  KX = ax / len; KY = ay / len; KZ = az / len;
  // e1: the coordinate axis least aligned with k, made orthogonal to k.
  const m = Math.abs(KX) <= Math.abs(KY) && Math.abs(KX) <= Math.abs(KZ) ? 0 : Math.abs(KY) <= Math.abs(KZ) ? 1 : 2;
  let x = m === 0 ? 1 : 0, y = m === 1 ? 1 : 0, z = m === 2 ? 1 : 0;
  const d = x * KX + y * KY + z * KZ;
  x -= d * KX; y -= d * KY; z -= d * KZ;
  const l1 = Math.sqrt(x * x + y * y + z * z);
  E1X = x / l1; E1Y = y / l1; E1Z = z / l1;
  E2X = KY * E1Z - KZ * E1Y;
  E2Y = KZ * E1X - KX * E1Z;
  E2Z = KX * E1Y - KY * E1X;
}

// ---------------------------------------------------------------------------------------------
// Cylindrical hierarchy: per node [rlo, rhi, zlo, zhi, alpha, width] (width ≥ 2π: any angle)

const NS = 6;

let FR = new Float64Array(0); // per compact vertex: distance from the axis
let FZ = new Float64Array(0); // height along the axis
let FA = new Float64Array(0); // angle about the axis
let FXY = new Float64Array(0); // x, y in the frame

/** Frame coordinates of every compact vertex; returns max ‖p − c‖₁ over the vertices. */
function frame(P: Float64Array, count: number): number {
  if (FR.length < count) {
    FR = new Float64Array(count);
    FZ = new Float64Array(count);
    FA = new Float64Array(count);
    FXY = new Float64Array(2 * count);
  }
  let vmax = 0;
  for (let k = 0; k < count; k++) {
    const b = k * DIM;
    const vx = P[b] - CX, vy = P[b + 1] - CY, vz = DIM === 3 ? P[b + 2] - CZ : 0;
    const x = vx * E1X + vy * E1Y + vz * E1Z;
    const y = vx * E2X + vy * E2Y + vz * E2Z;
    FZ[k] = vx * KX + vy * KY + vz * KZ;
    FXY[2 * k] = x;
    FXY[2 * k + 1] = y;
    FR[k] = Math.sqrt(x * x + y * y);
    FA[k] = Math.atan2(y, x);
    const l1 = Math.abs(vx) + Math.abs(vy) + Math.abs(vz);
    if (l1 > vmax) vmax = l1;
  }
  return vmax;
}

const POOL: Float64Array[] = [new Float64Array(0), new Float64Array(0)];

/**
 * Levels of the cylindrical hierarchy over compact segments [c0, c1); level 0 holds the
 * segments. The levels are views into a pooled buffer (`pool` 0 or 1, one per part), reused
 * from call to call: valid until the next build in the same pool.
 */
function buildCyl(c0: number, c1: number, sigma: number, pool: number): Float64Array[] {
  const n = c1 - c0;
  const levels: Float64Array[] = [];
  const need = (2 * Math.max(1, n) + 64) * NS;
  if (POOL[pool].length < need) POOL[pool] = new Float64Array(need);
  const buf = POOL[pool];
  let used = Math.max(1, n) * NS;
  let box = buf.subarray(0, used);
  for (let q = 0; q < n; q++) {
    const a = c0 + q, b = a + 1, o = q * NS;
    const x0 = FXY[2 * a], y0 = FXY[2 * a + 1], x1 = FXY[2 * b], y1 = FXY[2 * b + 1];
    const dx = x1 - x0, dy = y1 - y0;
    const dd = dx * dx + dy * dy;
    let t = dd > 0 ? -(x0 * dx + y0 * dy) / dd : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const px = x0 + t * dx, py = y0 + t * dy;
    const dmin = Math.sqrt(px * px + py * py);
    const r0 = FR[a], r1 = FR[b];
    box[o] = Math.max(0, dmin - 2 * sigma);
    box[o + 1] = Math.max(r0, r1) + sigma;
    box[o + 2] = Math.min(FZ[a], FZ[b]) - sigma;
    box[o + 3] = Math.max(FZ[a], FZ[b]) + sigma;
    if (dmin <= 8 * sigma) {
      box[o + 4] = 0;
      box[o + 5] = 4 * Math.PI;
    } else {
      // The segment stays clear of the axis: it spans the shorter arc between its ends, each
      // angle known within (position error)/(distance from the axis) + atan2's few ulps.
      const slack = (2 * sigma) / dmin + 8 * EPS;
      let d = FA[b] - FA[a];
      if (d > Math.PI) d -= TWO_PI;
      else if (d < -Math.PI) d += TWO_PI;
      box[o + 4] = (d >= 0 ? FA[a] : FA[b]) - slack;
      box[o + 5] = Math.abs(d) + 2 * slack;
    }
  }
  levels.push(box);
  let count = n;
  while (count > 1) {
    const up = (count + 1) >> 1;
    const parent = buf.subarray(used, used + up * NS);
    used += up * NS;
    for (let q = 0; q < up; q++) {
      const a = 2 * q * NS, o = q * NS;
      if (2 * q + 1 >= count) {
        for (let k = 0; k < NS; k++) parent[o + k] = box[a + k];
        continue;
      }
      const b = a + NS;
      parent[o] = Math.min(box[a], box[b]);
      parent[o + 1] = Math.max(box[a + 1], box[b + 1]);
      parent[o + 2] = Math.min(box[a + 2], box[b + 2]);
      parent[o + 3] = Math.max(box[a + 3], box[b + 3]);
      // The shorter of the two arcs covering both children (inlined mergeArc).
      const a1 = box[a + 4], w1 = box[a + 5], a2 = box[b + 4], w2 = box[b + 5];
      if (w1 >= TWO_PI || w2 >= TWO_PI) {
        parent[o + 4] = 0;
        parent[o + 5] = 4 * Math.PI;
        continue;
      }
      let d = a2 - a1; // starts lie within [−π, π] widened by slack: one wrap suffices
      if (d < 0) d += TWO_PI;
      if (d >= TWO_PI) d -= TWO_PI;
      // From a1: child 1, then child 2 at d further. From a2: child 2, then child 1 at 2π − d
      // further, or at 0 when both start at the same angle (then the wider child decides).
      const wa = w1 > d + w2 ? w1 : d + w2;
      const back = (d === 0 ? 0 : TWO_PI - d) + w1;
      const wb = w2 > back ? w2 : back;
      let start = wa <= wb ? a1 : a2;
      const width = (wa <= wb ? wa : wb) + ANGSLACK;
      if (start > Math.PI) start -= TWO_PI;
      else if (start < -Math.PI) start += TWO_PI;
      parent[o + 4] = start;
      parent[o + 5] = width >= TWO_PI ? 4 * Math.PI : width;
    }
    levels.push(parent);
    box = parent;
    count = up;
  }
  return levels;
}

let TAUB = 0; // thickness for the broad phase: τ + E + slack

/**
 * The window of motion parameters φ ∈ [s0, s1] at which fixed node f (at fo) and moving node g
 * (at go) can come within TAUB, as a hull [WIN[0], WIN[1]]; false when there is none.
 */
export function windowOf(f: Float64Array, fo: number, g: Float64Array, go: number, s0: number, s1: number): boolean {
  if (f[fo + 2] - g[go + 3] > TAUB || g[go + 2] - f[fo + 3] > TAUB) return false;
  if (f[fo] - g[go + 1] > TAUB || g[go] - f[fo + 1] > TAUB) return false;
  WIN[0] = s0;
  WIN[1] = s1;
  const wf = f[fo + 5], wg = g[go + 5];
  if (wf >= TWO_PI || wg >= TWO_PI) return true;
  // Points p (fixed) and q (moving) within TAUB have |r_p − r_q| ≤ TAUB, so r_p ≥ rp, r_q ≥ rq.
  const rp = Math.max(f[fo], g[go] - TAUB), rq = Math.max(g[go], f[fo] - TAUB);
  if (rp <= 0 || rq <= 0) return true;
  const sn = TAUB / (2 * Math.sqrt(rp * rq));
  if (sn >= 0.5) return true;
  const gam = 2 * Math.asin(sn) * (1 + 16 * EPS) + ANGSLACK;
  const W = wf + wg + 2 * gam;
  if (W >= TWO_PI) return true;
  // Moving arc at θ: [αg + θ, αg + θ + wg] meets the fixed arc widened by γ for θ ∈ lo + [0, W] (mod 2π).
  const lo = f[fo + 4] - g[go + 4] - wg - gam;
  const a0 = SIGN > 0 ? lo : -lo - W;
  let a = a0 - TWO_PI * Math.floor((a0 - s0) / TWO_PI);
  if (a > s0) a -= TWO_PI;
  if (a + W < s0) a += TWO_PI;
  const ns = a > s0 ? a : s0;
  if (ns > s1) return false;
  let b = a0 + TWO_PI * Math.floor((s1 - a0) / TWO_PI);
  if (b > s1) b -= TWO_PI;
  if (b < a) b = a;
  const ne = b + W < s1 ? b + W : s1;
  WIN[0] = ns;
  WIN[1] = ne < ns ? ns : ne;
  return true;
}

// ---------------------------------------------------------------------------------------------
// One pair: certified advancement

let P: Float64Array = new Float64Array(0);
let TAU = 0;
let EPOSE = 0;
/** The pose error the certification must cover: EPOSE for foldChain's poses, the folder's bound for its composed maps. */
let ECERT = 0;
let SIGMA = 0;
const Q = new Float64Array(12);
const OUT = new Float64Array(2);
let QHI = 0; // upper bound of the exact distance at the last evaluation
// The direction from the nearest point of the fixed segment to that of the moving one at the
// last evaluation (not normalised; HAVE_N false when they touch).
let NX = 0, NY = 0, NZ = 0;
let HAVE_N = false;
// The separating direction being tried (unit, frame coordinates) and the fixed segment's
// farthest reach along it, measured from the joint.
let NF1 = 0, NF2 = 0, NFK = 0;
let AMAX = 0;

/**
 * Bounds on the exact motion's distance between fixed segment i (in Q[0 … 2·dim)) and moving
 * segment j at φ: returns a lower bound, leaves an upper bound in QHI and the direction from
 * the nearest point of i to that of j in N (HAVE_N false when they nearly touch).
 */
function evalPair(j: number, phi: number): number {
  const d2 = 2 * DIM;
  if (phi === 0) {
    for (let k = 0; k < d2; k++) Q[d2 + k] = P[j * DIM + k];
  } else {
    setAngle(SIGN * phi);
    rotateInto(P, j, Q, d2);
    rotateInto(P, j + 1, Q, d2 + DIM);
  }
  foldStats.evaluations++;
  const d = DIM === 2 ? closestSegSeg2(Q, 0, OUT, 0) : closestSegSeg3(Q, 0, OUT, 0);
  let size = 0;
  for (let k = 0; k < DIM; k++) {
    const a0 = Q[k], b0 = Q[d2 + k];
    size += Math.abs(Q[DIM + k] - a0) + Math.abs(Q[d2 + DIM + k] - b0) + Math.abs(b0 - a0);
  }
  // The kernel is within 8·u·S of the exact distance of the pose (64·u·S used, as pairWithin),
  // and the pose within EPOSE of the motion.
  const err = 64 * EPS * size + EPOSE;
  QHI = d + err;
  HAVE_N = false;
  if (d > 0) {
    const s = OUT[0], t = OUT[1];
    NX = Q[d2] + t * (Q[d2 + DIM] - Q[d2]) - (Q[0] + s * (Q[DIM] - Q[0]));
    NY = Q[d2 + 1] + t * (Q[d2 + DIM + 1] - Q[d2 + 1]) - (Q[1] + s * (Q[DIM + 1] - Q[1]));
    NZ = DIM === 3 ? Q[d2 + 2] + t * (Q[d2 + DIM + 2] - Q[d2 + 2]) - (Q[2] + s * (Q[DIM + 2] - Q[2])) : 0;
    HAVE_N = NX !== 0 || NY !== 0 || NZ !== 0;
  }
  return d - err;
}

/**
 * A certified step from φ by the separating direction N: the distance of the two segments is at
 * least min over the moving ends b of N·(b − c) minus max over the fixed ends a of N·(a − c)
 * (projections onto a line shrink distances), and as the moving end turns, N·(b − c) =
 * z_b·N_k + M·cos(θ − ψ) is a sinusoid whose first drop to the threshold has a closed form
 * (acos). The step found is then checked on values alone (the minimum of the sinusoids over
 * the step, with rounding bounds), halving it if needed, so the acos conditioning never matters.
 */
function sepStep(j: number, phi: number, tauE: number, nx: number, ny: number, nz: number): number {
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(l > 0)) return 0;
  nx /= l;
  ny /= l;
  nz /= l;
  NF1 = nx * E1X + ny * E1Y + nz * E1Z;
  NF2 = nx * E2X + ny * E2Y + nz * E2Z;
  NFK = nx * KX + ny * KY + nz * KZ;
  const a0 = nx * (Q[0] - CX) + ny * (Q[1] - CY) + (DIM === 3 ? nz * (Q[2] - CZ) : 0);
  const a1 = nx * (Q[DIM] - CX) + ny * (Q[DIM + 1] - CY) + (DIM === 3 ? nz * (Q[DIM + 2] - CZ) : 0);
  AMAX = a0 > a1 ? a0 : a1;
  let W = 0;
  for (let v = j; v <= j + 1; v++) W = Math.max(W, FR[v] + Math.abs(FZ[v]));
  const errV = 4 * SIGMA + 128 * EPS * (W + Math.abs(AMAX) + tauE);
  const thr = tauE + AMAX + errV;
  const th0 = SIGN * phi;
  let h = Infinity;
  for (let v = j; v <= j + 1; v++) {
    const X = FXY[2 * v], Y = FXY[2 * v + 1];
    const A = NF1 * X + NF2 * Y, B = NF2 * X - NF1 * Y;
    const M = Math.sqrt(A * A + B * B);
    const base = NFK * FZ[v];
    if (base - M > thr) continue;
    const psi = Math.atan2(B, A);
    let x0 = (th0 - psi) % TWO_PI;
    if (x0 > Math.PI) x0 -= TWO_PI;
    else if (x0 < -Math.PI) x0 += TWO_PI;
    const cs = (thr - base) / M;
    if (!(cs > -1) || Math.cos(x0) <= cs) return 0;
    const g = cs >= 1 ? 0 : Math.acos(cs);
    const hv = SIGN > 0 ? g - x0 : x0 + g;
    if (hv < h) h = hv;
  }
  if (!(h > 0)) return 0;
  for (let tries = 0; tries < 4; tries++, h *= 0.5) {
    if (sepMin(j, th0, SIGN * h) > thr) return h;
  }
  return 0;
}

/**
 * The longest step certified by a separating direction: the nearest-points direction first;
 * if it does not finish the window, directions that rounding cannot spoil near a tangency (the
 * noise of the pose swamps the nearest-points direction when the gap is tiny): in 2D the
 * normals of both segments, in 3D u × k, v × k and u × v (u, v the segments' directions, k the
 * axis), each with both signs.
 */
function sepBest(j: number, phi: number, tauE: number, want: number): number {
  let h = HAVE_N ? sepStep(j, phi, tauE, NX, NY, NZ) : 0;
  if (h >= want) return h;
  if (HAVE_N) {
    const hf = frameStep(tauE, NX, NY, NZ);
    if (hf > h) h = hf;
    if (h >= want) return h;
  }
  const d2 = 2 * DIM;
  const ux = Q[DIM] - Q[0], uy = Q[DIM + 1] - Q[1], uz = DIM === 3 ? Q[DIM + 2] - Q[2] : 0;
  const vx = Q[d2 + DIM] - Q[d2], vy = Q[d2 + DIM + 1] - Q[d2 + 1], vz = DIM === 3 ? Q[d2 + DIM + 2] - Q[d2 + 2] : 0;
  for (let c = 0; c < (DIM === 2 ? 2 : 3); c++) {
    let x: number, y: number, z: number;
    if (DIM === 2) {
      if (c === 0) { x = -uy; y = ux; } else { x = -vy; y = vx; }
      z = 0;
    } else if (c === 0) {
      x = uy * KZ - uz * KY; y = uz * KX - ux * KZ; z = ux * KY - uy * KX;
    } else if (c === 1) {
      x = vy * KZ - vz * KY; y = vz * KX - vx * KZ; z = vx * KY - vy * KX;
    } else {
      x = uy * vz - uz * vy; y = uz * vx - ux * vz; z = ux * vy - uy * vx;
    }
    const h1 = sepStep(j, phi, tauE, x, y, z);
    const h2 = sepStep(j, phi, tauE, -x, -y, -z);
    if (h1 > h) h = h1;
    if (h2 > h) h = h2;
    if (h >= want) return h;
  }
  return h;
}

/**
 * A certified step by a separating direction n that turns with the moving segment B (the
 * nearest-points direction at the last evaluation, from fixed segment A towards B). Seen from B,
 * A turns about the axis, and each point x of A moves by at most r(x)·h over a turn by h, r(x)
 * its distance from the axis. That distance is convex along A, so below the chord of its end
 * values r₀, r₁; hence over [φ, φ + h] the distance of A and B is at least
 * min over B's ends b of n·(b − c) − max over A's ends a of (n·(a − c) + r_a·h), and the step is
 * the largest h keeping that above `tauE`. This sees what one-point bounds cannot: a fixed
 * segment ending at the joint (r = 0 there) whose nearest point to B is that end keeps its
 * distance while B turns, so the step is about (n·(b − a) − tauE) / r of A's far end, not the
 * gap over B's speed. The pose of B carries EPOSE, the dot products their rounding; `SI` is A.
 */
function frameStep(tauE: number, nx: number, ny: number, nz: number): number {
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(l > 0)) return 0;
  nx /= l;
  ny /= l;
  nz /= l;
  const d2 = 2 * DIM;
  let ymin = Infinity, xmax = -Infinity, w = 0;
  for (let k = 0; k < 4; k++) {
    const o = k < 2 ? k * DIM : d2 + (k - 2) * DIM;
    const vx = Q[o] - CX, vy = Q[o + 1] - CY, vz = DIM === 3 ? Q[o + 2] - CZ : 0;
    const dot = nx * vx + ny * vy + nz * vz;
    w += Math.abs(vx) + Math.abs(vy) + Math.abs(vz);
    if (k < 2) XA[k] = dot;
    else if (dot < ymin) ymin = dot;
    if (k < 2 && dot > xmax) xmax = dot;
  }
  // n is unit within 4u, each dot within 8u·Σ|v| of its exact value (64u used), and B's pose
  // within EPOSE of the motion.
  const base = ymin - tauE - (EPOSE * (1 + 8 * EPS) + 64 * EPS * (w + tauE));
  if (!(base - xmax > 0)) return 0;
  let h = Infinity;
  for (let k = 0; k < 2; k++) {
    const r = (FR[SI + k] + SIGMA) * (1 + 8 * EPS);
    const hk = (base - XA[k]) / r;
    if (hk < h) h = hk;
  }
  return h * (1 - 16 * EPS);
}
const XA = new Float64Array(2);

/** The smallest N·(b − c) over the moving ends of segment j and θ between th0 and th0 + dth, rounding allowed for. */
function sepMin(j: number, th0: number, dth: number): number {
  let lo = Infinity;
  const t1 = dth > 0 ? th0 : th0 + dth, t2 = dth > 0 ? th0 + dth : th0;
  for (let v = j; v <= j + 1; v++) {
    const X = FXY[2 * v], Y = FXY[2 * v + 1];
    const A = NF1 * X + NF2 * Y, B = NF2 * X - NF1 * Y;
    const M = Math.sqrt(A * A + B * B);
    const psi = Math.atan2(B, A);
    // The troughs of cos(θ − ψ) are at ψ + π + 2πk: the first one at or after t1 (and, against
    // rounding in the division, the one before it) inside [t1, t2] with slack means −1.
    const k = Math.ceil((t1 - psi - Math.PI) / TWO_PI);
    const trough = psi + Math.PI + k * TWO_PI;
    let c: number;
    if (trough <= t2 + ANGSLACK || trough - TWO_PI >= t1 - ANGSLACK) c = -1;
    else c = Math.min(Math.cos(t1 - psi), Math.cos(t2 - psi)) - 16 * EPS * (4 + Math.abs(t2 - psi) + Math.abs(t1 - psi));
    const val = NFK * FZ[v] + M * c;
    if (val < lo) lo = val;
  }
  return lo;
}

/**
 * The first angle in [s, e] that cannot be certified contact-free for fixed compact segment i
 * and moving compact segment j, or Infinity when all of [s, e] is certified. Certified means
 * the exact motion keeps them more than τ + EPOSE apart (so every pose is also clear of τ).
 * Each round takes the step the one-point bounds certify (Lipschitz, separating direction) and
 * tries a longer one with the two-point bounds (Lipschitz both ends, the chord bound on the
 * squared distance).
 */
function solvePair(i: number, j: number, s: number, e: number): number {
  foldStats.pairs++;
  for (let k = 0; k < 2 * DIM; k++) Q[k] = P[i * DIM + k];
  const rhoA = Math.max(FR[i], FR[i + 1]) + SIGMA;
  const L = (Math.max(FR[j], FR[j + 1]) + SIGMA) * (1 + 8 * EPS);
  const K8 = (rhoA * L) / 4; // K/8 with K = 2·ρA·ρB
  SI = i;
  SJ = j;
  return advance(ROTATION, s, e, TAU, (TAU + ECERT) * (1 + 4 * EPS), L, K8);
}

let SI = 0; // the fixed segment advance() is working on (its ends are in Q)
let SJ = 0; // the moving segment advance() is working on
/** The rotation as advance() sees it: moving segment SJ against the fixed one in Q. */
const ROTATION: PairMotion = {
  lower: (phi) => evalPair(SJ, phi),
  upper: () => QHI,
  sepStep: (phi, tauE, want) => sepBest(SJ, phi, tauE, want),
};

let SF = 0;
/** bestFirst's solver: fixed compact segment i against moving segment SF + jl (the pair at the joint is the fold-back's). */
function solveAt(i: number, jl: number, s: number, e: number): number {
  const j = SF + jl;
  if (i === SF - 1 && j === SF) return Infinity;
  return solvePair(i, j, s, e);
}

/**
 * The fold-back of the two segments at the joint: segment F − 1 (fixed, from vertex F − 1 to the
 * joint F) and segment F (moving, from the joint to F + 1) fold back when the rotated direction
 * of F points along u = P[F − 1] − P[F]. Possible only when both make the same angle with the
 * axis (decided exactly in integers: (w·a)(u·a) ≥ 0 and (w·a)²|u|² = (u·a)²|w|²); then it
 * happens at the angle ψ from w⊥ to u⊥ about the axis. Returns the last certified φ before
 * it (Infinity if it never happens).
 */
function foldBackAngle(F: number, axis: Float64Array | null): number {
  const dim = DIM;
  if (DIM === 3 && axis !== null) {
    const xs: number[] = [];
    for (const k of [F - 1, F, F + 1]) for (let c = 0; c < 3; c++) xs.push(P[k * dim + c]);
    xs.push(axis[0], axis[1], axis[2]);
    const { ints } = toScaledBigInts(xs);
    const U = [ints[0] - ints[3], ints[1] - ints[4], ints[2] - ints[5]];
    const W = [ints[6] - ints[3], ints[7] - ints[4], ints[8] - ints[5]];
    const A = [ints[9], ints[10], ints[11]];
    const wa = W[0] * A[0] + W[1] * A[1] + W[2] * A[2];
    const ua = U[0] * A[0] + U[1] * A[1] + U[2] * A[2];
    const ww = W[0] * W[0] + W[1] * W[1] + W[2] * W[2];
    const uu = U[0] * U[0] + U[1] * U[1] + U[2] * U[2];
    if ((wa < 0n && ua > 0n) || (wa > 0n && ua < 0n) || wa * wa * uu !== ua * ua * ww) return Infinity;
    const aa = A[0] * A[0] + A[1] * A[1] + A[2] * A[2];
    if (wa * wa === ww * aa) return Infinity; // w along the axis: it never turns
  }
  const xw = FXY[2 * (F + 1)], yw = FXY[2 * (F + 1) + 1];
  const xu = FXY[2 * (F - 1)], yu = FXY[2 * (F - 1) + 1];
  const rw = Math.sqrt(xw * xw + yw * yw), ru = Math.sqrt(xu * xu + yu * yu);
  if (rw === 0 || ru === 0) return Infinity;
  const psi = Math.atan2(xw * yu - yw * xu, xw * xu + yw * yu);
  let phi = SIGN > 0 ? psi : -psi;
  if (phi < 0) phi += TWO_PI;
  // Error of ψ: the frame coordinates carry SIGMA, seen from the axis at distances rw and ru.
  const margin = 4 * SIGMA * (1 / rw + 1 / ru) + 64 * EPS * (1 + phi);
  return Math.max(0, phi - margin);
}

// ---------------------------------------------------------------------------------------------
// Hooks for the chain folder (src/fold/folder-fold.ts): the same window test and certified pair
// solver, on segments the folder supplies one pair at a time (internal; not re-exported).

const PS = new Float64Array(12); // the pair asked about: fixed ends, then moving ends

/**
 * Sets the rotation for {@link foldPairSolve}, {@link foldBackAt}, {@link windowOf} and
 * {@link foldTurnPair}: the joint `c` (dim numbers), the axis (3D; null in 2D), the sign of the
 * turn, the thickness, and `ecert`, the pose error the certification must cover (a pair is
 * certified when the exact motion keeps it farther than τ + ecert apart). `broad` (≥ τ; default
 * τ) is the distance {@link windowOf} finds node pairs within (plus ecert): the chain folder
 * prunes at its near margin, so that what it prunes is certified beyond that margin too. The
 * frame (e1, e2, k) of the rotation goes into `frame` (9 numbers). Not re-entrant; foldChain
 * overwrites it.
 */
export function foldSetup(c: Float64Array, dim: number, axis: Float64Array | null, sign: number, tau: number, ecert: number, frame: Float64Array, broad = tau): void {
  setRotation(c, dim, 0, axis);
  SIGN = sign;
  TAU = tau;
  ECERT = ecert;
  TAUB = ((broad > tau ? broad : tau) + ecert) * (1 + 8 * EPS);
  frame[0] = E1X; frame[1] = E1Y; frame[2] = E1Z;
  frame[3] = E2X; frame[4] = E2Y; frame[5] = E2Z;
  frame[6] = KX; frame[7] = KY; frame[8] = KZ;
}

/** Loads `count` vertices from q into the pair scratch with their frame coordinates; sets SIGMA and EPOSE for them. */
function loadScratch(q: Float64Array, count: number): void {
  for (let k = 0; k < count * DIM; k++) PS[k] = q[k];
  P = PS;
  const vall = frame(PS, count);
  const c1 = Math.abs(CX) + Math.abs(CY) + Math.abs(CZ);
  SIGMA = 32 * EPS * (vall + c1);
  EPOSE = 64 * EPS * (3 * vall + c1);
}

/**
 * The first motion parameter in [s, e] at which the fixed segment q[0 … 2·dim) and the moving
 * segment q[2·dim … 4·dim) are not certified apart (Infinity: all of [s, e] is), under the
 * rotation of {@link foldSetup}: foldChain's certified advancement on this one pair.
 */
export function foldPairSolve(q: Float64Array, s: number, e: number): number {
  loadScratch(q, 4);
  return solvePair(0, 2, s, e);
}

/** The last certified parameter before the two segments at the joint (vertices q: before, joint, after) fold back (Infinity: never). */
export function foldBackAt(q: Float64Array, axis: Float64Array | null): number {
  loadScratch(q, 3);
  return foldBackAngle(1, axis);
}

/** The pair q (as for {@link foldPairSolve}) with its moving segment turned to parameter φ (Rodrigues, as foldChain's poses), into out. */
export function foldTurnPair(q: Float64Array, phi: number, out: Float64Array): void {
  loadScratch(q, 4);
  setAngle(SIGN * phi);
  for (let k = 0; k < 2 * DIM; k++) out[k] = q[k];
  rotateInto(PS, 2, out, 2 * DIM);
  rotateInto(PS, 3, out, 3 * DIM);
}

// ---------------------------------------------------------------------------------------------
// Exact check of a pose: cross pairs (fixed, moving) and the fold-back at the joint

const VQ = new Float64Array(12);
let VI = -1, VJ = -1;
/** Vertex k of the pose at the current angle (the joint and the fixed part as they are) into VQ[o…]. */
function loadPose(k: number, o: number, F: number, moved: boolean): void {
  if (k <= F || !moved) for (let c = 0; c < DIM; c++) VQ[o + c] = P[k * DIM + c];
  else rotateInto(P, k, VQ, o);
}

let VF = 0;
let VMOVED = false;

/** pairsAt's visitor: the exact test of fixed segment i and moving segment F + jl in the pose. */
function touchingAt(i: number, jl: number): boolean {
  const F = VF, j = F + jl, dim = DIM, d2 = 2 * dim;
  if (i === F - 1 && j === F) return false;
  loadPose(i, 0, F, VMOVED);
  loadPose(i + 1, dim, F, VMOVED);
  loadPose(j, d2, F, VMOVED);
  loadPose(j + 1, d2 + dim, F, VMOVED);
  if (!pairWithin(VQ, dim, TAU)) return false;
  VI = i;
  VJ = j;
  return true;
}

/**
 * Is the pose at motion parameter φ (rounded as the returned points are) free of contacts
 * between fixed and moving segments? Pairs are found through the cylindrical hierarchies with
 * the window test at the single angle φ (sound for the pose: TAUB covers its rounding), and
 * decided by the exact predicates (pairWithin, foldsBack). Leaves the offending pair in VI, VJ.
 */
function poseFree(fixed: Float64Array[], moving: Float64Array[], F: number, m: number, phi: number): boolean {
  VI = VJ = -1;
  const moved = phi !== 0;
  setAngle(SIGN * phi);
  if (F >= 1 && F + 1 <= m) {
    for (let k = 0; k < 3; k++) loadPose(F - 1 + k, k * DIM, F, moved);
    if (foldsBack(VQ, DIM, 0, 1, 2)) {
      VI = F - 1;
      VJ = F;
      return false;
    }
  }
  VF = F;
  VMOVED = moved;
  return !pairsAt(fixed, moving, NS, windowOf, phi, touchingAt);
}

/** The full pose at angle θ: vertices beyond the joint rotated, the others copied. */
function fullPose(pr: Problem, theta: number): Float64Array {
  const out = pr.flat.slice();
  if (theta === 0) return out;
  setAngle(theta);
  for (let k = pr.joint + 1; k < pr.n; k++) rotateInto(pr.flat, k, out, k * pr.dim);
  return out;
}

function readAxis(axis: unknown, dim: number): Float64Array | null {
  if (dim === 2) {
    if (axis !== undefined) throw new SkewlineInputError('foldChain: options.axis is for 3D chains; a 2D fold turns counter-clockwise for a positive angle');
    return null;
  }
  if (axis === undefined) throw new SkewlineInputError('foldChain: a 3D fold needs options.axis (a nonzero direction)');
  const a = toVector(axis, 'options.axis');
  if (a.length !== 3) throw new SkewlineInputError(`foldChain: options.axis must have 3 coordinates (got ${a.length})`);
  if (a[0] === 0 && a[1] === 0 && a[2] === 0) throw new SkewlineInputError('foldChain: options.axis must be nonzero');
  return a;
}

/** The most a blocked fold backs off (relative to max(1, |angle|)) to leave a pose a next fold can start from. */
const RESTART_BUDGET = 2 ** -24;

/** Are input segments i and j of the pose `out` within r of each other (exactly)? */
function tooClose(out: Float64Array, dim: number, i: number, j: number, r: number): boolean {
  for (let c = 0; c < 2 * dim; c++) {
    RQ[c] = out[i * dim + c];
    RQ[2 * dim + c] = out[j * dim + c];
  }
  return pairWithin(RQ, dim, r);
}
const RQ = new Float64Array(12);

/**
 * Folds a chain at a joint: turns vertices joint + 1 … n − 1 rigidly about the axis through
 * vertex `joint` (3D: `axis`, right-hand rule; 2D: counter-clockwise for a positive angle), from
 * 0 to `angle` radians, and stops at the first contact — the motion itself is checked, not only
 * its end, so no angle is too large to be caught (a fold of 350° whose end pose is free but
 * whose path crosses the chain stops where it first touches).
 *
 * Contacts are those of `chainContacts` with this `thickness`: two non-adjacent segments within
 * the thickness, or the two segments at the joint folding back onto each other. Only pairs with
 * one segment on each side of the joint change, and only they are contacts for the fold: a
 * pair in contact on one side of the joint (both before it, or both beyond it) stays as it is
 * and is neither an error nor a blocking pair.
 *
 * Accuracy (see the module notes for the precise meaning): the returned pose has no contact
 * (checked exactly); the motion up to the returned angle has none either (certified with
 * rounding bounds); when blocked, the returned angle is the last certified one before the first
 * contact, within the rounding noise of it (measured against a dense exact reference: see the
 * tests and the README).
 *
 * Edge cases:
 * - a chain already in contact across the joint at the start throws a SkewlineInputError naming
 *   the first pair;
 *   a pair that is free but closer to the thickness than the rounding bound (about 1e-14 of
 *   the chain's size) blocks at angle 0;
 * - repeated consecutive vertices (zero-length segments) turn with their neighbours and are
 *   never a contact; a vertex repeated at the joint is the joint;
 * - `angle` 0 or nothing before the joint (joint 0, the whole chain turns): nothing can touch,
 *   the whole angle is returned; the joint at the last vertex is an error (nothing would turn);
 * - coordinates of any size: a chain reaching 2⁵⁰⁰ is folded in a power-of-two unit (exact), so
 *   a chain spanning ±1.7e308 folds (a pose whose coordinates leave the doubles' range is an
 *   error);
 * - several turns: a fold free for a whole turn is free for any angle;
 * - a ring (last vertex equal to the first) is refused: turning part of it would tear it.
 * Not re-entrant (module scratch).
 *
 * @param points a flat array (x, y[, z] per vertex, with `options.dim`) or an array of points.
 * @returns `points` is a Float64Array for flat input, otherwise an array of number arrays.
 * @throws SkewlineInputError for an unknown option, bad points, a dimension other than 2 or 3,
 *   a joint that is not a vertex index with a vertex after it, a non-finite angle or thickness, a missing, zero or 2D axis, a ring, or a
 *   chain in contact at the start.
 */
export function foldChain(points: ArrayLike<number>, options: FoldOptions): FoldResult<Float64Array>;
export function foldChain(points: readonly VecLike[], options: FoldOptions): FoldResult<number[][]>;
export function foldChain(points: ChainPoints, options: FoldOptions): FoldResult;
export function foldChain(points: ChainPoints, options: FoldOptions): FoldResult {
  checkOptions(options, FOLD_KEYS, 'foldChain');
  const angle = (options as { angle?: unknown } | null)?.angle;
  if (typeof angle !== 'number' || !Number.isFinite(angle)) {
    throw new SkewlineInputError(`foldChain: options.angle must be a finite number of radians (got ${String(angle)})`);
  }
  const pr = problem(points, options, 'foldChain');
  const axis = readAxis(options.axis, pr.dim);
  const { C, F, dim } = pr;
  const m = C.m;
  if (angle === 0 || F === 0 || F === m) {
    // Nothing changes distance (or nothing at all moves): the start check decides, exactly.
    startCheck(pr, 0, 'foldChain', () => false);
    setRotation(pr.flat, dim, pr.joint, axis);
    const still = F === m || angle === 0;
    return { angle, blocked: false, contact: null, points: output(pr, still ? pr.flat.slice() : fullPose(pr, angle)) };
  }
  setRotation(pr.flat, dim, pr.joint, axis);
  SIGN = angle > 0 ? 1 : -1;
  P = C.P;
  TAU = pr.tau;
  const vall = frame(P, m + 1);
  let vmove = 0;
  for (let k = F; k <= m; k++) {
    let l1 = 0;
    for (let c = 0; c < dim; c++) l1 += Math.abs(P[k * dim + c] - (c === 0 ? CX : c === 1 ? CY : CZ));
    if (l1 > vmove) vmove = l1;
  }
  const c1 = Math.abs(CX) + Math.abs(CY) + Math.abs(CZ);
  EPOSE = 64 * EPS * (3 * vmove + c1);
  ECERT = EPOSE;
  SIGMA = 32 * EPS * (vall + c1);
  TAUB = (TAU + EPOSE + 4 * SIGMA) * (1 + 8 * EPS);
  startCheck(pr, 2 * EPOSE, 'foldChain', (k) => k >= pr.joint);
  const phiMax = Math.min(Math.abs(angle), TWO_PI);

  let best = phiMax;
  let bi = -1, bj = -1;
  const fb = foldBackAngle(F, axis);
  if (fb < best) {
    best = fb;
    bi = F - 1;
    bj = F;
  }
  SF = F;
  const fixed = buildCyl(0, F, SIGMA, 0);
  const moving = buildCyl(F, m, SIGMA, 1);
  bestFirst(fixed, moving, NS, windowOf, solveAt, best);
  if (FOUND.i >= 0) {
    best = FOUND.best;
    bi = FOUND.i;
    bj = F + FOUND.j;
  }

  let blocked = bi >= 0;
  let theta = blocked ? SIGN * best : angle;
  // The exact check of the returned pose: cross pairs through the hierarchy, pairs within the
  // moving part that started within the rounding of the thickness one by one. The certification
  // makes a failure of the first a bug; the second can happen only to a pair that starts within
  // about 1e-16 of the chain's size of the thickness. Either way, back off towards the start,
  // which is known to be free.
  let back = Math.abs(theta) * 2 ** -30 + 2 ** -40;
  let out = fullPose(pr, theta);
  let ci = blocked ? C.orig[bi] : -1, cj = blocked ? C.orig[bj] : -1;
  // A blocked pose must also be a place a next fold can start from: the next search certifies
  // only distances above τ plus its own pose error, which is at most ECHAIN (the error bound for
  // a pivot anywhere on the chain). So the blocking pair is backed off, in small steps along the
  // certified path, until its exact distance in the pose exceeds τ + 2·ECHAIN — a back-off of
  // about 2·ECHAIN / (closing speed) radians, or its square root for a tangential contact —
  // within at most RESTART_BUDGET radians; past that budget the pose stays where it is. (Not for
  // a fold-back at the joint: adjacent segments always share their vertex, and the fold-back
  // angle is decided exactly from the pose, so it needs no margin.)
  const ECHAIN = 64 * EPS * (8 * vall + 2 * c1); // any pivot: reach ≤ 2·vall, |pivot|₁ ≤ c1 + vall
  const restartTau = (TAU + 2 * ECHAIN) * (1 + 8 * EPS);
  let restartBack = Math.abs(theta) * 2 ** -44 + 2 ** -52;
  const restartLimit = Math.abs(theta) - RESTART_BUDGET * Math.max(1, Math.abs(theta));
  for (let tries = 0; ; tries++) {
    if (!poseFree(fixed, moving, F, m, Math.abs(theta))) {
      ci = C.orig[VI];
      cj = C.orig[VJ];
      foldStats.fallbacks++;
    } else if (!nearFree(out, dim, pr.tau)) {
      ({ i: ci, j: cj } = nearOffender());
      foldStats.nearFallbacks++;
    } else if (blocked && ci >= 0 && Math.abs(cj - ci) > 1 && restartTau > TAU && tooClose(out, dim, ci, cj, restartTau) && Math.abs(theta) - restartBack > Math.max(restartLimit, 0)) {
      // free, but too close to restart from: step back a little (the path there is certified)
      theta = SIGN * (Math.abs(theta) - restartBack);
      restartBack *= 2;
      out = fullPose(pr, theta);
      continue;
    } else break;
    blocked = true;
    const mag = Math.abs(theta) - back;
    theta = mag > 0 && tries < 40 ? SIGN * Math.min(mag, phiMax) : 0;
    back *= 4;
    out = fullPose(pr, theta);
  }
  return { angle: theta, blocked, contact: blocked ? { i: ci, j: cj } : null, points: output(pr, out) };
}
