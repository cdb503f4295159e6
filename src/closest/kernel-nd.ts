/**
 * The closest-point kernel for any dimension in O(n): Gram-matrix quantities (dot products)
 * instead of the n(n−1)/2 minors of the generic 2D/3D kernel, a certified filter, and exact
 * BigInt arithmetic (core/exact.ts, itself O(n) big-integer operations) only where the filter
 * cannot decide. It does not allocate on its floating-point path (module-level scratch; not
 * re-entrant).
 *
 * The method (w = a0 − b0, u and v the directions, r(s, t) = w + s·u − t·v):
 * 1. Load u, v, w and, by Knuth's two-difference, the exact rounding error of each difference
 *    (so u + uₗ is the exact direction of a segment or line). Each of the three vectors is scaled
 *    by its own power of two so that its largest component lies in [1, 2): squares and
 *    products then neither overflow nor underflow whatever the ratio of the three lengths
 *    (issue 19: lines whose lengths differ by 2³⁰⁰ made the 2D/3D kernel's four-factor
 *    products underflow). The parameters are solved for in the scaled units
 *    σ = s·2^(e_u − e_w), τ = t·2^(e_v − e_w) and scaled back exactly.
 * 2. The Gram entries a = u·u, b = u·v, c = v·v, d = u·w, e = v·w in plain doubles, with the
 *    classic a-priori bound |fl(x·y) − x·y| ≤ γₙ·Σ|xᵢyᵢ| (Higham, "Accuracy and Stability of
 *    Numerical Algorithms", §3.1). D = ac − b² is trusted only when it exceeds 2²⁶ times its
 *    error bound (the parameters then carry a relative error below 2⁻²⁶, removed by step 4);
 *    below that the directions are nearly or exactly parallel: exact arithmetic decides
 *    parallelism, exactly parallel pairs take the parallel policy in doubles, the others (rare)
 *    are answered exactly.
 * 3. Unconstrained minimiser by Cramer's rule, then clamp-and-project (Ericson, "Real-Time
 *    Collision Detection", §5.1.9); parallel pairs: the middle of the overlap of the shadows
 *    (Rhodes, Game Programming Gems 2, §2.3).
 * 4. The residual r(σ, τ) is evaluated in double-double from the exact differences
 *    (two-product and two-sum, Ogita, Rump & Oishi, "Accurate sum and dot product", 2005), then
 *    one Newton step along the free parameters removes what is left of its component in the
 *    span of u and v (the minimum is quadratic in the parameters' error, but only after this
 *    step is that error relative to the distance rather than to |w|). Its length is summed
 *    compensated and square-rooted with one correction step, so that the distance is within
 *    one ulp of the exact distance of the given doubles whenever it exceeds the filter below.
 * 5. Any feasible (σ, τ) gives |r| ≥ the exact minimum, and the error of the computed |r| is far
 *    below 64·u·S (S the size of the terms); so a distance above 64·u·S is certainly positive,
 *    and anything at or below it is decided, and its distance computed, exactly.
 * 6. A direction some 2¹⁰⁰⁰ times shorter than the offset (a subnormal ray beside far-away data,
 *    issue 19) puts the parameters near 2¹⁰⁰⁰ in the scaled units: the residual's rounding can
 *    then overflow (NaN), and a parameter a rounding away from its bound becomes Infinity when
 *    scaled back. Both go to exact arithmetic (O(n) BigInt), which gives the decision, the
 *    distance and s, t (for parallel pairs the policy's pair). A parameter still infinite is the
 *    exact one rounded: it lies beyond the double range (the nearest points are finite).
 *    Exactly parallel pairs refine only t (s is the policy's choice): a joint Newton step on the
 *    singular 2×2 system moved s off the middle of the overlap.
 */
import * as eft from '../core/eft.js';
import * as exact from '../core/exact.js';
import { exactClosestFlat, exactParallelFlat, exactParallelPair, exactRelationFlat, ratToNumber } from '../core/exact.js';
import { ROOT, faithfulRoot } from './faithful.js';
import { ND_WASM } from './nd.generated.js';

// Imported constants copied into module constants once: a transpiler that turns imports into
// live-binding getters (tsx, vitest) would otherwise call a getter in every loop iteration.
const EPS = eft.EPS;
const SPLITTER = eft.SPLITTER;
const POINT = exact.POINT;
const SEGMENT = exact.SEGMENT;
const RAY = exact.RAY;
const LINE = exact.LINE;

// The output layout of kernel.ts (OUT_S … OUT_VEC), repeated here so that this module does not
// import the one that dispatches to it.
const O_S = 0;
const O_T = 1;
const O_DIST = 2;
const O_REL = 3;
const O_FLAGS = 4;
const O_VEC = 5;
const R_APART = 0;
const R_INTERSECTING = 1;
const R_OVERLAPPING = 2;
const R_PARALLEL = 3;
const R_DEGENERATE = 4;
const F_NOT_UNIQUE = 1;
const F_PARALLEL = 2;
const F_DEGENERATE = 4;

/** Distances at or below this many u·S are decided (and measured) exactly. */
const FILTER = 64 * EPS;
/** Exponents of the three lengths within ±SAFE need no scaling (see load). */
const SAFE = 200;
/** D must exceed its error bound by this factor for the doubles' parameters to be used. */
const TRUST = 2 ** 26;

let U = new Float64Array(16);
let V = new Float64Array(16);
let W = new Float64Array(16);
let UL = new Float64Array(16);
let VL = new Float64Array(16);
let WL = new Float64Array(16);
let R = new Float64Array(16);
let RL = new Float64Array(16);

function grow(dim: number): void {
  if (U.length >= dim) return;
  U = new Float64Array(dim);
  V = new Float64Array(dim);
  W = new Float64Array(dim);
  UL = new Float64Array(dim);
  VL = new Float64Array(dim);
  WL = new Float64Array(dim);
  R = new Float64Array(dim);
  RL = new Float64Array(dim);
}

// Per-call doubles, in a typed array so that no double is boxed between the steps.
const ST = new Float64Array(16);
const A_ = 0; // u·u (scaled)
const B_ = 1; // u·v
const C_ = 2; // v·v
const D_ = 3; // u·w
const E_ = 4; // v·w
const SG = 5; // σ
const TA = 6; // τ
const SLO = 7; // σ's domain
const SHI = 8;
const TLO = 9; // τ's domain
const THI = 10;
const EU = 11; // the exponents of the three scalings
const EV = 12;
const EW = 13;
const DIST = 14; // the distance, scaled
const SIZE = 15; // S, scaled

let uZero = false;
let vZero = false;
let notUnique = false;
/** The directions are exactly parallel (set before residual: no joint Newton step then). */
let parallelNd = false;
/** s and t came from exact arithmetic (set by closestNdInto's last step). */
let exactST = false;

/** The rounding error of x = fl(a − b): a − b = x + diffError(a, b, x) exactly (Knuth). */
function diffError(a: number, b: number, x: number): number {
  const bv = a - x;
  const av = x + bv;
  return a - av + (bv - b);
}

/**
 * x·2^k for any integer |k| ≤ 3000, exact unless the result over- or underflows. In three
 * factors of at most 2^±1000 each: the exponents of the three scalings differ by up to
 * 1023 + 1074 = 2097, and a factor 2^1049 (two halves) would itself be Infinity, making 0·2^k NaN.
 */
function scaleBy(x: number, k: number): number {
  const h = Math.trunc(k / 3);
  return x * 2 ** h * 2 ** h * 2 ** (k - 2 * h);
}

/** The exponent of the largest power of two ≤ m (m > 0 finite). */
function expOf(m: number): number {
  return Math.floor(Math.log2(m));
}

/**
 * Closest points of two primitives on kernel.ts's flat layout, any dimension ≥ 1, writing
 * kernel.ts's output (s, t, distance, relation, flags, d − c). Same contract as `closestInto`:
 * finite inputs, a zero direction only for segments. Cost O(dim) in doubles; O(dim) BigInt
 * operations when the filter sends it to exact arithmetic (nearly parallel directions that are
 * not exactly parallel, distances within 64·u·S of zero, differences that overflow).
 * Not re-entrant.
 */
