/**
 * Small helpers shared by the motion functions for validating input without allocating and for
 * arithmetic that stays finite at every finite input (points near ±1.8e308, subnormals).
 */
import { SkewlineInputError, toVector } from '../core/primitives.js';
import type { VecLike } from '../core/types.js';

/**
 * The coordinates of a point: an array or Float64Array of finite numbers is returned as it is
 * (no copy, no allocation); anything else goes through toVector, which copies {x, y[, z]}
 * objects and throws the precise SkewlineInputError for a bad value. `what` names the argument
 * in the message (pass a constant string: building one per call would allocate).
 */
export function coords(v: VecLike, what: string): ArrayLike<number> {
  if (Array.isArray(v) || v instanceof Float64Array) {
    const n = v.length;
    if (n < 1) return toVector(v, what);
    for (let i = 0; i < n; i++) {
      const x = v[i] as unknown;
      if (typeof x !== 'number' || x - x !== 0) return toVector(v, what); // throws, naming the coordinate
    }
    return v;
  }
  return toVector(v, what);
}

/** Throws unless dim is an integer ≥ 1. */
export function checkDim(dim: unknown, fn: string): number {
  if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 1) {
    throw new SkewlineInputError(`${fn}: dim must be an integer ≥ 1 (got ${String(dim)})`);
  }
  return dim;
}

/** Throws unless r is a finite number ≥ 0 (NaN included). */
export function checkRadius(r: unknown, what: string): number {
  if (typeof r !== 'number' || !(r >= 0) || r === Infinity) {
    throw new SkewlineInputError(`${what} must be a finite number ≥ 0 (got ${String(r)})`);
  }
  return r;
}

/** Largest magnitude among the first n numbers of a. */
export function maxAbs(a: ArrayLike<number>, n: number, m: number): number {
  for (let i = 0; i < n; i++) {
    const x = Math.abs(a[i]);
    if (x > m) m = x;
  }
  return m;
}

/** Below this magnitude every difference of inputs, and Dekker's split of it, stays finite. */
export const SAFE_MAX = 2 ** 990;
/** The power of two that brings inputs above SAFE_MAX below it (2⁻⁴⁰; exact but for subnormal parts). */
export const SAFE_SCALE = 2 ** -40;

/**
 * a + t·(b − a) for t ∈ [0, 1] without overflow: from the nearer end in difference form (t = 0
 * gives a and t = 1 gives b exactly) when b − a is finite; otherwise in halves, then clamped to
 * [min(a, b), max(a, b)], where the exact value lies.
 */
export function between(a: number, b: number, t: number): number {
  const d = b - a;
  if (d - d === 0) return t <= 0.5 ? a + t * d : b - (1 - t) * d;
  const h = a * 0.5 + t * (b * 0.5 - a * 0.5);
  const x = 2 * h;
  const lo = a < b ? a : b;
  const hi = a < b ? b : a;
  return x < lo ? lo : x > hi ? hi : x;
}

/**
 * Scales the first n numbers of v to a unit vector in place, without overflow or underflow
 * (divides by the largest magnitude first). Returns false, leaving zeros, when v is zero.
 */
export function unitInto(v: number[] | Float64Array, n: number): boolean {
  // (the largest magnitude inline: a double returned from a call that is not inlined is boxed)
  let m = 0;
  for (let i = 0; i < n; i++) {
    const x = Math.abs(v[i]);
    if (x > m) m = x;
  }
  if (!(m > 0)) {
    for (let i = 0; i < n; i++) v[i] = 0;
    return false;
  }
  let s = 0;
  for (let i = 0; i < n; i++) {
    const x = v[i] / m;
    v[i] = x;
    s += x * x;
  }
  const l = Math.sqrt(s);
  for (let i = 0; i < n; i++) v[i] = v[i] / l + 0; // + 0: no −0
  return true;
}
