/**
 * A capsule translating over one step against a resting capsule: the first time they touch.
 *
 * Capsule A is the segment a0a1 with radius ra, translated by t·move at time t ∈ [0, 1]; B is the
 * segment b0b1 with radius rb. With w = a0 − b0, u = a1 − a0, v = b1 − b0 and R = ra + rb they
 * touch at t exactly when d(t) = min over s, s′ ∈ [0, 1] of |w + t·move + s·u − s′·v| ≤ R. d is
 * the distance from the point t·move to a fixed convex set (the parallelogram b − a), so it is
 * convex in t and the times of contact form one interval: the first contact is where t·move
 * enters the R-neighbourhood of that parallelogram, through one of its features — a vertex (an
 * endpoint of A against an endpoint of B, the sphere-sweep quadratic), an edge (an endpoint of
 * one against the other segment: a point entering a cylinder, again a quadratic) or, in 3D and
 * up, its face (the segments' lines coming within R: the distance to a plane, linear in t, whose
 * square is the quadratic). This is the standard decomposition of swept-volume tests (e.g.
 * Ericson, Real-Time Collision Detection, §5.5 "Intersection of moving objects").
 *
 * Floating point estimates the time from those features; the answer is then made exact: the
 * predicate "the capsules touch at the double t" is decided by a certified floating-point filter
 * (a nearest pair of the axes, then an upper bound of the distance there and a tangent-plane
 * lower bound of its minimum), then a double-double certificate, and only where neither decides
 * by exact BigInt arithmetic (motion/exact.ts). The returned
 * time is the first double at which they touch (a certified bracket prev(t) → no, t → yes),
 * found by exact bisection where the estimate is off; the hit/miss decision is the exact
 * minimum of the convex quadratic over the (t, s, s′) box.
 */
import { SkewlineInputError } from '../core/primitives.js';
import type { VecLike } from '../core/types.js';
import { capsuleHitExact, capsuleTouchesAt, exactCapsule, type ExactCapsule } from './exact.js';
import { nextDown, nextUp, stepIn } from './ulp.js';
import { SAFE_MAX, SAFE_SCALE, checkDim, checkRadius, coords, unitInto } from './safe.js';

const U = 2 ** -53;

/** The result of {@link capsuleSweep}. */
export interface CapsuleHit {
  /** Whether the capsules touch at some t ∈ [0, 1] (decided exactly). */
  hit: boolean;
  /**
   * The first time of contact: 0 if they touch at the start, otherwise the first double t at
   * which the exact capsules touch or overlap (the exact contact time lies in (prev(t), t]).
   * For a contact at a single instant between two doubles (a grazing touch), the double nearest
   * it. 1 when there is no hit.
   */
  time: number;
  /**
   * The contact point at `time`: on the segment between the nearest points c (on A) and d (on B),
   * at the fraction ra / (ra + rb) from c (c itself when both radii are 0). Zeros for a miss.
   */
  point: number[];
  /** The unit vector from A's nearest point towards B's at `time`; zeros when they coincide or for a miss. */
  normal: number[];
}

// Numbers passed between the helpers (a double argument or result of a call V8 does not inline
// is boxed: an allocation). Not re-entrant.
const CT = new Float64Array(16);
const T_AT = 0, T_R = 1, T_EST = 2, T_ULP = 3, Q_A = 4, Q_B = 5, Q_C = 6, Q_T = 7, T_OUT = 8, T_RA = 9, T_RB = 10, T_S = 11, T_SP = 12, T_K = 13, T_LO = 14, T_HI = 15;
/** Dekker's splitter 2²⁷ + 1, for the error-free products written out in {@link touchDD}. */
const SPLIT = 134217729;
/** Absolute slack for products that underflow in {@link touchDD} (far above their 2⁻¹⁰⁷⁴ each). */
const ETA_DD = 2 ** -1000;
/** {@link touchDD} works on magnitudes up to this (its squares and bounds stay finite). */
const DD_MAX = 2 ** 400;
/** {@link touchFloat}'s sums stay below this (their squares and bounds then stay finite). */
const FLOAT_MAX = 2 ** 500;
/** What underflowing squares can take from √S: √(dim·2⁻¹⁰⁷⁴) for any dimension up to 2⁴⁰. */
const ETA_SQRT = 2 ** -516;

let data = new Float64Array(16);

function grow(dim: number): void {
  if (data.length < 4 * dim) data = new Float64Array(4 * dim);
}

/**
 * Filtered "do they touch at t": 1 certainly yes, −1 certainly no, 0 undecided. The segments
 * are loaded in difference form relative to b0 (x0 = a0 − b0 + t·move, x1 = a1 − b0 + t·move,
 * v = b1 − b0), whose rounding moves each endpoint by at most eP; {@link nearestPair} picks
 * (s, s′) and the answer is certified there, with rigorous bounds, without asking the closest-point
 * kernel (whose exact relation for parallel axes allocates BigInts):
 * - yes when |g| + bounds < R at g = x0 + s·(x1 − x0) − s′·v (a pair of points of the two axes);
 * - no when a lower bound of the convex F(s, s′) = |g(s, s′)|² over the box clears R²: F lies
 *   above its tangent plane at (s, s′), so min F ≥ F(s, s′) + Σ min over the box of ∂F·Δ, one
 *   coordinate at a time (the first-order bound of convex minimisation, e.g. Boyd and
 *   Vandenberghe, Convex Optimization, §3.1.3). The gradient is nearly zero, or points into
 *   the box, at a near-optimal (s, s′), so the bound is within a few u·|g|·|u| of the minimum,
 *   parallel axes included.
 * Works in units scaled by a power of two (no square overflows or underflows).
 */
