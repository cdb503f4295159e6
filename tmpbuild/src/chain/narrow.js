/**
 * The narrow phase of chain contacts: the exact "within the thickness" test of two segments and
 * the fold-back test of two adjacent ones. Exported for the benchmark baselines, which use the
 * same narrow phase so that only the broad phases are compared.
 */
import { EPS } from '../core/eft.js';
import { SEGMENT, exactClosestFlat } from '../core/exact.js';
import { compareWithSquare } from '../closest/within.js';
import { closestSegSeg2, closestSegSeg3, closestSegSegN } from '../closest/segment-kernels.js';
import { intersectsSegments2, intersectsSegments3, orient2Sign } from '../intersect/intersects.js';
/**
 * Exact "distance ≤ τ" for the pair a0, a1, b0, b1 (dim numbers each) at the start of Q. With τ = 0 in 2D and 3D: the exact intersection
 * predicates. Otherwise the kernel distance d (within 8·u·S of the exact one, S the pair's
 * size; 64·u·(|u|₁ + |v|₁ + |w|₁) ≥ 64·u·S is used) decides when it is clear of τ, and the
 * exact squared distance compared with τ² decides the rest.
 */
/** Counters for the benchmark's time split: pairs tested, and pairs decided in exact arithmetic. */
export const narrowStats = { tests: 0, exact: 0 };
export function pairWithin(Q, dim, tau) {
    narrowStats.tests++;
    if (tau === 0) {
        if (dim === 2)
            return intersectsSegments2(Q, 0);
        if (dim === 3)
            return intersectsSegments3(Q, 0);
    }
    const d = dim === 2 ? closestSegSeg2(Q, 0, null, 0) : dim === 3 ? closestSegSeg3(Q, 0, null, 0) : closestSegSegN(Q, 0, dim, null, 0);
    let size = 0;
    for (let k = 0; k < dim; k++) {
        const a0 = Q[k], b0 = Q[2 * dim + k];
        size += Math.abs(Q[dim + k] - a0) + Math.abs(Q[3 * dim + k] - b0) + Math.abs(b0 - a0);
    }
    const err = 64 * EPS * size;
    if (d + err < tau)
        return true;
    if (d - err > tau)
        return false;
    narrowStats.exact++;
    const { distanceSq } = exactClosestFlat(SEGMENT, SEGMENT, dim, Q, 0);
    return compareWithSquare(distanceSq.num, distanceSq.den, tau) <= 0;
}
/**
 * Do adjacent segments a→v and v→b fold back over each other (share a piece of positive
 * length)? Exactly when a − v and b − v point the same way: all minors against a pivot axis
 * where a differs from v vanish (exact orientation signs), and the pivot coordinates of a
 * and b lie on the same side of v's.
 */
export function foldsBack(P, dim, a, v, b) {
    const oa = a * dim, ov = v * dim, ob = b * dim;
    let k = 0;
    while (P[oa + k] === P[ov + k])
        k++; // the segment has positive length, so some axis differs
    for (let j = 0; j < dim; j++) {
        if (j === k)
            continue;
        if (orient2Sign(P[ov + k], P[ov + j], P[oa + k], P[oa + j], P[ob + k], P[ob + j]) !== 0)
            return false;
    }
    return P[oa + k] > P[ov + k] === P[ob + k] > P[ov + k];
}
