/**
 * Moving spheres over one step: when two points moving linearly come closest, whether and when
 * two spheres first touch, and the path test of Rhodes' gem.
 *
 * Motion is linear over a step: p(t) = p0 + t·(p1 − p0), q(t) = q0 + t·(q1 − q0), t ∈ [0, 1]. The
 * squared gap is the convex quadratic f(t) = |w + t·dv|² − R² = A t² + 2B t + C with w = p0 − q0,
 * dv = (p1 − p0) − (q1 − q0), R = r1 + r2 (the textbook set-up, e.g. Ericson, Real-Time
 * Collision Detection §5.5.8). The spheres first touch at the smaller root
 * t₁ = C / (−B + √(B² − AC)), written so that nothing cancels (the "citardauq" form). Whether
 * they touch at all is a handful of signs — C, B, A + B, A + 2B + C, B² − AC — each decided in
 * floating point where a rigorous error bound allows, and otherwise exactly in BigInt
 * (motion/exact.ts). The time is accepted from floating point only when its error bound is
 * below two ulps; otherwise it is found by bisection over the doubles with exact sign tests.
 */
import { SkewlineInputError, toVector } from '../core/primitives.js';
import type { VecLike } from '../core/types.js';
import { exactGap, exactHit, firstContact, gapSign } from './exact.js';
import { productError } from '../core/eft.js';
import { nextDown, nextUp } from './ulp.js';
import { ratSqrt, ratToNumber } from '../core/exact.js';
import { closestPoints } from '../closest/closest.js';
import { segment } from '../core/primitives.js';
import { segmentsWithin } from '../closest/within.js';

const U = 2 ** -53;

/** The result of {@link closestApproach}. */
export interface Approach {
  /** The time in [0, 1] at which the two moving points are nearest (the earliest such time). */
  time: number;
  /** Their distance then. */
  distance: number;
  /** Where the first point is then. */
  p: number[];
  /** Where the second point is then. */
  q: number[];
}

/** The result of {@link sphereSweep}. */
export interface SphereHit {
  /** Whether the spheres touch at some t ∈ [0, 1] (decided exactly). */
  hit: boolean;
  /**
   * The first time of contact: 0 if they touch at the start; otherwise the first double at
   * which the exact spheres touch or overlap (within one ulp, at most four, of the exact time).
   * 1 when there is no hit (the whole step is free).
   */
  time: number;
  /** The first sphere's centre at `time`. */
  p: number[];
  /** The second sphere's centre at `time`. */
  q: number[];
  /** The unit vector from p to q at `time` (the contact normal); zeros if p = q. */
  normal: number[];
}

function points(p0: VecLike, p1: VecLike, q0: VecLike, q1: VecLike, fn: string): Float64Array[] {
  const v = [toVector(p0, `${fn}: p0`), toVector(p1, `${fn}: p1`), toVector(q0, `${fn}: q0`), toVector(q1, `${fn}: q1`)];
  for (let k = 1; k < 4; k++) {
    if (v[k].length !== v[0].length) {
      throw new SkewlineInputError(`${fn}: points of different dimensions (${v[0].length} and ${v[k].length})`);
    }
  }
  return v;
}

function radius(r: unknown, what: string): number {
  if (typeof r !== 'number' || !Number.isFinite(r) || r < 0) {
    throw new SkewlineInputError(`${what} must be a finite number ≥ 0 (got ${String(r)})`);
  }
  return r;
}

/** p0 + t·(p1 − p0), from the nearer end so that t = 1 gives p1 exactly. */
function at(p0: Float64Array, p1: Float64Array, t: number): number[] {
  const r: number[] = [];
  for (let i = 0; i < p0.length; i++) r.push(t <= 0.5 ? p0[i] + t * (p1[i] - p0[i]) : p1[i] - (1 - t) * (p1[i] - p0[i]));
  return r;
}

/**
 * When during the step two moving points are nearest, and where: the minimum of |p(t) − q(t)|
 * over t ∈ [0, 1]. This is the distance from the origin to the segment from w0 = p0 − q0 to
 * w1 = p1 − q1 (the relative motion), computed by {@link closestPoints} on those differences
 * kept as two-sums, so the distance is within 8·u·S of the exact minimum,
 * S = max(|p0 − q0|, |p1 − p0|, |q1 − q0|).
 *
 * Edge cases: equal velocities (the gap never changes) give time 0; points that meet give
 * distance 0 exactly.
 * @throws SkewlineInputError on missing, non-finite or different-dimension points.
 */
