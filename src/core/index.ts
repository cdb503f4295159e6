/** core: what every concern shares — types, validated primitives and errors, error-free transforms, exact BigInt arithmetic. */
export type { VecLike, XYZLike, Kind, Primitive, Relation, ClosestResult } from './types.js';
export { point, segment, line, ray, isPrimitive, SkewlineInputError } from './primitives.js';
export { exactRelation, exactParallel, POINT, SEGMENT, RAY, LINE } from './exact.js';
export type { ExactRelation, Rational } from './exact.js';
