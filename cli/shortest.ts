/**
 * A double written as bytes, exactly as `String(x)` writes it (ECMAScript Number::toString: the
 * fewest significant digits that read back to x, the nearest such digits to x, fixed notation
 * for 1e-7 ≤ |x| < 1e21), with −0 as `-0` — without making a string.
 *
 * String(x) costs V8 a call into its C++ runtime and a fresh heap string for every non-integer
 * (its shortest-digits search itself is fast); bulk output pays both per number. Here the common
 * cases are decided in doubles, with a proof of exactness for each step, and everything else is
 * left to String(x):
 *
 * - an integer |x| < 2^53: its decimal digits (every other decimal within half an ulp has more
 *   significant digits, so they are the shortest);
 * - 1e-6 ≤ |x| < 1e15: with V_p = |x|·10^(p−1−e) ∈ [10^(p−1), 10^p) (e the decimal exponent),
 *   - p = 15: the spacing of 15-digit decimals exceeds the rounding interval of x (its width is
 *     one ulp, below 2.3·10^-16·|x|; the spacing is at least 10^-15·|x|), so at most one 15-digit
 *     decimal D reads back to x, and every shorter decimal that reads back is D with trailing
 *     zeros. |D − V_15| < 0.12 then, and fl(|x|·10^k) is within 0.12 of V_15, so
 *     Math.round finds D. Whether it reads back is decided exactly by D / 10^k === |x| (D < 2^53
 *     and 10^k ≤ 10^22 are exact doubles, so the division is the one correctly rounded reading:
 *     Clinger's fast path, W. D. Clinger, "How to read floating point numbers accurately",
 *     PLDI 1990);
 *   - p = 16: several 16-digit decimals may read back; the spec takes the nearest to x, which is
 *     the correct rounding N of V_16, and any reads back exactly when N does. V_16 is held
 *     exactly as a double-double (Dekker's two-product; 10^k is exact for k ≤ 22), N is its
 *     rounding (a tie, or N ≥ 2^53, goes to String), and N / 10^k === |x| decides as above;
 *   - p = 17: 17 digits always read back; the digits are the correct rounding of V_17 = hi + lo
 *     (exact double-double; hi ≥ 10^16 is an integer and |lo| ≤ 8, so it is hi + round(lo),
 *     a tie going to String);
 *   - the digits, trailing zeros dropped, with the decimal point placed as Number::toString does.
 *
 * Everything else (|x| < 1e-6, non-integers ≥ 1e15, integers ≥ 2^53) is written from String(x).
 * Callers check finiteness first. The byte-for-byte equality with String(x) is tested on the
 * extremes and millions of seeded doubles (test/cli/shortest.test.ts).
 */
import { productError } from '../src/core/eft.js';

/** 10^0 … 10^22, all exact doubles. */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
const TWO53 = 2 ** 53;

/** writeFixed's argument (module scratch). */
const ARG = new Float64Array(1);

/** 2^(e2−53), half an ulp of a double of binary exponent e2, for e2 ∈ [−21, 50) (index e2 + 21). */
const HALF_ULP = Float64Array.from({ length: 71 }, (_, j) => 2 ** (j - 21 - 53));

// The bits of a double (little-endian words: [low, high]).
const BITS = new Float64Array(1);
const WORDS = new Uint32Array(BITS.buffer);

/**
 * Writes the ASCII text of `String(x)` (`-0` for −0) into `buf` at `pos` and returns the
 * position after it. Precondition: x is finite (NaN and ±Infinity are the caller's to refuse),
 * and `buf` has at least 25 bytes free from `pos` (the longest text of a double).
 * Not re-entrant (module scratch).
 */
export function writeShortest(buf: Uint8Array, pos: number, x: number): number {
  if (x === 0) {
    if (1 / x < 0) buf[pos++] = 0x2d;
    buf[pos] = 0x30;
    return pos + 1;
  }
  let a = x;
  let at = pos;
  if (a < 0) {
    a = -a;
    buf[at++] = 0x2d;
  }
  if (a < TWO53 && Math.floor(a) === a) return writeInteger(buf, at, a);
  if (a >= 1e-6 && a < 1e15) {
    ARG[0] = a;
    const end = writeFixed(buf, at);
    if (end >= 0) return end;
  }
  return writeAscii(buf, pos, String(x));
}

/**
 * The shortest digits of a non-integer a = ARG[0] (1e-6 ≤ a < 1e15) in fixed notation into buf at pos;
 * returns the position after them, or −1 where the fast path cannot decide (a tie, or a
 * candidate of 16 digits at a power of two).
 */