export function closestApproach(p0: VecLike, p1: VecLike, q0: VecLike, q1: VecLike): Approach {
  const [P0, P1, Q0, Q1] = points(p0, p1, q0, q1, 'closestApproach');
  const dim = P0.length;
  // The relative motion as a segment from w0 = p0 − q0 to w1 = p1 − q1 against the point 0: its
  // nearest parameter is the time.
  const w0 = new Float64Array(dim);
  const w1 = new Float64Array(dim);
  let dv2 = 0;
  let mag2 = 0;
  for (let i = 0; i < dim; i++) {
    w0[i] = P0[i] - Q0[i];
    w1[i] = P1[i] - Q1[i];
    const ea = P1[i] - P0[i];
    const eb = Q1[i] - Q0[i];
    dv2 += (ea - eb) ** 2;
    mag2 += ea * ea + eb * eb + w0[i] * w0[i];
  }
  if (dv2 > 2 ** -20 * mag2) {
    const r = closestPoints(segment(w0, w1), segment(new Float64Array(dim), new Float64Array(dim)));
    return { time: r.s, distance: r.distance, p: at(P0, P1, r.s), q: at(Q0, Q1, r.s) };
  }
  // Nearly equal velocities: w1 − w0 is mostly rounding. Exactly: t* = −B/A clamped to [0, 1],
  // distance² = f(t*) with R = 0.
  const { A, B, C, exp } = exactGap(P0, P1, Q0, Q1, 0, 0);
  let num = 0n;
  let den = 1n;
  if (A !== 0n && B < 0n) {
    if (-B >= A) num = 1n;
    else {
      num = -B;
      den = A;
    }
  }
  const time = ratToNumber(num, den);
  const distance = ratSqrt(A * num * num + 2n * B * num * den + C * den * den, den * den, exp);
  return { time, distance, p: at(P0, P1, time), q: at(Q0, Q1, time) };
}


/**
 * The first time in the step at which two moving spheres touch (|p(t) − q(t)| ≤ r1 + r2), or
 * `hit: false` when they never do. Every hit/miss decision is exact; see the module comment.
 *
 * Edge cases: spheres touching or overlapping at the start give `time: 0`; a grazing contact at
 * exactly r1 + r2 is a hit; equal velocities never bring a separated pair together; radius 0 is
 * a point (two points hit only when they meet exactly).
 * @throws SkewlineInputError on bad or different-dimension points, or a radius that is negative
 * or not finite.
 */
export function sphereSweep(p0: VecLike, p1: VecLike, r1: number, q0: VecLike, q1: VecLike, r2: number): SphereHit {
  const [P0, P1, Q0, Q1] = points(p0, p1, q0, q1, 'sphereSweep');
  radius(r1, 'sphereSweep: r1');
  radius(r2, 'sphereSweep: r2');
  const time = sweepTime(P0, P1, Q0, Q1, r1, r2);
  if (time < 0) return { hit: false, time: 1, p: at(P0, P1, 1), q: at(Q0, Q1, 1), normal: new Array<number>(P0.length).fill(0) };
  const p = at(P0, P1, time);
  const q = at(Q0, Q1, time);
  let n2 = 0;
  for (let i = 0; i < p.length; i++) n2 += (q[i] - p[i]) ** 2;
  const n = Math.sqrt(n2);
  return { hit: true, time, p, q, normal: p.map((x, i) => (n > 0 ? (q[i] - x) / n : 0)) };
}

/**
 * The first contact time of sphereSweep on validated input, or −1 for no contact in [0, 1].
 * Three tiers: floating point with rigorous error bounds; where a bound does not decide, the
 * coefficients again in double-double (error-free two-sums and two-products, core/eft.ts) with
 * bounds of order u²; exact BigInt only where that does not decide either. The time is accepted
 * from the formula when its error bound is below two ulps, and otherwise certified a posteriori:
 * f is evaluated in double-double (with an error bound) at the candidate and at the double before
 * it, and a Newton step on the accurate f(t) moves the candidate when the signs are not
 * "before: > 0, at: ≤ 0" — the candidate is then exactly the first double of contact.
 */
