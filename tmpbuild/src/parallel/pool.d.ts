import type { ChainContacts, ChainOptions } from '../chain/contacts.js';
import type { ChainPoints } from '../chain/input.js';
/** Options of {@link segmentDistancesParallel}. */
export interface ParallelOptions {
    /**
     * Worker threads to use: an integer ≥ 1, default and cap the machine's available parallelism
     * (`os.availableParallelism()`; more threads than cores only add memory and switching). A
     * larger request is reduced to the cap; 0, negatives, fractions and NaN are errors.
     */
    threads?: number;
}
/**
 * `segmentDistances` (from 'skewline') split over worker threads: same layout, same results. The pairs are
 * read in place when `pairs` is a view of a SharedArrayBuffer; otherwise they are copied into
 * one first (a pass over the data). Pays off for large batches; for a few thousand pairs call
 * segmentDistances directly. Node.js only.
 * @returns a promise of a Float64Array over a SharedArrayBuffer, one distance per pair.
 * @throws (rejects with) SkewlineInputError as segmentDistances, naming the pair's index
 * within its worker's range.
 */
export declare function segmentDistancesParallel(pairs: Float64Array, dim: number, options?: ParallelOptions): Promise<Float64Array>;
/**
 * `chainContacts` (from 'skewline') with the search split over worker threads: the same
 * options, and the same result — the same pairs in the same order with bitwise the same
 * distances and parameters (every pair is found by exactly one thread and measured by the same
 * kernel). The chain is copied once into shared memory; each thread builds the hierarchy and
 * claims work items (independent node pairs of the dual traversal) from a shared counter, so
 * a crowded part of the chain does not leave the other threads idle. Worth it from about
 * 10⁵ segments; below that, call chainContacts. Node.js only.
 * @throws (rejects with) SkewlineInputError as chainContacts does, or for a bad `threads`.
 */
export declare function chainContactsParallel(points: ChainPoints, options?: ChainOptions & ParallelOptions): Promise<ChainContacts>;
/** The most worker threads segmentDistancesParallel uses: the machine's available parallelism. */
export declare function maxThreads(): number;
/** How many worker threads the pool holds now (they are created on first use, up to {@link maxThreads}). */
export declare function parallelPoolSize(): number;
/** Ends the pool's worker threads (they are idle and do not keep the process alive anyway). */
export declare function closeParallelPool(): Promise<void>;
