/**
 * Validating constructors for points, segments, lines and rays.
 * Bad input throws a `SkewlineInputError` that names the argument and the coordinate.
 */
import type { Kind, Primitive, VecLike } from './types.js';

/** Thrown for invalid input: the message names the argument and what is wrong with it. */
export class SkewlineInputError extends TypeError {
  /** Always `'SkewlineInputError'`. */
  override name = 'SkewlineInputError';
}

const AXES = ['x', 'y', 'z', 'w'] as const;

/**
 * Copies `v` into a fresh Float64Array, checking that every coordinate is a finite number.
 *
 * Accepted shapes: an array or typed array of numbers (any length ≥ 1), or an object with
 * numeric `x`, `y` and optionally `z` and `w` properties — three.js's Vector2/3/4, gl-matrix
 * users' `{x, y, z}` records and the like. For objects the dimension is 2 (`x`, `y`), 3 (with
 * `z`) or 4 (with `z` and `w`); a `w` without a `z` is an error.
 * @throws SkewlineInputError if `v` is missing, of neither shape, empty, has a length that is not
 * an integer up to {@link MAX_DIM}, holds a non-number, NaN or ±Infinity, or has a getter that
 * throws (the message names `what` and the index or axis).
 */
export function toVector(v: unknown, what: string): Float64Array {
  if (v === undefined || v === null) throw new SkewlineInputError(`${what} is missing`);
  if (typeof v !== 'object') {
    throw new SkewlineInputError(`${what} must be an array of numbers or an {x, y[, z]} object, got ${describeValue(v)}`);
  }
  const len = read(v, 'length', what);
  if (typeof len !== 'number') return fromXYZ(v as Record<string, unknown>, what);
  const a = v as ArrayLike<unknown>;
  const n = len;
  if (!Number.isInteger(n) || n > MAX_DIM) {
    throw new SkewlineInputError(`${what} has length ${describeValue(n)}: a vector needs an integer number of coordinates from 1 to ${MAX_DIM}`);
  }
  if (n < 1) throw new SkewlineInputError(`${what} has no coordinates`);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = coordinate(read(a, i, what), what, `[${i}]`);
  return out;
}

/** The largest dimension a vector may have (2²⁴ coordinates, 128 MiB as doubles). */
export const MAX_DIM = 2 ** 24;

/** o[key], with a getter's exception turned into a {@link SkewlineInputError} naming the input. */
function read(o: object, key: string | number, what: string): unknown {
  try {
    return (o as Record<string | number, unknown>)[key];
  } catch (err) {
    const where = typeof key === 'number' ? `[${key}]` : `.${key}`;
    throw new SkewlineInputError(`${what}${where} could not be read: ${err instanceof Error ? err.message : describeValue(err)}`);
  }
}

function fromXYZ(o: Record<string, unknown>, what: string): Float64Array {
  if (!('x' in o) || !('y' in o)) {
    throw new SkewlineInputError(`${what} must be an array of numbers or an {x, y[, z]} object, got an object without x and y`);
  }
  const z = 'z' in o ? read(o, 'z', what) : undefined;
  const w = 'w' in o ? read(o, 'w', what) : undefined;
  const hasZ = z !== undefined;
  const hasW = w !== undefined;
  if (hasW && !hasZ) throw new SkewlineInputError(`${what} has w but no z`);
  const n = hasW ? 4 : hasZ ? 3 : 2;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = coordinate(i === 2 ? z : i === 3 ? w : read(o, AXES[i], what), what, `.${AXES[i]}`);
  return out;
}

function coordinate(x: unknown, what: string, where: string): number {
  if (typeof x !== 'number') throw new SkewlineInputError(`${what}${where} is not a number (got ${describeValue(x)})`);
  if (!Number.isFinite(x)) throw new SkewlineInputError(`${what}${where} is not finite (got ${x})`);
  return x;
}

/**
 * A value as an error message shows it: numbers as themselves, strings quoted (so '3' reads
 * "3", not 3), null, arrays and other types by name.
 */
export function describeValue(x: unknown): string {
  if (x === null) return 'null';
  if (typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean') return String(x);
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'string') return JSON.stringify(x.length > 20 ? x.slice(0, 20) + '…' : x);
  return typeof x;
}

function sameDim(a: Float64Array, b: Float64Array, what: string): void {
  if (a.length !== b.length) {
    throw new SkewlineInputError(`${what}: points of different dimensions (${a.length} and ${b.length})`);
  }
}

function make(kind: Kind, p0: Float64Array, p1: Float64Array, dir: Float64Array): Primitive {
  return Object.freeze({ kind, dim: p0.length, p0, p1, dir });
}

function difference(p1: Float64Array, p0: Float64Array): Float64Array {
  const d = new Float64Array(p0.length);
  for (let i = 0; i < d.length; i++) d[i] = p1[i] - p0[i];
  return d;
}

/** A point. @throws SkewlineInputError on missing or non-finite coordinates. */
export function point(p: VecLike): Primitive {
  const q = toVector(p, 'point');
  return make('point', q, q, new Float64Array(q.length));
}

/**
 * The segment from p0 to p1. p0 = p1 is allowed: a zero-length segment behaves as a point
 * and its pairs are tagged `degenerate`.
 * @throws SkewlineInputError on missing, non-finite or different-dimension endpoints.
 */
export function segment(p0: VecLike, p1: VecLike): Primitive {
  const a = toVector(p0, 'segment p0');
  const b = toVector(p1, 'segment p1');
  sameDim(a, b, 'segment');
  return make('segment', a, b, difference(b, a));
}

/**
 * The infinite line through p0 and p1 (parameter s = 0 at p0, 1 at p1).
 * @throws SkewlineInputError if p0 = p1 (a line needs two distinct points), or on bad coordinates.
 */
export function line(p0: VecLike, p1: VecLike): Primitive {
  const a = toVector(p0, 'line p0');
  const b = toVector(p1, 'line p1');
  sameDim(a, b, 'line');
  if (a.every((x, i) => x === b[i])) throw new SkewlineInputError('line: p0 and p1 are the same point');
  return make('line', a, b, difference(b, a));
}

/**
 * The ray from `origin` along `direction` (not normalised; s is measured in units of it).
 * @throws SkewlineInputError if the direction is zero, or on bad coordinates.
 */
export function ray(origin: VecLike, direction: VecLike): Primitive {
  const o = toVector(origin, 'ray origin');
  const d = toVector(direction, 'ray direction');
  sameDim(o, d, 'ray');
  if (d.every((x) => x === 0)) throw new SkewlineInputError('ray: direction is the zero vector');
  return make('ray', o, o, d);
}

/** True if `x` is a primitive made by this module's constructors (or has the same shape). */
export function isPrimitive(x: unknown): x is Primitive {
  if (typeof x !== 'object' || x === null) return false;
  const k = (x as { kind?: unknown }).kind;
  return (k === 'point' || k === 'segment' || k === 'line' || k === 'ray') &&
    (x as { p0?: unknown }).p0 instanceof Float64Array;
}
