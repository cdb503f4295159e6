/**
 * The broad phase: a bounding-box hierarchy built in chain order, and a dual traversal that
 * hands every pair of segments whose boxes come within the thickness to a callback.
 *
 * Why chain order: consecutive segments of a chain are neighbours in space, so runs of L
 * segments make tight leaves and pairs of runs tight parents, with no sorting at all (the
 * build is one linear pass, the tree is implicit: node i of level k covers leaves
 * i·2^k … (i + 1)·2^k − 1). This is the "hierarchy built in chain order" of the chains issue;
 * a uniform grid was measured beside it in bench/chain/.
 *
 * Nothing is dropped: for two segments at exact distance δ ≤ τ (the thickness), every axis gap
 * g = lo_B − hi_A satisfies g ≤ δ ≤ τ, and since rounding to nearest is monotone and τ is a
 * double, the computed fl(lo_B − hi_A) ≤ τ too. So the test `fl(lo_B − hi_A) > τ` rejects only
 * pairs whose exact distance exceeds τ — no inflation or outward rounding is needed. Boxes
 * themselves are exact (minima and maxima of input doubles).
 */
/** Leaf size: segments per leaf (measured: 8 beats 4 and 16 on walks in 2D and 3D). */
export declare const LEAF = 8;
/** Boxes per level: level 0 holds the leaves; node stride is 2·dim (dim minima, then dim maxima). */
export interface ChainTree {
    dim: number;
    /** Number of segments. */
    m: number;
    /** Segment boxes: segment c's minima at c·2·dim, its maxima after them. */
    seg: Float64Array;
    levels: Float64Array[];
    counts: number[];
}
/**
 * Builds the hierarchy over segments 0 … m − 1 of the vertex array P (m + 1 vertices). Segments
 * flagged in `dead` get an empty box (+∞ minima, −∞ maxima): every box test rejects them.
 */
export declare function buildTree(P: Float64Array, dim: number, m: number, dead?: Uint8Array | null): ChainTree;
/** Called for each pair of leaves (qa of tree A, qb of tree B) whose boxes come within τ. */
export type LeafPairVisitor = (qa: number, qb: number) => void;
/** Called for each leaf of a self traversal (pairs within one leaf). */
export type LeafSelfVisitor = (q: number) => void;
/**
 * Expands the root pair (self, or A against B) breadth-first into at least `want` independent
 * node pairs (fewer if the tree runs out), dropping pairs whose boxes are apart: the work items
 * of a parallel search. Deterministic: the same trees give the same list. Quadruples
 * (level A, index A, level B, index B); a self item has equal halves.
 */
export declare function expandTasks(A: ChainTree, B: ChainTree, tau: number, want: number): Int32Array;
/**
 * Dual traversal. With `B === A` (self) it visits every leaf once through `self` and every
 * pair of distinct leaves qa < qb whose boxes come within τ through `pair`; with two trees it
 * visits every near pair (leaf of A, leaf of B). Iterative (an explicit stack of node pairs),
 * so chain length never overflows the call stack. Not re-entrant (module scratch stack).
 */
export declare function traverse(A: ChainTree, B: ChainTree, tau: number, pair: LeafPairVisitor, self: LeafSelfVisitor | null, tasks?: Int32Array | null, claim?: (() => number) | null): void;