function touchFloat(A0: ArrayLike<number>, A1: ArrayLike<number>, B0: ArrayLike<number>, B1: ArrayLike<number>, M: ArrayLike<number>): number {
  const dim = A0.length;
  const t = CT[T_AT];
  CT[T_S] = -1; // (no pair yet: touchDD then declines)
  let errA = 0;
  let errB = 0;
  for (let i = 0; i < dim; i++) {
    const tm = t * M[i];
    const p = A0[i] - B0[i];
    const q = A1[i] - B0[i];
    const x0 = p + tm;
    const x1 = q + tm;
    const v = B1[i] - B0[i];
    data[i] = x0;
    data[dim + i] = x1;
    data[2 * dim + i] = 0;
    data[3 * dim + i] = v;
    errA += Math.abs(p) + Math.abs(q) + 2 * Math.abs(tm) + Math.abs(x0) + Math.abs(x1);
    errB += Math.abs(v);
  }
  // Each computed endpoint is within u·(|p| + |t·m|) + u·|x| of the exact one (three roundings),
  // and B's far end within u·|v|: the distance of the computed segments is within eP of the exact.
  if (!(errA + errB < Infinity)) return 0;
  nearestPair(dim);
  // From here in units scaled by the power of two k of nearestPair (exact but for underflow,
  // which the absolute slack ETA_DD covers), so that no square overflows or underflows.
  const k = CT[T_K];
  // (t·m can underflow in the input's units: 2⁻¹⁰⁷⁴ a coordinate, times k here)
  const eP = 2.02 * U * k * (errA + errB) + k * dim * 2 ** -1073 + ETA_DD;
  const R = k * CT[T_R];
  const s = CT[T_S];
  const sp = CT[T_SP];
  let S = 0;
  let Eg = 0;
  let du = 0;
  let dv = 0;
  let edu = 0;
  let edv = 0;
  for (let i = 0; i < dim; i++) {
    const x0 = k * data[i];
    const u = k * data[dim + i] - x0;
    const v = k * data[3 * dim + i];
    const su = s * u;
    const pv = sp * v;
    const g = x0 + su - pv;
    // g against the exact x0 + s·(x1 − x0) − s′·v: the difference u (u·|u|), two products, two sums
    const eg = 4 * U * (Math.abs(x0) + Math.abs(su) + Math.abs(pv)) + ETA_DD;
    S += g * g;
    Eg += eg;
    du += g * u;
    dv += g * v;
    // the products' and sums' roundings, g's error and u's: within these of the exact G·(x1 − x0), G·v
    const ag = (dim + 3) * U * Math.abs(g) + 1.01 * eg;
    edu += Math.abs(u) * ag + ETA_DD;
    edv += Math.abs(v) * ag + ETA_DD;
  }
  if (!(S < FLOAT_MAX && edu < FLOAT_MAX && edv < FLOAT_MAX)) return 0;
  // |G| ≤ |g| + |g − G|₂ ≤ √S·(1 + (dim + 3)·u) + Σ eg (S's roundings and underflows; √ and the sums)
  const root = Math.sqrt(S);
  const dHi = root * (1 + (dim + 3) * U) + 1.01 * (Eg + eP) + ETA_SQRT;
  if (dHi < R * (1 - 4 * U)) return 1;
  const dLo = root * (1 - (dim + 3) * U) - 1.01 * Eg - ETA_SQRT;
  if (!(dLo > 0)) return 0;
  // ∂F/∂s = 2·G·(x1 − x0) ∈ 2·[du − edu, du + edu]; ∂F/∂s′ = −2·G·v ∈ 2·[−dv − edv, −dv + edv]
  const ts = Math.min(-(du + edu) * s, (du - edu) * (1 - s));
  const tp = Math.min((dv - edv) * sp, -(dv + edv) * (1 - sp));
  const lb = dLo * dLo * (1 - 3 * U) + 2 * (ts + tp) * (1 + 8 * U);
  if (!(lb > 0)) return 0;
  return Math.sqrt(lb) * (1 - 2 * U) - 1.01 * eP > R * (1 + 4 * U) ? -1 : 0;
}

/**
 * The nearest pair of points (s, s′) of the computed segments in `data` (x0, x1; v from the
 * origin) into CT[T_S], CT[T_SP]: clamp-and-project (Ericson, Real-Time Collision Detection,
 * §5.1.9), with the unconstrained s from the 2×2 minors in 2D and 3D (Binet–Cauchy:
 * (u·v)(v·x0) − (u·x0)(v·v) = Σ (uᵢvⱼ − uⱼvᵢ)(vᵢx0ⱼ − vⱼx0ᵢ), no cancellation for nearly
 * parallel axes). An estimate only: the callers certify what they conclude from it. Parallel
 * or zero-length axes: s = 0 before the projections. Scaled by a power of two where squares
 * could overflow or underflow (the parameters do not change).
 */
function nearestPair(dim: number): void {
  let m = 0;
  for (let i = 0; i < dim; i++) {
    const x = Math.abs(data[i]);
    const y = Math.abs(data[dim + i]);
    const z = Math.abs(data[3 * dim + i]);
    if (x > m) m = x;
    if (y > m) m = y;
    if (z > m) m = z;
  }
  CT[T_K] = 1;
  if (m > 2 ** 200 || (m < 2 ** -200 && m > 0)) CT[T_K] = 2 ** Math.min(1000, -Math.floor(Math.log2(m)));
  const k = CT[T_K];
  let a = 0;
  let e = 0;
  let b = 0;
  let c = 0;
  let f = 0;
  for (let i = 0; i < dim; i++) {
    const r = k * data[i];
    const u = k * (data[dim + i] - data[i]);
    const v = k * data[3 * dim + i];
    a += u * u;
    e += v * v;
    b += u * v;
    c += u * r;
    f += v * r;
  }
  CT[T_S] = 0;
  CT[T_SP] = 0;
  if (a > 0 && e > 0) {
    let den = 0;
    let num = 0;
    if (dim <= 3) {
      for (let i = 0; i < dim; i++) {
        for (let j = i + 1; j < dim; j++) {
          const ui = k * (data[dim + i] - data[i]);
          const uj = k * (data[dim + j] - data[j]);
          const vi = k * data[3 * dim + i];
          const vj = k * data[3 * dim + j];
          const mij = ui * vj - uj * vi;
          den += mij * mij;
          num += mij * (vi * (k * data[j]) - vj * (k * data[i]));
        }
      }
    } else {
      den = a * e - b * b;
      num = b * f - c * e;
    }
    if (den > 0) {
      CT[T_S] = num / den;
      if (!(CT[T_S] >= 0)) CT[T_S] = 0;
      else if (CT[T_S] > 1) CT[T_S] = 1;
    }
    CT[T_SP] = (b * CT[T_S] + f) / e;
    if (CT[T_SP] < 0) {
      CT[T_SP] = 0;
      CT[T_S] = -c / a;
    } else if (CT[T_SP] > 1) {
      CT[T_SP] = 1;
      CT[T_S] = (b - c) / a;
    } else return;
  } else if (a > 0) CT[T_S] = -c / a;
  else if (e > 0) {
    CT[T_SP] = f / e;
    if (!(CT[T_SP] >= 0)) CT[T_SP] = 0;
    else if (CT[T_SP] > 1) CT[T_SP] = 1;
    return;
  } else return;
  if (!(CT[T_S] >= 0)) CT[T_S] = 0;
  else if (CT[T_S] > 1) CT[T_S] = 1;
}

