/**
 * The narrow phase of chain contacts: the exact "within the thickness" test of two segments and
 * the fold-back test of two adjacent ones. Exported for the benchmark baselines, which use the
 * same narrow phase so that only the broad phases are compared.
 */
import { EPS } from '../core/eft.js';
import { SEGMENT, exactClosestFlat } from '../core/exact.js';
import { compareWithSquare } from '../closest/within.js';
import { closestSegSeg2, closestSegSeg3, closestSegSegN, crossing2, smallIntegers2, touchingParams2 } from '../closest/segment-kernels.js';
import { productError } from '../core/eft.js';
import { intersectsSegments2, intersectsSegments3, orient2Sign } from '../intersect/intersects.js';

/** Counters for the benchmark's time split: pairs tested, pairs decided in exact arithmetic, and (3D) pairs the double filter {@link apart3} rejected before the full test. */
export const narrowStats = { tests: 0, exact: 0, apart: 0 };

/**
 * Exact "distance ≤ τ" for the pair a0, a1, b0, b1 (dim numbers each) at the start of Q.
 * @returns whether the pair is within τ. With `out` (at least three numbers), for a pair within
 *   τ the kernel's parameters s and t go to out[0], out[1] (the same numbers closestSegSeg2/3/N
 *   give) and its distance to out[2] (exactly 0 for τ = 0; otherwise the kernel's, a few ulps
 *   from the exact one). (A flag, not the distance, is returned: a double returned from a
 *   function the compiler does not inline is boxed, 16 bytes of garbage a contact.)
 *
 * With τ = 0 in 2D and 3D the exact intersection predicates decide. Otherwise the kernel
 * distance d (within 8·u·S of the exact one, S the pair's size; 64·u·(|u|₁ + |v|₁ + |w|₁) ≥
 * 64·u·S is used) decides when it is clear of τ, and the exact squared distance compared with
 * τ² decides the rest.
 */
export function contactWithin(Q: Float64Array, dim: number, tau: number, out: Float64Array | null): boolean {
  narrowStats.tests++;
  if (tau === 0 && dim <= 3) {
    if (!(dim === 2 ? intersectsSegments2(Q, 0) : intersectsSegments3(Q, 0))) return false;
    if (out !== null) {
      kernel(Q, dim, out);
      out[2] = 0;
    }
    return true;
  }
  if (dim === 2 && Number.isInteger(tau) && tau <= 16777216 && smallIntegers2(Q, 0, Q, 4)) return within(integerWithin2(Q, tau, out), out);
  const d = kernel(Q, dim, out);
  let size = 0;
  for (let k = 0; k < dim; k++) {
    const a0 = Q[k], b0 = Q[2 * dim + k];
    size += Math.abs(Q[dim + k] - a0) + Math.abs(Q[3 * dim + k] - b0) + Math.abs(b0 - a0);
  }
  const err = 64 * EPS * size;
  if (d + err < tau) return within(d, out);
  if (d - err > tau) return false;
  narrowStats.exact++;
  const { distanceSq } = exactClosestFlat(SEGMENT, SEGMENT, dim, Q, 0);
  return compareWithSquare(distanceSq.num, distanceSq.den, tau) <= 0 ? within(d, out) : false;
}

/** contactWithin's answer for distance d (−1: not within τ), d stored to out[2]. */
function within(d: number, out: Float64Array | null): boolean {
  if (d < 0) return false;
  if (out !== null) out[2] = d;
  return true;
}

/**
 * contactWithin for 2D segments with integer coordinates of magnitude ≤ 2²⁴ and an integer
 * thickness τ ≤ 2²⁴ (grid and pixel data with a thickness in grid units, where pairs exactly at
 * the thickness are the common case): decided exactly in doubles, no rationals.
 * - Sharing a point (the exact predicate): distance 0, with s, t from crossing2 or
 *   touchingParams2 — closestSegSeg2's numbers, bit for bit.
 * - Otherwise, in the plane the nearest pair has an endpoint of one segment: the distance is ≤ τ
 *   exactly when one of the four endpoint-to-segment distances is (endWithin). Numbers then come
 *   from the kernel, whose fast path such a pair takes.
 */
function integerWithin2(Q: Float64Array, tau: number, out: Float64Array | null): number {
  if (intersectsSegments2(Q, 0)) {
    if (out !== null && crossing2(Q, 0, Q, 4, out) !== 1) touchingParams2(Q, 0, Q, 4, out);
    return 0;
  }
  const t2 = tau * tau; // ≤ 2⁴⁸: exact
  if (!(endWithin(Q[0], Q[1], Q[4], Q[5], Q[6], Q[7], t2) || endWithin(Q[2], Q[3], Q[4], Q[5], Q[6], Q[7], t2) ||
    endWithin(Q[4], Q[5], Q[0], Q[1], Q[2], Q[3], t2) || endWithin(Q[6], Q[7], Q[0], Q[1], Q[2], Q[3], t2))) return -1;
  return closestSegSeg2(Q, 0, out, 0);
}