export function sweepTime(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, r1: number, r2: number): number {
  const dim = P0.length;
  let A = 0;
  let B = 0;
  let C0 = 0;
  let mA = 0;
  let mB = 0;
  for (let i = 0; i < dim; i++) {
    const w = P0[i] - Q0[i];
    const ea = P1[i] - P0[i];
    const eb = Q1[i] - Q0[i];
    const dv = ea - eb;
    const md = Math.abs(ea) + Math.abs(eb);
    A += dv * dv;
    B += w * dv;
    C0 += w * w;
    mA += md * md;
    mB += Math.abs(w) * md;
  }
  const R = r1 + r2;
  const C = C0 - R * R;
  // Error bounds: each difference carries ≤ u relative error (dv: ≤ 2u·md after two roundings),
  // each sum of dim products ≤ (dim + 2)·u relative to the sum of magnitudes; R² ≤ 3u·R².
  const g = (dim + 8) * U;
  const eA = 4 * g * mA;
  const eB = 4 * g * (mB + mA);
  const eC = g * (C0 + 2 * R * R);
  if (!(eA < Infinity && eC < Infinity && eB < Infinity) || mA + C0 + R * R < TINY) return exactTime(P0, P1, Q0, Q1, r1, r2); // overflow or underflow
  const D = B * B - A * C;
  const eD = 2 * Math.abs(B) * eB + eB * eB + A * eC + Math.abs(C) * eA + eA * eC + 4 * U * (B * B + Math.abs(A * C));
  let t = decide(A, B, C, eA, eB, eC, D, eD);
  if (t === UNDECIDED) {
    coefficientsDD(P0, P1, Q0, Q1, r1, r2);
    t = decide(dA, dB, dC, dEA, dEB, dEC, dD, dED);
    if (t === UNDECIDED) return exactTime(P0, P1, Q0, Q1, r1, r2);
    if (t === CERTIFY) return certify(P0, P1, Q0, Q1, r1, r2, dA, dB, dTime);
    return t;
  }
  if (t === CERTIFY) return certify(P0, P1, Q0, Q1, r1, r2, A, B, dTime);
  return t;
}

const UNDECIDED = -2;
const CERTIFY = -3;
/** Below this the products' rounding errors may underflow: left to the exact path. */
const TINY = 2 ** -900;

/**
 * The decisions from coefficients with error bounds: 0 touching at the start, −1 a miss, the
 * first-contact time when its error bound is below two ulps, CERTIFY (the time candidate left in
 * dTime) when it is not, UNDECIDED when a bound does not decide.
 */
function decide(A: number, B: number, C: number, eA: number, eB: number, eC: number, D: number, eD: number): number {
  // 1. Touching at the start?
  if (C <= -eC) return 0;
  if (C <= eC) return UNDECIDED;
  // 2. Moving apart (or not moving relative to each other)?
  if (B >= eB) return -1;
  if (B > -eB || A <= eA) return UNDECIDED;
  // 3. Where is the minimum, and does f reach 0?
  const AB = A + B;
  if (Math.abs(AB) <= eA + eB + 2 * U * Math.abs(AB)) return UNDECIDED;
  if (AB < 0) {
    // minimum at t ≥ 1: hit iff f(1) ≤ 0
    const f1 = A + 2 * B + C;
    const e1 = eA + 2 * eB + eC + 4 * U * (A + 2 * Math.abs(B) + Math.abs(C));
    if (f1 > e1) return -1;
    if (f1 > -e1) return UNDECIDED;
  }
  if (AB > 0) {
    if (D < -eD) return -1;
    if (D <= eD) return UNDECIDED;
  } else if (D <= eD) return UNDECIDED;
  // 4. The first root t1 = C / (−B + √D): no cancellation, since −B > 0.
  const sD = Math.sqrt(D);
  const den = sD - B;
  const t = C / den;
  // Its error: from C, from −B and from √D (whose error is eD/(2√D) to first order, bounded
  // without the first-order step by eD/(√D + √(D − eD))), plus the roundings.
  const es = eD / (sD + Math.sqrt(D - eD)) + U * sD;
  const eDen = eB + es + 2 * U * den;
  const et = t * (eC / (C - eC) + eDen / (den - eDen)) + 2 * U * t;
  if (den > eDen && et <= 2 * ulp(t) && t <= 1) return t;
  dTime = t;
  return CERTIFY;
}

// The double-double tier's results (module-level scratch: not re-entrant).
let dA = 0;
let dB = 0;
let dC = 0;
let dD = 0;
let dEA = 0;
let dEB = 0;
let dEC = 0;
let dED = 0;
let dTime = 0;

