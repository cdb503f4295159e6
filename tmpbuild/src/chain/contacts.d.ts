import type { ChainPoints, PreparedChain } from './input.js';
/** Options of {@link chainContacts} and {@link chainCollisions}. */
export interface ChainOptions {
    /** Coordinates per vertex; required when `points` is a flat array, checked otherwise. */
    dim?: number;
    /** Two segments are in contact when their exact distance is ≤ thickness (a length ≥ 0; default 0: they share a point). */
    thickness?: number;
    /** Add the segment from the last vertex back to the first (default false). */
    closed?: boolean;
    /** A second chain: report contacts between `points` (i) and this chain (j) instead of within one chain. */
    against?: ChainPoints;
    /** Whether `against` is closed (default: the same as `closed`). */
    againstClosed?: boolean;
}
/**
 * Contacts, one per pair of segments, sorted by i then j. Segment k runs from vertex k to vertex
 * k + 1 (for a closed chain the last one from the last vertex back to the first).
 */
export interface ChainContacts {
    /** Number of contacts. */
    count: number;
    /** First segment of each contact (i < j within one chain; a segment of `points` with `against`). */
    i: Int32Array;
    /** Second segment of each contact (a segment of `against` with `against`). */
    j: Int32Array;
    /** Distance between the two segments: exactly 0 when they share a point, otherwise as computed (a few ulps). */
    distance: Float64Array;
    /** Parameter of the nearest point on segment i (0 at its first vertex, 1 at its second; the middle of a shared piece). */
    s: Float64Array;
    /** Parameter of the nearest point on segment j. */
    t: Float64Array;
}
/** A share of a parallel search: work items are claimed through a shared counter. */
export interface ParallelWork {
    /** Int32Array over a SharedArrayBuffer; element 0 is the next unclaimed item. */
    counter: Int32Array;
    /** How many work items to cut the search into (every worker must use the same number). */
    want: number;
}
/**
 * Where the last {@link chainContacts} call spent its time (for the benchmark; not part of the
 * public API): reading and validating the input, building the hierarchy, the search (traversal
 * and narrow phase, interleaved), sorting, and computing distance, s and t of each contact.
 */
export declare const chainStats: {
    readMs: number;
    buildMs: number;
    searchMs: number;
    sortMs: number;
    numbersMs: number;
};
/**
 * Every pair of segments of a polygonal chain (or of two chains, with `options.against`) whose
 * exact distance is at most `options.thickness`.
 *
 * What counts (the chains issue's definition):
 * - two non-adjacent segments (|i − j| ≥ 2, and for a closed chain not the first with the last)
 *   are in contact when their exact distance is ≤ thickness; with thickness 0 (the default),
 *   when they share a point — crossings, touching vertices, T-junctions and collinear overlaps
 *   all count. A pair exactly at the thickness is in, one an ulp farther is out: every decision
 *   the floating-point distance cannot vouch for is made in exact rational arithmetic;
 * - adjacent segments always share their vertex and count only when they fold back over each
 *   other (the chain reverses along itself: a shared piece of positive length), whatever the
 *   thickness;
 * - a repeated consecutive vertex makes a zero-length segment: it is never reported, and the
 *   segments on either side of it count as adjacent;
 * - a GeoJSON ring (the first vertex repeated at the end) behaves as a closed ring: its first
 *   and last segment are adjacent. With `closed: true` a repeated closing vertex is allowed
 *   (the zero-length closing segment is dropped);
 * - with `against`, every pair (segment i of `points`, segment j of `against`) is tested, no
 *   adjacency applies, and i, s refer to `points`.
 *
 * Cost: a bounding-box hierarchy in chain order (linear build, no sorting) and a dual
 * traversal, then a filtered exact test per pair whose boxes come within the thickness:
 * about n log n for chains that do not crowd one spot. Memory O(n) in typed arrays.
 * Not re-entrant (module scratch).
 *
 * @param points a flat array (x, y[, z …] per vertex, with `options.dim`) or an array of points
 *   (arrays, typed arrays or `{x, y[, z]}` objects).
 * @throws SkewlineInputError for a non-finite coordinate (naming the vertex), mixed dimensions,
 *   a flat array without `dim`, or a thickness that is not a finite number ≥ 0.
 */
