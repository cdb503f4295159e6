import type { VecLike } from '../core/types.js';
/** A 2D point as returned in results (a fresh array). */
export type Point2 = [number, number];
/**
 * The result of {@link segmentIntersection2D}:
 * - `none`: no common point;
 * - `point`: exactly one common point (a proper crossing, a T-junction, shared endpoints, or
 *   collinear segments touching end to end); `t1`, `t2` are its parameters on a and b;
 * - `overlap`: collinear segments sharing a piece of positive length, from `start` to `end`
 *   (ordered along a, so `t1[0] ≤ t1[1]` are the parameters of start and end on a). `t2` is
 *   the parameter interval on b, sorted ascending; `sameDirection` tells whether b runs the
 *   same way as a (then start ↔ t2[0]), or the other way (then start ↔ t2[1]).
 */
export type SegmentIntersection2D = SegmentsApart | SegmentsMeetAtPoint | SegmentsOverlap;
/** {@link segmentIntersection2D}: no common point. */
export interface SegmentsApart {
    /** Always `'none'`. */
    kind: 'none';
}
/** {@link segmentIntersection2D}: exactly one common point. */
export interface SegmentsMeetAtPoint {
    /** Always `'point'`. */
    kind: 'point';
    /** The common point, rounded once from the exact rational solution. */
    point: Point2;
    /** Its parameter on a (0 at a0, 1 at a1), rounded once. */
    t1: number;
    /** Its parameter on b, rounded once. */
    t2: number;
}
/** {@link segmentIntersection2D}: collinear segments sharing a piece of positive length. */
export interface SegmentsOverlap {
    /** Always `'overlap'`. */
    kind: 'overlap';
    /** The end of the shared piece nearer a0. */
    start: Point2;
    /** The end of the shared piece nearer a1. */
    end: Point2;
    /** Parameters of start and end on a, ascending. */
    t1: [number, number];
    /** The shared piece's parameter interval on b, ascending. */
    t2: [number, number];
    /** Whether b runs the same way as a (then start ↔ t2[0]) or the other way (start ↔ t2[1]). */
    sameDirection: boolean;
}
/**
 * Intersection of the segments a0a1 and b0b1 in the plane (the tutorial's
 * `segmentIntersection2D`, done exactly).
 *
 * Parameters: a point of a is a0 + t1·(a1 − a0), of b is b0 + t2·(b1 − b0), t ∈ [0, 1].
 * The kind (none / point / overlap) is decided exactly from the input doubles (orientation
 * signs with an adaptive exact fallback, then exact coordinate comparisons on a common line).
 * A crossing's t1, t2 and point are the exact rational solution of Cramer's rule rounded once
 * to the nearest double (so exactly representable answers come out exactly: the tutorial's
 * (4,7)–(16,3) and (1,1)–(17,5) give t1 = t2 = 0.75 and the point (13, 4)). Overlap ends and
 * touching points are input endpoints, returned exactly.
 *
 * Edge cases: touching at an endpoint (T-junction, shared endpoint, collinear end-to-end)
 * is a `point`; collinear segments that do not meet are `none`; reversing a segment maps its
 * parameters t → 1 − t (up to rounding of the value) and keeps the kind; a zero-length segment
 * is a point, its parameter is 0, and two coincident zero-length segments give a `point`.
 * @throws SkewlineInputError naming the argument (a0, a1, b0 or b1) if it is missing, not
 * two numbers, or holds NaN/±Infinity.
 */
export declare function segmentIntersection2D(a0: VecLike, a1: VecLike, b0: VecLike, b1: VecLike): SegmentIntersection2D;
/** {@link segmentIntersection2D} on eight finite numbers (not validated); for chain code. */
export declare function intersection2D(ax0: number, ay0: number, ax1: number, ay1: number, bx0: number, by0: number, bx1: number, by1: number): SegmentIntersection2D;