function writeFixed(buf: Uint8Array, pos: number): number {
  const a = ARG[0]; // passed through scratch: a double argument of a call that is not inlined is boxed
  // k such that V_17 = a·10^k lies in [1e16, 1e17]: the estimate e ≥ floor(log10 a) ≥ e − 1 from
  // the binary exponent (a ∈ [2^e2, 2^(e2+1))), corrected on the rounded product (a k one off at
  // the boundary only changes the digit counts below, which are counted, not assumed).
  BITS[0] = a;
  const e2 = (WORDS[1] >>> 20) - 1023;
  let k = 16 - Math.floor((e2 + 1) * 0.30102999566398120);
  let hi = a * POW10[k];
  while (hi < 1e16) {
    if (++k > 22) return -1;
    hi = a * POW10[k];
  }
  if (k < 2) return -1;
  // p = 15: the only candidate, and whether it reads back (exactly).
  const p15 = POW10[k - 2];
  const d15 = Math.round(a * p15);
  if (d15 / p15 === a) {
    const top = Math.floor(d15 / 1e8);
    return emit(buf, pos, top, d15 - top * 1e8, k - 2);
  }
  // p = 16: N, the correct rounding of V_16 = h16 + l16 (exact double-double); any 16-digit
  // decimal reads back exactly when N does.
  const p16 = POW10[k - 1];
  const h16 = a * p16;
  const l16 = productError(a, p16, h16);
  if (h16 < TWO53) {
    let d16 = Math.round(h16);
    // h16 − d16 is exact (|·| ≤ 1/2, a multiple of ulp(h16)); adding l16 (|l16| ≤ 1/2 here)
    // rounds by under 2^-53, far inside the margin of the tie test.
    let f = h16 - d16 + l16;
    if (f > 0.5) {
      d16 += 1;
      f -= 1;
    } else if (f < -0.5) {
      d16 -= 1;
      f += 1;
    }
    if (Math.abs(Math.abs(f) - 0.5) < 2 ** -30) return -1; // within a hair of a tie: String decides
    if (d16 < TWO53 && d16 / p16 === a) {
      const top = Math.floor(d16 / 1e8);
      return emit(buf, pos, top, d16 - top * 1e8, k - 1);
    }
  } else {
    // h16 is an even integer and |l16| ≤ 1: N = h16 + round(l16), at distance |l16 − r| from
    // V_16 (exact). It reads back when that is below the half-gap of a, 2^(e2−53)·10^(k−1) in
    // these units (exact), or equal to it with a's last bit 0 (ties to even). At a power of two
    // the gap below is half as wide: left to String.
    const r = Math.round(l16);
    const dist = Math.abs(l16 - r);
    if (dist === 0.5) return -1;
    const half = HALF_ULP[e2 + 21] * p16;
    if (dist < half || (dist === half && (WORDS[0] & 1) === 0)) {
      if ((WORDS[1] & 0xfffff) === 0 && WORDS[0] === 0) return -1;
      const top = Math.floor(h16 / 1e8);
      return emit(buf, pos, top, h16 - top * 1e8 + r, k - 1);
    }
  }
  // p = 17: hi + round(lo), hi an integer (≥ 10^16 > 2^53), |lo| ≤ 8; 17 digits always read back,
  // and this is the nearest 17-digit decimal.
  const lo = productError(a, POW10[k], hi);
  const r = Math.round(lo);
  if (Math.abs(lo - r) === 0.5) return -1; // a tie
  const top = Math.floor(hi / 1e8);
  return emit(buf, pos, top, hi - top * 1e8 + r, k);
}

/**
 * Writes top·10^8 + low (integers, top < 10^9 + 1, −10^8 < low < 2·10^8: fixed up here) times
 * 10^−q, a non-integer with fewer than 22 integer digits, as Number::toString does: the digits
 * with the point inside, or `0.` and zeros before them; trailing zeros dropped.
 * top·10^8 and the differences that make `low` are exact (top·5^8 < 2^53).
 */
function emit(buf: Uint8Array, pos: number, top: number, low: number, q: number): number {
  if (low < 0) {
    low += 1e8;
    top -= 1;
  } else if (low >= 1e8) {
    low -= 1e8;
    top += 1;
  }
  const nd = top > 0 ? digitCount(top) + 8 : digitCount(low);
  const n = nd - q; // the decimal exponent: the value is 0.d₁d₂… × 10^n
  let end: number;
  let point: number;
  if (n > 0) {
    end = pos + nd + 1;
    point = pos + n;
  } else {
    buf[pos++] = 0x30;
    buf[pos++] = 0x2e;
    for (let i = n; i < 0; i++) buf[pos++] = 0x30;
    end = pos + nd;
    point = -1;
  }
  let i = end - 1;
  let v = low | 0;
  for (let c = top > 0 ? 8 : nd; c > 0; c--) {
    if (i === point) buf[i--] = 0x2e;
    const t = (v / 10) | 0;
    buf[i--] = 0x30 + v - t * 10;
    v = t;
  }
  v = top | 0;
  while (v > 0) {
    if (i === point) buf[i--] = 0x2e;
    const t = (v / 10) | 0;
    buf[i--] = 0x30 + v - t * 10;
    v = t;
  }
  while (buf[end - 1] === 0x30) end--;
  return end;
}

/** The number of decimal digits of 0 ≤ v < 10^10 (1 for 0). */
function digitCount(v: number): number {
  let n = 1;
  while (n < 10 && v >= POW10[n]) n++;
  return n;
}

/** An integer 0 < a < 2^53 in decimal. */
function writeInteger(buf: Uint8Array, pos: number, a: number): number {
  let top = 0;
  let low = a;
  if (a >= 1e9) {
    top = Math.floor(a / 1e8);
    low = a - top * 1e8;
  }
  const nd = top > 0 ? digitCount(top) + 8 : digitCount(low);
  const end = pos + nd;
  let i = end - 1;
  let v = low | 0;
  for (let c = top > 0 ? 8 : nd; c > 0; c--) {
    const t = (v / 10) | 0;
    buf[i--] = 0x30 + v - t * 10;
    v = t;
  }
  v = top | 0;
  while (v > 0) {
    const t = (v / 10) | 0;
    buf[i--] = 0x30 + v - t * 10;
    v = t;
  }
  return end;
}

/** An ASCII string's bytes into buf at pos; returns the position after them. */
export function writeAscii(buf: Uint8Array, pos: number, s: string): number {
  for (let i = 0; i < s.length; i++) buf[pos++] = s.charCodeAt(i);
  return pos;
}
