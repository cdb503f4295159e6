/**
 * skewline: closest points and exact intersections between points, lines, rays and segments.
 * @packageDocumentation
 */
export type { VecLike, Kind, Primitive, Relation, ClosestResult } from './types.js';
export { point, segment, line, ray, isPrimitive, SkewlineInputError } from './primitives.js';