/**
 * "Do they touch at t" in double-double, where {@link touchFloat} cannot decide (near a
 * contact): 1 yes, −1 no, 0 undecided (then exact BigInt). At the kernel's parameters (s, s′)
 * left in CT by touchFloat ({@link nearestPair}), g = (a0 − b0) + t·m + s·(a1 − a0) − s′·(b1 − b0) is formed in
 * double-double (Knuth's two-sum, Dekker's two-product; the differences exact) and
 * h = |g|² − (ra + rb)² with a bound of order u² of the squared magnitudes.
 * - h ≤ −bound proves a touch: (s, s′) is a pair of points of the two axes.
 * - Otherwise a lower bound of the minimum of the convex quadratic h over the (s, s′) box:
 *   h(x₀ + Δ) = h(x₀) + G·Δ + |Δs·u − Δs′·v|² (G the gradient, H the Gram matrix of u and −v);
 *   a coordinate at a bound whose gradient points into the box only adds there (dropped from
 *   G), and the rest is at least the unconstrained minimum −¼·G̃ᵀH⁻¹G̃ ≥ −|G̃|²/(4·λmin), with
 *   λmin ≥ det H / tr H (det H certified positive; a zero-length axis leaves a 1-D problem).
 *   Above 0 proves no touch. G is small at the kernel's near-optimal point, and enters squared.
 * Nearly parallel axes (det H not certified), magnitudes beyond 2⁴⁰⁰: undecided.
 */
