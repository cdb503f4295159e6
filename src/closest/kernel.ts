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
import { det2, EPS } from '../core/eft.js';
import { LINE, POINT, RAY, SEGMENT, exactClosestFlat, exactRelationFlat, ratToNumber } from '../core/exact.js';
import type { ExactRelation } from '../core/exact.js';

/** Slots of the kernel's output array (length ≥ 5 + dim). */
export const OUT_S = 0;
export const OUT_T = 1;
export const OUT_DIST = 2;
export const OUT_REL = 3;
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

/** Squared lengths below this (after scaling) are handed to exact arithmetic. */
const UNDERFLOW = 2 ** -900;

let U = new Float64Array(4);
let V = new Float64Array(4);
let W = new Float64Array(4);
let R = new Float64Array(4);
/** Rounding errors of the directions p1 − p0 of lines (zero for other kinds), see lineDistance. */
let UL = new Float64Array(4);
let VL = new Float64Array(4);

function grow(dim: number): void {
  if (U.length < dim) {
    U = new Float64Array(dim);
    V = new Float64Array(dim);
    W = new Float64Array(dim);
    R = new Float64Array(dim);
    UL = new Float64Array(dim);
    VL = new Float64Array(dim);
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** x·2^k for |k| ≤ 2098, in two factors so that neither overflows. */
function scaleBy(x: number, k: number): number {
  const h = Math.trunc(k / 2);
  return x * 2 ** h * 2 ** (k - h);
}

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
  grow(dim);
  const a0 = k;
  const a1 = k + dim;
  const b0 = k + 2 * dim;
  const b1 = k + 3 * dim;
  let uZero = true;
  let vZero = true;
  let maxAbs = 0;
  for (let i = 0; i < dim; i++) {
    const ui = ka === RAY ? data[a1 + i] : ka === POINT ? 0 : data[a1 + i] - data[a0 + i];
    const vi = kb === RAY ? data[b1 + i] : kb === POINT ? 0 : data[b1 + i] - data[b0 + i];
    const wi = data[a0 + i] - data[b0 + i];
    U[i] = ui;
    V[i] = vi;
    W[i] = wi;
    // A line's nearest point can lie far out, where one ulp of turn in p1 − p0 moves it by
    // u·|s·u|; keep the exact direction as ui + UL[i] (Knuth's two-difference).
    UL[i] = ka === LINE ? diffError(data[a1 + i], data[a0 + i], ui) : 0;
    VL[i] = kb === LINE ? diffError(data[b1 + i], data[b0 + i], vi) : 0;
    if (ui !== 0) uZero = false;
    if (vi !== 0) vZero = false;
    const m = Math.max(Math.abs(ui), Math.abs(vi), Math.abs(wi));
    if (m > maxAbs) maxAbs = m;
  }
  if (!(maxAbs < Infinity)) {
    // A difference of two coordinates near ±1.8e308 overflowed: only exact arithmetic can answer.
    return exactAnswer(ka, kb, dim, data, k, out, (ka === SEGMENT && uZero) || (kb === SEGMENT && vZero));
  }
  // Normalise by an exact power of two so that the largest difference is near 1: squares
  // and products of four factors then neither overflow nor turn subnormal for any ratio below
  // 2⁴⁵⁰, no relative error changes, and scaling the input by 2^k scales the output exactly.
  let e = 0;
  if (maxAbs > 0) {
    e = Math.floor(Math.log2(maxAbs));
    for (let i = 0; i < dim; i++) {
      U[i] = scaleBy(U[i], -e);
      V[i] = scaleBy(V[i], -e);
      W[i] = scaleBy(W[i], -e);
      UL[i] = scaleBy(UL[i], -e);
      VL[i] = scaleBy(VL[i], -e);
    }
  }

  const sLo = ka === LINE ? -Infinity : 0;
  const sHi = uZero ? 0 : ka === SEGMENT ? 1 : Infinity;
  const tLo = kb === LINE ? -Infinity : 0;
  const tHi = vZero ? 0 : kb === SEGMENT ? 1 : Infinity;

  let aa = 0;
  let cc = 0;
  for (let i = 0; i < dim; i++) {
    aa += U[i] * U[i];
    cc += V[i] * V[i];
  }

  if ((!uZero && !(aa > UNDERFLOW)) || (!vZero && !(cc > UNDERFLOW))) {
    // A direction so short beside the others that its square underflows even after scaling
    // (a length ratio beyond 2⁴⁵⁰): no floating-point formula is safe; answer exactly.
    return exactAnswer(ka, kb, dim, data, k, out, (ka === SEGMENT && uZero) || (kb === SEGMENT && vZero));
  }

  let s = 0;
  let t = 0;
  let rel: ExactRelation | null = null;
  let floatParallel = false;
  let exactParallel = false;
  let interior = false;
  let certified = false;
  let D = 0;
  if (uZero && vZero) {
    // two points
  } else if (uZero) {
    t = clamp(dotV(W, dim) / cc, tLo, tHi);
  } else if (vZero) {
    s = clamp(-dotU(W, dim) / aa, sLo, sHi);
  } else {
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
        exactParallel = rel.parallel;
      }
    }
    floatParallel = D === 0 || exactParallel;
    if (!floatParallel) {
      const ss = sN / D;
      const ts = tN / D;
      interior = ss >= sLo && ss <= sHi && ts >= tLo && ts <= tHi;
      if (interior && dim === 2) certified = certify2(ka, kb);
      // Clamp s*, project onto b, clamp, project back (Ericson §5.1.9). Even for an interior
      // optimum this matters: s* and t* carry independent rounding errors, and for nearly
      // parallel pieces an error in s − t moves the pair *along* them; making t the best t
      // for s (and s the best s for that t) leaves only the error across them.
      const b = dotUV(dim);
      const d = dotU(W, dim);
      s = clamp(ss, sLo, sHi);
      t = clamp((dotV(W, dim) + b * s) / cc, tLo, tHi);
      s = clamp((b * t - d) / aa, sLo, sHi);
    }
  }

  let notUnique = false;
  if (floatParallel) {
    // Parallel: b's parameter range seen on a is s(t) = (t·b − d)/aa.
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
    if (oLo <= oHi) {
      notUnique = oLo < oHi;
      if (oLo > -Infinity && oHi < Infinity) s = oLo + 0.5 * (oHi - oLo);
      else if (oLo > -Infinity) s = oLo;
      else if (oHi < Infinity) s = oHi;
      else s = (-0.5 * d) / aa; // two whole lines: the middle of a.p0 and b.p0's shadow
    } else {
      s = hi < sLo ? sLo : sHi;
    }
    t = clamp((dotV(W, dim) + b * s) / cc, tLo, tHi);
  }

  // Residual A(s) − B(t) from the nearest endpoints, and the size of its terms.
  let ia = a0;
  let sp = s;
  if ((ka === SEGMENT || ka === LINE) && s > 0.5) {
    ia = a1;
    sp = s - 1;
  }
  let ib = b0;
  let tp = t;
  if ((kb === SEGMENT || kb === LINE) && t > 0.5) {
    ib = b1;
    tp = t - 1;
  }
  let dist2 = 0;
  let base2 = 0;
  for (let i = 0; i < dim; i++) {
    const base = e === 0 ? data[ia + i] - data[ib + i] : scaleBy(data[ia + i] - data[ib + i], -e);
    const r = base + sp * U[i] - tp * V[i];
    R[i] = r;
    dist2 += r * r;
    base2 += base * base;
  }
  // The size of the terms the answer was computed from: the residual's own terms, and the
  // data the parameters came from (w, and the extent of finite pieces).
  let size2 = Math.max(base2, sp * sp * aa, tp * tp * cc, dotW(dim));
  if (ka === SEGMENT) size2 = Math.max(size2, aa);
  if (kb === SEGMENT) size2 = Math.max(size2, cc);
  if (interior && dim >= 3) {
    // The distance between the two lines, from accurate minors: in 3D |w·n|/|n| with n = u×v,
    // in n-D sqrt(G(u,v,w)/G(u,v)) (Gram determinants as sums of squared minors). Accurate
    // to a few u·|w| even when the nearest points lie far out along lines or rays, where the
    // residual's own rounding (u·|s·u|) would not be.
    const h = lineDistance(dim);
    // keep the residual's direction, give it the accurate length
    const r = Math.sqrt(dist2);
    if (r > 0) for (let i = 0; i < dim; i++) R[i] *= h / r;
    dist2 = h * h;
  }
  let dist = Math.sqrt(dist2);
  if (dist2 < 2 ** -900 && dist2 !== 0) dist = safeNorm(R, dim);
  if (e !== 0) dist = scaleBy(dist, e);
  const size = e === 0 ? Math.sqrt(size2) : scaleBy(Math.sqrt(size2), e);

  let relation = REL_APART;
  for (let i = 0; i < dim; i++) out[OUT_VEC + i] = e === 0 ? 0 - R[i] : scaleBy(0 - R[i], e);
  if (certified) {
    // s, t are already consistent (t projected from s above); the crossing itself is certain.
    dist = 0;
    for (let i = 0; i < dim; i++) out[OUT_VEC + i] = 0;
    relation = REL_INTERSECTING;
  } else if (dist <= EXACT_FILTER * size || (interior && dim === 2)) {
    rel ??= exactRelationFlat(ka, kb, dim, data, k);
    exactParallel = rel.parallel;
    if (rel.share !== 'none' && rel.s !== null && rel.t !== null) {
      s = ratToNumber(rel.s.num, rel.s.den);
      t = ratToNumber(rel.t.num, rel.t.den);
      dist = 0;
      for (let i = 0; i < dim; i++) out[OUT_VEC + i] = 0;
      relation = rel.share === 'overlap' ? REL_OVERLAPPING : REL_INTERSECTING;
      notUnique = rel.share === 'overlap';
    } else if (dist === 0) {
      // Rounding made a positive distance vanish: take the exact one.
      const ex = exactClosestFlat(ka, kb, dim, data, k);
      dist = ex.distance;
      for (let i = 0; i < dim; i++) out[OUT_VEC + i] = ex.vector[i];
      if (!floatParallel) {
        s = ratToNumber(ex.s.num, ex.s.den);
        t = ratToNumber(ex.t.num, ex.t.den);
      }
    }
  }
  const degenerate = (ka === SEGMENT && uZero) || (kb === SEGMENT && vZero);
  if (relation === REL_APART) {
    if (degenerate) relation = REL_DEGENERATE;
    else if (exactParallel) relation = REL_PARALLEL;
  }
  out[OUT_S] = s;
  out[OUT_T] = t;
  out[OUT_DIST] = dist;
  out[OUT_REL] = relation;
  out[OUT_FLAGS] = (notUnique ? FLAG_NOT_UNIQUE : 0) | (exactParallel ? FLAG_PARALLEL : 0) | (degenerate ? FLAG_DEGENERATE : 0);
  return dist;
}