export function closestNdInto(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array): void {
  grow(dim);
  notUnique = false;
  parallelNd = false;
  if (!load(ka, kb, dim, data, k)) {
    // A difference overflowed (coordinates near ±1.8e308): exact arithmetic answers.
    const degenerate = isZeroDir(ka, dim, data, k) || isZeroDir(kb, dim, data, k + 2 * dim);
    exactInto(ka, kb, dim, data, k, out, degenerate);
    return;
  }
  const degenerate = (ka === SEGMENT && uZero) || (kb === SEGMENT && vZero);
  let parallel = false;
  if (uZero && vZero) {
    ST[SG] = 0;
    ST[TA] = 0;
  } else if (uZero) {
    ST[SG] = 0;
    ST[TA] = clamp(ST[E_] / ST[C_], ST[TLO], ST[THI]);
  } else if (vZero) {
    ST[TA] = 0;
    ST[SG] = clamp(-ST[D_] / ST[A_], ST[SLO], ST[SHI]);
  } else {
    const a = ST[A_];
    const b = ST[B_];
    const c = ST[C_];
    const D = a * c - b * b;
    // a, c: n positive terms, relative error ≤ γ; |b| error ≤ γ·Σ|uᵢvᵢ| ≤ γ·√(ac); the three
    // roundings of D add 3u·(ac + b²) ≤ 6u·ac. The inputs' own rounding into u, v (relative u a
    // component) is folded into γ as n + 2 terms.
    const g = ((dim + 2) * EPS) / (1 - (dim + 2) * EPS);
    const errD = (4 * g + 8 * EPS) * a * c * (1 + 1e-10);
    if (!(D > TRUST * errD)) {
      if (!exactParallelFlat(ka, kb, dim, data, k)) {
        exactInto(ka, kb, dim, data, k, out, degenerate); // nearly parallel: rare, exact
        return;
      }
      parallel = true;
      parallelNd = true;
      parallelCase(dim);
    } else {
      ST[SG] = (b * ST[E_] - c * ST[D_]) / D;
      ST[TA] = (a * ST[E_] - b * ST[D_]) / D;
      clampProject(dim);
    }
  }
  residual(ka, kb, dim, out);
  const ew = ST[EW];
  let relation = degenerate ? R_DEGENERATE : parallel ? R_PARALLEL : R_APART;
  let s = uZero ? 0 : scaleBy(ST[SG], ew - ST[EU]);
  let t = vZero ? 0 : scaleBy(ST[TA], ew - ST[EV]);
  if (!(ST[DIST] > FILTER * ST[SIZE])) {
    // Too close to zero for the doubles: exact decision, and exact distance when apart. Also
    // where the residual's terms overflowed in the scaled units (NaN: a parameter near 2¹⁰⁰⁰,
    // as for a subnormal direction beside far-away data; issue 19) — the true distance is at
    // most |w|, so only rounding made it overflow.
    const rel = exactRelationFlat(ka, kb, dim, data, k);
    if (rel.share !== 'none' && rel.s !== null && rel.t !== null) {
      s = ratToNumber(rel.s.num, rel.s.den);
      t = ratToNumber(rel.t.num, rel.t.den);
      out[O_DIST] = 0;
      for (let i = 0; i < dim; i++) out[O_VEC + i] = 0;
      relation = rel.share === 'overlap' ? R_OVERLAPPING : R_INTERSECTING;
      notUnique = rel.share === 'overlap';
      exactST = true;
    } else {
      const ex = exactClosestFlat(ka, kb, dim, data, k);
      out[O_DIST] = ex.distance;
      for (let i = 0; i < dim; i++) out[O_VEC + i] = ex.vector[i];
      exactST = !parallel;
      if (!parallel) {
        s = ratToNumber(ex.s.num, ex.s.den);
        t = ratToNumber(ex.t.num, ex.t.den);
      }
    }
  } else {
    out[O_DIST] = scaleBy(ST[DIST], ew); // d − c is already in out (residual)
    exactST = false;
  }
  out[O_S] = s;
  out[O_T] = t;
  if (!exactST && !(Math.abs(s) < Infinity && Math.abs(t) < Infinity)) overflowedST(ka, kb, dim, data, k, out, parallel && !degenerate);
  out[O_REL] = relation;
  out[O_FLAGS] = (notUnique ? F_NOT_UNIQUE : 0) | (parallel ? F_PARALLEL : 0) | (degenerate ? F_DEGENERATE : 0);
}

/**
 * s or t overflowed when scaled back (a direction some 2¹⁰⁰⁰ times shorter than the offset,
 * issue 19): either the exact parameter lies beyond the double range, or rounding a few ulps
 * away from a bound in the scaled units (τ = 1e-16 where the exact τ is 0) became Infinity in
 * the input's units. Exact arithmetic says which: s, t (the parallel policy's pair for parallel
 * pairs), the distance and d − c from core/exact.ts. A parameter still infinite is the exact
 * one rounded: beyond the double range (the nearest points are finite; see closestPoints).
 */
function overflowedST(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array, parallel: boolean): void {
  const ex = exactClosestFlat(ka, kb, dim, data, k);
  out[O_DIST] = ex.distance;
  for (let i = 0; i < dim; i++) out[O_VEC + i] = ex.vector[i];
  if (parallel) {
    const pp = exactParallelPair(ka, kb, dim, data, k);
    out[O_S] = ratToNumber(pp.s.num, pp.s.den);
    out[O_T] = ratToNumber(pp.t.num, pp.t.den);
    notUnique = pp.notUnique;
  } else {
    out[O_S] = ratToNumber(ex.s.num, ex.s.den);
    out[O_T] = ratToNumber(ex.t.num, ex.t.den);
  }
}