export declare function chainContacts(points: ChainPoints, options?: ChainOptions): ChainContacts;
/**
 * Boes' `collisions(p)`: 1 for each segment of `points` that is in contact (as defined by
 * {@link chainContacts}, same options) with any other segment, 0 otherwise. Its length is the
 * number of segments of `points` (n − 1, or n for a closed chain); with `against`, it flags the
 * segments of `points` that touch `against`.
 */
export declare function chainCollisions(points: ChainPoints, options?: ChainOptions): Uint8Array;
/**
 * The sorted contact pairs as compact indices, and the prepared chains, for the other chain
 * queries (crossing points). Not part of the public API.
 */
export declare function contactPairs(points: ChainPoints, options?: ChainOptions): {
    A: PreparedChain;
    B: PreparedChain;
    CI: Int32Array;
    CJ: Int32Array;
    tau: number;
};
/** Options of {@link multiChainContacts}. */
export interface MultiChainOptions {
    /** Coordinates per vertex; required when the chains are flat arrays, checked otherwise. */
    dim?: number;
    /** As for {@link chainContacts}. */
    thickness?: number;
    /** Every chain is closed (default false; GeoJSON rings close themselves by repeating their first vertex). */
    closed?: boolean;
    /** Also report contacts between different chains (default true); false: only within each chain. */
    between?: boolean;
}
/** Contacts among several chains, sorted by (chainI, i, chainJ, j), with (chainI, i) before (chainJ, j). */
export interface MultiChainContacts extends ChainContacts {
    /** The chain of segment i. */
    chainI: Int32Array;
    /** The chain of segment j. */
    chainJ: Int32Array;
}
/**
 * Contacts within each of several chains (as {@link chainContacts} defines them: adjacency and
 * ring rules apply within a chain) and, unless `between: false`, between any two of them (every
 * pair of segments from different chains within the thickness). One search over all of them:
 * for a map's rings or a bundle of fibres this is much cheaper than testing chains in pairs.
 * Not re-entrant (module scratch).
 * @throws SkewlineInputError as {@link chainContacts} does, naming the chain (`chains[k]`).
 */
export declare function multiChainContacts(chains: readonly ChainPoints[], options?: MultiChainOptions): MultiChainContacts;
/** Pairs found by one worker of a parallel search, with their numbers (compact indices). */
export interface PairShare {
    CI: Int32Array;
    CJ: Int32Array;
    distance: Float64Array;
    s: Float64Array;
    t: Float64Array;
}
/**
 * The worker side of a parallel chain search (skewline/parallel): the work items this thread
 * claims, their contacts and numbers. Fold-backs are not included (the caller adds them).
 * Not part of the public API.
 */
export declare function searchShare(A: PreparedChain, B: PreparedChain | null, tau: number, work: ParallelWork): PairShare;
/**
 * The main-thread side: validates and prepares the input (as chainContacts does), and returns
 * the fold-back pairs with their numbers. Not part of the public API.
 */
export declare function prepareShares(points: ChainPoints, options?: ChainOptions): {
    A: PreparedChain;
    B: PreparedChain | null;
    tau: number;
    folds: PairShare;
};
/**
 * Merges the shares of a parallel search into chainContacts' result: the same pairs in the same
 * order with the same numbers as one thread gives (each pair is found by exactly one share, and
 * its numbers come from the same kernel). Not part of the public API.
 */
export declare function mergeShares(A: PreparedChain, B: PreparedChain | null, shares: readonly PairShare[]): ChainContacts;
