/**
 * The closest-point kernel for any two primitives in any dimension, on a flat layout.
 * It does not allocate (module-level scratch; not re-entrant, which in single-threaded
 * JavaScript only matters if you call it from inside itself).
 *
 * The method, in difference form (w = a0 − b0, u and v the directions):
 * 1. Minimise |w + s·u − t·v|² over the parameter domain. The unconstrained minimiser is
 *    s* = Σ m(u,v)·m(v,w) / D and t* = Σ m(u,v)·m(u,w) / D, where m(x,y) are the 2×2 minors
 *    x_i·y_j − x_j·y_i and D = Σ m(u,v)² = |u|²|v|² − (u·v)² (Binet–Cauchy / Lagrange identity).
 *    Computing D from the minors, not as (u·u)(v·v) − (u·v)², avoids the catastrophic
 *    cancellation that ruins the classic formulas for nearly parallel segments; when the
 *    segments are within 2⁻²⁰ rad of parallel, the minors are evaluated with error-free
 *    products (see core/eft.ts) so that s* and t* keep full relative accuracy at any angle.
 * 2. If (s*, t*) is outside the domain, clamp s, project onto b, and if needed clamp t and
 *    project back (Ericson, Real-Time Collision Detection §5.1.9; the gem's "finite-segment
 *    adjustment", Rhodes, Game Programming Gems 2 §2.3).
 * 3. Parallel directions: the middle of the overlap of the shadows (Rhodes' policy), or the
 *    nearest ends when the shadows are disjoint.
 * 4. The residual is evaluated from the endpoint nearest to each parameter; in 3D the distance
 *    between the lines of an interior solution is |w·n|/|n| with n = u×v.
 * 5. Whenever the computed distance is within a generous error bound of zero, or the
 *    directions are within rounding of parallel, exact BigInt arithmetic (core/exact.ts) decides:
 *    `distance === 0` exactly when the primitives share a point.
 */
import { FAITHFUL, faithfulInto } from './faithful.js';
import { det2, EPS, productError, SPLITTER } from '../core/eft.js';
import { LINE, POINT, RAY, SEGMENT, exactClosestFlat, exactParallelPair, exactRelationFlat, ratToNumber } from '../core/exact.js';
import type { ExactRelation } from '../core/exact.js';
import { FAST_DONE, closestNdFast, closestNdInto } from './kernel-nd.js';

/** Slot of s (the parameter of c on a) in the kernel's output array (length ≥ 5 + dim). */
export const OUT_S = 0;
/** Slot of t (the parameter of d on b). */
export const OUT_T = 1;
/** Slot of the distance. */
export const OUT_DIST = 2;
/** Slot of the relation code (0 apart, 1 intersecting, 2 overlapping, 3 parallel, 4 degenerate). */
export const OUT_REL = 3;
/** Slot of the flag bits (1: not unique, 2: parallel, 4: degenerate). */
export const OUT_FLAGS = 4;
/** d − c starts here (dim numbers). */
export const OUT_VEC = 5;

/** Relation codes written to out[OUT_REL]. */
export const REL_APART = 0;
export const REL_INTERSECTING = 1;
export const REL_OVERLAPPING = 2;
export const REL_PARALLEL = 3;
export const REL_DEGENERATE = 4;

/** Flag bits written to out[OUT_FLAGS]. */
export const FLAG_NOT_UNIQUE = 1;
export const FLAG_PARALLEL = 2;
export const FLAG_DEGENERATE = 4;

/** Below this sin²θ the minors are recomputed with error-free products: (2⁻²⁰)². */
const ACCURATE_BELOW = 2 ** -40;
/** Distances within this many units of 2⁻⁵³·(size of the terms) of zero are decided exactly. */
const EXACT_FILTER = 64 * EPS;
/** Directions whose computed sin²θ is below this may be exactly parallel: ask core/exact.ts. */
const MAYBE_PARALLEL = 64 * EPS * EPS;

/** Squared direction lengths below this (after scaling) go to kernel-nd.ts (separate scalings). */
const SPREAD = 2 ** -200;
/** Set by solve when D underflowed to zero for directions that are not exactly parallel. */
let dUnderflow = false;

let U = new Float64Array(4);
let V = new Float64Array(4);
let W = new Float64Array(4);
let R = new Float64Array(4);
/** Rounding errors of the directions p1 − p0 of lines (zero for other kinds), see lineDistance. */
let UL = new Float64Array(4);
let VL = new Float64Array(4);
/** n-D scratch of lineDistance. */
let X = new Float64Array(4);
let Y = new Float64Array(4);
let Z = new Float64Array(4);
let MV = new Float64Array(4);
let MW = new Float64Array(4);

