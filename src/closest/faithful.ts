/**
 * Faithful distances: given the parameters (s, t) a floating-point kernel found, the distance
 * rounded faithfully — the returned double d has the exact minimum distance d* strictly between
 * its neighbours, pred(d) < d* < succ(d) (d = d* when d* is a double) — or reports that this
 * cheap certificate cannot vouch for it, and the caller asks exact arithmetic.
 *
 * Why a separate step: the plain residual r = w + s·u − t·v carries rounding errors of a few
 * u·S (S the size of the coordinates' differences), so its length is off by a few ulps when d*
 * is near S and by S/d* times more when d* is small beside S; and the plain sum of squares alone
 * costs up to 1.5 ulps. Neither can be certified to one ulp, so every distance goes through here:
 * 1. The residual at (s, t) in double-double: the differences b, u, v split exactly (Knuth's
 *    two-difference), s·u and t·v by Dekker's two-product, summed with two-sums (Shewchuk 1997,
 *    §2). Error: a few u²·T, T the sum of the terms' magnitudes.
 * 2. Optimality to first order, certified: the gradient g = (r·u, −r·v) by a compensated dot
 *    product (Ogita, Rump & Oishi 2005, Dot2). |r(x)|² is a quadratic with Hessian H = JᵀJ
 *    (J = [u, −v]), so min |r|² = |r|² + min_δ (2gᵀδ + δᵀHδ) exactly; for a clamped parameter
 *    whose gradient has the right sign (certified against its error) the δ-term is ≥ 0 and is
 *    dropped, which leaves the excess |r|² − d*² ≤ ĝᵀH⁻¹ĝ over the free parameters (for one free
 *    parameter x: g²/|x|², after checking that the clamped one keeps its sign once x is moved).
 *    When the bound is too large for one ulp, one or two Newton steps on the free parameters
 *    (in double-double) shrink it.
 * 3. |r|² in double-double, its square root with one correction, and the certificate: with X the
 *    computed |r|² and E its error bound, (d − ulp⁻)² < X − E and X + E < (d + ulp⁺)², tested in
 *    double-double.
 * The inputs are scaled by a power of two (exact) when their differences leave [2⁻⁴⁰⁰, 2⁴⁰⁰].
 * Cost: the segment kernels' common case runs faithfulSegSeg (2D) or faithfulSegSeg3 (3D: written
 * out, no scratch, a retry with compensated gradients), and the 3D WebAssembly batch runs the
 * first certificate of faithfulSegSeg3 itself, operation for operation (scripts/build-wasm.ts);
 * only what they cannot certify reaches faithfulInto. None of this can be skipped for a
 * one-ulp promise: the plain residual's error (a few u·S) and the plain sum of squares' (γ₃)
 * are each above an ulp of d on their own.
 * Not re-entrant (module-level scratch).
 */
import { EPS, SPLITTER } from '../core/eft.js';
import { LINE, POINT, RAY, SEGMENT } from '../core/exact.js';

/** In: s, t; out: the distance (see {@link faithfulInto}). */
export const FAITHFUL = new Float64Array(3);

let RH = new Float64Array(4);
let RL = new Float64Array(4);
let UH = new Float64Array(4);
let UL = new Float64Array(4);
let VH = new Float64Array(4);
let VL = new Float64Array(4);

/** Double results between the steps (a double returned from a function is boxed). */
const LV = new Float64Array(5);
/** s*, t*, their margins, n (see stars3). */
const STAR = new Float64Array(9);

/** Set while faithfulInto retries with another active set (once, never recursively). */
let retrying = false;

