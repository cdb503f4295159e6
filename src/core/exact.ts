/**
 * Exact decisions in BigInt arithmetic, for any dimension and any pair of kinds.
 *
 * Every finite double is m·2^e with an integer m, so after multiplying all coordinates of a
 * query by one power of two they are integers, and every question about incidence
 * (do they share a point? are they parallel?) becomes integer arithmetic with no rounding.
 * This is the slow path: the floating-point kernels answer first and call in here only when
 * their error bound cannot decide. It is the single source of truth for `relation`.
 */
import type { Primitive } from './types.js';

/** An exact rational num/den with den > 0, in lowest terms where a public function returns it. */
export interface Rational {
  /** Numerator. */
  num: bigint;
  /** Denominator, > 0. */
  den: bigint;
}

/** What {@link exactRelation} found. */
export interface ExactRelation {
  /** `none`: no common point; `point`: exactly one common point; `overlap`: a common piece of positive length. */
  share: 'none' | 'point' | 'overlap';
  /** Both have a non-zero direction and the directions are exactly parallel. */
  parallel: boolean;
  /**
   * Parameters of a common point when share ≠ 'none' (else null). For an overlap it is the
   * middle of the shared piece; if the shared piece is a ray, its origin; if it is a whole
   * line (two collinear lines), the middle of a.p0 and b.p0.
   */
  s: Rational | null;
  /** The parameter on b of that common point (null when share is 'none'). */
  t: Rational | null;
}

// ---------------------------------------------------------------------------------------------
// Doubles as exact integers

const VIEW = new DataView(new ArrayBuffer(8));

/** Splits a finite double into an integer mantissa and a power of two: x = m·2^e. */
function decompose(x: number): [bigint, number] {
  if (x === 0) return [0n, 0];
  VIEW.setFloat64(0, x);
  const hi = VIEW.getUint32(0);
  const lo = VIEW.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) e = -1074; // subnormal
  else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  return [hi >>> 31 ? -m : m, e];
}


/**
 * Exact integers for a list of doubles: `xs[i] = ints[i]·2^exp` with one common `exp` (the
 * smallest binary exponent among the nonzero inputs), so sums, differences and products of the
 * integers are the exact values up to a known power of two. The returned array is fresh.
 * @throws RangeError on a non-finite input.
 */
export function toScaledBigInts(xs: ArrayLike<number>): { ints: bigint[]; exp: number } {
  let exp = Infinity;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (!Number.isFinite(x)) throw new RangeError(`toScaledBigInts: non-finite value ${x}`);
    if (x !== 0) exp = Math.min(exp, decompose(x)[1]);
  }
  if (exp === Infinity) exp = 0;
  const ints: bigint[] = [];
  for (let i = 0; i < xs.length; i++) {
    const [m, e] = decompose(xs[i]);
    ints.push(m === 0n ? 0n : m << BigInt(e - exp));
  }
  return { ints, exp };
}

// ---------------------------------------------------------------------------------------------
// Small exact vector helpers

