import type { Primitive, VecLike } from '../core/types.js';
/**
 * Exact sign of the orientation of c relative to the directed line a→b in the plane:
 * +1 if c is to the left (a, b, c counter-clockwise), −1 to the right, 0 if collinear
 * (including a = b). This is the standard convention; note that `robust-predicates`'
 * `orient2d` returns the opposite sign (it is positive for clockwise triples), which is
 * accounted for here. Coordinates must be finite (not checked).
 */
export declare function orient2Sign(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number;
/**
 * Exact sign of det[a1 − a0; b0 − a0; b1 − a0] in R³: zero exactly when the four points are
 * coplanar (always so when two of them coincide). The sign's orientation convention is
 * right-handed (positive for a0=0, a1=e_x, b0=e_y, b1=e_z). Coordinates must be finite.
 */
export declare function orient3Sign(ax0: number, ay0: number, az0: number, ax1: number, ay1: number, az1: number, bx0: number, by0: number, bz0: number, bx1: number, by1: number, bz1: number): number;
/**
 * Do the 2D segments a0a1 and b0b1 share a point? Flat, allocation-free form for batch code:
 * reads the eight numbers a0x, a0y, a1x, a1y, b0x, b0y, b1x, b1y starting at `data[k]`.
 *
 * Exact for all finite inputs: touching at an endpoint or an interior point counts,
 * collinear segments count only if they overlap or touch (collinear but disjoint → false),
 * zero-length segments behave as points, and reversed segments give the same answer.
 * Cost: four double orientations with Shewchuk's static filter; exact evaluation only when
 * the filter cannot decide. Inputs are not validated (NaN or ±Infinity give an unspecified
 * boolean). Not re-entrant while its rare BigInt fallback runs (module scratch), which only
 * matters if called from inside itself.
 */
export declare function intersectsSegments2(data: ArrayLike<number>, k: number): boolean;
/**
 * Do the 3D segments a0a1 and b0b1 share a point? Flat, allocation-free form: reads twelve
 * numbers a0xyz, a1xyz, b0xyz, b1xyz starting at `data[k]`.
 *
 * Exact: first an exact coplanarity test (orientation of the four points); coplanar pairs are
 * decided exactly in a projection onto a coordinate plane that is proven non-degenerate, and
 * fully collinear pairs by lexicographic order along the line. Edge cases as in
 * {@link intersectsSegments2}. Inputs are not validated.
 */
export declare function intersectsSegments3(data: ArrayLike<number>, k: number): boolean;
/**
 * Do `a` and `b` share at least one point? Exact for every pair of kinds (point, segment,
 * ray, line) and every finite input: no tolerance is involved, the answer is that of the
 * exact inputs.
 *
 * Edge cases: touching (an endpoint on the other primitive, shared endpoints) is `true`;
 * collinear pieces are `true` only if they overlap or touch; zero-length segments behave as
 * points; a ray's direction is used exactly (origin + direction need not be representable).
 * In 2D and 3D the decision uses adaptive exact predicates (segment pairs take an
 * allocation-free fast path); other dimensions defer to {@link exactRelation}.
 * @throws SkewlineInputError if either argument is not a primitive, holds non-finite
 * coordinates, or the two have different dimensions.
 */
export declare function intersects(a: Primitive, b: Primitive): boolean;
/**
 * Are the points p, q, r collinear (exactly)? Any dimension ≥ 1; true when two of them
 * coincide. Decided by the exact signs of all 2×2 minors of [q − p; r − p].
 * @throws SkewlineInputError on missing, non-finite or different-dimension points.
 */
export declare function collinear(p: VecLike, q: VecLike, r: VecLike): boolean;
/**
 * Are the points p, q, r, s coplanar (exactly)? Any dimension: always true in 1D and 2D;
 * in 3D the exact orientation (Shewchuk's orient3d with a static filter) is zero; in higher
 * dimensions every 3×3 minor of [q − p; r − p; s − p] vanishes. True when points coincide.
 * @throws SkewlineInputError on missing, non-finite or different-dimension points.
 */
export declare function coplanar(p: VecLike, q: VecLike, r: VecLike, s: VecLike): boolean;
