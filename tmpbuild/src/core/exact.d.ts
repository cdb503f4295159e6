/**
 * Exact decisions in BigInt arithmetic, for any dimension and any pair of kinds.
 *
 * Every finite double is m·2^e with an integer m, so after multiplying all coordinates of a
 * query by one power of two they are integers, and every question about incidence
 * (do they share a point? are they parallel?) becomes integer arithmetic with no rounding.
 * This is the slow path: the floating-point kernels answer first and call in here only when
 * their error bound cannot decide. It is the single source of truth for `relation`.
 */
import type { Primitive } from './types.js';
/** An exact rational num/den with den > 0, in lowest terms where a public function returns it. */
export interface Rational {
    /** Numerator. */
    num: bigint;
    /** Denominator, > 0. */
    den: bigint;
}
/** What {@link exactRelation} found. */
export interface ExactRelation {
    /** `none`: no common point; `point`: exactly one common point; `overlap`: a common piece of positive length. */
    share: 'none' | 'point' | 'overlap';
    /** Both have a non-zero direction and the directions are exactly parallel. */
    parallel: boolean;
    /**
     * Parameters of a common point when share ≠ 'none' (else null). For an overlap it is the
     * middle of the shared piece; if the shared piece is a ray, its origin; if it is a whole
     * line (two collinear lines), the middle of a.p0 and b.p0.
     */
    s: Rational | null;
    /** The parameter on b of that common point (null when share is 'none'). */
    t: Rational | null;
}
/**
 * Exact integers for a list of doubles: `xs[i] = ints[i]·2^exp` with one common `exp` (the
 * smallest binary exponent among the nonzero inputs), so sums, differences and products of the
 * integers are the exact values up to a known power of two. The returned array is fresh.
 * @throws RangeError on a non-finite input.
 */
export declare function toScaledBigInts(xs: ArrayLike<number>): {
    ints: bigint[];
    exp: number;
};
/**
 * Kind codes of the flat layout shared with the float kernels: a query is four consecutive
 * dim-vectors a0, a1, b0, b1 where a1 (b1) is the second point of a segment or line, the
 * direction of a ray, and ignored for a point.
 */
export declare const POINT = 0;
/** Kind code of a segment: a0, a1 are its endpoints. */
export declare const SEGMENT = 1;
/** Kind code of a ray: a0 is its origin, a1 its direction. */
export declare const RAY = 2;
/** Kind code of a line: through a0 and a1. */
export declare const LINE = 3;
/** Kind code of a primitive. */
export declare function kindCode(p: Primitive): number;
/**
 * Decides exactly whether two primitives of the same dimension share a point, whether
 * they are parallel, and where they meet.
 *
 * Works in any dimension. Cost: a few dozen BigInt operations on numbers of up to a few
 * thousand bits (microseconds); meant for the cases floating point cannot decide.
 * A zero-length segment is treated as its point (s = 0).
 */
export declare function exactRelation(a: Primitive, b: Primitive): ExactRelation;
/** {@link exactRelation} on the flat layout (see {@link POINT}). */
export declare function exactRelationFlat(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): ExactRelation;
/**
 * True when the directions of a and b are exactly parallel (both non-zero).
 * Points and zero-length segments have no direction and are never parallel.
 */
export declare function exactParallel(a: Primitive, b: Primitive): boolean;
/** What {@link exactClosestFlat} found: the exact minimiser, rounded once at the end. */
export interface ExactClosest {
    s: Rational;
    t: Rational;
    /** Squared distance in the input's units. */
    distanceSq: Rational;
    /** Nearest distance, faithfully rounded. */
    distance: number;
    /** d − c, each component correctly rounded. */
    vector: number[];
}
/**
 * The exact nearest pair and distance of two primitives on the flat layout, any dimension,
 * any kinds. Used when the floating-point distance of a pair that shares no point rounds to
 * zero, so that `distance === 0` only for pairs that really touch. For a locus of nearest
 * pairs (parallel primitives) it returns one of them, not the middle.
 */
export declare function exactClosestFlat(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): ExactClosest;
/**
 * The exact nearest points c (on a) and d (on b) of {@link exactClosestFlat}, each coordinate
 * rounded once to the nearest double (±Infinity where it lies beyond the double range). Used
 * where the floating-point point p0 + s·dir overflows although the point itself is representable
 * (a ray with a tiny direction reaching far). For a locus of nearest pairs it returns one pair.
 */
export declare function exactNearestPointsFlat(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): {
    c: number[];
    d: number[];
};
/** The double nearest to num/den (ties to even), for any size of num and den (den ≠ 0). */
export declare function ratToNumber(num: bigint, den: bigint): number;
/**
 * The double nearest to (num/den)·2^e, ties to even, with a single rounding even where the
 * result is subnormal (the quotient is truncated to the exact number of bits the result can
 * hold, with a sticky bit, then rounded once). den ≠ 0.
 */
export declare function ratToDouble(num: bigint, den: bigint, e: number): number;
/** sqrt(num/den)·2^e as a double, faithful (error below one ulp); num ≥ 0, den > 0. */
export declare function ratSqrt(num: bigint, den: bigint, e?: number): number;