function touchDD(A0: ArrayLike<number>, A1: ArrayLike<number>, B0: ArrayLike<number>, B1: ArrayLike<number>, M: ArrayLike<number>): number {
  const dim = A0.length;
  const t = CT[T_AT];
  const s = CT[T_S];
  const sp = CT[T_SP];
  if (!(s >= 0 && s <= 1 && sp >= 0 && sp <= 1)) return 0;
  const tH = SPLIT * t - (SPLIT * t - t);
  const tL = t - tH;
  const sH = SPLIT * s - (SPLIT * s - s);
  const sL = s - sH;
  const pH = SPLIT * sp - (SPLIT * sp - sp);
  const pL = sp - pH;
  let hh = 0;
  let hl = 0;
  let mag = 0;
  let uu = 0;
  let vv = 0;
  let uv = 0;
  let gu = 0;
  let gv = 0;
  let egu = 0;
  let egv = 0;
  let uZero = true;
  let vZero = true;
  for (let i = 0; i < dim; i++) {
    const a0 = A0[i];
    const b0 = B0[i];
    const m = M[i];
    if (!(Math.abs(a0) <= DD_MAX && Math.abs(b0) <= DD_MAX && Math.abs(A1[i]) <= DD_MAX && Math.abs(B1[i]) <= DD_MAX && Math.abs(m) <= DD_MAX)) return 0;
    const wh = a0 - b0;
    const wl = a0 - (wh + (a0 - wh)) + (a0 - wh - b0);
    const uh = A1[i] - a0;
    const ul = A1[i] - (uh + (A1[i] - uh)) + (A1[i] - uh - a0);
    const vh = B1[i] - b0;
    const vl = B1[i] - (vh + (B1[i] - vh)) + (B1[i] - vh - b0);
    if (uh !== 0 || ul !== 0) uZero = false;
    if (vh !== 0 || vl !== 0) vZero = false;
    // t·m, s·u, s′·v: the leading products exactly (two-product), the low parts' products rounded
    const mH = SPLIT * m - (SPLIT * m - m);
    const tm = t * m;
    const tmL = tL * (m - mH) - (tm - tH * mH - tL * mH - tH * (m - mH));
    const uH = SPLIT * uh - (SPLIT * uh - uh);
    const su = s * uh;
    const suL = sL * (uh - uH) - (su - sH * uH - sL * uH - sH * (uh - uH)) + s * ul;
    const vH = SPLIT * vh - (SPLIT * vh - vh);
    const sv = sp * vh;
    const svL = pL * (vh - vH) - (sv - pH * vH - pL * vH - pH * (vh - vH)) + sp * vl;
    // g = w + t·m + s·u − s′·v: three two-sums of the leading parts, the low parts added
    const x = wh + tm;
    const e1 = wh - (x - (x - wh)) + (tm - (x - wh));
    const y = x + su;
    const e2 = x - (y - (y - x)) + (su - (y - x));
    const z = y - sv;
    const e3 = y - (z + (y - z)) + (y - z - sv);
    const gl0 = wl + tmL + suL - svL + e1 + e2 + e3;
    const gh = z + gl0;
    const gb = gh - z;
    const gl = z - (gh - gb) + (gl0 - gb);
    // h += g²: gh² exactly, 2·gh·gl rounded
    const gH = SPLIT * gh - (SPLIT * gh - gh);
    const q = gh * gh;
    const ql = (gh - gH) * (gh - gH) - (q - gH * gH - 2 * gH * (gh - gH)) + 2 * gh * gl;
    const hs = hh + q;
    hl += hh - (hs - (hs - hh)) + (q - (hs - hh)) + ql;
    hh = hs;
    const mi = Math.abs(wh) + Math.abs(tm) + Math.abs(su) + Math.abs(sv);
    mag += mi * mi;
    // the gradient's dot products from g rounded: gh + gl is within 48u²·mi of the exact g (the
    // seven low terms are each ≤ u·mi-sized, six of them summed with rounding), g within u·|g| more
    const g = gh + gl;
    const eg = U * Math.abs(g) + 48 * U * U * mi + ETA_DD;
    uu += uh * uh;
    vv += vh * vh;
    uv += uh * vh;
    gu += g * uh;
    gv += g * vh;
    egu += (dim + 4) * U * Math.abs(g * uh) + 1.01 * eg * Math.abs(uh);
    egv += (dim + 4) * U * Math.abs(g * vh) + 1.01 * eg * Math.abs(vh);
  }
  const ra = CT[T_RA];
  const rb = CT[T_RB];
  const Rh = ra + rb;
  const Rl = ra - (Rh - (Rh - ra)) + (rb - (Rh - ra));
  if (!(Rh <= DD_MAX)) return 0;
  const RH = SPLIT * Rh - (SPLIT * Rh - Rh);
  const R2 = Rh * Rh;
  const R2l = (Rh - RH) * (Rh - RH) - (R2 - RH * RH - 2 * RH * (Rh - RH)) + 2 * Rh * Rl;
  const fs = hh - R2;
  const fl = hl + (hh - (fs + (hh - fs)) + (hh - fs - R2)) - R2l;
  const f = fs + fl;
  // g within 48u²·mi (≤ 96u²·mi² in g²), the square's dropped and rounded low parts (≤ 3u²·mi²),
  // the low sums' roundings (≤ 3·dim·u²·mag): (160 + 8·dim)·u² of the squared magnitudes covers
  // them with room; then f's own rounding.
  const err = (160 + 8 * dim) * U * U * (mag + R2) + 2 * U * Math.abs(f) + ETA_DD;
  if (f < -err) return 1;
  if (!(f > err)) return 0;
  // The gradient ∂h/∂s = 2·g·u, ∂h/∂s′ = −2·g·v, bounded: a coordinate at a bound with its
  // gradient pointing into the box is dropped; the others enter as |G| + bound.
  let Gs = 0;
  let Gp = 0;
  if (!uZero) {
    const lo = 2 * (gu - egu);
    const hi = 2 * (gu + egu);
    if (!((s === 0 && lo >= 0) || (s === 1 && hi <= 0))) Gs = 2 * (Math.abs(gu) + egu);
  }
  if (!vZero) {
    const lo = -2 * (gv + egv);
    const hi = -2 * (gv - egv);
    if (!((sp === 0 && lo >= 0) || (sp === 1 && hi <= 0))) Gp = 2 * (Math.abs(gv) + egv);
  }
  // |u|², |v|², u·v from the rounded differences: within (dim + 3)·u relatively; k adds the roundings below
  const k = (dim + 10) * U;
  // The quantities divided by tr H first (exact ratios to a few u, in the factor below), so that
  // neither |u|²·|v|² nor G² overflows or underflows at 2^±300.
  let corr: number;
  if (Gs === 0 && Gp === 0) corr = 0;
  else if (uZero) {
    const gp = Gp / vv;
    corr = (gp * gp * vv) / (4 * (1 - k));
  } else if (vZero) {
    const gs = Gs / uu;
    corr = (gs * gs * uu) / (4 * (1 - k));
  } else {
    const tr = uu + vv;
    const a = uu / tr;
    const b = vv / tr;
    const c = uv / tr;
    const det = a * b - c * c - (4 * dim + 20) * U * a * b;
    if (!(det > 0)) return 0;
    const gs = Gs / tr;
    const gp = Gp / tr;
    corr = ((gs * gs + gp * gp) * tr * (1 + k)) / (4 * det);
  }
  if (!(corr < Infinity)) return 0;
  return f - err > corr * (1 + 16 * U) + 4 * U * f ? -1 : 0;
}

/**
 * For tests: the floating-point and double-double filters of "do the capsules (a0a1 moved by
 * t·move, radius ra) and (b0b1, radius rb) touch at t" without the exact fallback — 1 yes, −1 no,
 * 0 undecided. Inputs as Float64Arrays of one dimension, within ±2⁹⁹⁰.
 * @internal
 */
export function capsuleTouchFiltered(A0: Float64Array, A1: Float64Array, ra: number, M: Float64Array, B0: Float64Array, B1: Float64Array, rb: number, t: number): number {
  grow(A0.length);
  CT[T_AT] = t;
  CT[T_R] = ra + rb;
  CT[T_RA] = ra;
  CT[T_RB] = rb;
  const f = touchFloat(A0, A1, B0, B1, M);
  return f !== 0 ? f : touchDD(A0, A1, B0, B1, M);
}

/** The smaller root in [0, 1] of A t² + 2B t + C (CT[Q_A], CT[Q_B], CT[Q_C]) when f decreases through it (C > 0, B < 0), else Infinity, into CT[Q_T]. */
function firstRoot(): void {
  const A = CT[Q_A];
  const B = CT[Q_B];
  const C = CT[Q_C];
  CT[Q_T] = Infinity;
  if (!(B < 0)) return;
  const D = B * B - A * C;
  if (!(D >= 0)) return;
  const t = C / (Math.sqrt(D) - B);
  if (t >= 0 && t <= 1) CT[Q_T] = t;
}

/** firstRoot's roots of A·t² + 2B·t + C, through CT (no double crosses a call, which would box it). */
function root(A: number, B: number, C: number): number {
  CT[Q_A] = A;
  CT[Q_B] = B;
  CT[Q_C] = C;
  firstRoot();
  return CT[Q_T];
}

/**
 * The first-contact time in doubles from the features of the parallelogram b − a (see the
 * module comment), or Infinity when no feature reports a contact in [0, 1], into CT[T_EST]. An
 * estimate only.
 */
