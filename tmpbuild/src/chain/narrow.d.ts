/**
 * Exact "distance ≤ τ" for the pair a0, a1, b0, b1 (dim numbers each) at the start of Q. With τ = 0 in 2D and 3D: the exact intersection
 * predicates. Otherwise the kernel distance d (within 8·u·S of the exact one, S the pair's
 * size; 64·u·(|u|₁ + |v|₁ + |w|₁) ≥ 64·u·S is used) decides when it is clear of τ, and the
 * exact squared distance compared with τ² decides the rest.
 */
/** Counters for the benchmark's time split: pairs tested, and pairs decided in exact arithmetic. */
export declare const narrowStats: {
    tests: number;
    exact: number;
};
export declare function pairWithin(Q: Float64Array, dim: number, tau: number): boolean;
/**
 * Do adjacent segments a→v and v→b fold back over each other (share a piece of positive
 * length)? Exactly when a − v and b − v point the same way: all minors against a pivot axis
 * where a differs from v vanish (exact orientation signs), and the pivot coordinates of a
 * and b lie on the same side of v's.
 */
export declare function foldsBack(P: Float64Array, dim: number, a: number, v: number, b: number): boolean;
