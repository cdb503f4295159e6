/**
 * The exact "within r" test of two segments: is their distance ≤ r? Decided in floating point
 * when the computed distance is clear of r by more than a generous multiple of its error bound
 * (the kernel's distance is within 8·u·S of the exact one; 64·u·S is used here), and otherwise
 * by comparing the exact squared distance (core/exact.ts) with r² — so a pair exactly r apart is
 * in and one an ulp farther is out.
 */
import { SEGMENT, exactClosestFlat, toScaledBigInts } from '../core/exact.js';
import { SkewlineInputError, describeValue, toVector } from '../core/primitives.js';
import type { VecLike } from '../core/types.js';
import { OUT_DIST, closestInto } from './kernel.js';

let flat = new Float64Array(12);
let out = new Float64Array(8);

/**
 * True exactly when the segments a0a1 and b0b1 (any dimension; zero length allowed) come within
 * distance r ≥ 0 of each other: `r = 0` asks whether they share a point.
 * @throws SkewlineInputError on bad points, different dimensions, or r not a finite number ≥ 0.
 */
export function segmentsWithin(a0: VecLike, a1: VecLike, b0: VecLike, b1: VecLike, r: number): boolean {
  const P = [toVector(a0, 'a0'), toVector(a1, 'a1'), toVector(b0, 'b0'), toVector(b1, 'b1')];
  const dim = P[0].length;
  for (const p of P) if (p.length !== dim) throw new SkewlineInputError(`segmentsWithin: points of different dimensions (${dim} and ${p.length})`);
  if (typeof r !== 'number' || !Number.isFinite(r) || r < 0) throw new SkewlineInputError(`segmentsWithin: r must be a finite number ≥ 0 (got ${describeValue(r)})`);
  if (flat.length < 4 * dim) flat = new Float64Array(4 * dim);
  if (out.length < 8 + dim) out = new Float64Array(8 + dim);
  for (let k = 0; k < 4; k++) flat.set(P[k], k * dim);
  return segmentsWithinFlat(flat, 0, dim, r);
}

/**
 * {@link segmentsWithin} on the flat layout: four dim-vectors a0, a1, b0, b1 from data[k].
 * Inputs must be finite (not checked). Not re-entrant (module-level scratch).
 */
export function segmentsWithinFlat(data: ArrayLike<number>, k: number, dim: number, r: number): boolean {
  if (out.length < 8 + dim) out = new Float64Array(8 + dim);
  closestInto(SEGMENT, SEGMENT, dim, data, k, out);
  const d = out[OUT_DIST];
  // S = max(|a1 − a0|, |b1 − b0|, |b0 − a0|), bounded above by the sum of the three.
  let la = 0;
  let lb = 0;
  let lw = 0;
  for (let i = 0; i < dim; i++) {
    la += (data[k + dim + i] - data[k + i]) ** 2;
    lb += (data[k + 3 * dim + i] - data[k + 2 * dim + i]) ** 2;
    lw += (data[k + 2 * dim + i] - data[k + i]) ** 2;
  }
  const err = 64 * 2 ** -53 * (Math.sqrt(la) + Math.sqrt(lb) + Math.sqrt(lw));
  if (d + err < r) return true;
  if (d - err > r) return false;
  const { distanceSq } = exactClosestFlat(SEGMENT, SEGMENT, dim, data, k);
  return compareWithSquare(distanceSq.num, distanceSq.den, r) <= 0;
}

/** Sign of num/den − r² for a double r ≥ 0, exactly (den > 0). */
export function compareWithSquare(num: bigint, den: bigint, r: number): number {
  if (r === 0) return num > 0n ? 1 : num < 0n ? -1 : 0;
  // r = M·2^e exactly.
  const { ints, exp: e } = toScaledBigInts([r]);
  const M = ints[0];
  const lhs = e >= 0 ? num : num << BigInt(-2 * e);
  const rhs = e >= 0 ? M * M * den << BigInt(2 * e) : M * M * den;
  return lhs > rhs ? 1 : lhs < rhs ? -1 : 0;
}