/** Everything from exact arithmetic: for inputs no floating-point formula can be trusted on. */
function exactAnswer(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array, degenerate: boolean): number {
  const rel = exactRelationFlat(ka, kb, dim, data, k);
  let relation: number;
  let s: number;
  let t: number;
  let dist = 0;
  if (rel.share !== 'none' && rel.s !== null && rel.t !== null) {
    relation = rel.share === 'overlap' ? REL_OVERLAPPING : REL_INTERSECTING;
    s = ratToNumber(rel.s.num, rel.s.den);
    t = ratToNumber(rel.t.num, rel.t.den);
    for (let i = 0; i < dim; i++) out[OUT_VEC + i] = 0;
  } else {
    const ex = exactClosestFlat(ka, kb, dim, data, k);
    relation = degenerate ? REL_DEGENERATE : rel.parallel ? REL_PARALLEL : REL_APART;
    s = ratToNumber(ex.s.num, ex.s.den);
    t = ratToNumber(ex.t.num, ex.t.den);
    dist = ex.distance;
    for (let i = 0; i < dim; i++) out[OUT_VEC + i] = ex.vector[i];
  }
  out[OUT_S] = s;
  out[OUT_T] = t;
  out[OUT_DIST] = dist;
  out[OUT_REL] = relation;
  out[OUT_FLAGS] = (rel.share === 'overlap' ? FLAG_NOT_UNIQUE : 0) | (rel.parallel ? FLAG_PARALLEL : 0) | (degenerate ? FLAG_DEGENERATE : 0);
  return dist;
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
  const inside = (x: number, ex: number, kind: number): boolean =>
    kind === LINE || (x > ex && (kind === RAY || an - x > en + ex + EPS * an));
  return inside(ss, es, ka) && inside(ts, et, kb);
}

