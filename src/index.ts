/**
 * skewline: closest points and exact intersections between points, lines, rays and segments.
 * Browser-safe: nothing here imports a Node.js module. The worker-thread batch lives in
 * `skewline/parallel` (src/parallel/index.ts).
 * @packageDocumentation
 */
export * from './core/index.js';
export * from './closest/index.js';
export * from './intersect/index.js';
export * from './batch/index.js';
export * from './motion/index.js';
export * from './chain/index.js';
export * from './gis/index.js';
export * from './fold/index.js';
