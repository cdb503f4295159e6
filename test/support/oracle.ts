/**
 * The exact oracle: closest-point distances between points, segments, lines and rays computed
 * in exact rational arithmetic with BigInt, independent of the library under test.
 *
 * Every finite double is an exact dyadic rational m·2^e (IEEE 754), so after multiplying all the
 * input coordinates of a query by one common power of two they are all integers. The squared
 * distance between A(s) = a0 + s·u and B(t) = b0 + t·v is the convex quadratic
 *   f(s, t) = |w + s·u − t·v|²,  w = a0 − b0,
 * minimised over a box I × J of parameter domains ({0}, [0,1], ℝ or [0,∞) by kind). Its interior
 * critical point solves the 2×2 normal equations (Rhodes, "Fast, Robust Intersection of 3D Line
 * Segments", GPG2 §2.3, eqs. 2.3.9–2.3.13; Boes, "Segment Distance", the unconstrained minimum
 * of the quadratic) with Gram determinant D = (u·u)(v·v) − (u·v)². When D > 0 and that point is
 * inside the box, it is the minimum; otherwise (convexity) the minimum lies on an edge of the
 * box, and each edge is a point-to-primitive projection with exact clamping (Boes: "the best of
 * the four edges of the parameter square"). When D = 0 (a direction is zero or they are
 * parallel) the minimisers form a line or the whole plane, which meets the box boundary whenever
 * the box has one; for two parallel infinite lines the s = 0 "edge" is used.
 *
 * Nothing here rounds: results are rationals {num, den} with den > 0. Conversions to doubles
 * ({@link ratToNumber}, {@link ratSqrtToNumber}) are correctly rounded.
 */
import type { Primitive } from '../../src/core/types.js';

/** An exact rational num/den with den > 0 (not necessarily in lowest terms). */
export interface Rat {
  readonly num: bigint;
  readonly den: bigint;
}

/** num/den with the sign moved to the numerator. @throws RangeError if den = 0. */
export function rat(num: bigint, den: bigint = 1n): Rat {
  if (den === 0n) throw new RangeError('rat: zero denominator');
  return den < 0n ? { num: -num, den: -den } : { num, den };
}