/**
 * The minor u_i·v_j − u_j·v_i of the exact directions (U + UL, V + VL), to a few ulps: the
 * leading part error-free (det2), the first-order terms of the low parts added, their product
 * (order u²) dropped.
 */
function minorUV(i: number, j: number): number {
  return det2(U[i], V[j], U[j], V[i]) + (U[i] * VL[j] + UL[i] * V[j] - U[j] * VL[i] - UL[j] * V[i]);
}

/** Distance between the lines through u and v (dim ≥ 3) at offset w, from accurate minors. */
function lineDistance(dim: number): number {
  if (dim === 3) {
    const nx = minorUV(1, 2);
    const ny = -minorUV(0, 2);
    const nz = minorUV(0, 1);
    const nn = nx * nx + ny * ny + nz * nz;
    const wn = W[0] * nx + W[1] * ny + W[2] * nz;
    return Math.abs(wn) / Math.sqrt(nn);
  }
  // G(u,v) = Σ_{i<j} m_ij², G(u,v,w) = Σ_{i<j<k} (w_i m_jk − w_j m_ik + w_k m_ij)².
  let g2 = 0;
  let g3 = 0;
  for (let i = 0; i < dim; i++) {
    for (let j = i + 1; j < dim; j++) {
      const mij = minorUV(i, j);
      g2 += mij * mij;
      for (let l = j + 1; l < dim; l++) {
        const M = W[i] * minorUV(j, l) - W[j] * minorUV(i, l) + W[l] * mij;
        g3 += M * M;
      }
    }
  }
  return Math.sqrt(g3 / g2);
}

/** The rounding error of x = fl(a − b): a − b = x + diffError(a, b, x) exactly (Knuth). */
function diffError(a: number, b: number, x: number): number {
  const bv = a - x;
  const av = x + bv;
  return a - av + (bv - b);
}

function dotW(dim: number): number {
  let r = 0;
  for (let i = 0; i < dim; i++) r += W[i] * W[i];
  return r;
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
