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

/** Counters for the benchmark's time split: pairs tested, and pairs decided in exact arithmetic. */
export const narrowStats = { tests: 0, exact: 0 };

/**
 * Exact "distance ≤ τ" for the pair a0, a1, b0, b1 (dim numbers each) at the start of Q.
 * @returns the pair's distance when it is within τ (exactly 0 for τ = 0; otherwise the
 *   kernel's, a few ulps from the exact one), −1 when it is not. With `out`, the kernel's
 *   parameters s and t of a pair within τ go to out[0], out[1] (the same numbers
 *   closestSegSeg2/3/N give).
 *
 * With τ = 0 in 2D and 3D the exact intersection predicates decide. Otherwise the kernel
 * distance d (within 8·u·S of the exact one, S the pair's size; 64·u·(|u|₁ + |v|₁ + |w|₁) ≥
 * 64·u·S is used) decides when it is clear of τ, and the exact squared distance compared with
 * τ² decides the rest.
 */
export function contactWithin(Q: Float64Array, dim: number, tau: number, out: Float64Array | null): number {
  narrowStats.tests++;
  if (tau === 0 && dim <= 3) {
    if (!(dim === 2 ? intersectsSegments2(Q, 0) : intersectsSegments3(Q, 0))) return -1;
    if (out !== null) kernel(Q, dim, out);
    return 0;
  }
  if (dim === 2 && Number.isInteger(tau) && tau <= 16777216 && smallIntegers2(Q, 0, Q, 4)) return integerWithin2(Q, tau, out);
  const d = kernel(Q, dim, out);
  let size = 0;
  for (let k = 0; k < dim; k++) {
    const a0 = Q[k], b0 = Q[2 * dim + k];
    size += Math.abs(Q[dim + k] - a0) + Math.abs(Q[3 * dim + k] - b0) + Math.abs(b0 - a0);
  }
  const err = 64 * EPS * size;
  if (d + err < tau) return d;
  if (d - err > tau) return -1;
  narrowStats.exact++;
  const { distanceSq } = exactClosestFlat(SEGMENT, SEGMENT, dim, Q, 0);
  return compareWithSquare(distanceSq.num, distanceSq.den, tau) <= 0 ? d : -1;
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

function kernel(Q: Float64Array, dim: number, out: Float64Array | null): number {
  return dim === 2 ? closestSegSeg2(Q, 0, out, 0) : dim === 3 ? closestSegSeg3(Q, 0, out, 0) : closestSegSegN(Q, 0, dim, out, 0);
}

/** Exact "distance ≤ τ" for the pair at the start of Q (see {@link contactWithin}). */
export function pairWithin(Q: Float64Array, dim: number, tau: number): boolean {
  return contactWithin(Q, dim, tau, null) >= 0;
}

/**
 * Do adjacent segments a→v and v→b fold back over each other (share a piece of positive
 * length)? Exactly when a − v and b − v point the same way: all minors against a pivot axis
 * where a differs from v vanish (exact orientation signs), and the pivot coordinates of a
 * and b lie on the same side of v's.
 */
export function foldsBack(P: Float64Array, dim: number, a: number, v: number, b: number): boolean {
  const oa = a * dim, ov = v * dim, ob = b * dim;
  let k = 0;
  while (P[oa + k] === P[ov + k]) k++; // the segment has positive length, so some axis differs
  for (let j = 0; j < dim; j++) {
    if (j === k) continue;
    if (orient2Sign(P[ov + k], P[ov + j], P[oa + k], P[oa + j], P[ob + k], P[ob + j]) !== 0) return false;
  }
  return P[oa + k] > P[ov + k] === P[ob + k] > P[ov + k];
}

