import type { VecLike } from '../core/types.js';
/** The result of {@link closestApproach}. */
export interface Approach {
    /** The time in [0, 1] at which the two moving points are nearest (the earliest such time). */
    time: number;
    /** Their distance then. */
    distance: number;
    /** Where the first point is then. */
    p: number[];
    /** Where the second point is then. */
    q: number[];
}
/** The result of {@link sphereSweep}. */
export interface SphereHit {
    /** Whether the spheres touch at some t ∈ [0, 1] (decided exactly). */
    hit: boolean;
    /**
     * The first time of contact: 0 if they touch at the start; otherwise the first double at
     * which the exact spheres touch or overlap (within one ulp, at most four, of the exact time).
     * 1 when there is no hit (the whole step is free).
     */
    time: number;
    /** The first sphere's centre at `time`. */
    p: number[];
    /** The second sphere's centre at `time`. */
    q: number[];
    /** The unit vector from p to q at `time` (the contact normal); zeros if p = q. */
    normal: number[];
}
/**
 * When during the step two moving points are nearest, and where: the minimum of |p(t) − q(t)|
 * over t ∈ [0, 1]. This is the distance from the origin to the segment from w0 = p0 − q0 to
 * w1 = p1 − q1 (the relative motion), computed by {@link closestPoints} on those differences
 * kept as two-sums, so the distance is within 8·u·S of the exact minimum,
 * S = max(|p0 − q0|, |p1 − p0|, |q1 − q0|).
 *
 * Edge cases: equal velocities (the gap never changes) give time 0; points that meet give
 * distance 0 exactly.
 * @throws SkewlineInputError on missing, non-finite or different-dimension points.
 */
export declare function closestApproach(p0: VecLike, p1: VecLike, q0: VecLike, q1: VecLike): Approach;
/**
 * The first time in the step at which two moving spheres touch (|p(t) − q(t)| ≤ r1 + r2), or
 * `hit: false` when they never do. Every hit/miss decision is exact; see the module comment.
 *
 * Edge cases: spheres touching or overlapping at the start give `time: 0`; a grazing contact at
 * exactly r1 + r2 is a hit; equal velocities never bring a separated pair together; radius 0 is
 * a point (two points hit only when they meet exactly).
 * @throws SkewlineInputError on bad or different-dimension points, or a radius that is negative
 * or not finite.
 */
export declare function sphereSweep(p0: VecLike, p1: VecLike, r1: number, q0: VecLike, q1: VecLike, r2: number): SphereHit;
/**
 * The first contact time of sphereSweep on validated input, or −1 for no contact in [0, 1].
 * Three tiers: floating point with rigorous error bounds; where a bound does not decide, the
 * coefficients again in double-double (error-free two-sums and two-products, core/eft.ts) with
 * bounds of order u²; exact BigInt only where that does not decide either. The time is accepted
 * from the formula when its error bound is below two ulps, and otherwise certified a posteriori:
 * f is evaluated in double-double (with an error bound) at the candidate and at the double before
 * it, and a Newton step on the accurate f(t) moves the candidate when the signs are not
 * "before: > 0, at: ≤ 0" — the candidate is then exactly the first double of contact.
 */
export declare function sweepTime(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, r1: number, r2: number): number;
/** How often the certificate ran, and how often it handed over to the exact path. */
export declare const certifyStats: {
    runs: number;
    failed: number;
};
/** How often the exact paths ran (for the benchmark's report): decisions and time searches. */
export declare const sweepStats: {
    exact: number;
};
/**
 * Rhodes' test from the gem: do the two *paths* (the segments p0p1 and q0q1) come within r of
 * each other? Decided exactly. A necessary but not sufficient condition for a collision: the
 * paths can pass close at different times (the spheres then never meet). Use
 * {@link sphereSweep} for the real question.
 * @throws SkewlineInputError on bad points or r not a finite number ≥ 0.
 */
export declare function pathsWithin(p0: VecLike, p1: VecLike, q0: VecLike, q1: VecLike, r: number): boolean;
/**
 * The signed distance between two capsules (segments a0a1 and b0b1 with radii ra, rb): the
 * segments' distance minus ra + rb; negative is the depth of penetration. A sphere is a
 * capsule of zero length. The segments' distance has closestPoints' accuracy (8·u·S).
 * @throws SkewlineInputError on bad points or radii.
 */
export declare function capsuleDistance(a0: VecLike, a1: VecLike, ra: number, b0: VecLike, b1: VecLike, rb: number): number;