function isZeroDir(kind: number, dim: number, data: ArrayLike<number>, at: number): boolean {
  if (kind !== SEGMENT) return false;
  for (let i = 0; i < dim; i++) if (data[at + dim + i] !== data[at + i]) return false;
  return true;
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/**
 * Step 1 and 2: u, v, w and their two-difference errors, each vector scaled to a largest
 * component in [1, 2), the Gram entries and the parameter domains in scaled units. Returns
 * false when a difference overflowed.
 */
function load(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number): boolean {
  const a0 = k;
  const a1 = k + dim;
  const b0 = k + 2 * dim;
  const b1 = k + 3 * dim;
  let mu = 0;
  let mv = 0;
  let mw = 0;
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let e = 0;
  for (let i = 0; i < dim; i++) {
    const x0 = data[a0 + i];
    const x1 = data[a1 + i];
    const y0 = data[b0 + i];
    const y1 = data[b1 + i];
    let ui = 0;
    let ul = 0;
    if (ka === RAY) ui = x1;
    else if (ka !== POINT) {
      ui = x1 - x0;
      ul = diffError(x1, x0, ui);
    }
    let vi = 0;
    let vl = 0;
    if (kb === RAY) vi = y1;
    else if (kb !== POINT) {
      vi = y1 - y0;
      vl = diffError(y1, y0, vi);
    }
    const wi = x0 - y0;
    U[i] = ui;
    UL[i] = ul;
    V[i] = vi;
    VL[i] = vl;
    W[i] = wi;
    WL[i] = diffError(x0, y0, wi);
    const au = Math.abs(ui);
    const av = Math.abs(vi);
    const aw = Math.abs(wi);
    if (au > mu) mu = au;
    if (av > mv) mv = av;
    if (aw > mw) mw = aw;
    a += ui * ui;
    b += ui * vi;
    c += vi * vi;
    d += ui * wi;
    e += vi * wi;
  }
  if (!(mu < Infinity && mv < Infinity && mw < Infinity)) return false;
  uZero = mu === 0;
  vZero = mv === 0;
  const eu = uZero ? 0 : expOf(mu);
  const ev = vZero ? 0 : expOf(mv);
  const ew = mw === 0 ? Math.max(eu, ev) : expOf(mw);
  ST[SLO] = ka === LINE ? -Infinity : 0;
  ST[TLO] = kb === LINE ? -Infinity : 0;
  if (eu >= -SAFE && eu <= SAFE && ev >= -SAFE && ev <= SAFE && ew >= -SAFE && ew <= SAFE) {
    // Lengths within 2^±200: no product of up to four Gram factors over- or underflows, and
    // every bound below is relative, so the unscaled numbers serve as they are.
    ST[EU] = 0;
    ST[EV] = 0;
    ST[EW] = 0;
    ST[A_] = a;
    ST[B_] = b;
    ST[C_] = c;
    ST[D_] = d;
    ST[E_] = e;
    ST[SHI] = ka === SEGMENT ? 1 : ka === POINT ? 0 : Infinity;
    ST[THI] = kb === SEGMENT ? 1 : kb === POINT ? 0 : Infinity;
    return true;
  }
  ST[EU] = eu;
  ST[EV] = ev;
  ST[EW] = ew;
  // Scale factors in two halves each, so that 2^−e never overflows (e down to −1074).
  const fu1 = 2 ** -Math.trunc(eu / 2);
  const fu2 = 2 ** (Math.trunc(eu / 2) - eu);
  const fv1 = 2 ** -Math.trunc(ev / 2);
  const fv2 = 2 ** (Math.trunc(ev / 2) - ev);
  const fw1 = 2 ** -Math.trunc(ew / 2);
  const fw2 = 2 ** (Math.trunc(ew / 2) - ew);
  a = 0;
  b = 0;
  c = 0;
  d = 0;
  e = 0;
  for (let i = 0; i < dim; i++) {
    const ui = U[i] * fu1 * fu2;
    const vi = V[i] * fv1 * fv2;
    const wi = W[i] * fw1 * fw2;
    U[i] = ui;
    V[i] = vi;
    W[i] = wi;
    UL[i] = UL[i] * fu1 * fu2;
    VL[i] = VL[i] * fv1 * fv2;
    WL[i] = WL[i] * fw1 * fw2;
    a += ui * ui;
    b += ui * vi;
    c += vi * vi;
    d += ui * wi;
    e += vi * wi;
  }
  ST[A_] = a;
  ST[B_] = b;
  ST[C_] = c;
  ST[D_] = d;
  ST[E_] = e;
  // Domains of σ = s·2^(eu − ew) and τ = t·2^(ev − ew) (an end beyond the double range
  // becomes ±Infinity: the minimiser never reaches it, |σ*| ≲ |w|/|u| in scaled units).
  ST[SHI] = ka === SEGMENT ? scaleBy(1, eu - ew) : ka === POINT ? 0 : Infinity;
  ST[THI] = kb === SEGMENT ? scaleBy(1, ev - ew) : kb === POINT ? 0 : Infinity;
  return true;
}

/**
 * Clamp-and-project (Ericson §5.1.9): clamp σ*, project onto b, clamp, project back; writes
 * σ, τ. In scaled units r = w + σ·u − τ·v, ∂/∂τ = 0 at τ = (e + bσ)/c, ∂/∂σ = 0 at
 * σ = (bτ − d)/a.
 */
function clampProject(_dim: number): void {
  const a = ST[A_];
  const b = ST[B_];
  const c = ST[C_];
  const s = clamp(ST[SG], ST[SLO], ST[SHI]);
  const t = clamp((ST[E_] + b * s) / c, ST[TLO], ST[THI]);
  ST[TA] = t;
  ST[SG] = clamp((b * t - ST[D_]) / a, ST[SLO], ST[SHI]);
}

/**
 * Exactly parallel directions: the middle of the overlap of b's shadow on a with a's domain
 * (Rhodes' policy), the finite end of a half-infinite overlap, or the nearest ends when the
 * shadows are disjoint; b's parameter range seen on a is σ(τ) = (τ·b − d)/a.
 */
function parallelCase(_dim: number): void {
  const a = ST[A_];
  const b = ST[B_];
  const d = ST[D_];
  const sLo = ST[SLO];
  const sHi = ST[SHI];
  let lo = (ST[TLO] * b - d) / a;
  let hi = (ST[THI] * b - d) / a;
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
    else s = (-0.5 * d) / a; // two whole lines: the middle of a.p0 and b.p0's shadow
  } else {
    s = hi < sLo ? sLo : sHi;
  }
  ST[SG] = s;
  ST[TA] = clamp((ST[E_] + b * s) / ST[C_], ST[TLO], ST[THI]);
}

/**
 * Step 4: r(σ, τ) in double-double into R + RL from the exact differences, one Newton step
 * along the free parameters (those strictly inside their domain), the compensated length and
 * S, into ST[DIST] and ST[SIZE] (scaled units); d − c = −r into out (the input's units).
 */
function residual(ka: number, kb: number, dim: number, out: Float64Array): void {
  let s = ST[SG];
  let t = ST[TA];
  // Dekker's split of s and t, once.
  let cs = SPLITTER * s;
  const sh = cs - (cs - s);
  const sl = s - sh;
  cs = SPLITTER * t;
  const th = cs - (cs - t);
  const tl = t - th;
  let g1 = 0;
  let g2 = 0;
  for (let i = 0; i < dim; i++) {
    const ui = U[i];
    const vi = V[i];
    // p = s·uᵢ and q = t·vᵢ with their errors (Dekker's two-product; s, t split above).
    const p = s * ui;
    let cu = SPLITTER * ui;
    const uh = cu - (cu - ui);
    const ulo = ui - uh;
    const pe = sl * ulo - (p - sh * uh - sl * uh - sh * ulo);
    const q = t * vi;
    cu = SPLITTER * vi;
    const vh = cu - (cu - vi);
    const vlo = vi - vh;
    const qe = tl * vlo - (q - th * vh - tl * vh - th * vlo);
    // x = wᵢ + p, y = x − q, exactly as hi + lo (Knuth's two-sum).
    const wi = W[i];
    const x = wi + p;
    let bv = x - wi;
    const e1 = wi - (x - bv) + (p - bv);
    const y = x - q;
    bv = y - x;
    const e2 = x - (y - bv) + (-q - bv);
    R[i] = y;
    RL[i] = e1 + e2 + pe - qe + WL[i] + s * UL[i] - t * VL[i];
    g1 += ui * y;
    g2 += vi * y;
  }
  // One Newton step on |r + δσ·u − δτ·v|² along the free parameters.
  const a = ST[A_];
  const b = ST[B_];
  const c = ST[C_];
  const sFree = !uZero && s > ST[SLO] && s < ST[SHI];
  const tFree = !vZero && t > ST[TLO] && t < ST[THI];
  let ds = 0;
  let dt = 0;
  if (sFree && tFree && !parallelNd) {
    const D = a * c - b * b;
    if (D > 0) {
      ds = (b * g2 - c * g1) / D;
      dt = (a * g2 - b * g1) / D;
    }
  } else if (tFree) dt = g2 / c; // for parallel pairs s is the policy's choice: refine t only
  else if (sFree) ds = -g1 / a;
  if (ds !== 0 || dt !== 0) {
    const s2 = clamp(s + ds, ST[SLO], ST[SHI]);
    const t2 = clamp(t + dt, ST[TLO], ST[THI]);
    ds = s2 - s; // exact when small beside s (Sterbenz), else a tiny error in a tiny step
    dt = t2 - t;
    s = s2;
    t = t2;
    ST[SG] = s;
    ST[TA] = t;
  }
  let hi = 0;
  let lo = 0;
  let w2 = 0;
  // d − c = −r in the input's units, written here to save a pass (overwritten when the exact
  // path answers instead).
  const ew = ST[EW];
  const f1 = 2 ** Math.trunc(ew / 2);
  const f2 = 2 ** (ew - Math.trunc(ew / 2));
  for (let i = 0; i < dim; i++) {
    // Renormalise hi + lo (under cancellation the low part can rival the high one), adding
    // the Newton step's correction on the way.
    let y = R[i];
    const corr = ds * U[i] - dt * V[i] + RL[i];
    const zz = y + corr;
    const bw = zz - y;
    const l = y - (zz - bw) + (corr - bw);
    y = zz;
    out[O_VEC + i] = -(y + l) * f1 * f2;
    // hi + lo += y² + 2·y·l, y² by two-product.
    const p = y * y;
    const cy = SPLITTER * y;
    const yh = cy - (cy - y);
    const yl = y - yh;
    const pe = yl * yl - (p - yh * yh - 2 * yh * yl);
    const z = hi + p;
    const bv = z - hi;
    lo += hi - (z - bv) + (p - bv) + pe + 2 * y * l;
    hi = z;
    w2 += W[i] * W[i];
  }
  const q = hi + lo;
  let dist = Math.sqrt(q);
  if (dist > 0) {
    // One Newton correction of the square root against the double-double q = hi + lo.
    const p = dist * dist;
    const cd = SPLITTER * dist;
    const dh = cd - (cd - dist);
    const dl = dist - dh;
    const pe = dl * dl - (p - dh * dh - 2 * dh * dl);
    dist += (hi - p - pe + lo) / (2 * dist);
  }
  ST[DIST] = dist;
  // S: the size of the terms, |w|, |σu|, |τv|, and the extent of finite pieces.
  let size2 = Math.max(w2, s * s * a, t * t * c);
  if (ka === SEGMENT) size2 = Math.max(size2, ST[SHI] * ST[SHI] * a);
  if (kb === SEGMENT) size2 = Math.max(size2, ST[THI] * ST[THI] * c);
  ST[SIZE] = Math.sqrt(size2) * (1 + 4 * (dim + 4) * EPS);
}

