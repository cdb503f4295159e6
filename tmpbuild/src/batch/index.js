/** batch: millions of segment pairs over flat typed arrays — distances, parameters and exact intersection flags, with a WebAssembly SIMD path. */
export { segmentDistances, segmentClosestBatch, segmentIntersectsBatch, allocPairs3, MAX_RESIDENT_PAIRS } from './batch.js';
