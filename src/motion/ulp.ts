/**
 * Neighbouring doubles, without allocating: the bit pattern is stepped through two 32-bit
 * words (module-level scratch; little-endian word order is checked once).
 */
const f = new Float64Array(1);
const w = new Uint32Array(f.buffer);
f[0] = 1;
const HI = w[1] === 0x3ff00000 ? 1 : 0;
const LO = 1 - HI;

/** The next double above x (finite; the magnitude grows for x > 0, shrinks for x < 0). */
export function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  f[0] = x;
  if (x > 0) {
    const lo = (w[LO] + 1) >>> 0;
    w[LO] = lo;
    if (lo === 0) w[HI] = (w[HI] + 1) >>> 0;
  } else {
    const lo = w[LO];
    if (lo === 0) w[HI] = (w[HI] - 1) >>> 0;
    w[LO] = (lo - 1) >>> 0;
  }
  return f[0];
}

/** The next double below x (finite); −MIN_VALUE for 0. */
export function nextDown(x: number): number {
  return -nextUp(-x);
}

/**
 * a[k] ← its next double up (or down): {@link nextUp} / {@link nextDown} in place. For hot code:
 * neither a double argument nor a double result crosses the call, so nothing is boxed when V8
 * does not inline it.
 */
export function stepIn(a: Float64Array, k: number, up: boolean): void {
  const x = a[k];
  if (x === 0) {
    a[k] = up ? Number.MIN_VALUE : -Number.MIN_VALUE;
    return;
  }
  f[0] = x;
  if (x > 0 === up) {
    const lo = (w[LO] + 1) >>> 0;
    w[LO] = lo;
    if (lo === 0) w[HI] = (w[HI] + 1) >>> 0;
  } else {
    const lo = w[LO];
    if (lo === 0) w[HI] = (w[HI] - 1) >>> 0;
    w[LO] = (lo - 1) >>> 0;
  }
  a[k] = f[0];
}

/**
 * The neighbouring doubles of a positive double x ≥ {@link NEIGHBOUR_MIN} (and below 2¹⁰²³ for the
 * step up) in arithmetic alone
 * (no bit pattern through memory, whose store-to-load round trip stalls): nextDown(x) =
 * x − x·{@link PRED} and nextUp(x) = x + x·{@link SUCC}, each exactly (round to nearest). With
 * x = m·2^(k−52), m ∈ [2^52, 2^53): x·2⁻⁵³ = (m/2^53)·ulp(x) lies in [ulp/2, ulp), so x − x·2⁻⁵³
 * rounds to x − ulp, or is exactly x − ulp/2 (the spacing below a power of two); upwards the
 * factor 2⁻⁵³(1 + 2⁻⁵²) keeps a power of two off the tie. The idea of a successor from one
 * product is Rump, Zimmermann, Boldo and Melquiond, "Computing predecessor and successor in
 * rounding to nearest", BIT 49 (2009); tested against the bit-pattern steps in test/motion/ulp.test.ts.
 */
export const PRED = 2 ** -53;
/** See {@link PRED}. */
export const SUCC = 2 ** -53 * (1 + 2 ** -52);
/** Below this, x·2⁻⁵³ could be subnormal and the steps of {@link PRED} inexact: use {@link stepIn}. */
export const NEIGHBOUR_MIN = 2 ** -960;