/** Everything from exact arithmetic, for the inputs the filter sends there. */
function exactInto(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array, degenerate: boolean): void {
  const r = exactRelationFlat(ka, kb, dim, data, k);
  let relation: number;
  let s: number;
  let t: number;
  let dist = 0;
  if (r.share !== 'none' && r.s !== null && r.t !== null) {
    relation = r.share === 'overlap' ? R_OVERLAPPING : R_INTERSECTING;
    s = ratToNumber(r.s.num, r.s.den);
    t = ratToNumber(r.t.num, r.t.den);
    for (let i = 0; i < dim; i++) out[O_VEC + i] = 0;
  } else {
    const ex = exactClosestFlat(ka, kb, dim, data, k);
    relation = degenerate ? R_DEGENERATE : r.parallel ? R_PARALLEL : R_APART;
    s = ratToNumber(ex.s.num, ex.s.den);
    t = ratToNumber(ex.t.num, ex.t.den);
    dist = ex.distance;
    for (let i = 0; i < dim; i++) out[O_VEC + i] = ex.vector[i];
  }
  out[O_S] = s;
  out[O_T] = t;
  out[O_DIST] = dist;
  out[O_REL] = relation;
  out[O_FLAGS] = (r.share === 'overlap' ? F_NOT_UNIQUE : 0) | (r.parallel ? F_PARALLEL : 0) | (degenerate ? F_DEGENERATE : 0);
}

// ---------------------------------------------------------------------------------------------
// The fused path (issue 16: the public n-D functions in linear time). Two passes over the
// coordinates answer the common case — directions not nearly parallel, a distance well above
// zero — with the distance certified faithful in the same passes, so that neither a separate
// validation pass nor faithful.ts's own passes are needed. The four vectors are first copied
// into one scratch array (FLAT, block copies): V8 re-checks every array a loop reads in every
// iteration, and WebAssembly can only read its own memory. Both passes are bound by
// floating-point throughput (pass 2 is about 88 operations a coordinate, the price of a faithful
// distance without FMA), so where WebAssembly is available they run as f64x2 SIMD, two
// coordinates an instruction (scripts/build-wasm-nd.ts; the same operations in the same order
// as the JavaScript passes below, which remain the fallback). Measured at 1000-D, µs of CPU a
// call (bench/closest/generic.bench.ts --nd --cpu, a loaded 2-core Xeon): closestPoints with a
// target 19.1 before this (JavaScript, four arrays), 15.3 with one array, 9.7 with WebAssembly.

/** Sums of squares the fused path accepts: no product of three Gram entries over- or underflows. */
const FAST_LO = 2 ** -300;
const FAST_HI = 2 ** 300;
const U2 = EPS * EPS;

/** The fused path answered (see {@link closestNdFast}). */
export const FAST_DONE = 1;
/** It could not certify its answer: ask {@link closestNdInto} (after validating the input). */
export const FAST_DECLINED = 0;
/** A sum over the coordinates was not finite: the input may hold NaN or ±Infinity — validate it. */
export const FAST_NOT_FINITE = -1;

/**
 * Out, valid after {@link closestNdFast} returned FAST_DONE: [0] the squared distance (its
 * certified double-double value rounded: within about an ulp of the exact one; closestPoints
 * reports it as distanceSq), [1] and [2] the step ds, dt taken on paper (see {@link fastResidual}).
 */
export const FAST_SQ = new Float64Array(3);

/**
 * The array holding the fused path's residual r at (s, t) before the step on paper (valid after
 * FAST_DONE), rᵢ at index {@link fastResidualAt}() + i: d − c = −(r + ds·u − dt·v) with ds = FAST_SQ[1],
 * dt = FAST_SQ[2] and u, v the rounded directions, for a caller that forms c and d in the same
 * pass (closestPoints) and so passes `vec` false.
 */
export function fastResidual(): Float64Array {
  return FLAT;
}

/** Where the residual starts in {@link fastResidual}'s array (valid after FAST_DONE). */
export function fastResidualAt(): number {
  return RO;
}

// Doubles between the fused path's steps (module-level array: no boxing).
const FS = new Float64Array(16);
const F_A = 0; // u·u
const F_B = 1; // u·v
const F_C = 2; // v·v
const F_D = 3; // u·w
const F_E = 4; // v·w
const F_F = 5; // w·w
const F_S = 6; // s
const F_T = 7; // t
const F_DET = 8; // D = AC − B²
const F_G = 9; // γ
const F_SLO = 10; // s's domain
const F_SHI = 11;
const F_TLO = 12; // t's domain
const F_THI = 13;

/**
 * The four vectors of the fused path side by side with a stride m (dim rounded up to even, the
 * pad 0), then its residual from 4·m (see {@link flatten}); its last m entries stay 0: nothing
 * writes beyond 5·m of a length ≥ 6·m, for any m (a ray's zero "first point", see closestNdFast).
 * With WebAssembly, FLAT and HDR are views of the module's memory (HDR: the passes' inputs and
 * results, the HEAD bytes before FLAT).
 */
let FLAT = new Float64Array(96);
let HDR = new Float64Array(32);
const HEAD = 256;

/** The two passes as WebAssembly (scripts/build-wasm-nd.ts), or null where it is not available. */
interface NdPasses {
  gram: (m: number, a0: number, a1: number, au: number, b0: number, b1: number, bv: number, o: number) => void;
  resid: (m: number, a0: number, a1: number, au: number, b0: number, b1: number, bv: number, ro: number, o: number) => void;
  memory: WebAssembly.Memory;
}
let PASSES: NdPasses | null = null;
/** Whether closestNdFast and linesApartNd use PASSES (tests turn it off to check the JavaScript passes). */
let useWasm = false;

function loadPasses(): void {
  try {
    const b64 = ND_WASM;
    const bytes = typeof Buffer !== 'undefined' ? Uint8Array.from(Buffer.from(b64, 'base64')) : Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const memory = new WebAssembly.Memory({ initial: 1 });
    const ex = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports;
    PASSES = { gram: ex.gram as NdPasses['gram'], resid: ex.resid as NdPasses['resid'], memory };
    HDR = new Float64Array(memory.buffer, 0, 32);
    FLAT = new Float64Array(memory.buffer, HEAD, (memory.buffer.byteLength - HEAD) / 8);
    useWasm = true;
  } catch {
    // No WebAssembly (or a policy that forbids compiling it): the JavaScript passes answer alike.
    PASSES = null;
    useWasm = false;
  }
}
loadPasses();