/** Bit access to a double (its exponent gives the ulp exactly). */
const BITS = new Float64Array(1);
const WORDS = new Uint32Array(BITS.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // little-endian: high word second

/** Terms below this (after scaling) could lose bits to underflow in the products: ask exact. */
const TINY = 2 ** -450;
const U2 = EPS * EPS;

function grow(dim: number): void {
  if (RH.length < dim) {
    RH = new Float64Array(dim);
    RL = new Float64Array(dim);
    UH = new Float64Array(dim);
    UL = new Float64Array(dim);
    VH = new Float64Array(dim);
    VL = new Float64Array(dim);
  }
}

/** x·2^k in two steps (|k| ≤ 2000), exact unless the result under- or overflows. */
function scaleBy(x: number, k: number): number {
  const h = Math.trunc(k / 2);
  return x * 2 ** h * 2 ** (k - h);
}

/** The rounding error of x = fl(a − b) (Knuth's two-difference): a − b = x + err exactly. */
function diffErr(a: number, b: number, x: number): number {
  const bv = a - x;
  const av = x + bv;
  return a - av + (bv - b);
}

// Doubles cross the boundaries of the helpers below through this array, not through arguments,
// returns or module-level `let`s: V8 boxes each of those (a heap allocation per call) unless it
// inlines the helper, which it does not in a function as large as faithfulInto (issue 16).
// DOT_HI, DOT_ABS: dot2's result; ADD_F in, ADD_ABS out: addScaled's factor and Σ|f·xh|.
// FIN_XH, FIN_XL, FIN_E: finish's X = xh + xl and its error bound E (certify reads them too);
// CERT_D: the root certify checks. P_S, P_T, P_TERMS: the parameters and the size of the
// residual's terms (T) that lineCase3, stars3, beyond3 and sandwich3 read. G_S, G_T, G_C: a
// gradient (of s, of t, of the clamped one) followed by its error bound, for signOk and inward.
const IO = new Float64Array(17);
const DOT_HI = 0;
const DOT_ABS = 1;
const ADD_F = 2;
const ADD_ABS = 3;
const FIN_XH = 4;
const FIN_XL = 5;
const FIN_E = 6;
const CERT_D = 7;
const P_S = 8;
const P_T = 9;
const P_TERMS = 10;
const G_S = 11;
const G_T = 13;
const G_C = 15;
/** n = u×v from {@link minorInto}, read by {@link lineSq3}. */
const N3 = new Float64Array(3);

/**
 * Σ (RH + RL)_i·(xh + xl)_i, with two-products and two-sums for RH·xh (Dot2); the rounding
 * error of the result is ≤ 2u·|result| + 16·dim·u²·(Σ|RH·xh| + terms of the low parts).
 */
function dot2(xh: Float64Array, xl: Float64Array, dim: number): void {
  let hi = 0;
  let lo = 0;
  let abs = 0;
  for (let i = 0; i < dim; i++) {
    const a = RH[i];
    const b = xh[i];
    const p = a * b;
    let c = SPLITTER * a;
    const ah = c - (c - a);
    const al = a - ah;
    c = SPLITTER * b;
    const bh = c - (c - b);
    const bl = b - bh;
    const pe = al * bl - (p - ah * bh - al * bh - ah * bl);
    const s = hi + p;
    const bv = s - hi;
    lo += hi - (s - bv) + (p - bv) + pe + (a * xl[i] + RL[i] * b);
    hi = s;
    abs += Math.abs(p) + Math.abs(a * xl[i]) + Math.abs(RL[i] * b);
  }
  IO[DOT_HI] = hi + lo;
  IO[DOT_ABS] = abs;
}

/**
 * Adds f·(xh + xl) to the residual (RH, RL) in double-double: two-product f·xh, two-sum into
 * RH, the rest into RL. f = IO[ADD_F]; writes Σ|f·xh| (for the error bound) to IO[ADD_ABS].
 */
function addScaled(xh: Float64Array, xl: Float64Array, dim: number): void {
  const f = IO[ADD_F];
  let c = SPLITTER * f;
  const fh = c - (c - f);
  const fl = f - fh;
  let abs = 0;
  for (let i = 0; i < dim; i++) {
    const b = xh[i];
    const p = f * b;
    c = SPLITTER * b;
    const bh = c - (c - b);
    const bl = b - bh;
    const pe = fl * bl - (p - fh * bh - fl * bh - fh * bl);
    const a = RH[i];
    const s = a + p;
    const bv = s - a;
    const se = a - (s - bv) + (p - bv);
    const lo = RL[i] + se + pe + f * xl[i];
    const h = s + lo; // renormalise
    RL[i] = lo - (h - s);
    RH[i] = h;
    abs += Math.abs(p);
  }
  IO[ADD_ABS] = abs;
}

/**
 * The faithfully rounded minimum distance of two primitives on the flat layout of
 * closestFlat (kinds POINT, SEGMENT, RAY, LINE of core/exact.ts; data[k …] holds a0, a1, b0,
 * b1), from parameters (s, t) near the optimum (read from FAITHFUL[0], FAITHFUL[1]), written to
 * FAITHFUL[2]; returns false (nothing written) when it cannot certify the rounding
 * (parameters on the wrong side of a bound, a nearly degenerate optimum the Newton steps do
 * not settle, magnitudes beyond its scaling, a non-finite difference): then ask exact
 * arithmetic. (Doubles in and out through FAITHFUL: a double passed to or returned from a
 * function V8 does not inline is boxed, a heap allocation per call.) `parallel`: the directions are known to be exactly parallel (both non-zero).
 * Edge cases: 0 only when every difference is zero (coincident points); any other zero residual
 * gives false (the kernels decide touching exactly before calling this).
 */
export function faithfulInto(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, parallel: boolean): boolean {
  grow(dim);
  let s = FAITHFUL[0];
  let t = FAITHFUL[1];
  const a0 = k;
  const a1 = k + dim;
  const b0 = k + 2 * dim;
  const b1 = k + 3 * dim;
  if (ka === POINT) s = 0;
  if (kb === POINT) t = 0;
  // The residual is formed from the nearer end of a segment or line: |sp|, |tp| ≤ ½ there.
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
  // Pass 1: the rounded differences and their largest magnitude.
  let m = 0;
  let uZero = true;
  let vZero = true;
  for (let i = 0; i < dim; i++) {
    const bi = data[ia + i] - data[ib + i];
    const ui = ka === RAY ? data[a1 + i] : ka === POINT ? 0 : data[a1 + i] - data[a0 + i];
    const vi = kb === RAY ? data[b1 + i] : kb === POINT ? 0 : data[b1 + i] - data[b0 + i];
    RH[i] = bi;
    UH[i] = ui;
    VH[i] = vi;
    if (ui !== 0) uZero = false;
    if (vi !== 0) vZero = false;
    const x = Math.max(Math.abs(bi), Math.abs(ui), Math.abs(vi));
    if (x > m) m = x;
  }
  if (!(m < Infinity) || !(Math.abs(sp) < Infinity) || !(Math.abs(tp) < Infinity)) return false;
  if (m === 0) {
    FAITHFUL[2] = 0;
    return true;
  }
  let e = 0;
  if (m > 2 ** 400 || m < 2 ** -400) e = Math.floor(Math.log2(m));
  const ms = e === 0 ? m : 2;
  if (Math.abs(sp) * ms > 2 ** 450 || Math.abs(tp) * ms > 2 ** 450) return false;
  // Pass 2: the exact low parts, then everything times 2^−e (exact: far from under/overflow).
  for (let i = 0; i < dim; i++) {
    const bl = diffErr(data[ia + i], data[ib + i], RH[i]);
    const ul = ka === SEGMENT || ka === LINE ? diffErr(data[a1 + i], data[a0 + i], UH[i]) : 0;
    const vl = kb === SEGMENT || kb === LINE ? diffErr(data[b1 + i], data[b0 + i], VH[i]) : 0;
    if (e === 0) {
      RL[i] = bl;
      UL[i] = ul;
      VL[i] = vl;
    } else {
      RH[i] = scaleBy(RH[i], -e);
      RL[i] = scaleBy(bl, -e);
      UH[i] = scaleBy(UH[i], -e);
      UL[i] = scaleBy(ul, -e);
      VH[i] = scaleBy(VH[i], -e);
      VL[i] = scaleBy(vl, -e);
    }
  }
  // Step 1: r = b + sp·u − tp·v; T bounds the terms' magnitudes (Σ over coordinates).
  let T = 0;
  for (let i = 0; i < dim; i++) T += Math.abs(RH[i]);
  if (!uZero && sp !== 0) {
    IO[ADD_F] = sp;
    addScaled(UH, UL, dim);
    T += IO[ADD_ABS];
  }
  if (!vZero && tp !== 0) {
    IO[ADD_F] = -tp;
    addScaled(VH, VL, dim);
    T += IO[ADD_ABS];
  }
  let uu = 0;
  let vv = 0;
  let uv = 0;
  for (let i = 0; i < dim; i++) {
    uu += UH[i] * UH[i];
    vv += VH[i] * VH[i];
    uv += UH[i] * VH[i];
  }
  if ((!uZero && !(uu > TINY)) || (!vZero && !(vv > TINY))) return false;
  let sFree = !uZero && (ka === LINE || (ka === RAY && s > 0) || (ka === SEGMENT && s > 0 && s < 1));
  let tFree = !vZero && (kb === LINE || (kb === RAY && t > 0) || (kb === SEGMENT && t > 0 && t < 1));
  // det = uu·vv − uv² (Lagrange), from the minors when it cancels.
  let det = 0;
  if (!uZero && !vZero && !parallel) {
    det = uu * vv - uv * uv;
    if (det < 0.0625 * uu * vv && dim > 3) {
      // O(dim) (the minors would take O(dim²)): det = |u|²·|v⊥|², v⊥ = v − (u·v/|u|²)·u, whose
      // rounding stays below 2⁻³⁸ of it down to det = 2⁻²⁰·|u|²|v|²; below that, exact arithmetic.
      const c = uv / uu;
      let q = 0;
      for (let i = 0; i < dim; i++) {
        const x = VH[i] - c * UH[i];
        q += x * x;
      }
      det = uu * q * (1 - 2 ** -30);
      if (!(det >= 2 ** -20 * uu * vv)) return false;
    } else if (det < 0.0625 * uu * vv) {
      det = 0;
      for (let i = 0; i < dim; i++) {
        for (let j = i + 1; j < dim; j++) {
          const mij = UH[i] * VH[j] - UH[j] * VH[i];
          det += mij * mij;
        }
      }
    }
    if (!(det > 0)) return false;
  }
  if (dim === 3 && sFree && tFree && !parallel && det < 0.0625 * uu * vv) {
    IO[P_S] = s;
    IO[P_T] = t;
    IO[P_TERMS] = T;
    return lineCase3(ka, kb, data, k, e);
  }
  // Step 2: certify optimality to first order; Newton steps on the free parameters if needed.
  let excess: number;
  for (let iter = 0; ; iter++) {
    if (dim === 3 && sFree && tFree && !parallel && det < 0.0625 * uu * vv) {
      IO[P_S] = s;
      IO[P_T] = t;
      IO[P_TERMS] = T;
      return lineCase3(ka, kb, data, k, e);
    }
    let X = 0;
    for (let i = 0; i < dim; i++) X += RH[i] * RH[i];
    // Error of the residual itself (a few u² of its terms), carried into the gradients.
    const er = 8 * U2 * T;
    let gs = 0;
    let es = 0;
    if (!uZero) {
      dot2(UH, UL, dim);
      gs = IO[DOT_HI];
      es = 2 * EPS * Math.abs(gs) + 16 * dim * U2 * IO[DOT_ABS] + er * Math.sqrt(uu) * 1.01;
    }
    let gt = 0;
    let et = 0;
    if (!vZero) {
      dot2(VH, VL, dim);
      gt = -IO[DOT_HI]; // ∂/∂t of ½|r|² = −r·v
      et = 2 * EPS * Math.abs(gt) + 16 * dim * U2 * IO[DOT_ABS] + er * Math.sqrt(vv) * 1.01;
    }
    const budget = X * EPS * (1 / 64);
    let ds = 0;
    let dt = 0;
    if (parallel && (sFree || tFree)) {
      // Every move lies along the common direction: the line through r bounds the minimum.
      if (sFree) {
        const a = Math.abs(gs) + es;
        excess = (a * a) / uu;
        ds = -gs / uu;
      } else {
        const a = Math.abs(gt) + et;
        excess = (a * a) / vv;
        dt = -gt / vv;
      }
    } else if (sFree && tFree) {
      const a = Math.abs(gs) + es;
      const b = Math.abs(gt) + et;
      excess = (vv * a * a + 2 * Math.abs(uv) * a * b + uu * b * b) / det;
      // δ = −H⁻¹g, H = [[uu, −uv], [−uv, vv]], H⁻¹ = [[vv, uv], [uv, uu]]/det.
      ds = -(vv * gs + uv * gt) / det;
      dt = -(uv * gs + uu * gt) / det;
    } else if (sFree || tFree) {
      // One free parameter x; the other (if any) is clamped: it must keep its sign once x moves.
      const gf = sFree ? gs : gt;
      const ef = sFree ? es : et;
      const hf = sFree ? uu : vv;
      const a = Math.abs(gf) + ef;
      excess = (a * a) / hf;
      if (sFree) ds = -gs / hf;
      else dt = -gt / hf;
      const clampedZero = sFree ? vZero : uZero;
      if (!clampedZero && !parallel) {
        // g_c after the virtual step δf = −gf/hf: g_c + H_cf·δf with H_cf = −uv.
        const gc = (sFree ? gt : gs) + (uv * gf) / hf;
        const ec = (sFree ? et : es) + (Math.abs(uv) * ef) / hf + 4 * EPS * Math.abs(gc);
        const pc = sFree ? t : s;
        const kc = sFree ? kb : ka;
        // With the other free, the clamped one's multiplier has the sign of its distance
        // beyond the bound of the lines' optimum (the reduced quadratic in it is convex): in
        // 3D that settles what the gradient's rounding leaves open.
        IO[G_C] = gc;
        IO[G_C + 1] = ec;
        if (inward(kc, pc, G_C) && iter < 4) {
          // The clamped one clearly belongs inside (the kernel's active set was wrong): free it.
          if (sFree) tFree = true;
          else sFree = true;
          continue;
        }
        IO[P_S] = s;
        IO[P_T] = t;
        IO[P_TERMS] = T;
        if (!signOk(kc, pc, G_C) && !(dim === 3 && beyond3(sFree))) {
          // Nearly parallel, near a corner: the clamped one may belong inside. In 3D the
          // distance between the lines bounds d*² from below and this feasible point from
          // above; where the two agree to within the certificate, that settles it.
          // In 2D two segments a positive distance apart (the kernels decide touching exactly
          // before this) never meet, so neither do their lines inside the square: the boundary.
          if (dim === 2) return ka === SEGMENT && kb === SEGMENT && boundaryMin(2, data, k);
          if (dim !== 3) return false;
          if (sandwich3(e)) return true;
          // (beyond3 left s*, t* in STAR.) The lines' optimum outside the square: the boundary.
          if (ka === SEGMENT && kb === SEGMENT && starOutside() && boundaryMin(3, data, k)) return true;
          return !retrying && det < 0.0625 * uu * vv && lineCase3(ka, kb, data, k, e);
        }
      }
    } else {
      // Both clamped (or points): each gradient must point out of the domain.
      excess = 0;
      IO[G_S] = gs;
      IO[G_S + 1] = es;
      IO[G_T] = gt;
      IO[G_T + 1] = et;
      const okS = uZero || signOk(ka, s, G_S);
      const okT = vZero || signOk(kb, t, G_T);
      if (!okS || !okT) {
        // A gradient pointing clearly inwards frees that parameter (once per round); an
        // ambiguous one is left to exact arithmetic.
        if (iter >= 4) return false;
        if (!okS && !uZero && inward(ka, s, G_S)) sFree = true;
        else if (!okT && !vZero && inward(kb, t, G_T)) tFree = true;
        else return false;
        continue;
      }
    }
    if (excess <= budget) break;
    if (iter >= 4) return false;
    // A Newton step on the free parameters, in double-double. One that would leave its domain
    // stops at the bound and is clamped from then on (the next round checks that active set).
    // (The residual moves by the exact step, which may be below an ulp of s: s itself only
    // tracks it, for the domain checks.)
    if (ds !== 0) {
      const s1 = s + ds;
      if ((ka === LINE || s1 > 0) && (ka !== SEGMENT || s1 < 1)) {
        IO[ADD_F] = ds;
        addScaled(UH, UL, dim);
        T += IO[ADD_ABS];
        s = s1;
      } else {
        const bound = s1 > 0 ? 1 : 0;
        IO[ADD_F] = bound - s;
        addScaled(UH, UL, dim);
        T += IO[ADD_ABS];
        s = bound;
        sFree = false;
      }
    }
    if (dt !== 0) {
      const t1 = t + dt;
      if ((kb === LINE || t1 > 0) && (kb !== SEGMENT || t1 < 1)) {
        IO[ADD_F] = -dt;
        addScaled(VH, VL, dim);
        T += IO[ADD_ABS];
        t = t1;
      } else {
        const bound = t1 > 0 ? 1 : 0;
        IO[ADD_F] = -(bound - t);
        addScaled(VH, VL, dim);
        T += IO[ADD_ABS];
        t = bound;
        tFree = false;
      }
    }
  }
  // Step 3: X = |r|² in double-double, its square root, and the certificate.
  normSq(dim);
  const er = 8 * U2 * T;
  IO[FIN_XH] = LV[0];
  IO[FIN_XL] = LV[1];
  IO[FIN_E] = 2.02 * Math.sqrt(LV[0]) * er + er * er + 4 * (dim + 2) * U2 * LV[0] + excess;
  return finish(e);
}

/** |r|² = Σ (RH + RL)_i² in double-double (two-products, two-sums) to LV[0], LV[1]. */
function normSq(dim: number): void {
  let xh = 0;
  let xl = 0;
  for (let i = 0; i < dim; i++) {
    const a = RH[i];
    const p = a * a;
    const c = SPLITTER * a;
    const ah = c - (c - a);
    const al = a - ah;
    const pe = al * al - (p - ah * ah - 2 * al * ah);
    const sum = xh + p;
    const bv = sum - xh;
    xl += xh - (sum - bv) + (p - bv) + pe + RL[i] * (2 * a + RL[i]);
    xh = sum;
  }
  LV[0] = xh + xl;
  LV[1] = xl - (LV[0] - xh);
}

/** In: X = xh + xl and its error bound E (slots 0, 1, 2); out: the faithful √X (slot 3). See {@link faithfulRoot}. */
export const ROOT = new Float64Array(4);

/**
 * The faithfully rounded square root of X = ROOT[0] + ROOT[1] whose exact value lies within
 * ROOT[2] of X, written to ROOT[3]; false (nothing written) when that interval is too wide to
 * name one double, or X ≤ 2⁻⁹⁰⁰. For kernel-nd.ts's fused path, which bounds X itself (doubles
 * in and out through ROOT: a double crossing a call V8 does not inline is boxed).
 */
export function faithfulRoot(): boolean {
  IO[FIN_XH] = ROOT[0];
  IO[FIN_XL] = ROOT[1];
  IO[FIN_E] = ROOT[2];
  if (!finish(0)) return false;
  ROOT[3] = FAITHFUL[2];
  return true;
}

/**
 * The certified square root of X = xh + xl (error bound E; the three in IO[FIN_XH], IO[FIN_XL],
 * IO[FIN_E]), times 2^e, to FAITHFUL[2]; false when the certificate fails.
 */
function finish(e: number): boolean {
  const xh = IO[FIN_XH];
  const xl = IO[FIN_XL];
  const E = IO[FIN_E];
  if (!(xh > TINY * TINY)) return false; // (the kernels decide a zero distance exactly before this)
  // d = √(xh + xl) to about u²: one Newton correction of the rounded root.
  const q = Math.sqrt(xh);
  const q2 = q * q;
  // q² − q2 exactly (sqErr written out: where V8 does not inline it its doubles are boxed).
  const c = SPLITTER * q;
  const qh = c - (c - q);
  const ql = q - qh;
  let d = q + (xh - q2 + (xl - (ql * ql - (q2 - qh * qh - 2 * ql * qh)))) / (2 * q);
  IO[CERT_D] = d;
  if (!certify()) {
    // Rounding to nearest of the corrected root can still land on the far side: try the neighbours.
    IO[CERT_D] = nextUp(d);
    if (certify()) d = IO[CERT_D];
    else {
      IO[CERT_D] = nextDown(d);
      if (certify()) d = IO[CERT_D];
      else return false;
    }
  }
  if (e !== 0) {
    // (The first half-step is exact: d ≥ 2⁻⁴⁵⁰ and e ≥ −1074.) A subnormal result takes one
    // rounding to the subnormal grid (spacing g = 2⁻¹⁰⁷⁴): off by ≤ g/2 plus d's own error, under
    // one ulp of d·2^e, itself ≤ g/2 there — under g in all, so still faithful. An underflow to 0
    // is not (0 means touching): exact arithmetic answers.
    const ds = d;
    d = scaleBy(d, e);
    if (!(d > 0 && d < Infinity)) return false;
    if (d < 2 ** -1022) d = nearestSubnormal(d, ds, xh, xl, E, e);
  }
  FAITHFUL[2] = d;
  return true;
}

/**
 * Correct rounding on the subnormal grid where it can be certified: D = d·2^e (subnormal, already
 * faithful) moves one grid step when X = xh + xl (± E, in the scaled units of ds = D·2^−e) lies
 * certainly beyond a midpoint (D·2^−e ± G/2)², G the grid spacing there; otherwise D stays. The
 * midpoints are exact doubles (D·2^−e / G < 2⁵²), their squares exact in double-double.
 */
function nearestSubnormal(D: number, ds: number, xh: number, xl: number, E: number, e: number): number {
  const G = scaleBy(2 ** -1074, -e);
  const Dp = scaleBy(D, -e); // exact: scaling a subnormal up
  const hi = Dp + G / 2;
  const lo = Dp - G / 2;
  let p = hi * hi;
  const above = p - xh + (sqErr(hi, p) - xl); // hi² − X
  p = lo * lo;
  const below = xh - p + (xl - sqErr(lo, p)); // X − lo²
  const slack = E + 4 * EPS * (Math.abs(above) + Math.abs(below)) + 8 * U2 * xh;
  if (above < -slack && ds > Dp) return scaleBy(Dp + G, e); // √X > hi certainly
  if (below < -slack && ds < Dp) return scaleBy(Dp - G, e); // √X < lo certainly
  return D;
}

/**
 * 3D, both parameters free and the directions within 15° of parallel (where Newton steps in
 * doubles do not converge): the optimum is interior exactly when s* and t* are (if one is not,
 * this retries once with it clamped to its nearer bound), and then
 * d* = |r·n|/|n| for the residual r at any (s, t) and n = u×v. n comes from error-free minors
 * (direction error ≈ 2u), which errs in d only by that angle times the in-plane part of r; the
 * step from (s, t) to (s*, t*) is ((v×r)·n, (u×r)·n)/|n|² (from r* = r + δs·u − δt·v ∥ n).
 * Reads the scratch of faithfulInto and s, t, T from IO[P_S], IO[P_T], IO[P_TERMS]; writes
 * FAITHFUL[2].
 */
function lineCase3(ka: number, kb: number, data: ArrayLike<number>, k: number, e: number): boolean {
  const s = IO[P_S];
  const t = IO[P_T];
  let T = IO[P_TERMS];
  if (!stars3()) return false;
  const sStar = STAR[0];
  const tStar = STAR[1];
  const ms = STAR[2];
  const mt = STAR[3];
  // Inside the domain of its kind: a line has no bound, a ray only 0 (with [0, 1] for every kind,
  // lines and rays whose optimum lies beyond 1 were sent to exact arithmetic, ~3 % of random 3D
  // line pairs, each allocating).
  const sIn = ka === LINE || (sStar - ms > 0 && (ka === RAY || sStar + ms < 1));
  const tIn = kb === LINE || (tStar - mt > 0 && (kb === RAY || tStar + mt < 1));
  if (!sIn || !tIn) {
    // The kernel's s or t sits a rounding inside a bound the optimum is on (or beyond): once,
    // clamp it there and certify that active set instead. (A violation within the margins
    // clamps too: the certificate then decides.)
    // Certainly outside (not merely within the margins): the minimum is on the boundary.
    if (ka === SEGMENT && kb === SEGMENT && starOutside() && boundaryMin(3, data, k)) return true;
    if (retrying) return false;
    // Only the one further out: with it clamped, the other's optimum may well be inside.
    const vs = sIn ? -1 : ka === RAY ? -sStar : Math.max(-sStar, sStar - 1);
    const vt = tIn ? -1 : kb === RAY ? -tStar : Math.max(-tStar, tStar - 1);
    FAITHFUL[0] = vs >= vt ? (sStar < 0.5 ? 0 : 1) : s;
    FAITHFUL[1] = vs >= vt ? t : tStar < 0.5 ? 0 : 1;
    retrying = true;
    const ok = faithfulInto(ka, kb, 3, data, k, false);
    retrying = false;
    return ok;
  }
  // Move r to (s*, t*) (in double-double): its in-plane part, which n's direction error
  // multiplies, shrinks to the rounding of the step.
  IO[ADD_F] = STAR[7];
  addScaled(UH, UL, 3);
  T += IO[ADD_ABS];
  IO[ADD_F] = -STAR[8];
  addScaled(VH, VL, 3);
  T += IO[ADD_ABS];
  IO[P_TERMS] = T;
  lineSq3(); // n in N3, from stars3
  IO[FIN_XH] = LV[2];
  IO[FIN_XL] = LV[3];
  IO[FIN_E] = LV[4];
  return finish(e);
}

/** Is the lines' optimum (s*, t*) in STAR certainly outside the open unit square, or on its edge? */
function starOutside(): boolean {
  const sStar = STAR[0];
  const tStar = STAR[1];
  const ms = STAR[2];
  const mt = STAR[3];
  return sStar + ms <= 0 || sStar - ms >= 1 || tStar + mt <= 0 || tStar - mt >= 1;
}

/** Lower bounds on the four endpoint-to-segment distances of boundaryMin (−1: done). */
const LB = new Float64Array(4);

/**
 * Certified lower bounds on the distances from each endpoint P (a0, a1, b0, b1) to the other
 * segment [O0, O1] into LB: how far P lies beyond the segment's ends along its direction v,
 * max(0, (P − O1)·v, −(P − O0)·v)/|v| (the distance to the segment is at least that). Plain
 * dot products with Higham's a-priori bound (Accuracy and Stability of Numerical Algorithms,
 * 2nd ed., §3.1: γ_dim on the sum, plus u for each rounded difference, (dim + 3)u·Σ|terms| with
 * the factor 1.01 for the higher-order terms; dim·2⁻¹⁰⁷⁰ for products that underflow), then a
 * division by √|v|² shrunk by (dim + 8)u for its own roundings. 0 where magnitudes leave
 * [2⁻⁵⁰⁰, 2⁵⁰⁰] (no bound: the sub-problem is solved). Returns LB (module scratch; exported
 * for its test).
 */
export function lowerBounds(dim: number, data: ArrayLike<number>, k: number): Float64Array {
  for (let q = 0; q < 4; q++) {
    const p = k + q * dim;
    const o = q < 2 ? k + 2 * dim : k;
    let wv = 0;
    let zv = 0;
    let vv = 0;
    let aw = 0;
    let az = 0;
    let m = 0;
    for (let i = 0; i < dim; i++) {
      const x = data[p + i];
      const o0 = data[o + i];
      const o1 = data[o + dim + i];
      const w = x - o0;
      const z = x - o1;
      const v = o1 - o0;
      wv += w * v;
      zv += z * v;
      vv += v * v;
      aw += Math.abs(w * v);
      az += Math.abs(z * v);
      m = Math.max(m, Math.abs(w), Math.abs(z), Math.abs(v));
    }
    LB[q] = 0;
    if (!(m < 2 ** 500 && m > 2 ** -500 && vv > 0)) continue;
    const c = (dim + 3) * EPS * 1.01;
    const tiny = dim * 2 ** -1070;
    const beyond = Math.max(zv - c * az - tiny, -wv - c * aw - tiny);
    if (beyond > 0) LB[q] = (beyond / Math.sqrt(vv)) * (1 - (dim + 8) * EPS);
  }
  return LB;
}

/** Point–segment sub-problems of boundaryMin: P, P, q0, q1 (dim numbers each). */
let PS = new Float64Array(12);
let inBoundary = false;

/**
 * Two segments whose lines' optimum is not inside the parameter square: the minimum of the
 * convex |r(s, t)|² over the square then lies on its boundary, so it is the least of the four
 * endpoint-to-segment distances (a0 and a1 to b, b0 and b1 to a) — one-parameter problems,
 * well conditioned however nearly parallel the segments are. The least of faithful roundings
 * is a faithful rounding of the least (rounding down and rounding up are both monotone).
 * Writes FAITHFUL[2] only (s and t stay the kernel's: the nearest points keep their accuracy
 * in S); false when a sub-problem cannot be certified. An endpoint whose certified lower bound
 * (see lowerBounds) exceeds the least distance so far is skipped: its distance, and any faithful
 * rounding of it, is larger. Not re-entrant.
 */
function boundaryMin(dim: number, data: ArrayLike<number>, k: number): boolean {
  if (inBoundary) return false;
  if (PS.length < 4 * dim) PS = new Float64Array(4 * dim);
  inBoundary = true;
  const saved = retrying;
  retrying = false;
  lowerBounds(dim, data, k);
  let best = Infinity;
  for (let n = 0; n < 4 && best > 0; n++) {
    // The endpoint with the least lower bound next; none left can beat the best so far once
    // its bound exceeds it (the certified best is within 2u of its exact distance).
    let q = -1;
    for (let j = 0; j < 4; j++) if (LB[j] >= 0 && (q < 0 || LB[j] < LB[q])) q = j;
    if (LB[q] > best * (1 + 8 * EPS)) break;
    LB[q] = -1;
    const p = k + q * dim; // endpoint q: a0, a1, b0, b1
    const o = q < 2 ? k + 2 * dim : k; // the other segment
    let big = 0;
    for (let i = 0; i < dim; i++) {
      const x = data[p + i];
      const o0 = data[o + i];
      const o1 = data[o + dim + i];
      PS[i] = x;
      PS[dim + i] = x;
      PS[2 * dim + i] = o0;
      PS[3 * dim + i] = o1;
      big = Math.max(big, Math.abs(x - o0), Math.abs(o1 - o0));
    }
    // The projection's parameter, only a starting guess (Newton refines it): the differences
    // divided by their largest, so that the squares neither overflow nor underflow.
    let num = 0;
    let den = 0;
    for (let i = 0; i < dim; i++) {
      const w = (PS[i] - PS[2 * dim + i]) / big;
      const v = (PS[3 * dim + i] - PS[2 * dim + i]) / big;
      num += w * v;
      den += v * v;
    }
    const tau = num / den;
    FAITHFUL[0] = 0;
    FAITHFUL[1] = tau > 0 ? (tau < 1 ? tau : 1) : 0;
    if (!faithfulInto(POINT, SEGMENT, dim, PS, 0, false)) {
      best = NaN;
      break;
    }
    if (FAITHFUL[2] < best) best = FAITHFUL[2];
  }
  inBoundary = false;
  retrying = saved;
  if (!(best >= 0 && best < Infinity)) return false;
  FAITHFUL[2] = best;
  return true;
}

/**
 * 3D: the unconstrained optimum (s*, t*) of the lines, from any residual r on them: r* = r +
 * δs·u − δt·v is parallel to n = u×v, whence δs = ((v×r)·n)/|n|², δt = ((u×r)·n)/|n|² (plainly:
 * their errors only need the margins). s, t, T from IO[P_S], IO[P_T], IO[P_TERMS]. Writes s*,
 * t*, their error margins and n to STAR (n also to N3); false when n vanishes.
 */
function stars3(): boolean {
  const s = IO[P_S];
  const t = IO[P_T];
  const T = IO[P_TERMS];
  minorInto(1, 2, 0);
  minorInto(2, 0, 1);
  minorInto(0, 1, 2);
  const nx = N3[0];
  const ny = N3[1];
  const nz = N3[2];
  const nn = nx * nx + ny * ny + nz * nz;
  if (!(nn > 0)) {
    STAR[0] = NaN; // (starOutside reads no stale optimum)
    return false;
  }
  const rx = RH[0], ry = RH[1], rz = RH[2];
  const vx = VH[0], vy = VH[1], vz = VH[2], ux = UH[0], uy = UH[1], uz = UH[2];
  const ds = ((vy * rz - vz * ry) * nx + (vz * rx - vx * rz) * ny + (vx * ry - vy * rx) * nz) / nn;
  const dt = ((uy * rz - uz * ry) * nx + (uz * rx - ux * rz) * ny + (ux * ry - uy * rx) * nz) / nn;
  const an = Math.abs(nx) + Math.abs(ny) + Math.abs(nz);
  const ar = Math.abs(rx) + Math.abs(ry) + Math.abs(rz) + 8 * U2 * T;
  const au = Math.abs(ux) + Math.abs(uy) + Math.abs(uz);
  const av = Math.abs(vx) + Math.abs(vy) + Math.abs(vz);
  STAR[0] = s + ds;
  STAR[1] = t + dt;
  STAR[2] = 16 * EPS * (Math.abs(s) + Math.abs(ds) + (av * ar * an) / nn) + 4 * EPS;
  STAR[3] = 16 * EPS * (Math.abs(t) + Math.abs(dt) + (au * ar * an) / nn) + 4 * EPS;
  STAR[4] = nx;
  STAR[5] = ny;
  STAR[6] = nz;
  STAR[7] = ds;
  STAR[8] = dt;
  return true;
}

/**
 * The squared distance between the two lines, (r·n)²/|n|² for n = (nx, ny, nz) ≈ u×v in N3
 * (from {@link minorInto}), T in IO[P_TERMS], in double-double to LV[2], LV[3], with its error
 * bound to LV[4].
 */
function lineSq3(): void {
  const nx = N3[0];
  const ny = N3[1];
  const nz = N3[2];
  const T = IO[P_TERMS];
  // r·n in double-double (two-products, two-sums), |n|² likewise.
  let ph = 0;
  let pl = 0;
  let qh = 0;
  let ql = 0;
  for (let i = 0; i < 3; i++) {
    const a = RH[i];
    const b = i === 0 ? nx : i === 1 ? ny : nz;
    const p = a * b;
    let c = SPLITTER * a;
    const ah = c - (c - a);
    const al = a - ah;
    c = SPLITTER * b;
    const bh = c - (c - b);
    const bl = b - bh;
    const pe = al * bl - (p - ah * bh - al * bh - ah * bl);
    let sum = ph + p;
    let bv = sum - ph;
    pl += ph - (sum - bv) + (p - bv) + pe + RL[i] * b;
    ph = sum;
    const q = b * b;
    const qe = bl * bl - (q - bh * bh - 2 * bl * bh);
    sum = qh + q;
    bv = sum - qh;
    ql += qh - (sum - bv) + (q - bv) + qe;
    qh = sum;
  }
  const nn = qh + ql;
  ql -= nn - qh;
  qh = nn;
  // X = (r·n)²/|n|²: numerator in double-double, then one division with its remainder.
  const p0 = ph + pl;
  pl -= p0 - ph;
  ph = p0;
  const numH = ph * ph;
  const numL = sqErr(ph, numH) + 2 * ph * pl;
  const xh = numH / qh;
  // remainder (num − xh·nn), with xh·qh split exactly
  const prod = xh * qh;
  let c = SPLITTER * xh;
  const xhh = c - (c - xh);
  const xhl = xh - xhh;
  c = SPLITTER * qh;
  const qhh = c - (c - qh);
  const qhl = qh - qhh;
  const prodErr = xhl * qhl - (prod - xhh * qhh - xhl * qhh - xhh * qhl);
  const xl = (numH - prod - prodErr + numL - xh * ql) / qh;
  const au = Math.abs(UH[0]) + Math.abs(UH[1]) + Math.abs(UH[2]);
  const av = Math.abs(VH[0]) + Math.abs(VH[1]) + Math.abs(VH[2]);
  // Error: n's direction (angle α) times the in-plane part of r, r's own error, the roundings.
  const alpha = 2 * EPS + (16 * U2 * au * av) / Math.sqrt(nn);
  let rr = 0;
  for (let i = 0; i < 3; i++) rr += RH[i] * RH[i];
  const inPlane = Math.sqrt(Math.abs(rr - xh) + 8 * EPS * rr);
  const d = Math.sqrt(xh);
  const er = 8 * U2 * T;
  const ed = alpha * inPlane + alpha * alpha * d + er;
  LV[2] = xh;
  LV[3] = xl;
  LV[4] = 2.02 * d * ed + ed * ed + 16 * U2 * xh;
}

/**
 * 3D: is the lines' optimum certainly beyond the bound the clamped parameter (t if sFree) is at?
 * s, t, T from IO[P_S], IO[P_T], IO[P_TERMS].
 */
function beyond3(sFree: boolean): boolean {
  if (!stars3()) return false;
  const s = IO[P_S];
  const t = IO[P_T];
  const p = sFree ? t : s;
  const star = sFree ? STAR[1] : STAR[0];
  const m = sFree ? STAR[3] : STAR[2];
  return p <= 0 ? star + m < 0 : p >= 1 && star - m > 1;
}

/**
 * 3D: d*² lies between the squared distance of the lines (a lower bound) and |r|² at the
 * current feasible (s, t) (an upper bound); certify the rounding of √ over that whole interval.
 * T from IO[P_TERMS].
 */
function sandwich3(e: number): boolean {
  const T = IO[P_TERMS];
  minorInto(1, 2, 0);
  minorInto(2, 0, 1);
  minorInto(0, 1, 2);
  if (!(N3[0] * N3[0] + N3[1] * N3[1] + N3[2] * N3[2] > 0)) return false;
  lineSq3();
  normSq(3);
  const er = 8 * U2 * T;
  const upper = 2.02 * Math.sqrt(LV[0]) * er + er * er + 16 * U2 * LV[0];
  const gap = Math.max(0, LV[0] - LV[2] + (LV[1] - LV[3])) * (1 + 4 * EPS);
  IO[FIN_XH] = LV[0];
  IO[FIN_XL] = LV[1];
  IO[FIN_E] = upper + gap + LV[4];
  return finish(e);
}

/**
 * The minor u_i·v_j − u_j·v_i of the exact directions (UH + UL, VH + VL), to a few ulps, into
 * N3[slot]: the leading part from Dekker products, the first-order terms of the low parts added.
 */
function minorInto(i: number, j: number, slot: number): void {
  const a = UH[i], d = VH[j], b = UH[j], cc = VH[i];
  const p = a * d;
  const q = b * cc;
  // Dekker's two-products a·d − p and b·cc − q, written out: a helper V8 does not inline (it
  // inlines minorInto into stars3 and runs out of budget) boxes its double arguments and result.
  let c = SPLITTER * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLITTER * d;
  const dh = c - (c - d);
  const dl = d - dh;
  const pe = al * dl - (p - ah * dh - al * dh - ah * dl);
  c = SPLITTER * b;
  const bh = c - (c - b);
  const bl = b - bh;
  c = SPLITTER * cc;
  const ch = c - (c - cc);
  const cl = cc - ch;
  const qe = bl * cl - (q - bh * ch - bl * ch - bh * cl);
  N3[slot] = p - q + (pe - qe) + (a * VL[j] + UL[i] * d - b * VL[i] - UL[j] * cc);
}

/**
 * {@link faithfulInto} for two segments of positive length in 2D or 3D, the common case
 * written out without calls (a call V8 does not inline boxes its double arguments): the
 * residual in double-double, the gradient, the first-order certificate for the active set the
 * kernel found, the norm, the root and its certificate. Anything out of the ordinary (a Newton
 * step needed, a shallow angle with both parameters free, a sign the rounding leaves open, a
 * squared distance below 2⁻⁹⁰⁰) goes to faithfulInto. Precondition (its callers' fast-path checks,
 * closestSegSeg2 and closestSegSeg3): finite coordinates, |u|², |v|² > 2⁻⁵⁰⁰ and every difference
 * below 2¹⁰¹, so that no product here over- or underflows. Same contract: s, t in FAITHFUL[0],
 * FAITHFUL[1]; the distance to FAITHFUL[2]; false when exact arithmetic must answer.
 */
export function faithfulSegSeg(dim: number, data: ArrayLike<number>, k: number): boolean {
  const s = FAITHFUL[0];
  const t = FAITHFUL[1];
  let ia = k;
  let sp = s;
  if (s > 0.5) {
    ia = k + dim;
    sp = s - 1;
  }
  let ib = k + 2 * dim;
  let tp = t;
  if (t > 0.5) {
    ib = k + 3 * dim;
    tp = t - 1;
  }
  // Dekker splits of sp and −tp, once.
  let c = SPLITTER * sp;
  const sh = c - (c - sp);
  const sl = sp - sh;
  const mt = -tp;
  c = SPLITTER * mt;
  const th = c - (c - mt);
  const tl = mt - th;
  let T = 0;
  let uu = 0;
  let vv = 0;
  let uv = 0;
  let gs = 0;
  let gt = 0;
  let xh = 0;
  let xl = 0;
  for (let i = 0; i < dim; i++) {
    const a0 = data[k + i];
    const a1 = data[k + dim + i];
    const b0 = data[k + 2 * dim + i];
    const b1 = data[k + 3 * dim + i];
    const x = data[ia + i];
    const y = data[ib + i];
    // b = x − y, u = a1 − a0, v = b1 − b0, each with its exact error (two-difference).
    const bh = x - y;
    let bv = x - bh;
    const bl = x - (bh + bv) + (bv - y);
    const uh = a1 - a0;
    bv = a1 - uh;
    const ul = a1 - (uh + bv) + (bv - a0);
    const vh = b1 - b0;
    bv = b1 - vh;
    const vl = b1 - (vh + bv) + (bv - b0);
    let rh = bh;
    let rl = bl;
    T += Math.abs(bh);
    if (sp !== 0 || mt !== 0) {
      // sp·uh and −tp·vh exactly (two-product), summed with b by two-sums. (Both parameters
      // at ends: the residual is b itself, exact as bh + bl.)
      const p = sp * uh;
      c = SPLITTER * uh;
      let hh = c - (c - uh);
      let hl = uh - hh;
      const pe = sl * hl - (p - sh * hh - sl * hh - sh * hl);
      const q = mt * vh;
      c = SPLITTER * vh;
      hh = c - (c - vh);
      hl = vh - hh;
      const qe = tl * hl - (q - th * hh - tl * hh - th * hl);
      const sum = bh + p;
      bv = sum - bh;
      let lo = bh - (sum - bv) + (p - bv);
      const s2 = sum + q;
      bv = s2 - sum;
      lo += sum - (s2 - bv) + (q - bv) + bl + pe + qe + sp * ul + mt * vl;
      rh = s2 + lo;
      rl = lo - (rh - s2);
      T += Math.abs(p) + Math.abs(q);
    }
    uu += uh * uh;
    vv += vh * vh;
    uv += uh * vh;
    RH[i] = rh;
    RL[i] = rl;
    UH[i] = uh;
    UL[i] = ul;
    VH[i] = vh;
    VL[i] = vl;
    gs += rh * uh;
    gt -= rh * vh;
    // |r|² in double-double.
    const pp = rh * rh;
    c = SPLITTER * rh;
    const hh = c - (c - rh);
    const hl = rh - hh;
    const ppe = hl * hl - (pp - hh * hh - 2 * hl * hh);
    const sum = xh + pp;
    bv = sum - xh;
    xl += xh - (sum - bv) + (pp - bv) + ppe + rl * (2 * rh + rl);
    xh = sum;
  }
  const X = xh + xl;
  xl -= X - xh;
  xh = X;
  if (!(xh > 2 ** -900)) return faithfulInto(SEGMENT, SEGMENT, dim, data, k, false);
  const r0 = Math.sqrt(xh);
  // Gradient errors: the plain sums, (dim + 2)u·Σ|rh_i·uh_i| (Higham, Accuracy and Stability of
  // Numerical Algorithms, 2nd ed., §3.1, γ_n for a dot product), with the low parts' terms
  // (|ul_i| ≤ u|uh_i|, |rl_i| ≤ u|rh_i|) folded into (dim + 4)u; Σ|rh_i·uh_i| ≤ |rh|·|uh|
  // (Cauchy–Schwarz) ≤ √xh·√uu·(1 + 10u), and the factor 1.01 covers the 10u and the roundings
  // of this bound itself. Then the residual's own error er, times |u|.
  const er = 8 * U2 * T;
  const es = ((dim + 4) * EPS * r0 + er) * Math.sqrt(uu) * 1.01;
  const et = ((dim + 4) * EPS * r0 + er) * Math.sqrt(vv) * 1.01;
  const sFree = s > 0 && s < 1;
  const tFree = t > 0 && t < 1;
  let excess = 0;
  if (sFree && tFree) {
    const det = uu * vv - uv * uv;
    if (!(det >= 0.0625 * uu * vv)) {
      // Shallow angle, both free: in 3D the lines' distance (the scratch holds r, u, v already).
      if (dim !== 3) return faithfulInto(SEGMENT, SEGMENT, dim, data, k, false);
      IO[P_S] = s;
      IO[P_T] = t;
      IO[P_TERMS] = T;
      return lineCase3(SEGMENT, SEGMENT, data, k, 0);
    }
    const a = Math.abs(gs) + es;
    const b = Math.abs(gt) + et;
    excess = (vv * a * a + 2 * Math.abs(uv) * a * b + uu * b * b) / (det * (1 - 8 * EPS));
  } else if (sFree || tFree) {
    const gf = sFree ? gs : gt;
    const ef = sFree ? es : et;
    const hf = sFree ? uu : vv;
    const a = Math.abs(gf) + ef;
    excess = ((a * a) / hf) * (1 + 8 * EPS);
    // The clamped one keeps its sign once the free one moves (g_c − H_cf·g_f/h_f, H_cf = −uv).
    const gc = (sFree ? gt : gs) + (uv * gf) / hf;
    const ec = (sFree ? et : es) + (Math.abs(uv) * ef) / hf + 4 * EPS * Math.abs(gc);
    const pc = sFree ? t : s;
    if (!(pc <= 0 ? gc > ec : gc < -ec)) return faithfulInto(SEGMENT, SEGMENT, dim, data, k, false);
  } else if (!((s <= 0 ? gs > es : gs < -es) && (t <= 0 ? gt > et : gt < -et))) {
    return faithfulInto(SEGMENT, SEGMENT, dim, data, k, false);
  }
  if (!(excess <= xh * EPS * (1 / 64))) return faithfulInto(SEGMENT, SEGMENT, dim, data, k, false);
  const E = 2.02 * r0 * er + er * er + 4 * (dim + 2) * U2 * xh + excess;
  // The root, one Newton correction, and the certificate of certify() written out.
  const r2 = r0 * r0;
  c = SPLITTER * r0;
  let hh = c - (c - r0);
  let hl = r0 - hh;
  const d = r0 + (xh - r2 + (xl - (hl * hl - (r2 - hh * hh - 2 * hl * hh)))) / (2 * r0);
  const p = d * d;
  c = SPLITTER * d;
  hh = c - (c - d);
  hl = d - hh;
  const delta = p - xh + (hl * hl - (p - hh * hh - 2 * hl * hh) - xl);
  BITS[0] = d;
  const hiWord = WORDS[HI];
  const pow2 = (hiWord & 0xfffff) === 0 && WORDS[1 - HI] === 0;
  const ex = (hiWord >>> 20) & 0x7ff;
  // ulp(d) = 2^(ex − 1075), built from its bits (Math.pow is a slow call).
  WORDS[HI] = (ex - 52) << 20;
  WORDS[1 - HI] = 0;
  const ulpUp = BITS[0];
  const ulpDown = pow2 ? ulpUp / 2 : ulpUp;
  const slack = 1 + 4 * EPS;
  if (ex > 54 && (delta + E) * slack < 2 * d * ulpDown - ulpDown * ulpDown && (E - delta) * slack < 2 * d * ulpUp + ulpUp * ulpUp) {
    FAITHFUL[2] = d;
    return true;
  }
  return faithfulInto(SEGMENT, SEGMENT, dim, data, k, false);
}

/** faithfulSegSeg3's residual (rh, then rl, per coordinate) and dot2Grad3's results. */
const RR = new Float64Array(6);
const GR = new Float64Array(4);

/**
 * r·u and r·v for the residual in RR and the exact directions of the pair at k, by Dot2 as
 * {@link dot2} (same operations): GR[0] = r·u, GR[1] its Σ|terms|, GR[2] = r·v, GR[3] likewise.
 */
function dot2Grad3(data: ArrayLike<number>, k: number): void {
  let hu = 0;
  let lu = 0;
  let au = 0;
  let hv = 0;
  let lv = 0;
  let av = 0;
  for (let i = 0; i < 3; i++) {
    const a = RR[i];
    const al0 = RR[3 + i];
    const a0 = data[k + i];
    const a1 = data[k + 3 + i];
    const b0 = data[k + 6 + i];
    const b1 = data[k + 9 + i];
    const uh = a1 - a0;
    let bv = a1 - uh;
    const ul = a1 - (uh + bv) + (bv - a0);
    const vh = b1 - b0;
    bv = b1 - vh;
    const vl = b1 - (vh + bv) + (bv - b0);
    let c = SPLITTER * a;
    const ah = c - (c - a);
    const al = a - ah;
    // r·u
    let p = a * uh;
    c = SPLITTER * uh;
    let bh = c - (c - uh);
    let bl = uh - bh;
    let pe = al * bl - (p - ah * bh - al * bh - ah * bl);
    let sum = hu + p;
    bv = sum - hu;
    lu += hu - (sum - bv) + (p - bv) + pe + (a * ul + al0 * uh);
    hu = sum;
    au += Math.abs(p) + Math.abs(a * ul) + Math.abs(al0 * uh);
    // r·v
    p = a * vh;
    c = SPLITTER * vh;
    bh = c - (c - vh);
    bl = vh - bh;
    pe = al * bl - (p - ah * bh - al * bh - ah * bl);
    sum = hv + p;
    bv = sum - hv;
    lv += hv - (sum - bv) + (p - bv) + pe + (a * vl + al0 * vh);
    hv = sum;
    av += Math.abs(p) + Math.abs(a * vl) + Math.abs(al0 * vh);
  }
  GR[0] = hu + lu;
  GR[1] = au;
  GR[2] = hv + lv;
  GR[3] = av;
}

/**
 * {@link faithfulSegSeg} for dim 3 without the hand-overs, for the kernels' common case: the same
 * operations in the same order, so the same distance and the same decisions, except for what
 * provably changes neither — a product by a parameter at an end (sp = 0 or tp = 0) is skipped (its
 * terms are zeros, which can change only the sign of a zero sum), no scratch is written, and a
 * shallow angle with both parameters free (where faithfulSegSeg goes to the lines' distance) is
 * refused before any work (faithfulSegSeg answers it). Where the first certificate fails, a
 * second one with compensated gradients (which faithfulSegSeg does not try), then faithfulInto,
 * as faithfulSegSeg would. Its answers are faithfulSegSeg's where both certify (the same
 * operations give the distance), and in every pair measured otherwise too (test/closest). Same contract and precondition as faithfulSegSeg.
 */
export function faithfulSegSeg3(data: ArrayLike<number>, k: number): boolean {
  const s = FAITHFUL[0];
  const t = FAITHFUL[1];
  const sFree = s > 0 && s < 1;
  const tFree = t > 0 && t < 1;
  const ux = data[k + 3] - data[k];
  const uy = data[k + 4] - data[k + 1];
  const uz = data[k + 5] - data[k + 2];
  const vx = data[k + 9] - data[k + 6];
  const vy = data[k + 10] - data[k + 7];
  const vz = data[k + 11] - data[k + 8];
  // As faithfulSegSeg's sums from 0 (0 + x = x, up to the sign of a zero).
  const uu = ux * ux + uy * uy + uz * uz;
  const vv = vx * vx + vy * vy + vz * vz;
  const uv = ux * vx + uy * vy + uz * vz;
  const det = uu * vv - uv * uv;
  if (sFree && tFree && !(det >= 0.0625 * uu * vv)) return faithfulSegSeg(3, data, k);
  let ia = k;
  let sp = s;
  if (s > 0.5) {
    ia = k + 3;
    sp = s - 1;
  }
  let ib = k + 6;
  let tp = t;
  if (t > 0.5) {
    ib = k + 9;
    tp = t - 1;
  }
  let c = SPLITTER * sp;
  const sh = c - (c - sp);
  const sl = sp - sh;
  const mt = -tp;
  c = SPLITTER * mt;
  const th = c - (c - mt);
  const tl = mt - th;
  const withU = sp !== 0;
  const withV = tp !== 0;
  let T = 0;
  let gs = 0;
  let gt = 0;
  let xh = 0;
  let xl = 0;
  for (let i = 0; i < 3; i++) {
    const x = data[ia + i];
    const y = data[ib + i];
    const bh = x - y;
    let bv = x - bh;
    const bl = x - (bh + bv) + (bv - y);
    const uh = i === 0 ? ux : i === 1 ? uy : uz;
    const vh = i === 0 ? vx : i === 1 ? vy : vz;
    let rh = bh;
    let rl = bl;
    T += Math.abs(bh);
    if (withU && withV) {
      const a0 = data[k + i];
      const a1 = data[k + 3 + i];
      const b0 = data[k + 6 + i];
      const b1 = data[k + 9 + i];
      bv = a1 - uh;
      const ul = a1 - (uh + bv) + (bv - a0);
      bv = b1 - vh;
      const vl = b1 - (vh + bv) + (bv - b0);
      const p = sp * uh;
      c = SPLITTER * uh;
      let hh = c - (c - uh);
      let hl = uh - hh;
      const pe = sl * hl - (p - sh * hh - sl * hh - sh * hl);
      const q = mt * vh;
      c = SPLITTER * vh;
      hh = c - (c - vh);
      hl = vh - hh;
      const qe = tl * hl - (q - th * hh - tl * hh - th * hl);
      const sum = bh + p;
      bv = sum - bh;
      let lo = bh - (sum - bv) + (p - bv);
      const s2 = sum + q;
      bv = s2 - sum;
      lo += sum - (s2 - bv) + (q - bv) + bl + pe + qe + sp * ul + mt * vl;
      rh = s2 + lo;
      rl = lo - (rh - s2);
      T += Math.abs(p) + Math.abs(q);
    } else if (withU) {
      const a0 = data[k + i];
      const a1 = data[k + 3 + i];
      bv = a1 - uh;
      const ul = a1 - (uh + bv) + (bv - a0);
      const p = sp * uh;
      c = SPLITTER * uh;
      const hh = c - (c - uh);
      const hl = uh - hh;
      const pe = sl * hl - (p - sh * hh - sl * hh - sh * hl);
      const sum = bh + p;
      bv = sum - bh;
      let lo = bh - (sum - bv) + (p - bv);
      lo += bl + pe + sp * ul;
      rh = sum + lo;
      rl = lo - (rh - sum);
      T += Math.abs(p);
    } else if (withV) {
      const b0 = data[k + 6 + i];
      const b1 = data[k + 9 + i];
      bv = b1 - vh;
      const vl = b1 - (vh + bv) + (bv - b0);
      const q = mt * vh;
      c = SPLITTER * vh;
      const hh = c - (c - vh);
      const hl = vh - hh;
      const qe = tl * hl - (q - th * hh - tl * hh - th * hl);
      const s2 = bh + q;
      bv = s2 - bh;
      const lo = bh - (s2 - bv) + (q - bv) + bl + qe + mt * vl;
      rh = s2 + lo;
      rl = lo - (rh - s2);
      T += Math.abs(q);
    }
    RR[i] = rh;
    RR[3 + i] = rl;
    gs += rh * uh;
    gt -= rh * vh;
    const pp = rh * rh;
    c = SPLITTER * rh;
    const hh = c - (c - rh);
    const hl = rh - hh;
    const ppe = hl * hl - (pp - hh * hh - 2 * hl * hh);
    const sum = xh + pp;
    bv = sum - xh;
    xl += xh - (sum - bv) + (pp - bv) + ppe + rl * (2 * rh + rl);
    xh = sum;
  }
  const X = xh + xl;
  xl -= X - xh;
  xh = X;
  if (!(xh > 2 ** -900)) return faithfulInto(SEGMENT, SEGMENT, 3, data, k, false);
  const r0 = Math.sqrt(xh);
  const er = 8 * U2 * T;
  let es = (7 * EPS * r0 + er) * Math.sqrt(uu) * 1.01;
  let et = (7 * EPS * r0 + er) * Math.sqrt(vv) * 1.01;
  let excess: number;
  for (let refined = false; ; refined = true) {
    let ok = true;
    excess = 0;
    if (sFree && tFree) {
      const a = Math.abs(gs) + es;
      const b = Math.abs(gt) + et;
      excess = (vv * a * a + 2 * Math.abs(uv) * a * b + uu * b * b) / (det * (1 - 8 * EPS));
    } else if (sFree || tFree) {
      const gf = sFree ? gs : gt;
      const ef = sFree ? es : et;
      const hf = sFree ? uu : vv;
      const a = Math.abs(gf) + ef;
      excess = ((a * a) / hf) * (1 + 8 * EPS);
      const gc = (sFree ? gt : gs) + (uv * gf) / hf;
      const ec = (sFree ? et : es) + (Math.abs(uv) * ef) / hf + 4 * EPS * Math.abs(gc);
      const pc = sFree ? t : s;
      ok = pc <= 0 ? gc > ec : gc < -ec;
    } else ok = (s <= 0 ? gs > es : gs < -es) && (t <= 0 ? gt > et : gt < -et);
    if (ok && excess <= xh * EPS * (1 / 64)) break;
    if (refined) return faithfulInto(SEGMENT, SEGMENT, 3, data, k, false);
    // A second chance (faithfulSegSeg, and the WebAssembly module, stop at the first): the
    // gradients by a compensated dot product, whose error is 2u of the gradient itself plus
    // O(u²) (Ogita, Rump & Oishi 2005, Dot2; the bound of dot2 above), instead of u·|r||u|.
    // Near a corner of nearly parallel segments the clamped gradient is small beside |r||u|.
    dot2Grad3(data, k);
    gs = GR[0];
    gt = -GR[2];
    es = 2 * EPS * Math.abs(gs) + 48 * U2 * GR[1] + er * Math.sqrt(uu) * 1.01;
    et = 2 * EPS * Math.abs(gt) + 48 * U2 * GR[3] + er * Math.sqrt(vv) * 1.01;
  }
  const E = 2.02 * r0 * er + er * er + 20 * U2 * xh + excess;
  const r2 = r0 * r0;
  c = SPLITTER * r0;
  let hh = c - (c - r0);
  let hl = r0 - hh;
  const d = r0 + (xh - r2 + (xl - (hl * hl - (r2 - hh * hh - 2 * hl * hh)))) / (2 * r0);
  const p = d * d;
  c = SPLITTER * d;
  hh = c - (c - d);
  hl = d - hh;
  const delta = p - xh + (hl * hl - (p - hh * hh - 2 * hl * hh) - xl);
  // ulp(d) = 2u·ufp(d), ufp (unit in the first place) by Rump's Algorithm 3.5 ("Ultimately fast
  // accurate summation", SIAM J. Sci. Comput. 31, 2009): q = (2⁵² + 1)·d, ufp = |(1 − u)q − q|,
  // exact for normal d far below the overflow threshold (d < 2⁴⁵¹ here); the same values as
  // faithfulSegSeg's bit manipulation, with no store-to-load round trip through memory.
  const q = (2 ** 52 + 1) * d;
  const ufp = Math.abs((1 - EPS) * q - q);
  const ulpUp = 2 * EPS * ufp;
  const ulpDown = d === ufp ? ulpUp / 2 : ulpUp;
  const slack = 1 + 4 * EPS;
  if (d >= 2 ** -968 && (delta + E) * slack < 2 * d * ulpDown - ulpDown * ulpDown && (E - delta) * slack < 2 * d * ulpUp + ulpUp * ulpUp) {
    FAITHFUL[2] = d;
    return true;
  }
  return faithfulInto(SEGMENT, SEGMENT, 3, data, k, false);
}

/**
 * Does a clamped parameter's gradient g (error ≤ eg; g = IO[at], eg = IO[at + 1]) certainly
 * point into its domain? (g and eg through IO: see its comment.)
 */
function inward(kind: number, p: number, at: number): boolean {
  const g = IO[at];
  const eg = IO[at + 1];
  if (p <= 0) return g < -eg;
  return kind === SEGMENT && p >= 1 && g > eg;
}

/** Does a clamped parameter's gradient g (error ≤ eg; g = IO[at], eg = IO[at + 1]) point out of its domain? */
function signOk(kind: number, p: number, at: number): boolean {
  if (kind === LINE) return false; // never clamped
  const g = IO[at];
  const eg = IO[at + 1];
  if (p <= 0) return g > eg; // at the lower bound, moving up must cost
  if (kind === SEGMENT && p >= 1) return g < -eg;
  return false;
}

/** q·q − p for p = fl(q·q), exactly: the error term of the two-product (Dekker). */
function sqErr(q: number, p: number): number {
  const c = SPLITTER * q;
  const qh = c - (c - q);
  const ql = q - qh;
  return ql * ql - (p - qh * qh - 2 * ql * qh);
}

/**
 * Is every x in [X − E, X + E] (X = xh + xl) strictly between (d − ulp⁻)² and (d + ulp⁺)²?
 * Then d is a faithful rounding of √x. δ = d² − X in double-double. d = IO[CERT_D]; X and E in
 * IO[FIN_XH], IO[FIN_XL], IO[FIN_E].
 */
function certify(): boolean {
  const d = IO[CERT_D];
  const xh = IO[FIN_XH];
  const xl = IO[FIN_XL];
  const E = IO[FIN_E];
  const p = d * d;
  // d² − p exactly (sqErr written out: where V8 does not inline it its doubles are boxed).
  const c = SPLITTER * d;
  const dh = c - (c - d);
  const dl = d - dh;
  const delta = p - xh + (dl * dl - (p - dh * dh - 2 * dl * dh) - xl);
  BITS[0] = d;
  const hiWord = WORDS[HI];
  const ex = (hiWord >>> 20) & 0x7ff;
  if (ex <= 54 || ex >= 2046) return false;
  // ulp(d) = 2u·ufp(d) (Rump's ufp, as in faithfulSegSeg3; Math.pow is a slow call), or from the
  // exponent where (2⁵² + 1)·d could overflow.
  let ulpUp: number;
  if (d < 2 ** 960) {
    const q = (2 ** 52 + 1) * d;
    ulpUp = 2 * EPS * Math.abs((1 - EPS) * q - q);
  } else ulpUp = 2 ** (ex - 1075);
  const ulpDown = (hiWord & 0xfffff) === 0 && WORDS[1 - HI] === 0 ? ulpUp / 2 : ulpUp;
  // (d − ulp⁻)² < X − E ⇔ δ + E < 2d·ulp⁻ − ulp⁻²;  (d + ulp⁺)² > X + E ⇔ E − δ < 2d·ulp⁺ + ulp⁺².
  // The right sides are exact; the left ones err by ≤ u·(|δ| + E), hence the factor.
  const slack = 1 + 4 * EPS;
  return (delta + E) * slack < 2 * d * ulpDown - ulpDown * ulpDown && (E - delta) * slack < 2 * d * ulpUp + ulpUp * ulpUp;
}

function nextUp(x: number): number {
  BITS[0] = x;
  if (WORDS[1 - HI] === 0xffffffff) {
    WORDS[1 - HI] = 0;
    WORDS[HI]++;
  } else WORDS[1 - HI]++;
  return BITS[0];
}

function nextDown(x: number): number {
  BITS[0] = x;
  if (WORDS[1 - HI] === 0) {
    WORDS[1 - HI] = 0xffffffff;
    WORDS[HI]--;
  } else WORDS[1 - HI]--;
  return BITS[0];
}
