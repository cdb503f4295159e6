/** The quadratic's integer coefficients (in units of 2^(2·exp)). */
export interface ExactGap {
    A: bigint;
    B: bigint;
    C: bigint;
    /** One unit of the integers is 2^exp in the input's units (so A, B, C carry 2^(2·exp)). */
    exp: number;
}
/** A, B, C of f(t) exactly, from p0, p1, q0, q1 (dim numbers each) and the radii. */
export declare function exactGap(p0: ArrayLike<number>, p1: ArrayLike<number>, q0: ArrayLike<number>, q1: ArrayLike<number>, r1: number, r2: number): ExactGap;
/** The exact sign of f(t) = A t² + 2B t + C at a double t ∈ [0, 1]. */
export declare function gapSign(g: ExactGap, t: number): number;
/**
 * The exact decision: does f reach ≤ 0 somewhere on [0, 1]? Returns -1 for never, 0 when it
 * already holds at t = 0, and 1 when the first contact is inside (0, 1].
 */
export declare function exactHit(g: ExactGap): -1 | 0 | 1;
/**
 * The first double t in (lo, hi] with f(t) ≤ 0, given f(lo) > 0 and f(hi) ≤ 0 and f decreasing
 * on [lo, hi]: bisection over the doubles, each step an exact sign test. The exact root lies in
 * (prev(t), t], so t is within one ulp of it.
 */
export declare function firstContact(g: ExactGap, lo: number, hi: number): number;
/** The minimum of |c + Σ xᵢ·gᵢ|² over the box xᵢ ∈ [0, 1], exactly: num / den with den > 0, and a minimiser xᵢ = xs[i] / den. */
export interface BoxMin {
    num: bigint;
    den: bigint;
    xs: bigint[];
    /** The minimiser's common denominator (den = xden²). */
    xden: bigint;
}
/**
 * The exact minimum of the convex quadratic |c + Σ xᵢ·gᵢ|² over the unit box (k = gs.length ≤ 3
 * integer vectors), by enumerating the box's 3^k faces: on each face (every xᵢ fixed at 0 or 1,
 * or free) the minimiser over the face's affine hull solves the normal equations (Cramer's
 * rule); faces where they are singular are skipped, which is safe because a convex quadratic
 * that is flat along some direction of a face takes its minimum over that face on the face's
 * boundary as well. The smallest value among the feasible face minimisers is the box minimum.
 * With `bound` given it stops at the first face whose value is ≤ bound.num / bound.den.
 */
export declare function exactBoxMin(c: bigint[], gs: bigint[][], bound?: {
    num: bigint;
    den: bigint;
}): BoxMin;
/**
 * A translating capsule against a resting one, exactly: with every input scaled to integers,
 * W = a0 − b0, M = move, U = a1 − a0, V = b1 − b0 and R = ra + rb, the capsules touch at time t
 * exactly when min over s, s' ∈ [0, 1] of |W + t·M + s·U − s'·V|² ≤ R².
 */
export interface ExactCapsule {
    W: bigint[];
    M: bigint[];
    U: bigint[];
    V: bigint[];
    R: bigint;
}
/** The exact integer form of a capsule sweep (see {@link ExactCapsule}). */
export declare function exactCapsule(a0: ArrayLike<number>, a1: ArrayLike<number>, ra: number, move: ArrayLike<number>, b0: ArrayLike<number>, b1: ArrayLike<number>, rb: number): ExactCapsule;
/** Do the capsules touch at some t ∈ [0, 1]? Exact; also returns a minimising time (rounded to a double). */
export declare function capsuleHitExact(e: ExactCapsule): {
    hit: boolean;
    tMin: number;
};
/** Whether the capsules touch at the double t ∈ [0, 1]: exactly. */
export declare function capsuleTouchesAt(e: ExactCapsule, t: number): boolean;