function estimate(A0: ArrayLike<number>, A1: ArrayLike<number>, B0: ArrayLike<number>, B1: ArrayLike<number>, M: ArrayLike<number>): void {
  const dim = A0.length;
  const R = CT[T_R];
  let best = Infinity;
  let mm = 0;
  for (let i = 0; i < dim; i++) mm += M[i] * M[i];
  // Vertices q = b_i − a_j: |t·m − q|² = R².
  for (let k = 0; k < 4; k++) {
    const B = k < 2 ? B0 : B1;
    const A = (k & 1) === 0 ? A0 : A1;
    let mq = 0;
    let qq = 0;
    for (let i = 0; i < dim; i++) {
      const q = B[i] - A[i];
      mq += M[i] * q;
      qq += q * q;
    }
    best = Math.min(best, root(mm, -mq, qq - R * R));
  }
  // Edges: a vertex q and a direction e ∈ {v, −u}; point t·m against the line q + s·e, 0 ≤ s ≤ 1.
  // The edges: a0 and a1 against segment B (q = b0 − a_j, e = v); b0 and b1 against segment A
  // (q = b_i − a0, e = −u).
  for (let k = 0; k < 4; k++) {
    const Bq = k === 3 ? B1 : B0;
    const Aq = k === 1 ? A1 : A0;
    let ee = 0;
    let me = 0;
    let pe = 0;
    let pm = 0;
    let pp = 0;
    for (let i = 0; i < dim; i++) {
      const e = k < 2 ? B1[i] - B0[i] : A0[i] - A1[i];
      const p = Aq[i] - Bq[i]; // t·m − q = p + t·m
      ee += e * e;
      me += M[i] * e;
      pe += p * e;
      pm += p * M[i];
      pp += p * p;
    }
    if (!(ee > 0)) continue;
    const A = ee * mm - me * me;
    const Bc = ee * pm - pe * me;
    const C = ee * pp - pe * pe - R * R * ee;
    const t = root(A, Bc, C);
    if (t < best) {
      const s = (pe + t * me) / ee;
      if (s >= 0 && s <= 1) best = t;
    }
  }
  if (dim >= 3) {
    // The face: q0 = b0 − a0, edges v and −u. Y(t) = t·m − q0 = p + t·m; its residual after
    // projecting on span(v, −u) is r0 + t·r1, and |r|² = R² is the quadratic.
    let vv = 0;
    let uu = 0;
    let uv = 0;
    for (let i = 0; i < dim; i++) {
      const u = A1[i] - A0[i];
      const v = B1[i] - B0[i];
      vv += v * v;
      uu += u * u;
      uv -= u * v; // e1·e2 with e1 = v, e2 = −u
    }
    const G = vv * uu - uv * uv;
    if (G > 0) {
      let py1 = 0;
      let py2 = 0;
      let my1 = 0;
      let my2 = 0;
      for (let i = 0; i < dim; i++) {
        const p = A0[i] - B0[i];
        const v = B1[i] - B0[i];
        const nu = A0[i] - A1[i];
        py1 += p * v;
        py2 += p * nu;
        my1 += M[i] * v;
        my2 += M[i] * nu;
      }
      // coefficients α, β of the projections of p and m on (v, −u)
      const ap = (uu * py1 - uv * py2) / G;
      const bp = (vv * py2 - uv * py1) / G;
      const am = (uu * my1 - uv * my2) / G;
      const bm = (vv * my2 - uv * my1) / G;
      let rr0 = 0;
      let rr1 = 0;
      let r01 = 0;
      for (let i = 0; i < dim; i++) {
        const v = B1[i] - B0[i];
        const nu = A0[i] - A1[i];
        const r0 = A0[i] - B0[i] - ap * v - bp * nu;
        const r1 = M[i] - am * v - bm * nu;
        rr0 += r0 * r0;
        rr1 += r1 * r1;
        r01 += r0 * r1;
      }
      const t = root(rr1, r01, rr0 - R * R);
      if (t < best) {
        const a = ap + t * am;
        const b = bp + t * bm;
        if (a >= 0 && a <= 1 && b >= 0 && b <= 1) best = t;
      }
    }
  }
  CT[T_EST] = best;
}

const QG = new Float64Array(9); // Gram matrix of the box directions (move, u, −v)
const QH = new Float64Array(3); // their dot products with w
const QX = new Float64Array(3); // the best box point so far
const QT = new Float64Array(3); // a face's point
const QR = new Float64Array(3); // the normal equations' right-hand sides on a face

/**
 * A certified "no contact during the step", in floating point: the minimum over the box
 * (t, s, s′) ∈ [0, 1]³ of f = |w + t·move + s·u − s′·v|² is bounded below by linearising f at a
 * box point x (f is convex, so f(y) ≥ f(x) + ∇f(x)·(y − x) for every y in the box, and the
 * linear term is smallest at a corner, coordinate by coordinate). x is the best of the face
 * minimisers computed in doubles (as in the exact enumeration); any x in the box gives a valid
 * bound, a good x a tight one. The bound's rounding error is below 32·(dim + 4)·u·N², N the sum
 * of the four vectors' lengths. True only when the bound clears R² by more than that.
 */