/** a − b = s + twoDiffErr(a, b, s) exactly, s = fl(a − b) (Knuth). */
function twoDiffErr(a: number, b: number, s: number): number {
  const bb = a - s;
  return a - (s + bb) + (bb - b);
}
/** a + b = s + twoSumErr(a, b, s) exactly, s = fl(a + b) (Knuth). */
function twoSumErr(a: number, b: number, s: number): number {
  const bb = s - a;
  return a - (s - bb) + (b - bb);
}

/**
 * A, B, C and D = B² − AC in double-double from the inputs (w = p0 − q0 and the two
 * displacements exactly by two-differences, dv = (p1 − p0) − (q1 − q0) to u², products by
 * Dekker's two-product), each rounded to a double at the end with a bound of order u² of the
 * magnitudes plus the final rounding u·|value|. Results in dA…dED.
 */
function coefficientsDD(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, r1: number, r2: number): void {
  const dim = P0.length;
  let ah = 0, al = 0, bh = 0, bl = 0, ch = 0, cl = 0;
  let mA = 0, mB = 0, mC = 0;
  for (let i = 0; i < dim; i++) {
    const wh = P0[i] - Q0[i];
    const wl = twoDiffErr(P0[i], Q0[i], wh);
    const ea = P1[i] - P0[i];
    const eal = twoDiffErr(P1[i], P0[i], ea);
    const eb = Q1[i] - Q0[i];
    const ebl = twoDiffErr(Q1[i], Q0[i], eb);
    const dh = ea - eb;
    const dl = twoDiffErr(ea, eb, dh) + (eal - ebl);
    // dv² = dh² + 2·dh·dl
    let p = dh * dh;
    let pl = productError(dh, dh, p) + 2 * dh * dl;
    let s = ah + p;
    al += twoSumErr(ah, p, s) + pl;
    ah = s;
    // w·dv = wh·dh + wh·dl + wl·dh
    p = wh * dh;
    pl = productError(wh, dh, p) + (wh * dl + wl * dh);
    s = bh + p;
    bl += twoSumErr(bh, p, s) + pl;
    bh = s;
    // w² = wh² + 2·wh·wl
    p = wh * wh;
    pl = productError(wh, wh, p) + 2 * wh * wl;
    s = ch + p;
    cl += twoSumErr(ch, p, s) + pl;
    ch = s;
    const md = Math.abs(ea) + Math.abs(eb);
    mA += md * md;
    mB += Math.abs(wh) * md;
    mC += wh * wh;
  }
  const Rh = r1 + r2;
  const Rl = twoSumErr(r1, r2, Rh);
  const q = Rh * Rh;
  const ql = productError(Rh, Rh, q) + 2 * Rh * Rl;
  const s = ch - q;
  cl += twoDiffErr(ch, q, s) - ql;
  ch = s;
  const A = ah + al;
  const Bv = bh + bl;
  const C = ch + cl;
  // Bounds: the low parts of dv, the dropped second-order terms and the roundings of the low
  // accumulators are each a few u² of the magnitudes; 16 + 4·dim covers them with room.
  const k = (16 + 4 * dim) * U * U;
  const eA2 = k * mA;
  const eB2 = k * (mB + mA);
  const eC2 = k * (mC + Rh * Rh);
  // D = B² − A·C from the double-double parts: bh² + 2·bh·bl − ah·ch − (ah·cl + al·ch), the
  // leading products split exactly; the dropped bl², al·cl are below u² of the terms.
  const b2 = bh * bh;
  const ac = ah * ch;
  const dh = b2 - ac;
  const D = dh + (twoDiffErr(b2, ac, dh) + (productError(bh, bh, b2) - productError(ah, ch, ac)) + (2 * bh * bl - (ah * cl + al * ch)));
  dA = A;
  dB = Bv;
  dC = C;
  dD = D;
  dEA = eA2 + U * Math.abs(A);
  dEB = eB2 + U * Math.abs(Bv);
  dEC = eC2 + U * Math.abs(C);
  const aB = Math.abs(Bv);
  const aA = Math.abs(A);
  const aC = Math.abs(C);
  dED = 2 * aB * eB2 + eB2 * eB2 + aA * eC2 + aC * eA2 + eA2 * eC2 + 8 * U * U * (Bv * Bv + aA * aC) + U * Math.abs(D);
}

/** The error bound of the last {@link gapDD}. */
let gapErr = 0;

/**
 * f(t) = |w + t·dv|² − (r1 + r2)² at a double t in double-double, rounded once; its error is at
 * most gapErr (of order u² of the magnitudes |w| + t·|dv| and R, plus u·|f|).
 */
