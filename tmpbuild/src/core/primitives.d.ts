/**
 * Validating constructors for points, segments, lines and rays.
 * Bad input throws a `SkewlineInputError` that names the argument and the coordinate.
 */
import type { Primitive, VecLike } from './types.js';
/** Thrown for invalid input: the message names the argument and what is wrong with it. */
export declare class SkewlineInputError extends TypeError {
    /** Always `'SkewlineInputError'`. */
    name: string;
}
/**
 * Copies `v` into a fresh Float64Array, checking that every coordinate is a finite number.
 *
 * Accepted shapes: an array or typed array of numbers (any length ≥ 1), or an object with
 * numeric `x`, `y` and optionally `z` and `w` properties — three.js's Vector2/3/4, gl-matrix
 * users' `{x, y, z}` records and the like. For objects the dimension is 2 (`x`, `y`), 3 (with
 * `z`) or 4 (with `z` and `w`); a `w` without a `z` is an error.
 * @throws SkewlineInputError if `v` is missing, of neither shape, empty, or holds a non-number,
 * NaN or ±Infinity (the message names `what` and the index or axis).
 */
export declare function toVector(v: unknown, what: string): Float64Array;
/** A point. @throws SkewlineInputError on missing or non-finite coordinates. */
export declare function point(p: VecLike): Primitive;
/**
 * The segment from p0 to p1. p0 = p1 is allowed: a zero-length segment behaves as a point
 * and its pairs are tagged `degenerate`.
 * @throws SkewlineInputError on missing, non-finite or different-dimension endpoints.
 */
export declare function segment(p0: VecLike, p1: VecLike): Primitive;
/**
 * The infinite line through p0 and p1 (parameter s = 0 at p0, 1 at p1).
 * @throws SkewlineInputError if p0 = p1 (a line needs two distinct points), or on bad coordinates.
 */
export declare function line(p0: VecLike, p1: VecLike): Primitive;
/**
 * The ray from `origin` along `direction` (not normalised; s is measured in units of it).
 * @throws SkewlineInputError if the direction is zero, or on bad coordinates.
 */
export declare function ray(origin: VecLike, direction: VecLike): Primitive;
/** True if `x` is a primitive made by this module's constructors (or has the same shape). */
export declare function isPrimitive(x: unknown): x is Primitive;
