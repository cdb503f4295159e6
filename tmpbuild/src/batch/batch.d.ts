export { allocPairs3, MAX_RESIDENT_PAIRS } from './wasm.js';
/** Number of pairs in `pairs`, validating the layout (shared with parallel.ts). */
export declare function pairCount(pairs: unknown, dim: unknown, fn: string): number;
/**
 * Distances between the segments of each pair: out[i] for pair i. Fast paths for dim 2 and
 * 3, a generic one for any dim ≥ 1; the accuracy of `closestPoints` on every pair (within
 * 8·2⁻⁵³·S of the exact distance, and exactly 0 when the segments touch). Zero-length
 * segments are points.
 * For dim 3, pairs in an array from {@link allocPairs3} are measured in place by a
 * WebAssembly kernel with the same arithmetic (identical results, faster).
 * @param out - optional Float64Array (length ≥ number of pairs) to fill; returned.
 * @throws SkewlineInputError on a bad layout, a too-short `out`, or a non-finite coordinate
 * (naming the pair).
 */
export declare function segmentDistances(pairs: Float64Array, dim: number, out?: Float64Array): Float64Array;
/**
 * Like {@link segmentDistances}, with the parameters: out[3i] = s, out[3i+1] = t,
 * out[3i+2] = distance, where c = a0 + s·(a1 − a0) and d = b0 + t·(b1 − b0) are the nearest
 * points (for a locus of nearest pairs — parallel overlapping segments — the middle of it).
 * @param out - optional Float64Array of length ≥ 3·pairs.
 * @throws SkewlineInputError as {@link segmentDistances}.
 */
export declare function segmentClosestBatch(pairs: Float64Array, dim: number, out?: Float64Array): Float64Array;
/**
 * Exact yes/no per pair: out[i] = 1 when the segments of pair i share a point, else 0
 * (dim 2 and 3 by filtered orientation predicates; any other dim by exact arithmetic).
 * Agrees with `segmentDistances(...)[i] === 0` on every input.
 * @param out - optional Uint8Array of length ≥ number of pairs.
 * @throws SkewlineInputError on a bad layout or a non-finite coordinate.
 */
export declare function segmentIntersectsBatch(pairs: Float64Array, dim: number, out?: Uint8Array): Uint8Array;