function gapDD(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, r1: number, r2: number, t: number): number {
  const dim = P0.length;
  let sh = 0;
  let sl = 0;
  let mag = 0;
  for (let i = 0; i < dim; i++) {
    const wh = P0[i] - Q0[i];
    const wl = twoDiffErr(P0[i], Q0[i], wh);
    const ea = P1[i] - P0[i];
    const eal = twoDiffErr(P1[i], P0[i], ea);
    const eb = Q1[i] - Q0[i];
    const ebl = twoDiffErr(Q1[i], Q0[i], eb);
    const dh = ea - eb;
    const dl = twoDiffErr(ea, eb, dh) + (eal - ebl);
    const ph = t * dh;
    const pl = productError(t, dh, ph) + t * dl;
    const gh = wh + ph;
    const gl = twoSumErr(wh, ph, gh) + (wl + pl);
    const qh = gh * gh;
    const ql = productError(gh, gh, qh) + 2 * gh * gl;
    const s = sh + qh;
    sl += twoSumErr(sh, qh, s) + ql;
    sh = s;
    const m = Math.abs(wh) + t * (Math.abs(ea) + Math.abs(eb));
    mag += m * m;
  }
  const Rh = r1 + r2;
  const Rl = twoSumErr(r1, r2, Rh);
  const q = Rh * Rh;
  const ql = productError(Rh, Rh, q) + 2 * Rh * Rl;
  const s = sh - q;
  sl += twoDiffErr(sh, q, s) - ql;
  const f = s + sl;
  gapErr = (32 + 4 * dim) * U * U * (mag + Rh * Rh) + 2 * U * Math.abs(f);
  return f;
}

/** How often the certificate ran, and how often it handed over to the exact path. */
export const certifyStats = { runs: 0, failed: 0 };

/**
 * The first double of contact near the candidate t (see {@link sweepTime}), or the exact path's
 * answer when the double-double signs cannot decide. A, B are f's coefficients (for f′).
 */
function certify(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, r1: number, r2: number, A: number, B: number, t: number): number {
  certifyStats.runs++;
  if (!(t > 0)) t = Number.MIN_VALUE;
  if (t > 1) t = 1;
  for (let iter = 0; iter < 6; iter++) {
    const f = gapDD(P0, P1, Q0, Q1, r1, r2, t);
    if (Math.abs(f) <= gapErr) break;
    if (f < 0) {
      const p = nextDown(t);
      if (p <= 0) return t; // f(0) > 0 is established
      const fp = gapDD(P0, P1, Q0, Q1, r1, r2, p);
      if (Math.abs(fp) <= gapErr) break;
      if (fp > 0) return t;
    } else if (t >= 1) break;
    // A Newton step on the accurate f (f′ = 2(A·t + B) < 0 before the first root).
    const fd = 2 * (A * t + B);
    if (!(fd < 0)) break;
    let tn = t - f / fd;
    if (tn === t) tn = f > 0 ? nextUp(t) : nextDown(t);
    t = tn > 1 ? 1 : tn > 0 ? tn : Number.MIN_VALUE;
  }
  certifyStats.failed++;
  return exactTime(P0, P1, Q0, Q1, r1, r2);
}

function ulp(x: number): number {
  return x === 0 ? Number.MIN_VALUE : 2 ** (Math.floor(Math.log2(Math.abs(x))) - 52);
}

/** How often the exact paths ran (for the benchmark's report): decisions and time searches. */
export const sweepStats = { exact: 0 };

/** The exact path: decisions in BigInt, and the time by bisection over the doubles. */
function exactTime(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, r1: number, r2: number): number {
  sweepStats.exact++;
  const g = exactGap(P0, P1, Q0, Q1, r1, r2);
  const h = exactHit(g);
  if (h < 0) return -1;
  if (h === 0) return 0;
  // f(0) > 0 and f decreases to its first root, which lies in (0, 1]. First a narrow bracket
  // around the root computed from the exact discriminant (a few exact signs instead of a
  // bisection over all the doubles in [0, 1]).
  const near = bracketNear(g, rootEstimate(g));
  if (near > 0) return near;
  return gapSign(g, 1) <= 0 ? firstContact(g, 0, 1) : firstContact(g, 0, bracketBeforeMinimum(g));
}

