/**
 * Segment–segment closest points in 3D (12 numbers per pair from index k).
 *
 * The unconstrained minimiser s* comes from one of two formulas, chosen by
 * sin²θ = D/(|u|²|v|²), D = |u|²|v|² − (u·v)²:
 * - sin²θ ≥ 1/16 (most random pairs): Ericson's dot-product form s* = (b·e − c·d)/D (Real-Time
 *   Collision Detection §5.1.9), whose cancellation costs at most a factor 1/sin²θ ≤ 16;
 * - sin²θ < 1/16: the cross-product form s* = n·(v×w)/|n|², n = u×v, whose minors lose only a
 *   factor 1/sinθ (Binet–Cauchy); below sin²θ = 2⁻⁵⁰, n is evaluated error-free (core/eft.ts);
 * - exactly parallel or zero-length pieces, extreme magnitudes and pairs within 64u of touching
 *   go to the generic kernel (exact arithmetic decides what must be decided).
 * Then clamp s, project onto b, clamp t, project back. The final projection is always right (at
 * the constrained optimum s is the best s for its t), so there is no case analysis and no
 * unpredictable branch, and s and t are consistent: an error in s* can only slide the pair
 * along the valley of the distance function, which changes the distance to second order.
 */
export declare function closestSegSeg3(data: ArrayLike<number>, k: number, out: Float64Array | null, o: number): number;
/**
 * Segment–segment closest points in 2D (8 numbers per pair from index k).
 *
 * In the plane, non-parallel segments whose lines cross inside both segments meet. The fast
 * path certifies such a crossing when s* = (v×w)/(u×v) and t* = (u×w)/(u×v) are inside (0, 1)
 * by more than a bound on the rounding of the 2×2 determinants (including the rounding of the
 * differences u, v, w: 8u·Σ|products|, after Shewchuk's orient2d error analysis); it returns 0
 * with the rounded parameters. Otherwise the nearest pair lies on an edge of the parameter
 * square: clamp and project (Ericson §5.1.9), with the same exact hand-over as the 3D kernel.
 */
export declare function closestSegSeg2(data: ArrayLike<number>, k: number, out: Float64Array | null, o: number): number;
/**
 * Segment–segment closest points in any dimension (4·dim numbers per pair from index k);
 * the generic kernel with its full accuracy.
 */
export declare function closestSegSegN(data: ArrayLike<number>, k: number, dim: number, out: Float64Array | null, o: number): number;