/** The rational in lowest terms (gcd-normalised). */
export function ratNormalise(q: Rat): Rat {
  const g = gcd(q.num < 0n ? -q.num : q.num, q.den);
  return g > 1n ? { num: q.num / g, den: q.den / g } : q;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

/** a + b. */
export const ratAdd = (a: Rat, b: Rat): Rat =>
  a.den === b.den ? { num: a.num + b.num, den: a.den } : { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
/** a − b. */
export const ratSub = (a: Rat, b: Rat): Rat =>
  a.den === b.den ? { num: a.num - b.num, den: a.den } : { num: a.num * b.den - b.num * a.den, den: a.den * b.den };
/** a · b. */
export const ratMul = (a: Rat, b: Rat): Rat => ({ num: a.num * b.num, den: a.den * b.den });
/** a / b. @throws RangeError if b = 0. */
export const ratDiv = (a: Rat, b: Rat): Rat => rat(a.num * b.den, a.den * b.num);
/** |a|. */
export const ratAbs = (a: Rat): Rat => (a.num < 0n ? { num: -a.num, den: a.den } : a);
/** Sign of a − b: −1, 0 or 1. */
export function ratCmp(a: Rat, b: Rat): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}
/** True if q = 0. */
export const ratIsZero = (q: Rat): boolean => q.num === 0n;

// ---------------------------------------------------------------------------------------------
// Doubles as exact dyadic rationals.

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/**
 * Splits a finite double into x = m·2^e with m a BigInt (odd unless x = 0).
 * @throws RangeError on NaN or ±Infinity.
 */
export function decompose(x: number): { m: bigint; e: number } {
  if (!Number.isFinite(x)) throw new RangeError(`decompose: not finite: ${x}`);
  if (x === 0) return { m: 0n, e: 0 };
  F64[0] = x;
  const bits = U64[0];
  const neg = bits >> 63n === 1n;
  const bexp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & 0xfffffffffffffn;
  let m = bexp === 0 ? frac : frac | 0x10000000000000n;
  let e = bexp === 0 ? -1074 : bexp - 1075;
  while ((m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  return { m: neg ? -m : m, e };
}

/** The exact rational value of a finite double. */
export function ratFromDouble(x: number): Rat {
  const { m, e } = decompose(x);
  return e >= 0 ? { num: m << BigInt(e), den: 1n } : { num: m, den: 1n << BigInt(-e) };
}

/** Number of bits of |x| (0 for 0). */
export function bitLength(x: bigint): number {
  if (x < 0n) x = -x;
  if (x === 0n) return 0;
  const h = x.toString(16);
  const first = parseInt(h[0], 16);
  return (h.length - 1) * 4 + (32 - Math.clz32(first));
}

/** 2^k as a double for −1074 ≤ k ≤ 1023 (exact), 0 or Infinity outside. */
function pow2(k: number): number {
  if (k > 1023) return Infinity;
  if (k < -1074) return 0;
  if (k < -1022) return 2 ** (k + 100) * 2 ** -100;
  return 2 ** k;
}

/**
 * The double nearest to q (round-half-to-even, gradual underflow, overflow to ±Infinity):
 * correctly rounded for numerators and denominators of any size.
 */
export function ratToNumber(q: Rat): number {
  let { num } = q;
  const { den } = q;
  if (num === 0n) return 0;
  const neg = num < 0n;
  if (neg) num = -num;
  // floor(log2 q) is k or k − 1 with k = bitlen(num) − bitlen(den).
  const k = bitLength(num) - bitLength(den);
  const ge = k >= 0 ? num >= den << BigInt(k) : num << BigInt(-k) >= den;
  const e2 = ge ? k : k - 1;
  if (e2 > 1023) return neg ? -Infinity : Infinity;
  // Weight of the last kept bit: 53 significant bits for normals, fixed 2^-1074 for subnormals.
  const lsb = Math.max(e2 - 52, -1074);
  // Q = floor(q / 2^lsb), rem decides the rounding.
  let n = num;
  let d = den;
  if (lsb < 0) n <<= BigInt(-lsb);
  else d <<= BigInt(lsb);
  let Q = n / d;
  const rem2 = (n - Q * d) * 2n;
  if (rem2 > d || (rem2 === d && (Q & 1n) === 1n)) Q += 1n;
  // Q ≤ 2^53, so Number(Q) is exact; scaling by a power of two is exact unless it overflows.
  let v = Number(Q);
  if (lsb < -1022) v = v * pow2(lsb + 200) * pow2(-200);
  else v = v * pow2(lsb);
  return neg ? -v : v;
}

/** floor(√n) for a BigInt n ≥ 0 (Newton's iteration from above). */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('isqrt of a negative number');
  if (n < 2n) return n;
  let x = 1n << BigInt((bitLength(n) + 1) >> 1);
  while (true) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/**
 * √q correctly rounded to a double, for a rational q ≥ 0 of any size.
 * (A 64+-bit integer square root plus a sticky bit decides the rounding exactly.)
 * @throws RangeError if q < 0.
 */
export function ratSqrtToNumber(q: Rat): number {
  if (q.num < 0n) throw new RangeError('ratSqrtToNumber of a negative number');
  if (q.num === 0n) return 0;
  // Choose k with floor(q·4^k) ≥ 2^128, so r = isqrt(...) has ≥ 64 bits.
  const k = Math.ceil((130 - (bitLength(q.num) - bitLength(q.den))) / 2);
  let n = q.num;
  let d = q.den;
  if (k >= 0) n <<= BigInt(2 * k);
  else d <<= BigInt(-2 * k);
  const N = n / d;
  const r = isqrt(N);
  const exact = r * r === N && N * d === n;
  // r' = 2r + sticky represents a value strictly between r and r + 1 when inexact.
  const r2 = 2n * r + (exact ? 0n : 1n);
  const scale = k + 1;
  return ratToNumber(scale >= 0 ? { num: r2, den: 1n << BigInt(scale) } : { num: r2 << BigInt(-scale), den: 1n });
}

/**
 * |√A − √B| as a double, accurate to a few ulps even when √A and √B agree in most digits:
 * |√A − √B| = |A − B| / (√A + √B), with A − B exact.
 */
export function sqrtDiff(A: Rat, B: Rat): number {
  const diff = ratAbs(ratSub(A, B));
  if (diff.num === 0n) return 0;
  const sum = ratSqrtToNumber(A) + ratSqrtToNumber(B);
  return ratToNumber(ratDiv(diff, ratFromDouble(sum)));
}

/** |x − √q| for a double x ≥ 0 and an exact q ≥ 0 (q is typically an exact squared distance). */
export function errorVsExact(x: number, q: Rat): number {
  if (!Number.isFinite(x)) return Infinity;
  if (x < 0) return -x + ratSqrtToNumber(q);
  const X = ratFromDouble(x);
  return sqrtDiff(ratMul(X, X), q);
}

/** The exact squared Euclidean distance between two double points (same length). */
export function exactDistSqDoubles(p: ArrayLike<number>, q: ArrayLike<number>): Rat {
  const { vecs, E } = scaleAll([Array.from(p), Array.from(q)]);
  const [P, Q] = vecs;
  let s = 0n;
  for (let i = 0; i < P.length; i++) {
    const d = P[i] - Q[i];
    s += d * d;
  }
  return unscaleSq(s, 1n, E);
}

// ---------------------------------------------------------------------------------------------
// Integer geometry after a common power-of-two scaling.

interface Scaled {
  vecs: bigint[][];
  /** Every coordinate equals vec·2^E. */
  E: number;
}

/** Writes all the given double vectors as integer vectors times one common 2^E. */
function scaleAll(vs: readonly (readonly number[])[]): Scaled {
  let E = Infinity;
  const parts = vs.map((v) => v.map((x) => {
    const p = decompose(x);
    if (p.m !== 0n && p.e < E) E = p.e;
    return p;
  }));
  if (E === Infinity) E = 0;
  const vecs = parts.map((v) => v.map((p) => (p.m === 0n ? 0n : p.m << BigInt(p.e - E))));
  return { vecs, E };
}

/** (num/den)·2^(2E) as a rational: undoes the scaling of a squared length. */
function unscaleSq(num: bigint, den: bigint, E: number): Rat {
  return E >= 0 ? { num: num << BigInt(2 * E), den } : { num, den: den << BigInt(-2 * E) };
}

/** (num/den)·2^E as a rational: undoes the scaling of a coordinate. */
function unscale(num: bigint, den: bigint, E: number): Rat {
  return rat(E >= 0 ? num << BigInt(E) : num, E >= 0 ? den : den << BigInt(-E));
}

const dot = (a: readonly bigint[], b: readonly bigint[]): bigint => {
  let s = 0n;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/** A parameter interval: bounds are integers, null means unbounded on that side. */
interface Interval {
  lo: bigint | null;
  hi: bigint | null;
}

const DOMAIN: Record<Primitive['kind'], Interval> = {
  point: { lo: 0n, hi: 0n },
  segment: { lo: 0n, hi: 1n },
  line: { lo: null, hi: null },
  ray: { lo: 0n, hi: null },
};

/** Is num/den (den > 0) inside the interval? */
function inside(num: bigint, den: bigint, I: Interval): boolean {
  return (I.lo === null || num >= I.lo * den) && (I.hi === null || num <= I.hi * den);
}

/** Double vectors (base point, direction) of a primitive: the direction is exact. */
function doublesOf(p: Primitive): { base: number[]; dir: number[] | null } {
  const base = Array.from(p.p0);
  switch (p.kind) {
    case 'point':
      return { base, dir: null };
    case 'ray':
      return { base, dir: Array.from(p.dir) };
    default:
      // Segments and lines: the direction is p1 − p0 computed exactly later (dir is rounded).
      return { base, dir: null };
  }
}

interface IntPrim {
  base: bigint[];
  dir: bigint[];
  I: Interval;
}

/** An exact minimiser: squared distance and one pair of parameters attaining it (in scaled units). */
interface IntMin {
  /** Squared distance = num/den (in units of 2^(2E)). */
  num: bigint;
  den: bigint;
  /** Parameters s = sNum/sDen, t = tNum/tDen (unitless). */
  sNum: bigint;
  sDen: bigint;
  tNum: bigint;
  tDen: bigint;
}

/** Closest point of the integer primitive B(t) = b0 + t·v, t ∈ J, to an integer point p. */
function projectPoint(p: readonly bigint[], B: IntPrim): { num: bigint; den: bigint; tNum: bigint; tDen: bigint } {
  const n = p.length;
  const pb = new Array<bigint>(n);
  for (let i = 0; i < n; i++) pb[i] = p[i] - B.base[i];
  const vv = dot(B.dir, B.dir);
  let tNum = 0n;
  let tDen = 1n;
  if (vv !== 0n) {
    tNum = dot(pb, B.dir);
    tDen = vv;
    // Exact clamping of t = tNum/tDen into J.
    if (B.I.lo !== null && tNum < B.I.lo * tDen) {
      tNum = B.I.lo;
      tDen = 1n;
    } else if (B.I.hi !== null && tNum > B.I.hi * tDen) {
      tNum = B.I.hi;
      tDen = 1n;
    }
  }
  // tDen·(p − B(t)) = tDen·(p − b0) − tNum·v.
  let num = 0n;
  for (let i = 0; i < n; i++) {
    const r = tDen * pb[i] - tNum * B.dir[i];
    num += r * r;
  }
  return { num, den: tDen * tDen, tNum, tDen };
}

function better(a: IntMin | null, b: IntMin): IntMin {
  return a === null || b.num * a.den < a.num * b.den ? b : a;
}

/** Minimises |A(s) − B(t)|² over I × J exactly. */
function minimise(A: IntPrim, B: IntPrim): IntMin {
  const n = A.base.length;
  const w = new Array<bigint>(n);
  for (let i = 0; i < n; i++) w[i] = A.base[i] - B.base[i];
  const u = A.dir;
  const v = B.dir;
  const uu = dot(u, u);
  const vv = dot(v, v);
  const uv = dot(u, v);
  const wu = dot(w, u);
  const wv = dot(w, v);
  // Gram determinant |u|²|v|² − (u·v)² = |u ∧ v|² ≥ 0 (Rhodes eq. 2.3.16's denominator).
  const D = uu * vv - uv * uv;
  if (D > 0n) {
    // Normal equations: s·uu − t·uv = −w·u,  s·uv − t·vv = −w·v (Cramer's rule).
    const sN = uv * wv - wu * vv;
    const tN = uu * wv - uv * wu;
    if (inside(sN, D, A.I) && inside(tN, D, B.I)) {
      let num = 0n;
      for (let i = 0; i < n; i++) {
        const r = D * w[i] + sN * u[i] - tN * v[i];
        num += r * r;
      }
      return { num, den: D * D, sNum: sN, sDen: D, tNum: tN, tDen: D };
    }
  }
  // The minimum is on the boundary of the parameter box: each finite end of I or J.
  let best: IntMin | null = null;
  const ends = (I: Interval): bigint[] => {
    const e: bigint[] = [];
    if (I.lo !== null) e.push(I.lo);
    if (I.hi !== null && I.hi !== I.lo) e.push(I.hi);
    return e;
  };
  const at = (P: IntPrim, k: bigint): bigint[] => P.base.map((x, i) => x + k * P.dir[i]);
  for (const s of ends(A.I)) {
    const r = projectPoint(at(A, s), B);
    best = better(best, { num: r.num, den: r.den, sNum: s, sDen: 1n, tNum: r.tNum, tDen: r.tDen });
  }
  for (const t of ends(B.I)) {
    const r = projectPoint(at(B, t), A);
    best = better(best, { num: r.num, den: r.den, sNum: r.tNum, sDen: r.tDen, tNum: t, tDen: 1n });
  }
  if (best === null) {
    // Two infinite lines with D = 0: parallel, every point of A is equally far from B.
    const r = projectPoint(A.base, B);
    best = { num: r.num, den: r.den, sNum: 0n, sDen: 1n, tNum: r.tNum, tDen: r.tDen };
  }
  return best;
}

/** Builds the integer form of primitives (common scale for all of them plus extra points). */
function integerise(prims: readonly Primitive[], extra: readonly (readonly number[])[] = []):
  { ints: IntPrim[]; extra: bigint[][]; E: number } {
  const lists: number[][] = [];
  for (const p of prims) {
    const { base, dir } = doublesOf(p);
    lists.push(base);
    lists.push(dir ?? Array.from(p.p1));
  }
  for (const x of extra) lists.push(Array.from(x));
  const { vecs, E } = scaleAll(lists);
  const ints = prims.map((p, k): IntPrim => {
    const base = vecs[2 * k];
    const second = vecs[2 * k + 1];
    let dir: bigint[];
    if (p.kind === 'ray') dir = second;
    else if (p.kind === 'point') dir = base.map(() => 0n);
    else dir = second.map((x, i) => x - base[i]); // exact p1 − p0
    return { base, dir, I: DOMAIN[p.kind] };
  });
  return { ints, extra: vecs.slice(2 * prims.length), E };
}

/** The exact answer of {@link exactClosest}. */
export interface ExactClosest {
  /** Exact minimum squared distance over the parameter domains. */
  distSq: Rat;
  /** Parameter on a of one nearest pair (for a non-unique locus: one of its members). */
  s: Rat;
  /** Parameter on b of the same pair. */
  t: Rat;
  /** The nearest point on a, exactly (rational coordinates). */
  c: Rat[];
  /** The nearest point on b, exactly. */
  d: Rat[];
  /** Exact D = |u|²|v|² − (u·v)² ≤ 0 test: true if both have nonzero directions and they are parallel. */
  parallel: boolean;
}

/**
 * Exact closest pair between any two primitives of the same dimension (any dim ≥ 1, any kinds).
 * Segments and lines use the exact p1 − p0; rays use `dir`; a point is s ∈ {0}.
 * The minimum squared distance is exact; (s, t) is a minimiser (unique unless the pair is
 * parallel/overlapping or a zero-length segment is involved).
 * @throws RangeError if the dimensions differ or a coordinate is not finite.
 */
export function exactClosest(a: Primitive, b: Primitive): ExactClosest {
  if (a.dim !== b.dim || a.p0.length !== b.p0.length) throw new RangeError('exactClosest: dimensions differ');
  const { ints, E } = integerise([a, b]);
  const [A, B] = ints;
  const m = minimise(A, B);
  const s = rat(m.sNum, m.sDen);
  const t = rat(m.tNum, m.tDen);
  const point = (P: IntPrim, q: Rat): Rat[] =>
    P.base.map((x, i) => unscale(x * q.den + q.num * P.dir[i], q.den, E));
  const uu = dot(A.dir, A.dir);
  const vv = dot(B.dir, B.dir);
  const uv = dot(A.dir, B.dir);
  return {
    distSq: unscaleSq(m.num, m.den, E),
    s,
    t,
    c: point(A, s),
    d: point(B, t),
    parallel: uu !== 0n && vv !== 0n && uu * vv === uv * uv,
  };
}

/** The exact minimum squared distance between two primitives (see {@link exactClosest}). */
export function exactDistanceSq(a: Primitive, b: Primitive): Rat {
  return exactClosest(a, b).distSq;
}

/** True exactly when the two primitives share a point (exact minimum distance² is 0). */
export function exactShares(a: Primitive, b: Primitive): boolean {
  return exactClosest(a, b).distSq.num === 0n;
}

/**
 * The exact squared distance from a point given by doubles to a primitive — used to check that a
 * computed nearest point lies on its primitive.
 * @throws RangeError if the lengths differ or a coordinate is not finite.
 */
export function exactPointPrimitiveDistSq(p: ArrayLike<number>, prim: Primitive): Rat {
  if (p.length !== prim.dim) throw new RangeError('exactPointPrimitiveDistSq: dimensions differ');
  const { ints, extra, E } = integerise([prim], [Array.from(p)]);
  const r = projectPoint(extra[0], ints[0]);
  return unscaleSq(r.num, r.den, E);
}

/**
 * |x − exact distance between a and b| for a computed distance x, as a double (accurate to a few
 * ulps of the error itself).
 */
export function distanceError(x: number, a: Primitive, b: Primitive): number {
  return errorVsExact(x, exactDistanceSq(a, b));
}

/** The exact minimum distance of a pair rounded to the nearest double. */
export function exactDistance(a: Primitive, b: Primitive): number {
  return ratSqrtToNumber(exactDistanceSq(a, b));
}

// ---------------------------------------------------------------------------------------------
// Error metrics of issue 2, shared by scripts/accuracy.ts and test/accuracy.test.ts.

/** u = 2^-53, the unit roundoff of doubles. */
export const U = 2 ** -53;

/** Euclidean length of a double vector (scaled to avoid overflow; only used as a scale). */
function norm(v: readonly number[]): number {
  return Math.hypot(...v);
}

/** The second defining point of a primitive (ray: origin + direction, rounded; point: itself). */
function secondPoint(p: Primitive): number[] {
  if (p.kind === 'ray') return Array.from(p.p0, (x, i) => x + p.dir[i]);
  return Array.from(p.p1);
}

/** A primitive's length for the scale S: |p1 − p0| for segments and lines, |dir| for a ray, 0 for a point. */
function lengthForScale(p: Primitive): number {
  if (p.kind === 'point') return 0;
  if (p.kind === 'ray') return norm(Array.from(p.dir));
  return norm(Array.from(p.p1, (x, i) => x - p.p0[i]));
}

/** S = max(|a1 − a0|, |b1 − b0|, |b0 − a0|) of issue 2 (ray: |dir|; point: 0). */
export function scaleS(a: Primitive, b: Primitive): number {
  return Math.max(lengthForScale(a), lengthForScale(b), norm(Array.from(b.p0, (x, i) => x - a.p0[i])));
}

/** M = the largest |coordinate| among the input points (a ray's second point is origin + dir). */
export function scaleM(a: Primitive, b: Primitive): number {
  let m = 0;
  for (const v of [a.p0, secondPoint(a), b.p0, secondPoint(b)]) for (const x of v) m = Math.max(m, Math.abs(x));
  return m;
}

/** x / unit, with 0/0 = 0 (an exact answer at zero scale) and x/0 = Infinity. */
export function inUnits(x: number, unit: number): number {
  if (x === 0) return 0;
  if (Number.isNaN(x)) return Infinity;
  return unit === 0 ? Infinity : x / unit;
}

/** Anything with the fields of a closest-point result that the metrics need. */
export interface ResultLike {
  c: ArrayLike<number>;
  d: ArrayLike<number>;
  distance: number;
}

/** Errors of one result, in the units of issue 2 (multiples of u·S, u·M and u·M'). */
export interface Measured {
  /** |distance − exact| / (u·S). */
  dist: number;
  /** dist(c, a) / (u·M) and / (u·M'), M' = max(M, |c|∞, |d|∞). */
  cOnA: number;
  cOnAPrime: number;
  /** dist(d, b) / (u·M) and / (u·M'). */
  dOnB: number;
  dOnBPrime: number;
  /** | |c − d| − exact | / (u·M) and / (u·M'). */
  cd: number;
  cdPrime: number;
  /** distance === 0 disagrees with the exact "shares a point". */
  zeroMismatch: boolean;
  /** The exact minimum distance (rounded) and whether they share a point. */
  exact: number;
  shares: boolean;
}

const finiteVec = (v: ArrayLike<number>, n: number): boolean => {
  if (v.length !== n) return false;
  for (let i = 0; i < n; i++) if (!Number.isFinite(v[i])) return false;
  return true;
};

/** Measures a full result (c, d, distance) against the exact oracle. */
export function measure(a: Primitive, b: Primitive, r: ResultLike): Measured {
  const ex = exactClosest(a, b);
  const shares = ex.distSq.num === 0n;
  const S = scaleS(a, b);
  const M = scaleM(a, b);
  const okC = finiteVec(r.c, a.dim);
  const okD = finiteVec(r.d, b.dim);
  let Mp = M;
  if (okC) for (let i = 0; i < a.dim; i++) Mp = Math.max(Mp, Math.abs(r.c[i]));
  if (okD) for (let i = 0; i < b.dim; i++) Mp = Math.max(Mp, Math.abs(r.d[i]));
  const cOff = okC ? ratSqrtToNumber(exactPointPrimitiveDistSq(r.c, a)) : Infinity;
  const dOff = okD ? ratSqrtToNumber(exactPointPrimitiveDistSq(r.d, b)) : Infinity;
  const cdErr = okC && okD ? sqrtDiff(exactDistSqDoubles(r.c, r.d), ex.distSq) : Infinity;
  return {
    dist: inUnits(errorVsExact(r.distance, ex.distSq), U * S),
    cOnA: inUnits(cOff, U * M),
    cOnAPrime: inUnits(cOff, U * Mp),
    dOnB: inUnits(dOff, U * M),
    dOnBPrime: inUnits(dOff, U * Mp),
    cd: inUnits(cdErr, U * M),
    cdPrime: inUnits(cdErr, U * Mp),
    zeroMismatch: (r.distance === 0) !== shares,
    exact: ratSqrtToNumber(ex.distSq),
    shares,
  };
}

/** Distance error only, in units of u·S (for peers that return just a distance). */
export function measureDistance(a: Primitive, b: Primitive, distance: number): number {
  return inUnits(errorVsExact(distance, exactDistanceSq(a, b)), U * scaleS(a, b));
}