/**
 * For tests: whether the fused path runs its two passes as WebAssembly (where available) or as
 * JavaScript; returns the previous setting. Both give certified, faithful results (their sums
 * over the coordinates are ordered differently, so the last bits of s and t may differ).
 */
export function ndPassesWasm(on: boolean): boolean {
  const was = useWasm;
  useWasm = on && PASSES !== null;
  return was;
}

/** The most WebAssembly memory the passes take (larger inputs run the JavaScript passes). */
const WASM_BYTES = 2 ** 28;

/**
 * FLAT (and HDR) for vectors of stride m: at least 6·m entries (see FLAT). Returns whether the
 * WebAssembly passes run: FLAT is then the module memory's view (grown as needed; a memory that
 * cannot grow, or inputs beyond WASM_BYTES, take the JavaScript passes on an ordinary array).
 */
function room(m: number): boolean {
  const need = 6 * m;
  if (useWasm && PASSES !== null && HEAD + 8 * need <= WASM_BYTES) {
    const memory = PASSES.memory;
    try {
      const bytes = HEAD + 8 * need;
      if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
      // (Growing detaches the old views: their length reads 0.)
      if (!(FLAT.buffer === memory.buffer && FLAT.length >= need)) {
        HDR = new Float64Array(memory.buffer, 0, 32);
        FLAT = new Float64Array(memory.buffer, HEAD, (memory.buffer.byteLength - HEAD) / 8);
      }
      return true;
    } catch {
      // The memory could not grow: the JavaScript passes, on an ordinary array.
    }
  }
  if (FLAT.length < need) FLAT = new Float64Array(need);
  return false;
}

/** The residual's offset in FLAT after the last fused call (4·m, see FLAT). */
let RO = 0;

/**
 * a0, a1, b0, b1 (dim numbers each from the given offsets; FLAT already holds 6·m, m = dim rounded up to even) copied into FLAT at 0, m, 2·m and
 * 3·m with zero pads, for the passes over one array: V8 checks an array's map and loads its length and base
 * again in every iteration of a loop (the loop's interrupt check ends what it knows), so a loop
 * reading four arrays paid four such checks a coordinate and spilled registers; one array costs
 * one. The copy is four block copies (TypedArray.prototype.set) where the offsets are 0.
 */
function flatten(dim: number, a0: Float64Array, i0: number, a1: Float64Array, i1: number, b0: Float64Array, j0: number, b1: Float64Array, j1: number): Float64Array {
  const f = FLAT;
  const m = dim + (dim & 1);
  if (a0 === a1 && a1 === b0 && b0 === b1) {
    // One array at four offsets (kernel.ts's flat layout): one loop, one array's checks.
    const x = a0;
    const m2 = 2 * m;
    const m3 = 3 * m;
    for (let i = 0; i < dim; i++) {
      f[i] = x[(i0 + i) | 0];
      f[(m + i) | 0] = x[(i1 + i) | 0];
      f[(m2 + i) | 0] = x[(j0 + i) | 0];
      f[(m3 + i) | 0] = x[(j1 + i) | 0];
    }
  } else {
    put(f, 0, a0, i0, dim);
    put(f, m, a1, i1, dim);
    put(f, 2 * m, b0, j0, dim);
    put(f, 3 * m, b1, j1, dim);
  }
  if (m > dim) {
    f[dim] = 0;
    f[m + dim] = 0;
    f[2 * m + dim] = 0;
    f[3 * m + dim] = 0;
  }
  return f;
}

function put(f: Float64Array, at: number, src: Float64Array, from: number, dim: number): void {
  if (from === 0 && src.length === dim) f.set(src, at);
  else for (let i = 0; i < dim; i++) f[at + i] = src[from + i];
}

/**
 * Pass 1 of the fused path: the six Gram entries of u, v, w in plain doubles into FS, all read
 * from xs: u = a1 − au (a0 = xs[i0 …], a1 at i1, au at iu: a0's offset, or zeros for a ray, whose
 * a1 is its direction; a point passes i1 = i0, so u = 0), v likewise from j0, j1, jv, and
 * w = a0 − b0. Two coordinates an iteration, each sum taking their two terms' sum: half the
 * dependent additions a coordinate (V8 neither unrolls nor vectorises), and each term still
 * passes at most n roundings, so the γₙ bounds hold (Higham §3.1: any order of summation).
 */
function gram(dim: number, xs: Float64Array, i0: number, i1: number, j0: number, j1: number, ma: number, mb: number): void {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let e = 0;
  let f = 0;
  const odd = dim & 1;
  if (odd === 1) {
    const x0 = xs[i0];
    const y0 = xs[j0];
    const ui = xs[i1] - ma * x0;
    const vi = xs[j1] - mb * y0;
    const wi = x0 - y0;
    a = ui * ui;
    b = ui * vi;
    c = vi * vi;
    d = ui * wi;
    e = vi * wi;
    f = wi * wi;
  }
  for (let i = odd; i < dim; i += 2) {
    const x0 = xs[(i0 + i) | 0];
    const y0 = xs[(j0 + i) | 0];
    const x1 = xs[(i0 + i + 1) | 0];
    const y1 = xs[(j0 + i + 1) | 0];
    const u0 = xs[(i1 + i) | 0] - ma * x0;
    const v0 = xs[(j1 + i) | 0] - mb * y0;
    const w0 = x0 - y0;
    const u1 = xs[(i1 + i + 1) | 0] - ma * x1;
    const v1 = xs[(j1 + i + 1) | 0] - mb * y1;
    const w1 = x1 - y1;
    a += u0 * u0 + u1 * u1;
    b += u0 * v0 + u1 * v1;
    c += v0 * v0 + v1 * v1;
    d += u0 * w0 + u1 * w1;
    e += v0 * w0 + v1 * w1;
    f += w0 * w0 + w1 * w1;
  }
  FS[F_A] = a;
  FS[F_B] = b;
  FS[F_C] = c;
  FS[F_D] = d;
  FS[F_E] = e;
  FS[F_F] = f;
}

/**
 * Closest points of a (kind ka: a0 = `a0[i0 …]`, its second vector a1 = `a1[i1 …]`, a ray's
 * direction, ignored for a point) and b (likewise), dim ≥ 1, in two passes over the coordinates,
 * writing kernel.ts's output (s, t, distance, relation, flags and, when `vec`, d − c) and
 * {@link FAST_SQ}. Returns FAST_DONE when it answered, FAST_NOT_FINITE when a sum was not finite
 * (the input may not be: validate it before anything else), FAST_DECLINED otherwise — then out
 * holds nothing and {@link closestNdInto} answers. It answers only pairs that are apart:
 * relation `apart`, flags 0, a unique pair, the distance faithful (within one ulp of the exact
 * distance; the same guarantee as faithful.ts). It declines nearly or exactly parallel
 * directions, zero-length segments, sums of squares outside [2⁻³⁰⁰, 2³⁰⁰], distances within
 * 64·u·S of zero, and optima its certificate cannot place (a bound the Newton step would cross).
 *
 * The passes run as WebAssembly where it is available (see the note above FAST_LO), else as
 * JavaScript; the vectors are copied into FLAT first, except kernel.ts's flat layout without
 * WebAssembly, which the JavaScript passes read in place.
 *
 * The method. Pass 1: the Gram entries in doubles (the textbook formula); Cramer's rule and
 * clamp-and-project give (s, t) (Ericson §5.1.9), as in {@link closestNdInto}. Pass 2: the
 * residual r = w + s·u − t·v in double-double from the exact differences (Knuth's two-difference,
 * Dekker's two-product, two-sums: Ogita, Rump & Oishi 2005), with X = |r|² in double-double and
 * the gradient g = (r·u, −r·v) in doubles. |r(s′, t′)|² is a quadratic with Hessian 2H,
 * H = [[u·u, −u·v], [−u·v, v·v]]: over the free parameters its minimum is exactly X − gᵀH⁻¹g, so
 * no second residual pass is needed — the Newton step δ = −H⁻¹g is taken on paper. Where the
 * step stays inside the domain (checked against its error bound) and each clamped parameter's
 * gradient after the step points outwards (the KKT conditions; the quadratic is convex), that
 * value is the exact minimum d*². Its error bound adds the residual's (a few u² of the terms),
 * the sum's, and gᵀH⁻¹g's from the a-priori bounds on g and H (Higham, "Accuracy and Stability of
 * Numerical Algorithms", §3.1: |fl(x·y) − x·y| ≤ γₙ·Σ|xᵢyᵢ| ≤ γₙ·|x||y|); faithful.ts's root
 * certificate then names the double. Not re-entrant.
 */