/**
 * Is the point p within √t2 of the segment a→b (integers ≤ 2²⁴, t2 an exact square ≤ 2⁴⁸)?
 * Every dot and cross product is an exact integer ≤ 2⁵¹; inside the segment the squared
 * distance is cross²/|u|², and cross² ≤ t2·|u|² is compared as two exact two-term expansions
 * (value and rounding error, Dekker's product): for such pairs (h, l), x ≤ y exactly when
 * h₁ < h₂, or h₁ = h₂ and l₁ ≤ l₂ (rounding is monotone, and equal values round alike).
 */
function endWithin(px: number, py: number, ax: number, ay: number, bx: number, by: number, t2: number): boolean {
  const ux = bx - ax, uy = by - ay, wx = px - ax, wy = py - ay;
  const dot = wx * ux + wy * uy;
  if (dot <= 0) return wx * wx + wy * wy <= t2;
  const uu = ux * ux + uy * uy;
  if (dot >= uu) {
    const qx = px - bx, qy = py - by;
    return qx * qx + qy * qy <= t2;
  }
  const cr = ux * wy - uy * wx;
  const h1 = cr * cr, l1 = productError(cr, cr, h1);
  const h2 = t2 * uu, l2 = productError(t2, uu, h2);
  return h1 < h2 || (h1 === h2 && l1 <= l2);
}

/**
 * Magnitudes between which {@link apart3}'s error bounds hold: the 1-norm M of the pair's
 * differences must lie in [2⁻⁴⁰⁰, 2⁴⁰⁰], so that nothing overflows and an underflowed product
 * (absolute error ≤ 2⁻¹⁰⁷⁵) is far below the gap certificate's u·M² (≥ 2⁻⁸⁵³).
 */
const APART_MIN = 2 ** -400;
const APART_MAX = 2 ** 400;
/**
 * The lines' certificate of {@link apart3} also needs U·V in [2⁻⁴⁰⁰, 2⁴⁰⁰] (so (U·V)²·u, the
 * margin on |n|², is far above underflow) and W·U·V in [2⁻⁹⁰⁰, 2⁹⁰⁰] (the margin on w·n).
 */
const LINES_MIN = 2 ** -900;
const LINES_MAX = 2 ** 900;

/**
 * A filter in doubles for the thick 3D search: is segment i of PA (vertices i, i + 1) certainly
 * farther than τ from segment j of PB? 1 when it is (the pair is no contact, exactly), 0 when
 * the filter cannot tell (the caller runs the full test, {@link contactWithin}). No allocation,
 * no scratch. Two certificates, the cheap one first (w = a0 − b0, u = a1 − a0, v = b1 − b0, exact;
 * U, V, W the 1-norms of u, v, w; u the unit roundoff):
 *
 * 1. The lines. With n = u × v, every point pair satisfies (p − q)·n = w·n (u·n = v·n = 0), so
 *    the segments' distance is at least |w·n|/|n|. Computed n within 5u·U·V per coordinate and
 *    w·n within 24u·W·U·V (Higham, Accuracy and Stability of Numerical Algorithms, §3.1), so
 *    (|w·n| − 32u·WUV)² > τ²·(|n|² + 32u·U²V²), formed with a factor (1 + 2⁻⁴⁰) to spare,
 *    proves the pair apart. On a random walk this alone rejects four in five of the pairs the
 *    boxes let through; it fails for pairs whose lines pass near each other.
 * 2. The nearest pair. f(s, t) = |w + s·u − t·v|² is convex, so for any (s, t) in the unit
 *    square its minimum F there is at least the linear model's (the Frank–Wolfe duality gap;
 *    Jaggi, ICML 2013, §2): F ≥ f(s, t) − 2·(Gs + Gt), Gs = max(gs·s, −gs·(1 − s)), gs = r·u,
 *    Gt likewise with gt = −r·v, r the residual at (s, t). Any (s, t) gives a valid bound;
 *    Ericson's clamped minimiser (Real-Time Collision Detection §5.1.9) makes the gap tiny.
 *    Rounding (M = U + V + W): each computed residual coordinate is within 6u of M, so
 *    |r|² ≥ dist2 − 16u·M²; each computed gradient within e = 12u·M², which costs at most 2e
 *    on each of Gs and Gt whatever its computed sign; forming the bound adds under 10u·M².
 *    256u·M² covers the sum (112u·M² + 10u·M²) with room.
 * τ² comes rounded up ({@link tau2Up}). Shallow angles (sin²θ < 1/16; there the lines'
 * certificate alone is tried), zero-length pieces and magnitudes out of range (M outside
 * [2⁻⁴⁰⁰, 2⁴⁰⁰]; for the lines also U·V or W·U·V, see LINES_MIN: where underflow could spoil a
 * bound) are left to the full test (0), as is NaN (every comparison fails).
 *
 * @param tau2 τ² rounded up (from {@link tau2Up}).
 */
