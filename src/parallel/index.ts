/**
 * skewline/parallel (Node.js only): batch distances and chain contacts split over worker threads.
 * Kept out of the main entry so that browser bundles never meet node:os or node:worker_threads.
 * @packageDocumentation
 */
export { segmentDistancesParallel } from './distances.js';
export type { DistancesParallelOptions, ParallelOptions } from './distances.js';
export { chainContactsParallel } from './chains.js';
export { allocSharedChain, allocSharedPairs } from './shared.js';
export { closeParallelPool, maxThreads, parallelPoolSize } from './pool.js';