function missCertified(A0: ArrayLike<number>, A1: ArrayLike<number>, B0: ArrayLike<number>, B1: ArrayLike<number>, M: ArrayLike<number>): boolean {
  const dim = A0.length;
  const R = CT[T_R];
  // G and h for g0 = move, g1 = u, g2 = −v against c = w.
  let n0 = 0;
  let n1 = 0;
  let n2 = 0;
  let nc = 0;
  for (let a = 0; a < 9; a++) QG[a] = 0;
  QH[0] = QH[1] = QH[2] = 0;
  for (let i = 0; i < dim; i++) {
    const g0 = M[i];
    const g1 = A1[i] - A0[i];
    const g2 = B0[i] - B1[i];
    const c = A0[i] - B0[i];
    QG[0] += g0 * g0;
    QG[1] += g0 * g1;
    QG[2] += g0 * g2;
    QG[4] += g1 * g1;
    QG[5] += g1 * g2;
    QG[8] += g2 * g2;
    QH[0] += g0 * c;
    QH[1] += g1 * c;
    QH[2] += g2 * c;
    n0 += g0 * g0;
    n1 += g1 * g1;
    n2 += g2 * g2;
    nc += c * c;
  }
  QG[3] = QG[1];
  QG[6] = QG[2];
  QG[7] = QG[5];
  let best = Infinity;
  for (let code = 0; code < 27; code++) {
    const s0 = code % 3;
    const s1 = Math.floor(code / 3) % 3;
    const s2 = Math.floor(code / 9);
    QT[0] = s0 === 1 ? 1 : 0;
    QT[1] = s1 === 1 ? 1 : 0;
    QT[2] = s2 === 1 ? 1 : 0;
    if (!solveFace(s0 === 2, s1 === 2, s2 === 2)) continue;
    // f(x) = |c|² + 2 h·x + xᵀ G x, enough to rank the faces
    let f = 2 * (QH[0] * QT[0] + QH[1] * QT[1] + QH[2] * QT[2]);
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) f += QT[a] * QG[3 * a + b] * QT[b];
    if (f < best) {
      best = f;
      QX[0] = QT[0];
      QX[1] = QT[1];
      QX[2] = QT[2];
    }
  }
  // The residual r = c + Σ xᵢgᵢ at the best point, f = |r|², ∇f = 2(g·r).
  let f = 0;
  let d0 = 0;
  let d1 = 0;
  let d2 = 0;
  for (let i = 0; i < dim; i++) {
    const g0 = M[i];
    const g1 = A1[i] - A0[i];
    const g2 = B0[i] - B1[i];
    const r = A0[i] - B0[i] + QX[0] * g0 + QX[1] * g1 + QX[2] * g2;
    f += r * r;
    d0 += g0 * r;
    d1 += g1 * r;
    d2 += g2 * r;
  }
  const lb = f + 2 * (Math.min(-d0 * QX[0], d0 * (1 - QX[0])) + Math.min(-d1 * QX[1], d1 * (1 - QX[1])) + Math.min(-d2 * QX[2], d2 * (1 - QX[2])));
  const N = Math.sqrt(n0) + Math.sqrt(n1) + Math.sqrt(n2) + Math.sqrt(nc);
  const err = 32 * (dim + 4) * U * N * N + 4 * U * R * R;
  return lb - err > R * R;
}


/**
 * Solves the normal equations on a face of the box (f0, f1, f2: which coordinates are free;
 * the fixed ones are already in QT) into QT by Cramer's rule; false when singular or when the
 * solution leaves [0, 1].
 */
function solveFace(f0: boolean, f1: boolean, f2: boolean): boolean {
  const n = (f0 ? 1 : 0) + (f1 ? 1 : 0) + (f2 ? 1 : 0);
  if (n === 0) return true;
  // The normal equations' right-hand sides −(hᵢ + Σ over fixed j of Gᵢⱼ·xⱼ), in QR (written out:
  // no double crosses a call, which would box it).
  const y0 = f0 ? 0 : QT[0];
  const y1 = f1 ? 0 : QT[1];
  const y2 = f2 ? 0 : QT[2];
  for (let i = 0; i < 3; i++) QR[i] = -(QH[i] + QG[3 * i] * y0 + QG[3 * i + 1] * y1 + QG[3 * i + 2] * y2);
  if (n === 1) {
    const i = f0 ? 0 : f1 ? 1 : 2;
    const d = QG[3 * i + i];
    if (!(d > 0)) return false;
    const x = QR[i] / d;
    if (!(x >= 0 && x <= 1)) return false;
    QT[i] = x;
    return true;
  }
  if (n === 2) {
    const i = f0 ? 0 : 1;
    const j = f2 ? 2 : 1;
    const d = QG[3 * i + i] * QG[3 * j + j] - QG[3 * i + j] * QG[3 * j + i];
    if (!(d > 0)) return false;
    const ri = QR[i];
    const rj = QR[j];
    const xi = (ri * QG[3 * j + j] - QG[3 * i + j] * rj) / d;
    const xj = (QG[3 * i + i] * rj - QG[3 * j + i] * ri) / d;
    if (!(xi >= 0 && xi <= 1 && xj >= 0 && xj <= 1)) return false;
    QT[i] = xi;
    QT[j] = xj;
    return true;
  }
  const d = QG[0] * (QG[4] * QG[8] - QG[5] * QG[7]) - QG[1] * (QG[3] * QG[8] - QG[5] * QG[6]) + QG[2] * (QG[3] * QG[7] - QG[4] * QG[6]);
  if (!(d > 0)) return false;
  const r0 = QR[0];
  const r1 = QR[1];
  const r2 = QR[2];
  const x0 = (r0 * (QG[4] * QG[8] - QG[5] * QG[7]) - QG[1] * (r1 * QG[8] - QG[5] * r2) + QG[2] * (r1 * QG[7] - QG[4] * r2)) / d;
  const x1 = (QG[0] * (r1 * QG[8] - QG[5] * r2) - r0 * (QG[3] * QG[8] - QG[5] * QG[6]) + QG[2] * (QG[3] * r2 - r1 * QG[6])) / d;
  const x2 = (QG[0] * (QG[4] * r2 - r1 * QG[7]) - QG[1] * (QG[3] * r2 - r1 * QG[6]) + r0 * (QG[3] * QG[7] - QG[4] * QG[6])) / d;
  if (!(x0 >= 0 && x0 <= 1 && x1 >= 0 && x1 <= 1 && x2 >= 0 && x2 <= 1)) return false;
  QT[0] = x0;
  QT[1] = x1;
  QT[2] = x2;
  return true;
}

// The sweep in progress (module-level: not re-entrant), so that the predicate needs no closure.
let sA0: ArrayLike<number> = data;
let sA1: ArrayLike<number> = data;
let sM: ArrayLike<number> = data;
let sB0: ArrayLike<number> = data;
let sB1: ArrayLike<number> = data;
let sExact: ExactCapsule | null = null;
let sBig = false;