export function closestNdFast(
  ka: number, kb: number, dim: number,
  a0: Float64Array, i0: number, a1: Float64Array, i1: number,
  b0: Float64Array, j0: number, b1: Float64Array, j1: number,
  out: Float64Array, vec: boolean,
): number {
  // u = a1 − a0 for a segment or line, a1 for a ray (its direction), a0 − a0 = 0 for a point.
  const aPoint = ka === POINT;
  const bPoint = kb === POINT;
  const ax = aPoint ? a0 : a1;
  const ix = aPoint ? i0 : i1;
  const bx = bPoint ? b0 : b1;
  const jx = bPoint ? j0 : j1;
  // The passes read one array (see flatten): a copy in FLAT (always for WebAssembly and rays),
  // or, for the JavaScript passes, kernel.ts's flat layout in place. u = a1 − au with au = a0,
  // or zeros for a ray (its a1 is its direction; the zeros are FLAT's last m entries, never
  // written); v likewise. The residual goes to FLAT from RO = 4·m.
  let x = a0;
  let k0 = i0;
  let k1 = ix;
  let k2 = j0;
  let k3 = jx;
  const m = dim + (dim & 1);
  const wasm = room(m);
  const aRay = ka === RAY;
  const bRay = kb === RAY;
  if (wasm || aRay || bRay || !(ax === a0 && b0 === a0 && bx === a0)) {
    x = flatten(dim, a0, i0, ax, ix, b0, j0, bx, jx);
    k0 = 0;
    k1 = aPoint ? 0 : m;
    k2 = 2 * m;
    k3 = bPoint ? 2 * m : 3 * m;
  }
  const zo = FLAT.length - m;
  const ku = aRay ? zo : k0;
  const kv = bRay ? zo : k2;
  RO = 4 * m;
  if (wasm) gramWasm(m, k0, k1, ku, k2, k3, kv);
  else gram(dim, x, k0, k1, k2, k3, aRay ? 0 : 1, bRay ? 0 : 1);
  const A = FS[F_A];
  const B = FS[F_B];
  const C = FS[F_C];
  const F = FS[F_F];
  if (!(A + C + F < Infinity)) return FAST_NOT_FINITE;
  if (!(F > FAST_LO && F < FAST_HI)) return FAST_DECLINED;
  if (!aPoint && !(A > FAST_LO && A < FAST_HI)) return FAST_DECLINED;
  if (!bPoint && !(C > FAST_LO && C < FAST_HI)) return FAST_DECLINED;
  const Dd = FS[F_D];
  const E = FS[F_E];
  const g = ((dim + 2) * EPS) / (1 - (dim + 2) * EPS);
  const sLo = ka === LINE ? -Infinity : 0;
  const sHi = ka === SEGMENT ? 1 : ka === POINT ? 0 : Infinity;
  const tLo = kb === LINE ? -Infinity : 0;
  const tHi = kb === SEGMENT ? 1 : kb === POINT ? 0 : Infinity;
  let D = 0;
  let s = 0;
  let t = 0;
  // Clamps by Math.min/Math.max: a helper V8 does not inline boxes its doubles (issue 16).
  if (!aPoint && !bPoint) {
    D = A * C - B * B;
    // As in closestNdInto: D trusted only far above its error bound (nearly parallel: decline).
    if (!(D > TRUST * (4 * g + 8 * EPS) * A * C * (1 + 1e-10))) return FAST_DECLINED;
    s = Math.min(sHi, Math.max(sLo, (B * E - C * Dd) / D));
    t = Math.min(tHi, Math.max(tLo, (E + B * s) / C));
    s = Math.min(sHi, Math.max(sLo, (B * t - Dd) / A));
  } else if (!bPoint) {
    t = Math.min(tHi, Math.max(tLo, E / C));
  } else if (!aPoint) {
    s = Math.min(sHi, Math.max(sLo, -Dd / A));
  }
  FS[F_S] = s;
  FS[F_T] = t;
  FS[F_DET] = D;
  FS[F_G] = g;
  FS[F_SLO] = sLo;
  FS[F_SHI] = sHi;
  FS[F_TLO] = tLo;
  FS[F_THI] = tHi;
  // Pass 2 (see residualFast).
  if (wasm) residualWasm(m, k0, k1, ku, k2, k3, kv);
  else residualFast(dim, x, k0, k1, ku, k2, k3, kv);
  return certifyFast(ka, kb, dim, x, k0, k1, ku, k2, k3, kv, out, vec);
}

// Pass 2's results.
const P_XH = 0;
const P_XL = 1;
const P_G1 = 2;
const P_G2 = 3;
const PR = new Float64Array(4);
/** Coordinates a block of pass 2 (see residualFast). */
const BLOCK = 128;

/**
 * Pass 1 as WebAssembly (scripts/build-wasm-nd.ts), on FLAT's vectors at the given offsets (in
 * entries; m even, the pads zero): the two lanes' sums added into FS.
 */
function gramWasm(m: number, k0: number, k1: number, ku: number, k2: number, k3: number, kv: number): void {
  (PASSES as NdPasses).gram(m, HEAD + 8 * k0, HEAD + 8 * k1, HEAD + 8 * ku, HEAD + 8 * k2, HEAD + 8 * k3, HEAD + 8 * kv, 0);
  const h = HDR;
  FS[F_A] = h[0] + h[1];
  FS[F_B] = h[2] + h[3];
  FS[F_C] = h[4] + h[5];
  FS[F_D] = h[6] + h[7];
  FS[F_E] = h[8] + h[9];
  FS[F_F] = h[10] + h[11];
}

/**
 * Pass 2 as WebAssembly (see residualFast), r into FLAT from RO: the two lanes' compensated sums
 * joined by one two-sum (exact) and their low parts, the gradients' lanes added.
 */
function residualWasm(m: number, k0: number, k1: number, ku: number, k2: number, k3: number, kv: number): void {
  const h = HDR;
  h[12] = FS[F_S];
  h[13] = FS[F_T];
  (PASSES as NdPasses).resid(m, HEAD + 8 * k0, HEAD + 8 * k1, HEAD + 8 * ku, HEAD + 8 * k2, HEAD + 8 * k3, HEAD + 8 * kv, HEAD + 8 * RO, 0);
  const h0 = h[14];
  const h1 = h[15];
  const sum = h0 + h1;
  const bb = sum - h0;
  const lo = h[16] + h[17] + (h0 - (sum - bb) + (h1 - bb));
  const xh = sum + lo;
  PR[P_XH] = xh;
  PR[P_XL] = lo - (xh - sum);
  PR[P_G1] = h[18] + h[19];
  PR[P_G2] = h[20] + h[21];
}

/**
 * Pass 2: r = w + s·u − t·v in double-double (hi y, lo l, from the exact differences), X = |r|²
 * in double-double, g1 = r·u and g2 = r·v in doubles (from y + l); r into FLAT from RO (4·m).
 */