function dot(a: bigint[], b: bigint[]): bigint {
  let s = 0n;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
function sub(a: bigint[], b: bigint[]): bigint[] {
  return a.map((x, i) => x - b[i]);
}
function isZero(a: bigint[]): boolean {
  return a.every((x) => x === 0n);
}
/**
 * True when a and b are linearly dependent. Every 2×2 minor a_i b_j − a_j b_i vanishes exactly
 * when the Gram determinant (a·a)(b·b) − (a·b)² = Σ minors² (Lagrange's identity) is zero: three
 * dot products, O(n) rather than the n(n−1)/2 minors.
 */
function dependent(a: bigint[], b: bigint[]): boolean {
  const ab = dot(a, b);
  return dot(a, a) * dot(b, b) === ab * ab;
}

/** The parameter interval of a kind: [lo, hi] with null for an infinite end. */
function domain(kind: number, hasDir: boolean): [bigint | null, bigint | null] {
  if (!hasDir || kind === POINT) return [0n, 0n];
  if (kind === SEGMENT) return [0n, 1n];
  if (kind === RAY) return [0n, null];
  return [null, null];
}

/** Is num/den (den > 0) inside [lo, hi] (null = unbounded)? */
function inDomain(num: bigint, den: bigint, [lo, hi]: [bigint | null, bigint | null]): boolean {
  return (lo === null || num >= lo * den) && (hi === null || num <= hi * den);
}

/** num/den in lowest terms with a positive denominator (den ≠ 0). */
function rat(num: bigint, den: bigint): Rational {
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = gcd(num < 0n ? -num : num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

/** Euclid's greatest common divisor of two non-negative BigInts (gcd(0, d) = d). */
function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

interface Exact {
  A0: bigint[];
  B0: bigint[];
  U: bigint[];
  V: bigint[];
  /** The integers are the inputs times 2^−exp. */
  exp: number;
}

/**
 * Kind codes of the flat layout shared with the float kernels: a query is four consecutive
 * dim-vectors a0, a1, b0, b1 where a1 (b1) is the second point of a segment or line, the
 * direction of a ray, and ignored for a point.
 */
export const POINT = 0;
/** Kind code of a segment: a0, a1 are its endpoints. */
export const SEGMENT = 1;
/** Kind code of a ray: a0 is its origin, a1 its direction. */
export const RAY = 2;
/** Kind code of a line: through a0 and a1. */
export const LINE = 3;
const CODE = { point: POINT, segment: SEGMENT, ray: RAY, line: LINE } as const;

/** Kind code of a primitive. */
export function kindCode(p: Primitive): number {
  return CODE[p.kind];
}

function exactDataFlat(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): Exact {
  const flat: number[] = [];
  for (let j = 0; j < 4 * dim; j++) flat.push(data[k + j]);
  const { ints, exp } = toScaledBigInts(flat);
  const [A0, A1, B0, B1] = [0, 1, 2, 3].map((j) => ints.slice(j * dim, (j + 1) * dim));
  const zero = A0.map(() => 0n);
  const U = ka === RAY ? A1 : ka === POINT ? zero : sub(A1, A0);
  const V = kb === RAY ? B1 : kb === POINT ? zero : sub(B1, B0);
  return { A0, B0, U, V, exp };
}

/** Writes a and b into the flat layout (a0, a1|dir, b0, b1|dir). */
function flatten(a: Primitive, b: Primitive): number[] {
  if (a.dim !== b.dim) throw new RangeError(`dimensions differ (${a.dim} and ${b.dim})`);
  const second = (p: Primitive) => (p.kind === 'ray' ? p.dir : p.p1);
  return [...a.p0, ...second(a), ...b.p0, ...second(b)];
}

/**
 * Decides exactly whether two primitives of the same dimension share a point, whether
 * they are parallel, and where they meet.
 *
 * Works in any dimension. Cost: a few dozen BigInt operations on numbers of up to a few
 * thousand bits (microseconds); meant for the cases floating point cannot decide.
 * A zero-length segment is treated as its point (s = 0).
 */
export function exactRelation(a: Primitive, b: Primitive): ExactRelation {
  return exactRelationFlat(kindCode(a), kindCode(b), a.dim, flatten(a, b), 0);
}

/** {@link exactRelation} on the flat layout (see {@link POINT}). */
export function exactRelationFlat(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): ExactRelation {
  const { A0, B0, U, V } = exactDataFlat(ka, kb, dim, data, k);
  const W = sub(B0, A0); // we solve A0 + s·U = B0 + t·V, i.e. s·U − t·V = W
  const uZero = isZero(U);
  const vZero = isZero(V);
  const da = domain(ka, !uZero);
  const db = domain(kb, !vZero);
  const none: ExactRelation = { share: 'none', parallel: false, s: null, t: null };

  if (uZero && vZero) {
    return isZero(W) ? { share: 'point', parallel: false, s: rat(0n, 1n), t: rat(0n, 1n) } : none;
  }
  if (uZero) {
    // A0 = B0 + t·V  ⇔  t·V = −W
    if (!dependent(V, W)) return none;
    const tn = -dot(V, W);
    const td = dot(V, V);
    return inDomain(tn, td, db) ? { share: 'point', parallel: false, s: rat(0n, 1n), t: rat(tn, td) } : none;
  }
  if (vZero) {
    if (!dependent(U, W)) return none;
    const sn = dot(U, W);
    const sd = dot(U, U);
    return inDomain(sn, sd, da) ? { share: 'point', parallel: false, s: rat(sn, sd), t: rat(0n, 1n) } : none;
  }

  const aa = dot(U, U);
  const bb = dot(U, V);
  const cc = dot(V, V);
  const uw = dot(U, W);
  const vw = dot(V, W);
  const D = aa * cc - bb * bb; // Gram determinant, ≥ 0, zero iff U ∥ V
  if (D !== 0n) {
    // Normal equations a·s − b·t = U·W, b·s − c·t = V·W (Cramer's rule).
    const sn = cc * uw - bb * vw;
    const tn = bb * uw - aa * vw;
    for (let i = 0; i < W.length; i++) if (sn * U[i] - tn * V[i] !== D * W[i]) return none; // skew
    if (!inDomain(sn, D, da) || !inDomain(tn, D, db)) return none;
    return { share: 'point', parallel: false, s: rat(sn, D), t: rat(tn, D) };
  }

  // Parallel. They share points only if collinear (W ∥ U).
  if (!dependent(U, W)) return { ...none, parallel: true };
  // Map b's parameter interval onto a's, in units of 1/aa: B0 + t·V sits at s = (uw + t·bb)/aa.
  const lo = db[0] === null ? null : uw + db[0] * bb;
  const hi = db[1] === null ? null : uw + db[1] * bb;
  // Order the image interval; bb ≠ 0 since U ∥ V and both are non-zero. null = −∞ or +∞.
  let bLo: bigint | null;
  let bHi: bigint | null;
  if (bb > 0n) {
    bLo = lo;
    bHi = hi;
  } else {
    bLo = hi;
    bHi = lo;
  }
  const aLo = da[0] === null ? null : da[0] * aa;
  const aHi = da[1] === null ? null : da[1] * aa;
  const iLo = maxLo(aLo, bLo);
  const iHi = minHi(aHi, bHi);
  if (iLo !== null && iHi !== null && iLo > iHi) return { ...none, parallel: true };
  // Choose the representative parameter (numerator over 2·aa).
  let sn2: bigint;
  if (iLo !== null && iHi !== null) sn2 = iLo + iHi;
  else if (iLo !== null) sn2 = 2n * iLo;
  else if (iHi !== null) sn2 = 2n * iHi;
  else sn2 = uw; // two whole lines: the middle of a.p0 (s = 0) and b.p0 (s = uw/aa)
  const s = rat(sn2, 2n * aa);
  // t of the point A0 + s·U on b: t = (s·bb − vw)/cc = (sn2·bb − 2·aa·vw)/(2·aa·cc).
  const t = rat(sn2 * bb - 2n * aa * vw, 2n * aa * cc);
  const share = iLo !== null && iHi !== null && iLo === iHi ? 'point' : 'overlap';
  return { share, parallel: true, s, t };
}

function maxLo(x: bigint | null, y: bigint | null): bigint | null {
  if (x === null) return y;
  if (y === null) return x;
  return x > y ? x : y;
}
function minHi(x: bigint | null, y: bigint | null): bigint | null {
  if (x === null) return y;
  if (y === null) return x;
  return x < y ? x : y;
}

/**
 * True when the directions of a and b are exactly parallel (both non-zero).
 * Points and zero-length segments have no direction and are never parallel.
 */
export function exactParallel(a: Primitive, b: Primitive): boolean {
  const { U, V } = exactDataFlat(kindCode(a), kindCode(b), a.dim, flatten(a, b), 0);
  return !isZero(U) && !isZero(V) && dependent(U, V);
}

/** {@link exactParallel} on the flat layout (see {@link POINT}): both directions non-zero and parallel. */
export function exactParallelFlat(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): boolean {
  const { U, V } = exactDataFlat(ka, kb, dim, data, k);
  return !isZero(U) && !isZero(V) && dependent(U, V);
}

/** What {@link exactClosestFlat} found: the exact minimiser, rounded once at the end. */
export interface ExactClosest {
  s: Rational;
  t: Rational;
  /** Squared distance in the input's units. */
  distanceSq: Rational;
  /** Nearest distance, faithfully rounded. */
  distance: number;
  /** d − c, each component correctly rounded. */
  vector: number[];
}

/**
 * The exact nearest pair and distance of two primitives on the flat layout, any dimension,
 * any kinds. Used when the floating-point distance of a pair that shares no point rounds to
 * zero, so that `distance === 0` only for pairs that really touch. For a locus of nearest
 * pairs (parallel primitives) it returns one of them, not the middle.
 */
export function exactClosestFlat(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): ExactClosest {
  const { A0, B0, U, V, exp } = exactDataFlat(ka, kb, dim, data, k);
  const da = domain(ka, !isZero(U));
  const db = domain(kb, !isZero(V));
  const W = sub(A0, B0); // residual at (s, t): W + s·U − t·V
  const aa = dot(U, U);
  const cc = dot(V, V);
  const bb = dot(U, V);
  const dd = dot(U, W);
  const ee = dot(V, W);
  const D = aa * cc - bb * bb;
  let best: { q: Rational; sn: bigint; tn: bigint; den: bigint } | null = null;
  const consider = (sn: bigint, tn: bigint, den: bigint): void => {
    // |den·W + sn·U − tn·V|² / den²
    let q = 0n;
    for (let i = 0; i < W.length; i++) {
      const r = den * W[i] + sn * U[i] - tn * V[i];
      q += r * r;
    }
    const cand = { num: q, den: den * den }; // den > 0 here; compared, not returned
    if (best === null || cand.num * best.q.den < best.q.num * cand.den) best = { q: cand, sn, tn, den };
  };
  if (D !== 0n) {
    // Interior critical point of |W + s·U − t·V|²: a·s − b·t = −d, b·s − c·t = −e.
    const sn = bb * ee - cc * dd;
    const tn = aa * ee - bb * dd;
    if (inDomain(sn, D, da) && inDomain(tn, D, db)) consider(sn, tn, D);
  }
  if (best === null) {
    // Otherwise the minimum lies on the boundary of the parameter domain: each finite end of
    // one primitive projected, with clamping, onto the other.
    const ends = (d: [bigint | null, bigint | null]): bigint[] =>
      [d[0], d[1]].filter((x, i, arr): x is bigint => x !== null && arr.indexOf(x) === i);
    for (const s0 of ends(da)) {
      if (cc === 0n) consider(s0, 0n, 1n);
      else consider(s0 * cc, clampNum(ee + bb * s0, cc, db), cc);
    }
    for (const t0 of ends(db)) {
      if (aa === 0n) consider(0n, t0, 1n);
      else consider(clampNum(bb * t0 - dd, aa, da), t0 * aa, aa);
    }
    if (best === null) consider(0n, ee, cc); // two parallel lines: a.p0 and its projection on b
  }
  const r = best as unknown as { q: Rational; sn: bigint; tn: bigint; den: bigint };
  const vector: number[] = [];
  for (let i = 0; i < W.length; i++) vector.push(ratToDouble(-(r.den * W[i] + r.sn * U[i] - r.tn * V[i]), r.den, exp));
  // q/den² in integer units; one unit is 2^exp, so the squared distance carries 2^(2·exp).
  const den2 = r.q.den;
  const distanceSq = exp >= 0 ? rat(r.q.num << BigInt(2 * exp), den2) : rat(r.q.num, den2 << BigInt(-2 * exp));
  return { s: rat(r.sn, r.den), t: rat(r.tn, r.den), distanceSq, distance: ratSqrt(r.q.num, den2, exp), vector };
}

/**
 * For two exactly parallel primitives (both directions non-zero) that share no point: the pair
 * the floating-point kernel's parallel case picks (Rhodes' policy), exactly — the middle of the
 * overlap of their shadows on a (its finite end for a half-infinite overlap; for two lines a.p0's
 * middle with b.p0's shadow), or the nearest ends when the shadows are disjoint — with t the
 * projection of that s onto b, clamped. `notUnique` when the overlap has positive length.
 */
export function exactParallelPair(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): { s: Rational; t: Rational; notUnique: boolean } {
  const { A0, B0, U, V } = exactDataFlat(ka, kb, dim, data, k);
  const W = sub(A0, B0);
  const aa = dot(U, U);
  const bb = dot(U, V);
  const cc = dot(V, V);
  const dd = dot(U, W);
  const ee = dot(V, W);
  const [sLo, sHi] = domain(ka, true);
  const [tLo, tHi] = domain(kb, true);
  // b's ends seen on a: s(t) = (t·bb − dd)/aa, all over the common denominator aa (> 0).
  const at = (t: bigint | null, inf: bigint | null): bigint | null => (t === null ? inf : t * bb - dd);
  let lo = at(tLo, null);
  let hi = at(tHi, null);
  if (bb < 0n) [lo, hi] = [hi, lo];
  // Unbounded ends stay null: lo = null is −∞, hi = null is +∞.
  const sL = sLo === null ? null : sLo * aa;
  const sH = sHi === null ? null : sHi * aa;
  const oLo = lo === null ? sL : sL === null ? lo : lo > sL ? lo : sL;
  const oHi = hi === null ? sH : sH === null ? hi : hi < sH ? hi : sH;
  let sn: bigint; // s = sn / (2·aa)
  let notUnique = false;
  if (oLo === null || oHi === null || oLo <= oHi) {
    notUnique = oLo === null || oHi === null || oLo < oHi;
    if (oLo !== null && oHi !== null) sn = oLo + oHi;
    else if (oLo !== null) sn = 2n * oLo;
    else if (oHi !== null) sn = 2n * oHi;
    else sn = -dd; // two lines: half of b.p0's shadow
  } else {
    sn = 2n * ((hi as bigint) < (sL as bigint) ? (sL as bigint) : (sH as bigint));
  }
  const s = rat(sn, 2n * aa);
  // t = (ee + bb·s)/cc = (2·aa·ee + bb·sn)/(2·aa·cc), clamped to b's domain.
  const tDen = 2n * aa * cc;
  const tNum = clampNum(2n * aa * ee + bb * sn, tDen, [tLo, tHi]);
  return { s, t: rat(tNum, tDen), notUnique };
}

/**
 * The exact nearest points c (on a) and d (on b) of {@link exactClosestFlat}, each coordinate
 * rounded once to the nearest double (±Infinity where it lies beyond the double range). Used
 * where the floating-point point p0 + s·dir overflows although the point itself is representable
 * (a ray with a tiny direction reaching far). For a locus of nearest pairs it returns one pair.
 */
export function exactNearestPointsFlat(
  ka: number,
  kb: number,
  dim: number,
  data: ArrayLike<number>,
  k: number,
): { c: number[]; d: number[] } {
  const { A0, B0, U, V, exp } = exactDataFlat(ka, kb, dim, data, k);
  const { s, t } = exactClosestFlat(ka, kb, dim, data, k);
  const c: number[] = [];
  const d: number[] = [];
  for (let i = 0; i < dim; i++) {
    c.push(ratToDouble(A0[i] * s.den + s.num * U[i], s.den, exp));
    d.push(ratToDouble(B0[i] * t.den + t.num * V[i], t.den, exp));
  }
  return { c, d };
}

function clampNum(num: bigint, den: bigint, [lo, hi]: [bigint | null, bigint | null]): bigint {
  if (lo !== null && num < lo * den) return lo * den;
  if (hi !== null && num > hi * den) return hi * den;
  return num;
}

// ---------------------------------------------------------------------------------------------
// Rationals back to doubles

/** The double nearest to num/den (ties to even), for any size of num and den (den ≠ 0). */
export function ratToNumber(num: bigint, den: bigint): number {
  return ratToDouble(num, den, 0);
}

/**
 * The double nearest to (num/den)·2^e, ties to even, with a single rounding even where the
 * result is subnormal (the quotient is truncated to the exact number of bits the result can
 * hold, with a sticky bit, then rounded once). den ≠ 0.
 */
export function ratToDouble(num: bigint, den: bigint, e: number): number {
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  if (num === 0n) return 0;
  const neg = num < 0n;
  if (neg) num = -num;
  // q = floor(num·2^sh / den) with 55..56 bits; value = (q + frac)·2^(e − sh).
  const sh = 55 - (bitLength(num) - bitLength(den));
  let q: bigint;
  let rem: boolean;
  if (sh >= 0) {
    const n2 = num << BigInt(sh);
    q = n2 / den;
    rem = n2 % den !== 0n;
  } else {
    const d2 = den << BigInt(-sh);
    q = num / d2;
    rem = num % d2 !== 0n;
  }
  let exp = e - sh; // value ≈ q·2^exp
  const L = bitLength(q);
  // Keep 53 bits, or fewer if the lowest kept bit would fall below 2^-1074 (subnormal).
  let drop = L - 53; // ≥ 2, since q has 55 or 56 bits
  if (exp + drop < -1074) drop = -1074 - exp;
  if (drop > 0) {
    const mask = (1n << BigInt(drop)) - 1n;
    const low = q & mask;
    const half = 1n << BigInt(drop - 1);
    q >>= BigInt(drop);
    exp += drop;
    const sticky = rem || (low & (half - 1n)) !== 0n;
    if ((low & half) !== 0n && (sticky || (q & 1n) === 1n)) q += 1n;
  }
  const x = scale2(Number(q), exp);
  return neg ? -x : x;
}

/** x·2^k without intermediate overflow or underflow where the result is representable. */
function scale2(x: number, k: number): number {
  while (k > 1000) {
    x *= 2 ** 1000;
    k -= 1000;
  }
  while (k < -1000) {
    x *= 2 ** -1000;
    k += 1000;
  }
  return x * 2 ** k;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** sqrt(num/den)·2^e as a double, faithful (error below one ulp); num ≥ 0, den > 0. */
export function ratSqrt(num: bigint, den: bigint, e = 0): number {
  if (num === 0n) return 0;
  // sqrt(num/den) = sqrt(num·den)/den; take an integer square root with 70+ bits of precision.
  let k = 0;
  let prod = num * den;
  const want = 140;
  const bl = bitLength(prod);
  if (bl < want) {
    k = Math.ceil((want - bl) / 2);
    prod <<= BigInt(2 * k);
  }
  return ratToDouble(isqrt(prod), den << BigInt(k), e);
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