export function apart3(PA: Float64Array, i: number, PB: Float64Array, j: number, tau2: number): number {
  const a = 3 * i, c = 3 * j;
  const a0x = PA[a], a0y = PA[a + 1], a0z = PA[a + 2];
  const b0x = PB[c], b0y = PB[c + 1], b0z = PB[c + 2];
  const ux = PA[a + 3] - a0x, uy = PA[a + 4] - a0y, uz = PA[a + 5] - a0z;
  const vx = PB[c + 3] - b0x, vy = PB[c + 4] - b0y, vz = PB[c + 5] - b0z;
  const wx = a0x - b0x, wy = a0y - b0y, wz = a0z - b0z;
  const U = Math.abs(ux) + Math.abs(uy) + Math.abs(uz);
  const V = Math.abs(vx) + Math.abs(vy) + Math.abs(vz);
  const W = Math.abs(wx) + Math.abs(wy) + Math.abs(wz);
  const M = U + V + W;
  if (!(M >= APART_MIN && M <= APART_MAX)) return 0;
  // 1. The lines' distance.
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const UV = U * V, WUV = W * UV;
  const wn = Math.abs(wx * nx + wy * ny + wz * nz) - 32 * EPS * WUV;
  if (UV >= APART_MIN && UV <= APART_MAX && WUV >= LINES_MIN && WUV <= LINES_MAX && wn > 0 &&
    wn * wn > tau2 * (nx * nx + ny * ny + nz * nz + 32 * EPS * (UV * UV)) * (1 + 2 ** -40)) return 1;
  // 2. The nearest pair's gap certificate.
  const aa = ux * ux + uy * uy + uz * uz;
  const cc = vx * vx + vy * vy + vz * vz;
  const b = ux * vx + uy * vy + uz * vz;
  const ac = aa * cc;
  const D = ac - b * b;
  if (!(D >= 0.0625 * ac && ac > 0)) return 0;
  const d = ux * wx + uy * wy + uz * wz;
  const e = vx * wx + vy * wy + vz * wz;
  // One division for the three reciprocals (any s, t in [0, 1] keeps the bound valid).
  const q = 1 / (ac * D);
  let s = Math.min(1, Math.max(0, (b * e - cc * d) * (ac * q)));
  const t = Math.min(1, Math.max(0, (e + b * s) * (aa * D * q)));
  s = Math.min(1, Math.max(0, (b * t - d) * (cc * D * q)));
  const rx = wx + s * ux - t * vx;
  const ry = wy + s * uy - t * vy;
  const rz = wz + s * uz - t * vz;
  const gs = rx * ux + ry * uy + rz * uz;
  const gt = -(rx * vx + ry * vy + rz * vz);
  const Gs = Math.max(gs * s, -gs * (1 - s));
  const Gt = Math.max(gt * t, -gt * (1 - t));
  const lower = rx * rx + ry * ry + rz * rz - 2 * (Gs + Gt) - 256 * EPS * (M * M);
  return lower > tau2 ? 1 : 0;
}

/**
 * τ² rounded up, for {@link apart3}: fl(τ·τ) is within u of τ², and 1 + 2⁻⁴⁹ lifts it past.
 * Outside [2⁻⁵⁰⁰, 2⁵⁰⁰] (where τ² would leave the normal range) +∞, so the filter never rejects; 0 stays 0.
 */
export function tau2Up(tau: number): number {
  if (tau === 0) return 0;
  return tau >= 2 ** -500 && tau <= 2 ** 500 ? tau * tau * (1 + 2 ** -49) : Infinity;
}

function kernel(Q: Float64Array, dim: number, out: Float64Array | null): number {
  return dim === 2 ? closestSegSeg2(Q, 0, out, 0) : dim === 3 ? closestSegSeg3(Q, 0, out, 0) : closestSegSegN(Q, 0, dim, out, 0);
}

/** Exact "distance ≤ τ" for the pair at the start of Q (see {@link contactWithin}). */
export function pairWithin(Q: Float64Array, dim: number, tau: number): boolean {
  return contactWithin(Q, dim, tau, null);
}

/**
 * Do adjacent segments a→v and v→b fold back over each other (share a piece of positive
 * length)? Exactly when a − v and b − v point the same way: all minors against a pivot axis
 * where a differs from v vanish (exact orientation signs), and the pivot coordinates of a
 * and b lie on the same side of v's.
 */
export function foldsBack(P: Float64Array, dim: number, a: number, v: number, b: number): boolean {
  const oa = a * dim, ov = v * dim, ob = b * dim;
  // A necessary condition first, exact and cheap: a − v = λ·(b − v) with λ > 0 gives each
  // coordinate difference the same sign on both sides (a computed difference has the exact
  // one's sign). Along a random chain it fails for all but one turn in 2^dim.
  for (let j = 0; j < dim; j++) {
    const x = P[ov + j];
    if (+(P[oa + j] > x) - +(P[oa + j] < x) !== +(P[ob + j] > x) - +(P[ob + j] < x)) return false;
  }
  let k = 0;
  while (P[oa + k] === P[ov + k]) k++; // the segment has positive length, so some axis differs
  for (let j = 0; j < dim; j++) {
    if (j === k) continue;
    if (orient2Sign(P[ov + k], P[ov + j], P[oa + k], P[oa + j], P[ob + k], P[ob + j]) !== 0) return false;
  }
  return P[oa + k] > P[ov + k] === P[ob + k] > P[ov + k];
}