/**
 * How many capsule sweeps took each path (for the benchmark's report; reset the fields to 0 to
 * count afresh): `calls`; `ddTouch`, "do they touch at t" predicates the floating-point filter
 * left to the double-double certificate; `exactTouch`, those left to BigInt after it;
 * `exactHit`, hit/miss decisions made by the exact box minimum.
 */
export const capsuleStats = { calls: 0, ddTouch: 0, exactTouch: 0, exactHit: 0 };

/** The exact form of the sweep in progress, made on first need. */
function exactNow(): ExactCapsule {
  if (sExact === null) sExact = exactCapsule(sA0, sA1, CT[T_RA], sM, sB0, sB1, CT[T_RB]);
  return sExact;
}

/** Whether the capsules of the sweep in progress touch at the double t = CT[T_AT]: the float filter, then exactly. */
function atNow(): boolean {
  const f = sBig ? 0 : touchFloat(sA0, sA1, sB0, sB1, sM);
  if (f !== 0) return f > 0;
  if (!sBig) {
    capsuleStats.ddTouch++;
    const g = touchDD(sA0, sA1, sB0, sB1, sM);
    if (g !== 0) return g > 0;
  }
  capsuleStats.exactTouch++;
  return capsuleTouchesAt(exactNow(), CT[T_AT]);
}

/**
 * The first contact time of a capsule sweep on validated input, or −1 for no contact in
 * [0, 1]. See the module comment. Allocates only on the exact path. Not re-entrant.
 */
export function capsuleSweepTime(A0: ArrayLike<number>, A1: ArrayLike<number>, ra: number, M: ArrayLike<number>, B0: ArrayLike<number>, B1: ArrayLike<number>, rb: number): number {
  return capsuleCode(A0, A1, ra, M, B0, B1, rb) > 0 ? CT[T_OUT] : -1;
}

/**
 * {@link capsuleSweepTime} as a code: 1 with the time in CT[T_OUT], or −1. Times pass through
 * CT, never as a call's double argument or result (which V8 boxes when it does not inline).
 */
function capsuleCode(A0: ArrayLike<number>, A1: ArrayLike<number>, ra: number, M: ArrayLike<number>, B0: ArrayLike<number>, B1: ArrayLike<number>, rb: number): number {
  const dim = A0.length;
  grow(dim);
  capsuleStats.calls++;
  sA0 = A0;
  sA1 = A1;
  sM = M;
  sB0 = B0;
  sB1 = B1;
  // The radii live in CT only: a double stored in a module-level variable is a heap number,
  // allocated anew on every assignment (issue 16, zero allocation).
  CT[T_RA] = ra;
  CT[T_RB] = rb;
  sExact = null;
  const R = ra + rb;
  CT[T_R] = R;
  // Inputs beyond SAFE_MAX: differences could overflow, so every predicate is decided exactly.
  sBig = false;
  for (let i = 0; i < dim; i++) {
    if (Math.abs(A0[i]) > SAFE_MAX || Math.abs(A1[i]) > SAFE_MAX || Math.abs(M[i]) > SAFE_MAX || Math.abs(B0[i]) > SAFE_MAX || Math.abs(B1[i]) > SAFE_MAX) sBig = true;
  }
  if (ra > SAFE_MAX || rb > SAFE_MAX) sBig = true;
  if (((CT[T_AT] = 0), atNow())) {
    CT[T_OUT] = 0;
    return 1;
  }
  estimate(A0, A1, B0, B1, M);
  // Every time of the search lives in CT (T_HI, T_LO, T_AT): a double local that a call reads or
  // that merges constants with computed values can be kept boxed by V8 (issue 16, no allocation).
  CT[T_HI] = CT[T_EST];
  const finite = CT[T_HI] >= 0 && CT[T_HI] <= 1; // (NaN or Infinity: no estimate)
  if (!finite || !((CT[T_AT] = CT[T_HI]), atNow())) {
    // Search upwards from the estimate a little, then decide exactly.
    let found = false;
    if (finite) {
      CT[T_AT] = CT[T_HI];
      for (let step = 1; step <= 1 << 20 && CT[T_AT] < 1; step *= 4) {
        CT[T_ULP] = CT[T_AT];
        ulpInto();
        CT[T_AT] += step * CT[T_ULP];
        if (CT[T_AT] > 1) CT[T_AT] = 1;
        if (atNow()) {
          CT[T_HI] = CT[T_AT];
          found = true;
          break;
        }
      }
    }
    if (!found) {
      if (missCertified(A0, A1, B0, B1, M)) return -1;
      capsuleStats.exactHit++;
      const h = capsuleHitExact(exactNow());
      if (!h.hit) return -1;
      let touched = false;
      for (let k = 0; k < 3 && !touched; k++) {
        const t = k === 0 ? h.tMin : k === 1 ? nextUp(h.tMin) : nextDown(h.tMin);
        if (t > 0 && t <= 1 && ((CT[T_AT] = t), atNow())) {
          CT[T_HI] = t;
          touched = true;
        }
      }
      if (!touched) {
        CT[T_OUT] = h.tMin; // a grazing touch at one instant strictly between two doubles
        return 1;
      }
    }
  }
  // hi touches; find lo < hi that does not (lo = 0 always qualifies), close to hi.
  CT[T_LO] = 0;
  for (let step = 1; step <= 1 << 20; step *= 8) {
    CT[T_ULP] = CT[T_HI];
    ulpInto();
    CT[T_AT] = CT[T_HI] - step * CT[T_ULP];
    if (!(CT[T_AT] > 0)) break;
    if (!atNow()) {
      CT[T_LO] = CT[T_AT];
      break;
    }
    CT[T_HI] = CT[T_AT];
  }
  // Bisection over the doubles in (lo, hi]: lo does not touch, hi does, and by convexity the
  // first contact lies between them. The neighbours come from stepIn in place: nextUp's double
  // argument and result would be boxed where V8 does not inline it.
  while (true) {
    CT[T_ULP] = CT[T_LO];
    stepIn(CT, T_ULP, true);
    if (CT[T_ULP] >= CT[T_HI]) {
      CT[T_OUT] = CT[T_HI];
      return 1;
    }
    CT[T_AT] = CT[T_LO] + (CT[T_HI] - CT[T_LO]) * 0.5;
    if (CT[T_AT] <= CT[T_LO]) CT[T_AT] = CT[T_ULP];
    else if (CT[T_AT] >= CT[T_HI]) {
      CT[T_AT] = CT[T_HI];
      stepIn(CT, T_AT, false);
    }
    if (atNow()) CT[T_HI] = CT[T_AT];
    else CT[T_LO] = CT[T_AT];
  }
}

