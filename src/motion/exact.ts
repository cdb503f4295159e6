/**
 * Exact arithmetic for moving spheres: the squared gap of two points moving linearly over a
 * step, f(t) = |w + t·dv|² − R² = A·t² + 2B·t + C, with w = p0 − q0, dv = (p1 − p0) − (q1 − q0)
 * and R = r1 + r2, formed from the input doubles without rounding (every double is m·2^e, so
 * one power-of-two scale turns all of them into integers).
 */
import { toScaledBigInts } from '../core/exact.js';

/** The quadratic's integer coefficients (in units of 2^(2·exp)). */
export interface ExactGap {
  A: bigint;
  B: bigint;
  C: bigint;
  /** One unit of the integers is 2^exp in the input's units (so A, B, C carry 2^(2·exp)). */
  exp: number;
}

/** A, B, C of f(t) exactly, from p0, p1, q0, q1 (dim numbers each) and the radii. */
export function exactGap(p0: ArrayLike<number>, p1: ArrayLike<number>, q0: ArrayLike<number>, q1: ArrayLike<number>, r1: number, r2: number): ExactGap {
  const dim = p0.length;
  const xs: number[] = [];
  for (const v of [p0, p1, q0, q1]) for (let i = 0; i < dim; i++) xs.push(v[i]);
  xs.push(r1, r2);
  const { ints, exp } = toScaledBigInts(xs);
  let A = 0n;
  let B = 0n;
  let C = 0n;
  for (let i = 0; i < dim; i++) {
    const w = ints[i] - ints[2 * dim + i];
    const dv = ints[dim + i] - ints[i] - (ints[3 * dim + i] - ints[2 * dim + i]);
    A += dv * dv;
    B += w * dv;
    C += w * w;
  }
  const R = ints[4 * dim] + ints[4 * dim + 1];
  return { A, B, C: C - R * R, exp };
}

/** A double t ∈ [0, 1] as an exact fraction num / 2^k (k ≥ 0). */
function dyadic(t: number): { num: bigint; k: bigint } {
  if (t === 0) return { num: 0n, k: 0n };
  let k = 0;
  let x = t;
  while (!Number.isInteger(x)) {
    x *= 2;
    k++;
  }
  return { num: BigInt(x), k: BigInt(k) };
}

/** The exact sign of f(t) = A t² + 2B t + C at a double t ∈ [0, 1]. */
export function gapSign(g: ExactGap, t: number): number {
  const { num, k } = dyadic(t);
  const one = 1n << k;
  const v = g.A * num * num + 2n * g.B * num * one + g.C * one * one;
  return v > 0n ? 1 : v < 0n ? -1 : 0;
}

const sgn = (x: bigint): number => (x > 0n ? 1 : x < 0n ? -1 : 0);

/**
 * The exact decision: does f reach ≤ 0 somewhere on [0, 1]? Returns -1 for never, 0 when it
 * already holds at t = 0, and 1 when the first contact is inside (0, 1].
 */
export function exactHit(g: ExactGap): -1 | 0 | 1 {
  if (g.C <= 0n) return 0;
  if (g.A === 0n || g.B >= 0n) return -1; // f constant, or growing from t = 0 on
  if (g.A + g.B <= 0n) return g.A + 2n * g.B + g.C <= 0n ? 1 : -1; // minimum at t ≥ 1: look at f(1)
  return sgn(g.B * g.B - g.A * g.C) >= 0 ? 1 : -1; // minimum inside: the discriminant
}

/**
 * The first double t in (lo, hi] with f(t) ≤ 0, given f(lo) > 0 and f(hi) ≤ 0 and f decreasing
 * on [lo, hi]: bisection over the doubles, each step an exact sign test. The exact root lies in
 * (prev(t), t], so t is within one ulp of it.
 */
export function firstContact(g: ExactGap, lo: number, hi: number): number {
  const view = new DataView(new ArrayBuffer(16));
  const bits = (x: number): bigint => {
    view.setFloat64(0, x);
    return view.getBigUint64(0);
  };
  const fromBits = (b: bigint): number => {
    view.setBigUint64(8, b);
    return view.getFloat64(8);
  };
  // For non-negative doubles the bit patterns are ordered like the values.
  let a = bits(lo);
  let b = bits(hi);
  while (b - a > 1n) {
    const m = (a + b) >> 1n;
    if (gapSign(g, fromBits(m)) > 0) a = m;
    else b = m;
  }
  return fromBits(b);
}