/**
 * The first root C / (−B + √(B² − AC)) in doubles from the exact coefficients: the discriminant
 * is formed exactly in BigInt, so only the final few roundings remain (a few ulps). NaN if the
 * discriminant is negative.
 */
function rootEstimate(g: ReturnType<typeof exactGap>): number {
  const D = g.B * g.B - g.A * g.C;
  if (D < 0n) return NaN;
  const abs = (x: bigint): bigint => (x < 0n ? -x : x);
  const bits = Math.max(abs(g.A).toString(2).length, abs(g.B).toString(2).length, abs(g.C).toString(2).length);
  const shift = BigInt(Math.max(0, bits - 60));
  const b = Number(g.B >> shift);
  const c = Number(g.C >> shift);
  const sD = Math.sqrt(Number(D >> (2n * shift)));
  return c / (sD - b);
}

/**
 * The first double of contact found from an estimate t0 by exact signs: a bracket (lo: f > 0,
 * hi: f ≤ 0) searched outwards in steps of 1, 8, 64, … ulps, then bisection over the doubles
 * between. 0 when no bracket turns up near t0 (a grazing touch; the caller falls back).
 */
function bracketNear(g: ReturnType<typeof exactGap>, t0: number): number {
  if (!(t0 > 0 && t0 <= 1)) return 0;
  let lo = -1;
  let hi = -1;
  if (gapSign(g, t0) <= 0) {
    hi = t0;
    for (let step = 1; step <= 1 << 24; step *= 8) {
      const c = hi - step * (nextUp(hi) - hi);
      if (!(c > 0)) {
        lo = 0;
        break;
      }
      if (gapSign(g, c) > 0) {
        lo = c;
        break;
      }
      hi = c;
    }
    if (lo < 0) lo = 0;
  } else {
    lo = t0;
    for (let step = 1; step <= 1 << 24; step *= 8) {
      const c = Math.min(1, lo + step * (nextUp(lo) - lo));
      if (gapSign(g, c) <= 0) {
        hi = c;
        break;
      }
      if (c >= 1) return 0;
      lo = c;
    }
    if (hi < 0) return 0;
  }
  return lo === 0 && hi > 0 ? firstContact(g, 0, hi) : firstContact(g, lo, hi);
}

/** A double hi ≤ 1 past the first root and before the minimum, where f(hi) ≤ 0 (f reaches ≤ 0 inside). */
function bracketBeforeMinimum(g: ReturnType<typeof exactGap>): number {
  // The minimum −B/A lies in (0, 1) and f(−B/A) ≤ 0: the double nearest −B/A from below or
  // above has f ≤ 0 unless the contact is a single grazing point; then search next to it.
  const tm = ratToNumber(-g.B, g.A);
  for (const t of [tm, nextUp(tm), nextDown(tm)]) if (t > 0 && t <= 1 && gapSign(g, t) <= 0) return t;
  // A grazing contact whose exact time is not a double: the first double past it has f > 0 on
  // both sides; the contact time rounds to tm (report the double nearest it).
  return tm;
}

/**
 * Rhodes' test from the gem: do the two *paths* (the segments p0p1 and q0q1) come within r of
 * each other? Decided exactly. A necessary but not sufficient condition for a collision: the
 * paths can pass close at different times (the spheres then never meet). Use
 * {@link sphereSweep} for the real question.
 * @throws SkewlineInputError on bad points or r not a finite number ≥ 0.
 */
export function pathsWithin(p0: VecLike, p1: VecLike, q0: VecLike, q1: VecLike, r: number): boolean {
  const [P0, P1, Q0, Q1] = points(p0, p1, q0, q1, 'pathsWithin');
  radius(r, 'pathsWithin: r');
  return segmentsWithin(P0, P1, Q0, Q1, r);
}

/**
 * The signed distance between two capsules (segments a0a1 and b0b1 with radii ra, rb): the
 * segments' distance minus ra + rb; negative is the depth of penetration. A sphere is a
 * capsule of zero length. The segments' distance has closestPoints' accuracy (8·u·S).
 * @throws SkewlineInputError on bad points or radii.
 */
export function capsuleDistance(a0: VecLike, a1: VecLike, ra: number, b0: VecLike, b1: VecLike, rb: number): number {
  const [A0, A1, B0, B1] = points(a0, a1, b0, b1, 'capsuleDistance');
  radius(ra, 'capsuleDistance: ra');
  radius(rb, 'capsuleDistance: rb');
  return closestPoints(segment(A0, A1), segment(B0, B1)).distance - (ra + rb);
}