/** CT[T_ULP] ← the gap from it to the next double up (in place: no double crosses a call, so none is boxed). */
function ulpInto(): void {
  const x = CT[T_ULP];
  stepIn(CT, T_ULP, true);
  CT[T_ULP] -= x;
}

/**
 * A result object for {@link capsuleSweep}'s `target`, for points of dimension `dim`: made once,
 * filled by every call (so a loop of sweeps allocates nothing on the floating-point path).
 * @throws SkewlineInputError when dim is not an integer ≥ 1.
 */
export function createCapsuleResult(dim: number): CapsuleHit {
  checkDim(dim, 'createCapsuleResult');
  // time and the arrays start non-integer so that V8 keeps them as unboxed doubles (see createSweepResult)
  const r: CapsuleHit = { hit: false, time: 0.5, point: new Array<number>(dim).fill(0.5), normal: new Array<number>(dim).fill(0.5) };
  r.time = 1;
  r.point.fill(0);
  r.normal.fill(0);
  return r;
}

/**
 * The first time t ∈ [0, 1] at which capsule A (segment a0a1, radius ra) translated by t·move
 * touches the resting capsule B (segment b0b1, radius rb), in any dimension ≥ 2 (1 works too).
 * A sphere is a capsule of zero length (a0 = a1). Whether they touch at all is decided exactly,
 * and `time` is the first double at which the exact capsules touch (see {@link CapsuleHit}),
 * so it is within one ulp of the exact first-contact time.
 *
 * With `target` (made once by {@link createCapsuleResult} for the points' dimension) the result
 * is written into it and returned; with points given as arrays or Float64Arrays the call then
 * allocates nothing except on the exact path (BigInts, for contacts the floating-point filter
 * cannot separate).
 *
 * Edge cases: capsules touching or overlapping at the start give `time: 0`; touching at
 * exactly ra + rb is a hit; `move` of zero hits only if they touch at the start; radii 0 make
 * segments (then the hit is an exact segment crossing). The normal is computed in difference
 * form (relative to b0), so it is a unit vector even far from the origin with tiny radii; it is
 * zeros only when the segments' nearest points coincide at the contact (zero separation). Any
 * finite input works (up to ±1.8e308): points stay finite. Not re-entrant (module-level scratch).
 * @throws SkewlineInputError on missing or non-finite points, different dimensions, a radius
 * that is negative or not finite, or a target of another dimension.
 */
export function capsuleSweep(a0: VecLike, a1: VecLike, ra: number, move: VecLike, b0: VecLike, b1: VecLike, rb: number, target?: CapsuleHit): CapsuleHit {
  const A0 = coords(a0, 'capsuleSweep: a0');
  const A1 = coords(a1, 'capsuleSweep: a1');
  const M = coords(move, 'capsuleSweep: move');
  const B0 = coords(b0, 'capsuleSweep: b0');
  const B1 = coords(b1, 'capsuleSweep: b1');
  const dim = A0.length;
  if (A1.length !== dim || M.length !== dim || B0.length !== dim || B1.length !== dim) {
    throw new SkewlineInputError(`capsuleSweep: points of different dimensions (${dim}, ${A1.length}, ${M.length}, ${B0.length}, ${B1.length})`);
  }
  checkRadius(ra, 'capsuleSweep: ra');
  checkRadius(rb, 'capsuleSweep: rb');
  let res: CapsuleHit;
  if (target === undefined) res = createCapsuleResult(dim);
  else {
    if (target === null || typeof target !== 'object' || !Array.isArray(target.point) || target.point.length !== dim || !Array.isArray(target.normal) || target.normal.length !== dim) {
      throw new SkewlineInputError(`capsuleSweep: target must be a result of createCapsuleResult(${dim})`);
    }
    res = target;
  }
  const time = capsuleCode(A0, A1, ra, M, B0, B1, rb) > 0 ? CT[T_OUT] : -1;
  const point = res.point;
  const normal = res.normal;
  if (time < 0) {
    res.hit = false;
    res.time = 1;
    for (let i = 0; i < dim; i++) point[i] = normal[i] = 0;
    return res;
  }
  res.hit = true;
  res.time = time;
  // The nearest points at `time`, in difference form relative to b0 (scaled by a power of two
  // where the differences could overflow).
  grow(dim);
  let big = false;
  for (let i = 0; i < dim; i++) {
    if (Math.abs(A0[i]) > SAFE_MAX || Math.abs(A1[i]) > SAFE_MAX || Math.abs(M[i]) > SAFE_MAX || Math.abs(B0[i]) > SAFE_MAX || Math.abs(B1[i]) > SAFE_MAX) big = true;
  }
  const k = big ? SAFE_SCALE : 1;
  for (let i = 0; i < dim; i++) {
    const tm = time * (k * M[i]);
    const b = k * B0[i];
    data[i] = k * A0[i] - b + tm;
    data[dim + i] = k * A1[i] - b + tm;
    data[2 * dim + i] = 0;
    data[3 * dim + i] = k * B1[i] - b;
  }
  nearestPair(dim);
  const s = CT[T_S];
  const sp = CT[T_SP];
  const R = ra + rb;
  const f = R > 0 ? ra / R : 0;
  for (let i = 0; i < dim; i++) {
    const c = data[i] + s * (data[dim + i] - data[i]);
    const d = sp * data[3 * dim + i];
    normal[i] = d - c;
    // back to the input's units: b0 + (c + f·(d − c)) / k, between the given points
    const rel = c + f * (d - c);
    point[i] = k === 1 ? B0[i] + rel : (k * B0[i] + rel) / k;
  }
  unitInto(normal, dim);
  return res;
}