function residualFast(dim: number, xs: Float64Array, i0: number, i1: number, iu: number, j0: number, j1: number, jv: number): void {
  PR[P_XH] = 0;
  PR[P_XL] = 0;
  PR[P_G1] = 0;
  PR[P_G2] = 0;
  // In blocks of BLOCK coordinates: a loop that runs long on a function's first calls gets V8's
  // on-stack replacement, after which the function kept slow code in about one process in three
  // (1.5× slower at 1000-D); short loops in a helper are optimised as a whole (measured: 8 of 8).
  for (let k = 0; k < dim; k += BLOCK) residualBlock(k, Math.min(dim, k + BLOCK), xs, i0, i1, iu, j0, j1, jv, FLAT, RO);
  const hi = PR[P_XH];
  const lo = PR[P_XL];
  const xh = hi + lo;
  PR[P_XH] = xh;
  PR[P_XL] = lo - (xh - hi);
}

/** Pass 2 on coordinates from … to − 1, accumulating into PR (see residualFast). */
function residualBlock(from: number, to: number, xs: Float64Array, i0: number, i1: number, iu: number, j0: number, j1: number, jv: number, rs: Float64Array, ro: number): void {
  const s = FS[F_S];
  const t = FS[F_T];
  // Dekker's split of s and t, once.
  let cs = SPLITTER * s;
  const sh = cs - (cs - s);
  const sl = s - sh;
  cs = SPLITTER * t;
  const th = cs - (cs - t);
  const tl = t - th;
  let hi = PR[P_XH];
  let lo = PR[P_XL];
  let g1 = PR[P_G1];
  let g2 = PR[P_G2];
  for (let i = from; i < to; i++) {
    // (Index sums truncated by | 0: V8 then adds without an overflow check.)
    const x0 = xs[(i0 + i) | 0];
    const x1 = xs[(i1 + i) | 0];
    const xu = xs[(iu + i) | 0];
    const y0 = xs[(j0 + i) | 0];
    const y1 = xs[(j1 + i) | 0];
    const yv = xs[(jv + i) | 0];
    // The differences and their exact rounding errors (Knuth's two-difference, written out).
    const ui = x1 - xu;
    let bb = x1 - ui;
    const ul = x1 - (ui + bb) + (bb - xu);
    const vi = y1 - yv;
    bb = y1 - vi;
    const vl = y1 - (vi + bb) + (bb - yv);
    const wi = x0 - y0;
    bb = x0 - wi;
    const wl = x0 - (wi + bb) + (bb - y0);
    // s·uᵢ = p + pe and t·vᵢ = q + qe exactly (Dekker's two-product, written out).
    const p = s * ui;
    let c = SPLITTER * ui;
    const uh = c - (c - ui);
    const ulo = ui - uh;
    const pe = sl * ulo - (p - sh * uh - sl * uh - sh * ulo);
    const q = t * vi;
    c = SPLITTER * vi;
    const vh = c - (c - vi);
    const vlo = vi - vh;
    const qe = tl * vlo - (q - th * vh - tl * vh - th * vlo);
    // y = wᵢ + p − q with the two-sums' errors; l collects every low part.
    const x = wi + p;
    bb = x - wi;
    const e1 = wi - (x - bb) + (p - bb);
    const y = x - q;
    bb = y - x;
    const e2 = x - (y - bb) + (-q - bb);
    const l = e1 + e2 + pe - qe + wl + s * ul - t * vl;
    // X = Σ (y + l)²: yₕ² (26-bit halves: exact) by two-sum into hi + lo; the small rest
    // yₗ·(yₕ + y) + l·(2y + l) (below 2⁻²⁵ of y²) summed plainly into lo with the two-sum's
    // errors (one register fewer than a sum of its own; the bound covers the plain sum of both).
    c = SPLITTER * y;
    const yh = c - (c - y);
    const p2 = yh * yh;
    const zz = hi + p2;
    bb = zz - hi;
    lo += hi - (zz - bb) + (p2 - bb) + ((y - yh) * (yh + y) + l * (2 * y + l));
    hi = zz;
    const r = y + l;
    g1 += r * ui;
    g2 += r * vi;
    rs[(ro + i) | 0] = r;
  }
  PR[P_XH] = hi;
  PR[P_XL] = lo;
  PR[P_G1] = g1;
  PR[P_G2] = g2;
}

/**
 * The certificate of the fused path (see {@link closestNdFast}): the active set, the Newton step
 * on paper, the bound on d*², the faithful root; then s, t and (with `vec`) d − c into out.
 */
