/**
 * skewline: closest points and exact intersections between points, lines, rays and segments.
 * @packageDocumentation
 */
export type { VecLike, Kind, Primitive, Relation, ClosestResult } from './types.js';
export { point, segment, line, ray, isPrimitive, SkewlineInputError } from './primitives.js';
export { closestPoints, segmentDistance, intersectLineSegments, pointAt } from './closest.js';
export type { IntersectLineSegmentsOptions, LineSegmentsResult } from './closest.js';
export { closestFlat, OUT_S, OUT_T, OUT_DIST, OUT_REL, OUT_FLAGS, OUT_VEC } from './closest-kernel.js';
export { exactRelation, exactParallel, POINT, SEGMENT, RAY, LINE } from './exact.js';
export type { ExactRelation, Rational } from './exact.js';
export { closestSegSeg2, closestSegSeg3, closestSegSegN } from './kernels.js';
export { segmentDistances, segmentClosestBatch, segmentIntersectsBatch, allocPairs3, MAX_RESIDENT_PAIRS } from './batch.js';
export { intersects, intersectsSegments2, intersectsSegments3, collinear, coplanar } from './intersects.js';
export { segmentIntersection2D } from './segment-intersection-2d.js';
export type { SegmentIntersection2D } from './segment-intersection-2d.js';
export { segmentDistancesParallel, closeParallelPool } from './parallel.js';
export type { ParallelOptions } from './parallel.js';