function grow(dim: number): void {
  if (U.length < dim) {
    U = new Float64Array(dim);
    V = new Float64Array(dim);
    W = new Float64Array(dim);
    R = new Float64Array(dim);
    UL = new Float64Array(dim);
    VL = new Float64Array(dim);
    X = new Float64Array(dim);
    Y = new Float64Array(dim);
    Z = new Float64Array(dim);
    MV = new Float64Array(dim);
    MW = new Float64Array(dim);
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

// Per-call state shared by the steps below (module-level: no allocation, not re-entrant).
// Doubles live in a typed array so that writing them never boxes a number.
const ST = new Float64Array(8);
const S_ = 0; // s
const T_ = 1; // t
const AA = 2; // |u|² (scaled)
const CC = 3; // |v|² (scaled)
const DIST = 4; // the distance, in the input's units
const SIZE = 5; // the size of the terms it was computed from, in the input's units
const E_ = 6; // the power of two the differences were scaled by (load)
const H_ = 7; // lineDistance's answer
// Doubles cross the boundaries between these steps only through ST: a double passed to or
// returned from a function V8 does not inline is boxed, one heap allocation per call.
let uZero = false;
let vZero = false;
let floatParallel = false;
let exactPar = false;
let interior = false;
let certified = false;
let notUnique = false;
/** The distance came from exact arithmetic (already faithful). */
let exactDist = false;
let rel: ExactRelation | null = null;

/**
 * Closest points of two primitives given on the flat layout: `data[k …]` holds four
 * dim-vectors a0, a1, b0, b1, where a1 is the second point of a segment or line, the
 * direction of a ray, and unused for a point (kinds: POINT, SEGMENT, RAY, LINE of core/exact.ts).
 *
 * Writes to `out`: s, t, distance, relation code, flags, then d − c (dim numbers), and
 * returns the distance. Inputs must be finite (the friendly layer validates); a zero
 * direction is allowed for segments (a point) and must not be passed for rays and lines.
 * Not re-entrant (module-level scratch).
 */
export function closestFlat(
  ka: number,
  kb: number,
  dim: number,
  data: ArrayLike<number>,
  k: number,
  out: Float64Array,
): number {
  closestInto(ka, kb, dim, data, k, out);
  return out[OUT_DIST];
}

/**
 * {@link closestFlat} without the return value: a function that returns a double boxes it
 * when it is not inlined (a heap allocation per call), so allocation-free callers use this one.
 */
export function closestInto(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array): void {
  if (dim > 3) {
    // n-D: Gram quantities in O(n) (kernel-nd.ts) instead of the O(n²) minors below.
    ndInto(ka, kb, dim, data, k, out);
    return;
  }
  grow(dim);
  rel = null;
  const overflow = load(ka, kb, dim, data, k);
  const degenerate = (ka === SEGMENT && uZero) || (kb === SEGMENT && vZero);
  if (overflow) {
    // A difference of two coordinates near ±1.8e308 overflowed: answer the problem scaled by ¼
    // (exact), or, where that would round a tiny coordinate, from exact arithmetic.
    if (!quarter(ka, kb, dim, data, k, out)) exactAnswer(ka, kb, dim, data, k, out, degenerate);
    return;
  }
  const aa = ST[AA];
  const cc = ST[CC];
  if ((!uZero && !(aa > SPREAD)) || (!vZero && !(cc > SPREAD))) {
    // A direction more than 2¹⁰⁰ times shorter than the longest difference: the products of
    // four factors below (D, the numerators) would underflow (issue 19: lines 2³⁰⁰ apart in
    // length were called parallel). kernel-nd.ts scales u, v and w separately.
    ndInto(ka, kb, dim, data, k, out);
    return;
  }
  ST[S_] = 0;
  ST[T_] = 0;
  exactDist = false;
  floatParallel = false;
  exactPar = false;
  interior = false;
  certified = false;
  notUnique = false;
  if (uZero && vZero) {
    // two points
  } else if (uZero || vZero) {
    // A point against a piece: the projection, clamped. dotV/dotU and clamp written out (the
    // same sums and comparisons): a helper V8 does not inline boxes its double result, and a
    // clamp whose ends are tagged constants boxed its result (issue 16, zero allocation).
    let x = 0;
    if (uZero) {
      for (let i = 0; i < dim; i++) x += V[i] * W[i];
      x /= cc;
    } else {
      for (let i = 0; i < dim; i++) x += U[i] * W[i];
      x = -x / aa;
    }
    const kind = uZero ? kb : ka;
    const slot = uZero ? T_ : S_;
    ST[slot] = x;
    if (kind !== LINE && x < 0) ST[slot] = 0;
    else if (kind === SEGMENT && x > 1) ST[slot] = 1;
  } else {
    dUnderflow = false;
    solve(ka, kb, dim, data, k);
    if (dUnderflow) {
      ndInto(ka, kb, dim, data, k, out);
      return;
    }
  }
  if (floatParallel) parallelCase(ka, kb, dim);
  residual(ka, kb, dim, data, k, out);
  const relation =
    certified || ST[DIST] <= EXACT_FILTER * ST[SIZE] || (interior && dim === 2)
      ? decide(ka, kb, dim, data, k, out, degenerate)
      : degenerate
        ? REL_DEGENERATE
        : exactPar
          ? REL_PARALLEL
          : REL_APART;
  if (ST[DIST] > 0 && !exactDist) faithful(ka, kb, dim, data, k);
  out[OUT_S] = ST[S_];
  out[OUT_T] = ST[T_];
  out[OUT_DIST] = ST[DIST];
  out[OUT_REL] = relation;
  out[OUT_FLAGS] = (notUnique ? FLAG_NOT_UNIQUE : 0) | (exactPar ? FLAG_PARALLEL : 0) | (degenerate ? FLAG_DEGENERATE : 0);
}

/**
 * Step 1, load: u, v, w (and the lines' two-difference errors UL, VL) into scratch, normalised
 * by an exact power of two so that the largest difference is near 1: squares and products of
 * four factors then neither overflow nor turn subnormal for any ratio below 2⁴⁵⁰, no relative
 * error changes, and scaling the input by 2^k scales the output exactly. Sets uZero, vZero,
 * |u|², |v|² and the exponent; returns true when a difference overflowed.
 */
function load(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): boolean {
  const a0 = k;
  const a1 = k + dim;
  const b0 = k + 2 * dim;
  const b1 = k + 3 * dim;
  uZero = true;
  vZero = true;
  let maxAbs = 0;
  for (let i = 0; i < dim; i++) {
    const ui = ka === RAY ? data[a1 + i] : ka === POINT ? 0 : data[a1 + i] - data[a0 + i];
    const vi = kb === RAY ? data[b1 + i] : kb === POINT ? 0 : data[b1 + i] - data[b0 + i];
    const wi = data[a0 + i] - data[b0 + i];
    U[i] = ui;
    V[i] = vi;
    W[i] = wi;
    // A line's nearest point can lie far out, where one ulp of turn in p1 − p0 moves it by
    // u·|s·u|; keep the exact direction as ui + UL[i] (Knuth's two-difference, written out: a
    // helper V8 does not inline boxes its double result, issue 16).
    let ul = 0;
    if (ka === LINE) {
      const x1 = data[a1 + i];
      const x0 = data[a0 + i];
      const bv = x1 - ui;
      ul = x1 - (ui + bv) + (bv - x0);
    }
    let vl = 0;
    if (kb === LINE) {
      const y1 = data[b1 + i];
      const y0 = data[b0 + i];
      const bv = y1 - vi;
      vl = y1 - (vi + bv) + (bv - y0);
    }
    UL[i] = ul;
    VL[i] = vl;
    if (ui !== 0) uZero = false;
    if (vi !== 0) vZero = false;
    const m = Math.max(Math.abs(ui), Math.abs(vi), Math.abs(wi));
    if (m > maxAbs) maxAbs = m;
  }
  if (!(maxAbs < Infinity)) return true;
  let e = 0;
  if (maxAbs > 0) {
    e = Math.floor(Math.log2(maxAbs));
    // scaleBy(x, −e) written out (x·f1·f2): a helper V8 does not inline boxes its doubles.
    const h = Math.trunc(-e / 2);
    const f1 = 2 ** h;
    const f2 = 2 ** (-e - h);
    for (let i = 0; i < dim; i++) {
      U[i] = U[i] * f1 * f2;
      V[i] = V[i] * f1 * f2;
      W[i] = W[i] * f1 * f2;
      UL[i] = UL[i] * f1 * f2;
      VL[i] = VL[i] * f1 * f2;
    }
  }
  let aa = 0;
  let cc = 0;
  for (let i = 0; i < dim; i++) {
    aa += U[i] * U[i];
    cc += V[i] * V[i];
  }
  ST[AA] = aa;
  ST[CC] = cc;
  ST[E_] = e;
  return false;
}

/**
 * Step 2, solve (both directions non-zero): the unconstrained minimiser from the 2×2 minors
 * (Binet–Cauchy), error-free below sin θ = 2⁻²⁰; exact parallelism asked of core/exact.ts
 * within rounding of parallel; then clamp-and-project. Sets s, t, floatParallel, exactPar,
 * interior, certified (and rel when it asked).
 */
function solve(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): void {
  const aa = ST[AA];
  const cc = ST[CC];
  let D = 0;
  let sN = 0;
  let tN = 0;
  for (let i = 0; i < dim; i++) {
    for (let j = i + 1; j < dim; j++) {
      const m = U[i] * V[j] - U[j] * V[i];
      D += m * m;
      sN += m * (V[i] * W[j] - V[j] * W[i]);
      tN += m * (U[i] * W[j] - U[j] * W[i]);
    }
  }
  if (D <= ACCURATE_BELOW * aa * cc) {
    D = 0;
    sN = 0;
    tN = 0;
    for (let i = 0; i < dim; i++) {
      for (let j = i + 1; j < dim; j++) {
        const m = det2(U[i], V[j], U[j], V[i]);
        D += m * m;
        sN += m * det2(V[i], W[j], V[j], W[i]);
        tN += m * det2(U[i], W[j], U[j], W[i]);
      }
    }
    if (D <= MAYBE_PARALLEL * aa * cc) {
      rel = exactRelationFlat(ka, kb, dim, data, k);
      exactPar = rel.parallel;
    }
  }
  if (D === 0 && !exactPar) {
    dUnderflow = true; // not parallel, but too nearly so for these products: see closestInto
    return;
  }
  floatParallel = D === 0 || exactPar;
  if (floatParallel) return;
  ST[S_] = sN / D;
  ST[T_] = tN / D;
  clampProject(ka, kb, dim);
}

/**
 * Step 3, clamp-and-project: clamp s*, project onto b, clamp, project back (Ericson,
 * Real-Time Collision Detection §5.1.9; Rhodes' finite-segment adjustment). Even for an
 * interior optimum this matters: s* and t* carry independent rounding errors, and for nearly
 * parallel pieces an error in s − t moves the pair *along* them; making t the best t for s (and
 * s the best s for that t) leaves only the error across them.
 */
function clampProject(ka: number, kb: number, dim: number): void {
  const ss = ST[S_];
  const ts = ST[T_];
  const sLo = ka === LINE ? -Infinity : 0;
  const sHi = ka === SEGMENT ? 1 : Infinity;
  const tLo = kb === LINE ? -Infinity : 0;
  const tHi = kb === SEGMENT ? 1 : Infinity;
  interior = ss >= sLo && ss <= sHi && ts >= tLo && ts <= tHi;
  if (interior && dim === 2) certified = certify2(ka, kb);
  // u·v, u·w and v·w in one loop, each summed in the order of dotUV, dotU and dotV (written
  // out: a double returned from a helper V8 does not inline is boxed, issue 16).
  let b = 0;
  let d = 0;
  let e = 0;
  for (let i = 0; i < dim; i++) {
    b += U[i] * V[i];
    d += U[i] * W[i];
    e += V[i] * W[i];
  }
  // Clamps by Math.min/max, which stay in float registers: with the ends as tagged constants
  // (−Infinity or 0) a conditional clamp made V8 box its result (issue 16, zero allocation).
  // (A zero parameter may come out as +0 where the conditional gave −0; nothing depends on it.)
  const s = Math.min(sHi, Math.max(sLo, ss));
  const t = Math.min(tHi, Math.max(tLo, (e + b * s) / ST[CC]));
  ST[T_] = t;
  ST[S_] = Math.min(sHi, Math.max(sLo, (b * t - d) / ST[AA]));
}

/**
 * Step 4, the parallel case: the middle of the overlap of the shadows (Rhodes' policy), the
 * finite end of a half-infinite overlap, or the nearest ends when the shadows are disjoint.
 * b's parameter range seen on a is s(t) = (t·b − d)/aa.
 */
function parallelCase(ka: number, kb: number, dim: number): void {
  const aa = ST[AA];
  const sLo = ka === LINE ? -Infinity : 0;
  const sHi = ka === SEGMENT ? 1 : Infinity;
  const tLo = kb === LINE ? -Infinity : 0;
  const tHi = kb === SEGMENT ? 1 : Infinity;
  const b = dotUV(dim);
  const d = dotU(W, dim);
  let lo = (tLo * b - d) / aa;
  let hi = (tHi * b - d) / aa;
  if (b < 0) {
    const x = lo;
    lo = hi;
    hi = x;
  }
  const oLo = Math.max(sLo, lo);
  const oHi = Math.min(sHi, hi);
  let s: number;
  if (oLo <= oHi) {
    notUnique = oLo < oHi;
    if (oLo > -Infinity && oHi < Infinity) s = oLo + 0.5 * (oHi - oLo);
    else if (oLo > -Infinity) s = oLo;
    else if (oHi < Infinity) s = oHi;
    else s = (-0.5 * d) / aa; // two whole lines: the middle of a.p0 and b.p0's shadow
  } else {
    s = hi < sLo ? sLo : sHi;
  }
  ST[S_] = s;
  ST[T_] = clamp((dotV(W, dim) + b * s) / ST[CC], tLo, tHi);
}

/**
 * Step 5, the residual A(s) − B(t), evaluated from the endpoint nearest to each parameter, and
 * the size of its terms (the error scale of the exact filter). For an interior solution in
 * dim ≥ 3 the length comes from the distance between the lines (see lineDistance). Writes
 * d − c to out, the distance and size to ST.
 */
function residual(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array): void {
  const e = ST[E_];
  const s = ST[S_];
  const t = ST[T_];
  const aa = ST[AA];
  const cc = ST[CC];
  let ia = k;
  let sp = s;
  if ((ka === SEGMENT || ka === LINE) && s > 0.5) {
    ia = k + dim;
    sp = s - 1;
  }
  let ib = k + 2 * dim;
  let tp = t;
  if ((kb === SEGMENT || kb === LINE) && t > 0.5) {
    ib = k + 3 * dim;
    tp = t - 1;
  }
  // scaleBy(x, −e) and scaleBy(x, e) written out as x·f1·f2 (see load).
  const hd = Math.trunc(-e / 2);
  const d1 = 2 ** hd;
  const d2 = 2 ** (-e - hd);
  const hu = Math.trunc(e / 2);
  const u1 = 2 ** hu;
  const u2 = 2 ** (e - hu);
  let dist2 = 0;
  let base2 = 0;
  for (let i = 0; i < dim; i++) {
    const base = e === 0 ? data[ia + i] - data[ib + i] : (data[ia + i] - data[ib + i]) * d1 * d2;
    const r = base + sp * U[i] - tp * V[i];
    R[i] = r;
    dist2 += r * r;
    base2 += base * base;
  }
  // The size of the terms the answer was computed from: the residual's own terms, and the
  // data the parameters came from (w, and the extent of finite pieces).
  let ww = 0; // |w|² (written out: see clampProject)
  for (let i = 0; i < dim; i++) ww += W[i] * W[i];
  let size2 = Math.max(base2, sp * sp * aa, tp * tp * cc, ww);
  if (ka === SEGMENT) size2 = Math.max(size2, aa);
  if (kb === SEGMENT) size2 = Math.max(size2, cc);
  if (interior && dim >= 3) {
    // Accurate to a few u·|w| even when the nearest points lie far out along lines or rays,
    // where the residual's own rounding (u·|s·u|) would not be.
    lineDistance(dim);
    const h = ST[H_];
    // keep the residual's direction, give it the accurate length
    const r = Math.sqrt(dist2);
    if (r > 0) for (let i = 0; i < dim; i++) R[i] *= h / r;
    dist2 = h * h;
  }
  if (dim > 3 && !(interior && dim >= 3)) {
    // In n-D a plain sum of squares errs by up to n·u relative: compensate.
    dot2(R, R, dim);
    dist2 = ST[H_];
  }
  let dist = Math.sqrt(dist2);
  if (dist2 < 2 ** -900 && dist2 !== 0) dist = safeNorm(R, dim);
  if (e !== 0) dist = dist * u1 * u2;
  ST[DIST] = dist;
  ST[SIZE] = e === 0 ? Math.sqrt(size2) : Math.sqrt(size2) * u1 * u2;
  for (let i = 0; i < dim; i++) out[OUT_VEC + i] = e === 0 ? 0 - R[i] : (0 - R[i]) * u1 * u2;
}

/**
 * Step 6, the exact fallback: a certified 2D crossing is a crossing; a distance within the
 * filter's bound of zero (or any interior 2D optimum) is decided by core/exact.ts, which also
 * supplies the exact distance when rounding made a positive one vanish. Returns the relation.
 */
function decide(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array, degenerate: boolean): number {
  let relation = REL_APART;
  if (certified) {
    // s, t are already consistent (t projected from s above); the crossing itself is certain.
    ST[DIST] = 0;
    for (let i = 0; i < dim; i++) out[OUT_VEC + i] = 0;
    relation = REL_INTERSECTING;
  } else if (ST[DIST] <= EXACT_FILTER * ST[SIZE] || (interior && dim === 2)) {
    rel ??= exactRelationFlat(ka, kb, dim, data, k);
    exactPar = rel.parallel;
    if (rel.share !== 'none' && rel.s !== null && rel.t !== null) {
      ST[S_] = ratToNumber(rel.s.num, rel.s.den);
      ST[T_] = ratToNumber(rel.t.num, rel.t.den);
      ST[DIST] = 0;
      for (let i = 0; i < dim; i++) out[OUT_VEC + i] = 0;
      relation = rel.share === 'overlap' ? REL_OVERLAPPING : REL_INTERSECTING;
      notUnique = rel.share === 'overlap';
    } else if (ST[DIST] === 0) {
      // Rounding made a positive distance vanish: take the exact one.
      const ex = exactClosestFlat(ka, kb, dim, data, k);
      ST[DIST] = ex.distance;
      exactDist = true;
      for (let i = 0; i < dim; i++) out[OUT_VEC + i] = ex.vector[i];
      if (!floatParallel) {
        ST[S_] = ratToNumber(ex.s.num, ex.s.den);
        ST[T_] = ratToNumber(ex.t.num, ex.t.den);
      }
    }
  }
  if (relation === REL_APART) {
    if (degenerate) relation = REL_DEGENERATE;
    else if (exactPar) relation = REL_PARALLEL;
  }
  return relation;
}

/**
 * kernel-nd.ts's answer, its distance made faithful like every other (closest/faithful.ts). An
 * infinite s or t (the exact parameter beyond the double range) comes with kernel-nd's exact
 * distance, which is kept.
 */
function ndInto(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array): void {
  // The fused two-pass path answers the common n-D case, faithful already (kernel-nd.ts); 2D and
  // 3D pairs sent here (lengths 2¹⁰⁰ apart) keep the scaled kernel.
  if (dim > 3 && data instanceof Float64Array && closestNdFast(ka, kb, dim, data, k, data, k + dim, data, k + 2 * dim, data, k + 3 * dim, out, true) === FAST_DONE) return;
  closestNdInto(ka, kb, dim, data, k, out);
  if (out[OUT_DIST] > 0 && Math.abs(out[OUT_S]) < Infinity && Math.abs(out[OUT_T]) < Infinity) {
    FAITHFUL[0] = out[OUT_S];
    FAITHFUL[1] = out[OUT_T];
    const parallel = (out[OUT_FLAGS] & FLAG_PARALLEL) !== 0;
    out[OUT_DIST] = faithfulInto(ka, kb, dim, data, k, parallel) ? FAITHFUL[2] : exactClosestFlat(ka, kb, dim, data, k).distance;
  }
}

/**
 * Step 7, the faithful distance (closest/faithful.ts): from the parameters found above, the
 * distance rounded faithfully, or — where its certificate cannot vouch — the exact one.
 */
function faithful(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): void {
  FAITHFUL[0] = ST[S_];
  FAITHFUL[1] = ST[T_];
  ST[DIST] = faithfulInto(ka, kb, dim, data, k, exactPar) ? FAITHFUL[2] : exactClosestFlat(ka, kb, dim, data, k).distance;
}

let Q = new Float64Array(16);

/**
 * The answer for data·¼ (exact for every coordinate of magnitude ≥ 2⁻¹⁰²⁰ or zero; false when
 * one is smaller), scaled back: s, t, the relation and the flags are those of the scaled
 * problem, the distance and d − c four times its. A distance beyond the double range comes
 * out as Infinity (closestPoints and the batches report it).
 */
function quarter(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array): boolean {
  if (Q.length < 4 * dim) Q = new Float64Array(4 * dim);
  for (let i = 0; i < 4 * dim; i++) {
    const x = data[k + i];
    if (x !== 0 && Math.abs(x) < 2 ** -1020) return false;
    Q[i] = x * 0.25;
  }
  closestInto(ka, kb, dim, Q, 0, out);
  out[OUT_DIST] *= 4;
  for (let i = 0; i < dim; i++) out[OUT_VEC + i] *= 4;
  return true;
}

/** Everything from exact arithmetic: for inputs no floating-point formula can be trusted on. */
function exactAnswer(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array, degenerate: boolean): void {
  const r = exactRelationFlat(ka, kb, dim, data, k);
  notUnique = false;
  let relation: number;
  let s: number;
  let t: number;
  let dist = 0;
  if (r.share !== 'none' && r.s !== null && r.t !== null) {
    relation = r.share === 'overlap' ? REL_OVERLAPPING : REL_INTERSECTING;
    s = ratToNumber(r.s.num, r.s.den);
    t = ratToNumber(r.t.num, r.t.den);
    for (let i = 0; i < dim; i++) out[OUT_VEC + i] = 0;
  } else {
    const ex = exactClosestFlat(ka, kb, dim, data, k);
    relation = degenerate ? REL_DEGENERATE : r.parallel ? REL_PARALLEL : REL_APART;
    s = ratToNumber(ex.s.num, ex.s.den);
    t = ratToNumber(ex.t.num, ex.t.den);
    if (r.parallel && !degenerate) {
      // A locus of nearest pairs: the same pair (and the same `unique`) as the floating-point
      // parallel case would give, so answers do not change with the input's magnitude.
      const pp = exactParallelPair(ka, kb, dim, data, k);
      s = ratToNumber(pp.s.num, pp.s.den);
      t = ratToNumber(pp.t.num, pp.t.den);
      notUnique = pp.notUnique;
    }
    dist = ex.distance;
    for (let i = 0; i < dim; i++) out[OUT_VEC + i] = ex.vector[i];
  }
  out[OUT_S] = s;
  out[OUT_T] = t;
  out[OUT_DIST] = dist;
  out[OUT_REL] = relation;
  out[OUT_FLAGS] = (r.share === 'overlap' || notUnique ? FLAG_NOT_UNIQUE : 0) | (r.parallel ? FLAG_PARALLEL : 0) | (degenerate ? FLAG_DEGENERATE : 0);
}

/** Certificate error factor for 2D determinants of rounded differences (≥ 4u, Shewchuk-style). */
const CERT = 8 * EPS;

/**
 * In 2D an interior optimum means the lines cross inside both pieces. Certify it without
 * exact arithmetic when s* = (v×w)/(u×v) and t* = (u×w)/(u×v) lie inside their domains by
 * more than a bound on the rounding of the three determinants (which includes the rounding
 * of the differences u, v, w). Returns false when it cannot tell.
 */
function certify2(ka: number, kb: number): boolean {
  const p1 = U[0] * V[1];
  const p2 = U[1] * V[0];
  const n = p1 - p2;
  const en = CERT * (Math.abs(p1) + Math.abs(p2));
  const an = Math.abs(n);
  if (!(an > en)) return false;
  const sg = n > 0 ? 1 : -1;
  const q1 = V[0] * W[1];
  const q2 = V[1] * W[0];
  const r1 = U[0] * W[1];
  const r2 = U[1] * W[0];
  const ss = sg * (q1 - q2); // s*·|n|
  const ts = sg * (r1 - r2); // t*·|n|
  const es = CERT * (Math.abs(q1) + Math.abs(q2));
  const et = CERT * (Math.abs(r1) + Math.abs(r2));
  // Is each parameter (x/an, error ex) certainly inside the domain of its kind? Written out,
  // not a helper taking five doubles: V8 boxes them where it does not inline it (issue 16).
  const sIn = ka === LINE || (ss > es && (ka === RAY || an - ss > en + es + EPS * an));
  return sIn && (kb === LINE || (ts > et && (kb === RAY || an - ts > en + et + EPS * an)));
}

/**
 * The minor u_i·v_j − u_j·v_i of the exact directions (U + UL, V + VL), to a few ulps: the
 * leading part error-free (det2), the first-order terms of the low parts added, their product
 * (order u²) dropped.
 */
/** The three minors of the 3D cross product (minorInto's output). */
const MN = new Float64Array(3);

/**
 * {@link minorUV} into MN[slot], with det2 and its two-products written out, so that no double
 * crosses a call that V8 may not inline (it would be boxed: issue 16, zero allocation).
 */
function minorInto(i: number, j: number, slot: number): void {
  const a = U[i];
  const dd = V[j];
  const b = U[j];
  const c = V[i];
  const p = a * dd;
  const q = b * c;
  // Dekker's two-products: a·dd − p and b·c − q exactly.
  let sp = SPLITTER * a;
  const ah = sp - (sp - a);
  const al = a - ah;
  sp = SPLITTER * dd;
  const dh = sp - (sp - dd);
  const dl = dd - dh;
  const pe = al * dl - (p - ah * dh - al * dh - ah * dl);
  sp = SPLITTER * b;
  const bh = sp - (sp - b);
  const bl = b - bh;
  sp = SPLITTER * c;
  const ch = sp - (sp - c);
  const cl = c - ch;
  const qe = bl * cl - (q - bh * ch - bl * ch - bh * cl);
  MN[slot] = p - q + (pe - qe) + (U[i] * VL[j] + UL[i] * V[j] - U[j] * VL[i] - UL[j] * V[i]);
}

function minorUV(i: number, j: number): number {
  return det2(U[i], V[j], U[j], V[i]) + (U[i] * VL[j] + UL[i] * V[j] - U[j] * VL[i] - UL[j] * V[i]);
}

/**
 * Distance between the lines through u and v (dim ≥ 3) at offset w, from accurate minors,
 * written to ST[H_]. In 3D |w·n|/|n| with n = u×v. In n-D, O(n²) rather than the O(n³) of
 * all 3×3 Gram minors: remove u from v and w through the minors, which is error-free where it
 * matters — v′_j = Σ_i u_i·m(u,v)_ij / |u|² = v_j − u_j (u·v)/|u|² (Lagrange's identity), and
 * likewise w′ — then the distance from w′ to the line along v′ is
 * |w′ − (v′·w′/|v′|²)·v′|. Scratch: Z holds u, X holds v′, Y holds w′.
 */
function lineDistance(dim: number): void {
  if (dim === 3) {
    minorInto(1, 2, 0);
    minorInto(0, 2, 1);
    minorInto(0, 1, 2);
    const nx = MN[0];
    const ny = -MN[1];
    const nz = MN[2];
    const nn = nx * nx + ny * ny + nz * nz;
    const wn = W[0] * nx + W[1] * ny + W[2] * nz;
    ST[H_] = Math.abs(wn) / Math.sqrt(nn);
    return;
  }
  // Every sum over the dimension is compensated (Ogita, Rump & Oishi, "Accurate sum and dot
  // product", 2005: two-product + two-sum), so the error stays a few u·|w| at any dimension.
  for (let i = 0; i < dim; i++) Z[i] = U[i] + UL[i];
  dot2(Z, Z, dim);
  const uu = ST[H_];
  for (let j = 0; j < dim; j++) {
    for (let i = 0; i < dim; i++) {
      // m(u, v)_ij and m(u, w)_ij; zero on the diagonal.
      MV[i] = i === j ? 0 : minorUV(i, j);
      MW[i] = i === j ? 0 : det2(U[i], W[j], U[j], W[i]) + UL[i] * W[j] - UL[j] * W[i];
    }
    dot2(Z, MV, dim);
    X[j] = ST[H_] / uu; // v′_j = v_j − u_j (u·v)/|u|²
    dot2(Z, MW, dim);
    Y[j] = ST[H_] / uu; // w′_j = w_j − u_j (u·w)/|u|²
  }
  dot2(X, Y, dim);
  const vw = ST[H_];
  dot2(X, X, dim);
  const c = vw / ST[H_];
  for (let i = 0; i < dim; i++) Y[i] -= c * X[i]; // w″ = w′ − (v′·w′/|v′|²) v′, orthogonal to u and v
  dot2(Y, Y, dim);
  ST[H_] = Math.sqrt(ST[H_]);
}

/** Σ x_i·y_i with two-products and a compensated sum (Ogita–Rump–Oishi Dot2), into ST[H_]. */
function dot2(x: Float64Array, y: Float64Array, dim: number): void {
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < dim; i++) {
    const p = x[i] * y[i];
    const s = hi + p;
    const bv = s - hi;
    lo += hi - (s - bv) + (p - bv) + productError(x[i], y[i], p);
    hi = s;
  }
  ST[H_] = hi + lo;
}


function dotU(x: Float64Array, dim: number): number {
  let r = 0;
  for (let i = 0; i < dim; i++) r += U[i] * x[i];
  return r;
}
function dotV(x: Float64Array, dim: number): number {
  let r = 0;
  for (let i = 0; i < dim; i++) r += V[i] * x[i];
  return r;
}
function dotUV(dim: number): number {
  return dotU(V, dim);
}

/** |x| without underflow of the squares (x not all zero). */
function safeNorm(x: Float64Array, dim: number): number {
  let m = 0;
  for (let i = 0; i < dim; i++) m = Math.max(m, Math.abs(x[i]));
  if (m === 0) return 0;
  let q = 0;
  for (let i = 0; i < dim; i++) {
    const y = x[i] / m;
    q += y * y;
  }
  return Math.sqrt(q) * m;
}
