export { point, segment, line, ray, isPrimitive, SkewlineInputError } from './primitives.js';
export { exactRelation, exactParallel, POINT, SEGMENT, RAY, LINE } from './exact.js';
