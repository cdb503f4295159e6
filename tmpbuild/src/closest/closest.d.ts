import type { ClosestResult, Primitive, VecLike } from '../core/types.js';
/**
 * The point of p at parameter s, from the nearer end of a segment or line so that s = 1
 * gives p1 exactly and the rounding error is relative to the shorter piece.
 * Edge case: s beyond ±1.8e308/|dir| gives non-finite coordinates (see {@link closestPoints},
 * which avoids that through exact arithmetic).
 */
export declare function pointAt(p: Primitive, s: number): number[];
/** Options of {@link closestPoints}. */
export interface ClosestOptions {
    /**
     * A result object to fill instead of allocating one (make it with {@link createClosestResult};
     * its arrays must have the primitives' dimension). With a target, closestPoints allocates
     * nothing on the floating-point path (the rare exact fallbacks still do).
     */
    target?: ClosestResult;
    /**
     * Stable nearest points (segments and points only). Rhodes (Game Programming Gems 2, §2.3)
     * notes that as two nearly parallel segments rotate through parallel, the nearest points jump
     * from one end to the other, and suggests blending. With `stable`, c and d minimise
     * |a(s) − b(t)|² + ε·(|u|²(s − ½)² + |v|²(t − ½)²) with ε = 2·tolerance² (a Tikhonov term
     * pulling towards the middles), which is strictly convex, so c and d move continuously with the
     * input. Guarantee: |c − d|² ≤ dmin² + (tolerance·max(|u|, |v|))² (plus rounding), where dmin is
     * the exact minimum. In this mode `distance`, `distanceSq` and `vector` describe the returned
     * c and d (so `distance` may exceed the minimum by that bound and is not exactly 0 for a
     * crossing); `relation`, `unique`, `parallel` and `degenerate` are still the exact facts.
     */
    stable?: boolean;
    /** The relative tolerance of `stable` (a fraction of the longer segment's length); default 0.05 (smooth to the eye; c and d then turn over within about ε/(offset) radians of parallel, ε = 2·tolerance²). */
    tolerance?: number;
}
/**
 * A result object for {@link closestPoints}' `target` option: arrays of length `dim`, zeros.
 * @throws SkewlineInputError if dim is not an integer ≥ 1.
 */
export declare function createClosestResult(dim: number): ClosestResult;
/**
 * Closest points between any two primitives of the same dimension (point, segment, line,
 * ray; 1 ≤ dim).
 *
 * Edge cases:
 * - sharing a point: `distance === 0` exactly, c = d = p = the shared point (for an overlap,
 *   the middle of the shared piece), decided exactly;
 * - parallel with overlapping shadows (and overlapping collinear pieces): a whole locus of
 *   nearest pairs; `unique` is false and c, d are the middle of the overlap (for a half-infinite
 *   overlap its finite end; for two parallel lines the middle of a.p0 and the shadow of b.p0),
 *   so swapping the arguments or reversing a segment gives the mirrored answer;
 * - a zero-length segment acts as its point (relation `degenerate` unless they touch);
 * - two rays: (c, vector) is the "shortest ray" from ray a to ray b (the ray–ray Q&A);
 * - a nearest point far outside the inputs (a line or ray with a tiny direction): c and d are
 *   rounded once from the exact solution, so they are finite wherever they are representable;
 *   s or t may then be ±Infinity (the parameter itself overflows). If a nearest point lies beyond
 *   the double range, a RangeError says so (never a NaN).
 *
 * Accuracy: `distance` is within 8·2⁻⁵³·S of the exact minimum distance of the given doubles,
 * S = max(|a1 − a0|, |b1 − b0|, |b0 − a0|), at any distance from the origin and any angle.
 * `distanceSq` is the squared length of `vector`, summed with error-free products and scaled
 * so that it under/overflows only where the true value does.
 *
 * The third argument is either {@link ClosestOptions} or, gl-matrix style, a target result to
 * fill (`closestPoints(a, b, target)`, see {@link createClosestResult}): then nothing is allocated.
 * @throws SkewlineInputError if an argument is not a primitive, the dimensions differ, a target
 * has the wrong dimension, or `stable` is asked for a line or ray.
 */
export declare function closestPoints(a: Primitive, b: Primitive, options?: ClosestOptions | ClosestResult): ClosestResult;
/**
 * Boes' `segdis(a0, a1, b0, b1)` ("Segment Distance"): the distance between two segments in R^n (n ≥ 1),
 * with the accuracy of {@link closestPoints}. Zero-length segments are points.
 * @throws SkewlineInputError on missing, non-finite or different-dimension points.
 */
export declare function segmentDistance(a0: VecLike, a1: VecLike, b0: VecLike, b1: VecLike): number;
/** Options of {@link intersectLineSegments}. */
export interface IntersectLineSegmentsOptions {
    /** Treat both as infinite lines (the gem's `infinite_lines` switch). Default false. */
    infiniteLines?: boolean;
    /**
     * Your own length, in the input's units, below which a segment counts as a point (the gem's
     * tolerance). Default 0: only an exactly zero-length segment is a point. Never used to
     * decide whether the segments meet.
     */
    tolerance?: number;
}
/** The result of {@link intersectLineSegments}: the gem's outputs. */
export interface LineSegmentsResult extends ClosestResult {
    /** True when c and d lie within their segments (always true for finite segments; for
     * infinite lines, whether the nearest points fall between the given endpoints). */
    withinSegments: boolean;
}
/**
 * Rhodes' entry point (Game Programming Gems 2, §2.3) for people coming from the book: the
 * nearest points C (on a1a2) and D (on b1b2), their midpoint P, the vector C→D, and whether
 * the nearest points lie within both segments. With `infiniteLines` the segments are
 * extended to lines. A segment shorter than `tolerance` is treated as its first point (a
 * line shorter than it too, as a point).
 * @throws SkewlineInputError on bad points, different dimensions, or a negative/non-finite tolerance.
 */
export declare function intersectLineSegments(a1: VecLike, a2: VecLike, b1: VecLike, b2: VecLike, options?: IntersectLineSegmentsOptions): LineSegmentsResult;