function certifyFast(
  ka: number, kb: number, dim: number,
  xs: Float64Array, i0: number, i1: number, iu: number, j0: number, j1: number, jv: number,
  out: Float64Array, vec: boolean,
): number {
  const A = FS[F_A];
  const B = FS[F_B];
  const C = FS[F_C];
  const F = FS[F_F];
  const s = FS[F_S];
  const t = FS[F_T];
  const D = FS[F_DET];
  const g = FS[F_G];
  const sLo = FS[F_SLO];
  const sHi = FS[F_SHI];
  const tLo = FS[F_TLO];
  const tHi = FS[F_THI];
  const Xh = PR[P_XH];
  const Xl = PR[P_XL];
  const na = Math.sqrt(A);
  const nc = Math.sqrt(C);
  // The residual's error: ≤ 26.1·u²·|Tᵢ| a coordinate, Tᵢ = |wᵢ| + |s·uᵢ| + |t·vᵢ| (the low parts
  // are a few u of the terms and are summed in doubles); |T| ≤ |w| + |s||u| + |t||v|. A product
  // error below the normal range adds at most 2⁻¹⁰⁷⁰ a coordinate: with |w|² ≥ 2⁻³⁰⁰ that is far
  // below 2⁻²⁰ of the bound for any dimension up to MAX_DIM, hence the factor 27 (no absolute
  // term, so that the decision is the same for the input scaled by any power of two in range).
  const T2 = (Math.sqrt(F) + Math.abs(s) * na + Math.abs(t) * nc) * (1 + 2 ** -20);
  const er = 27 * U2 * T2;
  const rx = Math.sqrt(Xh) * (1 + 2 ** -40) + er;
  // X's error: the residual's, the sum's (Sum2-like: n·u² of X) and the low parts' products.
  let Eb = 2.02 * rx * er + er * er + ((4 * dim + 8) * U2 + (dim + 2) * EPS * 2 ** -24) * Xh + 30 * U2 * T2 * rx;
  // The gradients' errors: γ of |r||u| (products, sums, u's own rounding) and r's error.
  const gs = PR[P_G1]; // ∂(½|r|²)/∂s = r·u
  const gt = -PR[P_G2]; // ∂(½|r|²)/∂t = −r·v
  const es = ((g + 2 * EPS) * rx + 27 * U2 * T2 + er) * na * (1 + 2 ** -30);
  const et = ((g + 2 * EPS) * rx + 27 * U2 * T2 + er) * nc * (1 + 2 ** -30);
  const sFree = ka !== POINT && s > sLo && s < sHi;
  const tFree = kb !== POINT && t > tLo && t < tHi;
  let q = 0; // gᵀH⁻¹g over the free parameters
  let dq = 0; // its error bound
  let ds = 0;
  let dt = 0;
  if (sFree && tFree) {
    // H⁻¹ = [[C, B], [B, A]] / D.
    ds = -(C * gs + B * gt) / D;
    dt = -(B * gs + A * gt) / D;
    const absN = C * gs * gs + 2 * Math.abs(B * gs * gt) + A * gt * gt;
    q = (C * gs * gs + 2 * B * gs * gt + A * gt * gt) / D;
    const ag = 2 * Math.abs(gs) + es;
    const bg = 2 * Math.abs(gt) + et;
    // N = gᵀ·adj(H)·g: its entries' errors (γ) and its rounding; D's relative error ρ (≤ 2⁻²⁶,
    // as checked above) enters q = N/D as 2ρ; then the gradients' errors.
    const rho = ((4 * g + 8 * EPS) * A * C * (1 + 1e-10)) / D;
    dq = ((4 * g + 8 * EPS) * absN / D + Math.abs(q) * 2.02 * rho + (C * es * ag + Math.abs(B) * (es * bg + et * ag) + A * et * bg) / D) * (1 + 2 ** -20);
    // The exact step lies within this of (ds, dt).
    const eds = ((C * es + Math.abs(B) * et) / D) * 1.01 + 2 ** -20 * ((C * Math.abs(gs) + Math.abs(B * gt)) / D);
    const edt = ((Math.abs(B) * es + A * et) / D) * 1.01 + 2 ** -20 * ((Math.abs(B * gs) + A * Math.abs(gt)) / D);
    if (!(s + ds - eds > sLo && s + ds + eds < sHi && t + dt - edt > tLo && t + dt + edt < tHi)) return FAST_DECLINED;
  } else if (sFree) {
    ds = -gs / A;
    q = (gs * gs) / A;
    dq = (q * (2 * g + 8 * EPS) + (es * (2 * Math.abs(gs) + es)) / A) * (1 + 2 ** -20);
    const eds = (es / A) * 1.01 + Math.abs(ds) * 2 ** -20;
    if (!(s + ds - eds > sLo && s + ds + eds < sHi)) return FAST_DECLINED;
    if (kb !== POINT) {
      // t clamped: its gradient after the step, −r·v + (−B)·ds… = gt − B·ds, must point out.
      const gt2 = gt - B * ds;
      const e2 = et + Math.abs(B) * eds + (g + 4 * EPS) * (na * nc * Math.abs(ds) + Math.abs(gt2));
      if (!(t === tLo ? gt2 - e2 > 0 : gt2 + e2 < 0)) return FAST_DECLINED;
    }
  } else if (tFree) {
    dt = -gt / C;
    q = (gt * gt) / C;
    dq = (q * (2 * g + 8 * EPS) + (et * (2 * Math.abs(gt) + et)) / C) * (1 + 2 ** -20);
    const edt = (et / C) * 1.01 + Math.abs(dt) * 2 ** -20;
    if (!(t + dt - edt > tLo && t + dt + edt < tHi)) return FAST_DECLINED;
    if (ka !== POINT) {
      const gs2 = gs - B * dt;
      const e2 = es + Math.abs(B) * edt + (g + 4 * EPS) * (na * nc * Math.abs(dt) + Math.abs(gs2));
      if (!(s === sLo ? gs2 - e2 > 0 : gs2 + e2 < 0)) return FAST_DECLINED;
    }
  } else {
    // Both at a bound (or points): each gradient must point out of the domain.
    if (ka !== POINT && !(s === sLo ? gs - es > 0 : gs + es < 0)) return FAST_DECLINED;
    if (kb !== POINT && !(t === tLo ? gt - et > 0 : gt + et < 0)) return FAST_DECLINED;
  }
  Eb += dq;
  // d*² = X − q, in double-double (two-sum), within Eb.
  const zh = Xh - q;
  const bb = zh - Xh;
  const zl = Xh - (zh - bb) + (-q - bb) + Xl;
  const z2 = zh + zl;
  const s2 = s + ds;
  const t2 = t + dt;
  // S, as closestNdInto: the terms' size; at or below 64·u·S the exact path decides.
  let size2 = Math.max(F, s2 * s2 * A, t2 * t2 * C);
  if (ka === SEGMENT) size2 = Math.max(size2, A);
  if (kb === SEGMENT) size2 = Math.max(size2, C);
  const S = Math.sqrt(size2) * (1 + 4 * (dim + 4) * EPS);
  if (!(z2 - Eb > 0) || !(Math.sqrt(z2) > FILTER * S)) return FAST_DECLINED;
  ROOT[0] = z2;
  ROOT[1] = zl - (z2 - zh);
  ROOT[2] = Eb;
  if (!faithfulRoot()) return FAST_DECLINED;
  out[O_S] = s2;
  out[O_T] = t2;
  out[O_DIST] = ROOT[3];
  out[O_REL] = R_APART;
  out[O_FLAGS] = 0;
  FAST_SQ[0] = z2;
  FAST_SQ[1] = ds;
  FAST_SQ[2] = dt;
  if (vec) {
    // d − c = −(r + ds·u − dt·v), the residual after the step.
    const f = FLAT;
    const ro = RO;
    if (xs === f) {
      // (One array read: one array's checks an iteration, see flatten.)
      for (let i = 0; i < dim; i++) {
        out[O_VEC + i] = -(f[(ro + i) | 0] + ds * (f[(i1 + i) | 0] - f[(iu + i) | 0]) - dt * (f[(j1 + i) | 0] - f[(jv + i) | 0]));
      }
    } else for (let i = 0; i < dim; i++) out[O_VEC + i] = -(f[ro + i] + ds * (xs[i1 + i] - xs[iu + i]) - dt * (xs[j1 + i] - xs[jv + i]));
  }
  return FAST_DONE;
}

/**
 * A one-pass certificate that two primitives share no point (for `intersects` in n-D): with the
 * Gram entries of u, v, w in doubles, the Gram determinant G = det[[u·u, u·v, u·w], [u·v, v·v,
 * v·w], [u·w, v·w, w·w]] = |u ∧ v ∧ w|² is (u·u·v·v − (u·v)²) times the squared distance of the
 * two lines; where G exceeds its a-priori error bound (each entry within γₙ₊₂ of |x||y|, each
 * of G's six terms at most u·u·v·v·w·w), the lines — and so the primitives on them — are apart.
 * A point against a piece uses |u ∧ w|², two points w·w. Returns FAST_DONE when apart is
 * certain, FAST_NOT_FINITE when a sum is not finite (validate), FAST_DECLINED otherwise (parallel
 * or meeting lines, a zero-length segment, sums of squares outside [2⁻³⁰⁰, 2³⁰⁰]: ask the kernel).
 */
export function linesApartNd(ka: number, kb: number, dim: number, a0: Float64Array, a1: Float64Array, b0: Float64Array, b1: Float64Array): number {
  const aPoint = ka === POINT;
  const bPoint = kb === POINT;
  const m = dim + (dim & 1);
  const wasm = room(m);
  const x = flatten(dim, a0, 0, aPoint ? a0 : a1, 0, b0, 0, bPoint ? b0 : b1, 0);
  const k1 = aPoint ? 0 : m;
  const k3 = bPoint ? 2 * m : 3 * m;
  if (wasm) {
    const zo = FLAT.length - m;
    gramWasm(m, 0, k1, ka === RAY ? zo : 0, 2 * m, k3, kb === RAY ? zo : 2 * m);
  } else gram(dim, x, 0, k1, 2 * m, k3, ka === RAY ? 0 : 1, kb === RAY ? 0 : 1);
  const A = FS[F_A];
  const B = FS[F_B];
  const C = FS[F_C];
  const Dd = FS[F_D];
  const E = FS[F_E];
  const F = FS[F_F];
  if (!(A + C + F < Infinity)) return FAST_NOT_FINITE;
  if (!(F > FAST_LO && F < FAST_HI)) return FAST_DECLINED;
  if (!aPoint && !(A > FAST_LO && A < FAST_HI)) return FAST_DECLINED;
  if (!bPoint && !(C > FAST_LO && C < FAST_HI)) return FAST_DECLINED;
  const g = ((dim + 2) * EPS) / (1 - (dim + 2) * EPS);
  if (aPoint && bPoint) return F > 0 ? FAST_DONE : FAST_DECLINED; // some wᵢ ≠ 0
  if (aPoint || bPoint) {
    // |x ∧ w|² = x·x·w·w − (x·w)², x the piece's direction; two terms, each entry within γ.
    const X = aPoint ? C : A;
    const Y = aPoint ? E : Dd;
    const G2 = X * F - Y * Y;
    return G2 > (4.1 * g + 6 * EPS) * X * F ? FAST_DONE : FAST_DECLINED;
  }
  const G = A * C * F - A * E * E - B * B * F + 2 * B * Dd * E - C * Dd * Dd;
  return G > (19 * g + 50 * EPS) * A * C * F * (1 + 2 ** -20) ? FAST_DONE : FAST_DECLINED;
}
