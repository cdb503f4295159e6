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
 * (motion/exact.ts). A time of contact after 0 is then certified from the formula's candidate:
 * f(t) in double-double at the candidate, one Newton
 * step, and the signs of f at the neighbouring doubles (f is a quadratic, so f(t + o) follows
 * exactly from f(t), f′(t) and |dv|²), with a bracket search and, last, exact bisection as the
 * fall-backs.
 *
 * 3D points (the common case) take a shorter road (sweep3): the misses and the touches at the
 * start in one straight-line pass over the twelve coordinates, and every other case, from the
 * same values read once, by one evaluation of f at a chosen time τ (the float root, or the
 * minimiser −B/A clamped to the step, or 0; in doubles first where that settles it, else in
 * double-double): a miss where f(τ) − γ²/A > 0 (γ = f′(τ)/2: a lower bound of f's
 * minimum, so no double-double coefficients and no exact sign of B² − AC are needed), a hit
 * from the local quadratic's root and the signs at the doubles around it. Cases this leaves
 * open take the general road above.
 */
import { SkewlineInputError, toVector } from '../core/primitives.js';
import { SAFE_MAX, SAFE_SCALE, between, checkDim, checkRadius, coords, unitInto } from './safe.js';
import type { VecLike } from '../core/types.js';
import { exactGap, exactHit, firstContact, gapSign } from './exact.js';
import { NEIGHBOUR_MIN, PRED, SUCC, nextDown, nextUp, stepIn } from './ulp.js';
import { ratSqrt, ratToNumber } from '../core/exact.js';
import { closestPoints } from '../closest/closest.js';
import { segment } from '../core/primitives.js';
import { segmentsWithin } from '../closest/within.js';

// sweepStats' counts, declared before the functions that count (V8 then reads the object as a
// constant: no check that the binding is initialised, as an export's cell needs)
const STATS = { double: 0, doubleDouble: 0, certify: 0, exact: 0, quick: 0, staged: 0 };

const U = 2 ** -53;
/** Dekker's splitter 2²⁷ + 1 (the error-free transformations are written out inline in the hot
 * helpers: a call V8 does not inline boxes its double arguments and result). */
const SPLIT = 134217729;

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
  /**
   * The unit vector from p to q at `time` (the contact normal), from the relative position
   * computed in difference form (w + t·dv, error-free products), so it is a unit vector to a few
   * ulps even where p and q round to the same point. Zero separation (points that meet, or
   * spheres with coincident centres at the start): the direction of the relative motion just
   * before (dv / |dv|), or zeros when there is none. Zeros for a miss.
   */
  normal: number[];
}

/**
 * A result object for {@link sphereSweep}'s `target`, for points of dimension `dim`: made once,
 * filled by every call (so a loop of sweeps allocates nothing).
 * @throws SkewlineInputError when dim is not an integer ≥ 1.
 */
export function createSweepResult(dim: number): SphereHit {
  checkDim(dim, 'createSweepResult');
  // time starts as a non-integer so that V8 keeps the field as an unboxed double (a field first
  // holding a small integer would box every later non-integer store: an allocation per call).
  const r: SphereHit = { hit: false, time: 0.5, p: new Array<number>(dim).fill(0.5), q: new Array<number>(dim).fill(0.5), normal: new Array<number>(dim).fill(0.5) };
  r.time = 1;
  r.p.fill(0);
  r.q.fill(0);
  r.normal.fill(0);
  return r;
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

/** p0 + t·(p1 − p0), from the nearer end so that t = 1 gives p1 exactly; never overflows. */
function at(p0: Float64Array, p1: Float64Array, t: number): number[] {
  const r: number[] = [];
  for (let i = 0; i < p0.length; i++) r.push(between(p0[i], p1[i], t));
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
 * With `target` (made once by {@link createSweepResult} for the points' dimension) the result is
 * written into it and returned, and the call allocates nothing when the points are arrays or
 * Float64Arrays of numbers (only the rare exact path allocates BigInts). Not re-entrant
 * (module-level scratch).
 *
 * Edge cases: spheres touching or overlapping at the start give `time: 0`; a grazing contact at
 * exactly r1 + r2 is a hit; equal velocities never bring a separated pair together; radius 0 is
 * a point (two points hit only when they meet exactly). Any finite input works, up to ±1.8e308
 * and down to subnormals: decisions are exact there too, points stay finite (they lie between
 * the given ones) and the normal is a unit vector (see {@link SphereHit.normal}).
 * @throws SkewlineInputError on bad or different-dimension points, a radius that is negative or
 * not finite, or a target of another dimension.
 */
export function sphereSweep(p0: VecLike, p1: VecLike, r1: number, q0: VecLike, q1: VecLike, r2: number, target?: SphereHit): SphereHit {
  // A small function that V8 inlines into the caller's loop: the radii travel to the rest in NUM,
  // since a double passed to a call that is not inlined is boxed (an allocation per call).
  if (typeof r1 !== 'number' || typeof r2 !== 'number' || !(r1 >= 0 && r1 < Infinity && r2 >= 0 && r2 < Infinity)) {
    checkRadius(r1, 'sphereSweep: r1');
    checkRadius(r2, 'sphereSweep: r2');
  }
  NUM[K_R1] = r1;
  NUM[K_R2] = r2;
  return sweepInto(p0, p1, q0, q1, target);
}

/** {@link sphereSweep} with the radii (numbers) in NUM[K_R1], NUM[K_R2]. */
function sweepInto(p0: VecLike, p1: VecLike, q0: VecLike, q1: VecLike, target: SphereHit | undefined): SphereHit {
  // The common case — 3D Float64Arrays and a target for 3D (sphereSweep has checked the radii) —
  // in a function small enough for V8 to inline into the caller's loop (under its 460 bytes of
  // bytecode): a miss or a hit costs one call (sweep3, which writes a hit's output itself).
  // Everything else in sweepGeneral.
  if (
    p0 instanceof Float64Array && p1 instanceof Float64Array && q0 instanceof Float64Array && q1 instanceof Float64Array &&
    p0.length === 3 && p1.length === 3 && q0.length === 3 && q1.length === 3 &&
    target !== undefined && target !== null && Array.isArray(target.p) && target.p.length === 3 && Array.isArray(target.q) && target.q.length === 3 && Array.isArray(target.normal) && target.normal.length === 3
  ) {
    const code = sweep3(p0, p1, q0, q1, target);
    if (code === MISS) {
      target.hit = false;
      target.time = 1;
      const p = target.p;
      const q = target.q;
      const n = target.normal;
      p[0] = p1[0];
      p[1] = p1[1];
      p[2] = p1[2];
      q[0] = q1[0];
      q[1] = q1[1];
      q[2] = q1[2];
      n[0] = 0;
      n[1] = 0;
      n[2] = 0;
      return target;
    }
    return code === HIT ? target : sweepGeneral(p0, p1, q0, q1, target, code);
  }
  return sweepGeneral(p0, p1, q0, q1, target, TRY3);
}

/**
 * {@link sphereSweep} with the radii in NUM: validation, the decision (`code`: sweep3's answer
 * where sweepInto already asked it, TRY3 where not), the output.
 */
function sweepGeneral(p0: VecLike, p1: VecLike, q0: VecLike, q1: VecLike, target: SphereHit | undefined, known: number): SphereHit {
  // Float64Arrays hold numbers only: their finiteness is left to sweepCode, whose sums are not
  // finite then and which calls coords for the precise error (a check per coordinate saved).
  const fast = p0 instanceof Float64Array && p1 instanceof Float64Array && q0 instanceof Float64Array && q1 instanceof Float64Array && p0.length > 0;
  const P0 = fast ? p0 : coords(p0, 'sphereSweep: p0');
  const P1 = fast ? p1 : coords(p1, 'sphereSweep: p1');
  const Q0 = fast ? q0 : coords(q0, 'sphereSweep: q0');
  const Q1 = fast ? q1 : coords(q1, 'sphereSweep: q1');
  const dim = P0.length;
  if (P1.length !== dim || Q0.length !== dim || Q1.length !== dim) {
    throw new SkewlineInputError(`sphereSweep: points of different dimensions (${dim}, ${P1.length}, ${Q0.length}, ${Q1.length})`);
  }
  const r1 = NUM[K_R1];
  const r2 = NUM[K_R2];
  if (!(r1 >= 0 && r1 < Infinity)) checkRadius(r1, 'sphereSweep: r1');
  if (!(r2 >= 0 && r2 < Infinity)) checkRadius(r2, 'sphereSweep: r2');
  let out: SphereHit;
  if (target === undefined) out = createSweepResult(dim);
  else {
    if (target === null || typeof target !== 'object' || !Array.isArray(target.p) || target.p.length !== dim || !Array.isArray(target.q) || target.q.length !== dim || !Array.isArray(target.normal) || target.normal.length !== dim) {
      throw new SkewlineInputError(`sphereSweep: target must be a result of createSweepResult(${dim})`);
    }
    out = target;
  }
  // 3D: the misses and the touches at the start in one straight-line pass over the twelve
  // coordinates, every other case from one evaluation of the gap in double-double (sweep3);
  // what that leaves open (UNDECIDED), and every other dimension, sweepCode starts afresh.
  let code = known !== TRY3 ? known : dim === 3 ? sweep3(P0, P1, Q0, Q1, out) : UNDECIDED;
  if (code === HIT) return out; // (sweep3 wrote it)
  if (code === MISS) {
    out.hit = false;
    out.time = 1;
    const p = out.p;
    const q = out.q;
    const n = out.normal;
    p[0] = P1[0];
    p[1] = P1[1];
    p[2] = P1[2];
    q[0] = Q1[0];
    q[1] = Q1[1];
    q[2] = Q1[2];
    n[0] = 0;
    n[1] = 0;
    n[2] = 0;
    return out;
  }
  if (code === UNDECIDED) code = sweepCode(P0, P1, Q0, Q1);
  if (code !== HIT) {
    const p = out.p;
    const q = out.q;
    const n = out.normal;
    out.hit = false;
    out.time = 1;
    for (let i = 0; i < dim; i++) {
      p[i] = P1[i];
      q[i] = Q1[i];
      n[i] = 0;
    }
    return out;
  }
  return hitInto(P0, P1, Q0, Q1, out);
}

/**
 * A hit's output into `out` (validated, of the points' dimension): the time NUM[K_OUT], the
 * centres then and the contact normal (from the double-double g where the certificate left one,
 * NUM[K_NRM] = 1).
 */
function hitInto(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, out: SphereHit): SphereHit {
  const dim = P0.length;
  const time = NUM[K_OUT];
  const p = out.p;
  const q = out.q;
  const n = out.normal;
  out.hit = true;
  out.time = time;
  // p0 + t·(p1 − p0) as {@link between} computes it, written out here: a call that V8 does not
  // inline would box its double argument and result (an allocation per call).
  for (let i = 0; i < dim; i++) {
    const a = P0[i];
    const b = P1[i];
    const d = b - a;
    p[i] = d - d === 0 ? (time <= 0.5 ? a + time * d : b - (1 - time) * d) : between(a, b, time);
    const c = Q0[i];
    const e = Q1[i];
    const g = e - c;
    q[i] = g - g === 0 ? (time <= 0.5 ? c + time * g : e - (1 - time) * g) : between(c, e, time);
  }
  if (NUM[K_NRM] === 1 && dim === 3) {
    // certifiedNormal and unitInto for 3D in straight-line code, the same operations in the same
    // order (so the same bits): −g(t) from the double-double g at NUM[K_GT], over its largest
    // magnitude, over the length
    const o = time - NUM[K_GT];
    const x = -(GH[0] + o * DH[0] + (GL[0] + o * DL[0]));
    const y = -(GH[1] + o * DH[1] + (GL[1] + o * DL[1]));
    const z = -(GH[2] + o * DH[2] + (GL[2] + o * DL[2]));
    let m = Math.abs(x);
    if (Math.abs(y) > m) m = Math.abs(y);
    if (Math.abs(z) > m) m = Math.abs(z);
    if (m > 0) {
      const xm = x / m;
      const ym = y / m;
      const zm = z / m;
      const l = Math.sqrt(xm * xm + ym * ym + zm * zm);
      n[0] = xm / l + 0; // + 0: no −0
      n[1] = ym / l + 0;
      n[2] = zm / l + 0;
    } else contactNormal(P0, P1, Q0, Q1, n);
  } else if (NUM[K_NRM] === 1) certifiedNormal(P0, P1, Q0, Q1, n);
  else contactNormal(P0, P1, Q0, Q1, n);
  return out;
}

// ulp.ts's neighbour factors as this module's own constants (see BIG)
const PRED_F = PRED;
const SUCC_F = SUCC;
const N_MIN = NEIGHBOUR_MIN;

/** {@link SAFE_MAX} as this module's own constant (read in a loop: an imported binding can cost a call per read where modules are transformed, as under tsx). */
const BIG = SAFE_MAX;

/**
 * {@link contactNormal} where the time certificate left g = w + t′·dv in double-double (GH + GL at
 * t′ = NUM[K_GT], next to the time t = NUM[K_OUT]): g(t) = g(t′) + o·dv with o = t − t′ exact
 * (Sterbenz), o·dh exact; −g(t) rounded with a few roundings of its size, then normalised. Zero
 * separation: as contactNormal.
 */
function certifiedNormal(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, n: number[]): void {
  const dim = P0.length;
  const o = NUM[K_OUT] - NUM[K_GT];
  for (let i = 0; i < dim; i++) n[i] = -(GH[i] + o * DH[i] + (GL[i] + o * DL[i]));
  if (!unitInto(n, dim)) contactNormal(P0, P1, Q0, Q1, n);
}

/**
 * The unit vector from p(t) to q(t) into n, t = NUM[K_OUT]: −(w + t·dv) in double-double (w, the displacements
 * and t·dv by error-free transformations), rounded once per coordinate, then normalised with
 * scaling. Inputs beyond {@link SAFE_MAX} are scaled by a power of two first. Zero separation:
 * dv / |dv| (the direction from p to q just before they met), or zeros.
 */
function contactNormal(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, n: number[]): void {
  const dim = P0.length;
  const t = NUM[K_OUT];
  let big = false;
  for (let i = 0; i < dim; i++) {
    if (Math.abs(P0[i]) > BIG || Math.abs(P1[i]) > BIG || Math.abs(Q0[i]) > BIG || Math.abs(Q1[i]) > BIG) big = true;
  }
  const k = big ? SAFE_SCALE : 1;
  for (let i = 0; i < dim; i++) {
    const p0 = k * P0[i];
    const q0 = k * Q0[i];
    const wh = p0 - q0;
    const wl = (p0 - (wh + (p0 - wh)) + ((p0 - wh) - q0));
    const ea = k * P1[i] - p0;
    const eal = twoDiffErr(k * P1[i], p0, ea);
    const eb = k * Q1[i] - q0;
    const ebl = twoDiffErr(k * Q1[i], q0, eb);
    const dh = ea - eb;
    const dl = (ea - (dh + (ea - dh)) + ((ea - dh) - eb)) + (eal - ebl);
    const ph = t * dh;
    const pl = ((t - (SPLIT * t - (SPLIT * t - t))) * (dh - (SPLIT * dh - (SPLIT * dh - dh))) - (ph - (SPLIT * t - (SPLIT * t - t)) * (SPLIT * dh - (SPLIT * dh - dh)) - (t - (SPLIT * t - (SPLIT * t - t))) * (SPLIT * dh - (SPLIT * dh - dh)) - (SPLIT * t - (SPLIT * t - t)) * (dh - (SPLIT * dh - (SPLIT * dh - dh))))) + t * dl;
    const gh = wh + ph;
    const gl = (wh - (gh - (gh - wh)) + (ph - (gh - wh))) + (wl + pl);
    n[i] = -(gh + gl);
  }
  if (unitInto(n, dim)) return;
  for (let i = 0; i < dim; i++) n[i] = (k * P1[i] - k * P0[i]) - (k * Q1[i] - k * Q0[i]);
  unitInto(n, dim);
}

/**
 * The first contact time of sphereSweep on validated input, or −1 for no contact in [0, 1].
 * Three tiers: floating point with rigorous error bounds; where a bound does not decide, the
 * coefficients again in double-double (error-free two-sums and two-products, core/eft.ts) with
 * bounds of order u²; exact BigInt only where that does not decide either. A time after 0 is
 * certified a posteriori from the formula's candidate: f in double-double (with an error bound)
 * at the candidate after a Newton step, and the signs at the neighbouring doubles, "before: > 0,
 * at: ≤ 0" — the time is then exactly the first double of contact.
 */
export function sweepTime(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, r1: number, r2: number): number {
  NUM[K_R1] = r1;
  NUM[K_R2] = r2;
  return sweepCode(P0, P1, Q0, Q1) === HIT ? NUM[K_OUT] : -1;
}

/**
 * {@link sweepTime} as a code: HIT with the time in NUM[K_OUT], or MISS. Every helper on the
 * way returns a small integer and leaves its numbers in NUM: a double returned from a call V8
 * does not inline would be boxed in a fresh heap number.
 */
function sweepCode(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>): number {
  const r1 = NUM[K_R1];
  const r2 = NUM[K_R2];
  const dim = P0.length;
  NUM[K_NRM] = 0;
  let A = 0;
  let B = 0;
  let C0 = 0;
  let mA = 0;
  let mB = 0;
  if (SW.length < dim) {
    SW = new Float64Array(dim);
    SD = new Float64Array(dim);
    SM = new Float64Array(dim);
  }
  for (let i = 0; i < dim; i++) {
    const w = P0[i] - Q0[i];
    const ea = P1[i] - P0[i];
    const eb = Q1[i] - Q0[i];
    const dv = ea - eb;
    const md = Math.abs(ea) + Math.abs(eb);
    SW[i] = w;
    SD[i] = dv;
    SM[i] = md;
    A += dv * dv;
    B += w * dv;
    C0 += w * w;
    mA += md * md;
    mB += Math.abs(w) * md;
  }
  const R = r1 + r2;
  const R2 = R * R;
  const C = C0 - R2;
  // Error bounds: each difference carries ≤ u relative error (dv: ≤ 2u·md after two roundings),
  // each sum of dim products ≤ (dim + 2)·u relative to the sum of magnitudes; R² ≤ 3u·R². ETA
  // covers products that underflow (each is then off by up to 2⁻¹⁰⁷⁵ absolutely).
  const g = (dim + 8) * U;
  let eA = 4 * g * mA + ETA;
  let eB = 4 * g * (mB + mA) + ETA;
  if (A === 0 && sameMotion(P0, P1, Q0, Q1)) eA = eB = 0; // A and B are exactly 0: the gap never changes
  const eC = g * (C0 + 2 * R2) + ETA;
  if (!(mA + mB + C0 + R2 < HUGE)) {
    // Squares could overflow, or a coordinate is not finite (sphereSweep leaves the finiteness of
    // Float64Array input to this test): the precise error, else the exact path.
    checkFinite(P0, P1, Q0, Q1);
    return exactCode(P0, P1, Q0, Q1);
  }
  // The common decisions before D and f(1) are formed: touching at the start, moving apart.
  if (C <= -eC) {
    STATS.double++;
    NUM[K_OUT] = 0;
    return HIT;
  }
  if (C > eC && B >= eB) {
    STATS.double++;
    return MISS;
  }
  // f(1) = |p1 − q1|² − R², needed only where the minimum may lie at t ≥ 1 (A + B ≤ 0).
  NUM[K_F1] = 0;
  NUM[K_EF1] = 0;
  if (A + B < eA + eB + 2 * U * Math.abs(A + B)) {
    let F1 = 0;
    for (let i = 0; i < dim; i++) {
      const w1 = P1[i] - Q1[i];
      F1 += w1 * w1;
    }
    NUM[K_F1] = F1 - R2;
    NUM[K_EF1] = g * (F1 + 2 * R2) + ETA;
  }
  NUM[K_A] = A;
  NUM[K_B] = B;
  NUM[K_C] = C;
  NUM[K_EA] = eA;
  NUM[K_EB] = eB;
  NUM[K_EC] = eC;
  // D = B² − AC directly first: it decides most misses and times (its bound is a few u of B² + |AC|).
  NUM[K_D] = B * B - A * C;
  NUM[K_ED] = 2 * Math.abs(B) * eB + eB * eB + A * eC + Math.abs(C) * eA + eA * eC + 4 * U * (B * B + Math.abs(A * C)) + ETA;
  // (where B² − AC has lost more than a third of its bits, Lagrange's form straight away)
  let t = (dim === 3 || dim === 2) && NUM[K_ED] > 2 ** -18 * Math.abs(NUM[K_D]) ? UNDECIDED : decide();
  if (t !== HIT && t !== MISS && (dim === 3 || dim === 2)) {
    // D = B² − A·C = A·R² − |w × dv|² (Lagrange's identity): no cancellation between B² and
    // A·C0 when the paths pass close (the cross products are small and computed to a few u of
    // |w|·|dv|), so D keeps its relative accuracy where B² − AC loses it all.
    let S = 0;
    let eS = 0;
    for (let i = 0; i < dim; i++) {
      const j = i + 1 === dim ? 0 : i + 1;
      if (dim === 2 && i === 1) break;
      const wi = SW[i];
      const wj = SW[j];
      const ai = SM[i];
      const aj = SM[j];
      const c = wi * SD[j] - wj * SD[i];
      // w·dv products: the w rounding (u), the dv bound 2u·md, the product rounding: ≤ 4.1u·|w|·md each
      const ec = 4.1 * U * (Math.abs(wi) * aj + Math.abs(wj) * ai) + U * Math.abs(c) + ETA;
      S += c * c;
      eS += (2 * Math.abs(c) + ec) * ec;
    }
    const D = A * R2 - S;
    NUM[K_D] = D;
    NUM[K_ED] = 1.01 * (eS + 4 * U * S + eA * R2 + 5 * U * A * R2) + U * Math.abs(D) + ETA;
    t = decide();
  }
  if (t === HIT || t === MISS) {
    STATS.double++;
    return t;
  }
  if (t === UNDECIDED) {
    STATS.doubleDouble++;
    coefficientsDD(P0, P1, Q0, Q1);
    t = decide();
    if (t === UNDECIDED) return exactCode(P0, P1, Q0, Q1);
    if (t === CERTIFY) return certify(P0, P1, Q0, Q1);
    return t;
  }
  return certify(P0, P1, Q0, Q1);
}

/** sweepCode's g for dim = 3: (dim + 8)·u. */
const G3 = 11 * U;

/**
 * sphereSweep for 3D, from one read of the twelve coordinates: first sweepCode's float-tier
 * decisions for dim = 3 in straight-line code (a miss: moving apart, no real root — B² − AC
 * directly, or by Lagrange's identity where it cancelled —, or f(1) > 0 with the minimum beyond
 * the step; touching at the start). The cases they leave open (paths passing within a few radii,
 * grazing contacts, every hit after the start) are settled from one evaluation of the gap at a
 * well-chosen time τ ({@link quickCertify}) instead of double-double coefficients: τ is the
 * float formula's first root where the direct discriminant is decided, else the minimiser −B/A
 * clamped to the step, or 0 where the sign of f(0) is open (there from w's two-differences
 * alone). g = w + τ·dv is formed in double-double; f(τ) = |g|² − R² first in doubles where f has
 * two roots for certain, its low parts only where that bound is too coarse for what follows
 * (staged, after Shewchuk). A miss follows from the lower bound f(τ) − γ²/A of f's minimum; a
 * hit from the local quadratic's root and the signs at the two doubles around it (the first
 * double of contact). UNDECIDED (sweepCode then starts afresh) when neither is certain, or for
 * huge input; MISS; or HIT, its output (time, centres, normal) written into `out` (validated,
 * 3D) from the values at hand.
 */
function sweep3(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, out: SphereHit): number {
  const r1 = NUM[K_R1];
  const r2 = NUM[K_R2];
  const p0x = P0[0], p1x = P1[0], q0x = Q0[0], q1x = Q1[0];
  const p0y = P0[1], p1y = P1[1], q0y = Q0[1], q1y = Q1[1];
  const p0z = P0[2], p1z = P1[2], q0z = Q0[2], q1z = Q1[2];
  const wx = p0x - q0x, wy = p0y - q0y, wz = p0z - q0z;
  const ax = p1x - p0x, ay = p1y - p0y, az = p1z - p0z;
  const bx = q1x - q0x, by = q1y - q0y, bz = q1z - q0z;
  const dx = ax - bx, dy = ay - by, dz = az - bz;
  const mx = Math.abs(ax) + Math.abs(bx), my = Math.abs(ay) + Math.abs(by), mz = Math.abs(az) + Math.abs(bz);
  const A = dx * dx + dy * dy + dz * dz;
  const B = wx * dx + wy * dy + wz * dz;
  const C0 = wx * wx + wy * wy + wz * wz;
  const mA = mx * mx + my * my + mz * mz;
  const mB = Math.abs(wx) * mx + Math.abs(wy) * my + Math.abs(wz) * mz;
  const R2 = (r1 + r2) * (r1 + r2);
  // Non-finite or huge input: sweepCode throws or takes the exact path.
  if (!(mA + mB + C0 + R2 < HUGE)) return UNDECIDED;
  const C = C0 - R2;
  // sweepCode's float-tier quantities and bounds for dim = 3 (g = 11u)
  const eC = G3 * (C0 + 2 * R2) + ETA;
  const eA = 4 * G3 * mA + ETA;
  const eB = 4 * G3 * (mB + mA) + ETA;
  // D = B² − AC and its bound, formed only where C > eC (below)
  let D = 0;
  let eD = 0;
  // A hit leaves here its time, and g = w + t′·dv in double-double at a nearby t′ (gX + glX at
  // gt, dv = dX + dlX: zeros where g is w itself) for the normal, written at the end
  let time = 0;
  let gt = 0;
  let gX = wx, gY = wy, gZ = wz, lX = 0, lY = 0, lZ = 0, vX = 0, vY = 0, vZ = 0, vlX = 0, vlY = 0, vlZ = 0;
  // whether the gap at τ may be staged (see below): where f has two roots for certain, not where
  // its minimum may be 0
  let staged = false;
  found: {
    if (C <= -eC) {
      // touching at the start: the normal from g = w, whose rounded value fl(p0 − q0) is what
      // contactNormal would give at t = 0 (certifiedNormal with o = 0)
      STATS.double++;
      break found;
    }
    if (C > eC) {
      D = B * B - A * C;
      eD = 2 * Math.abs(B) * eB + eB * eB + A * eC + Math.abs(C) * eA + eA * eC + 4 * U * (B * B + Math.abs(A * C)) + ETA;
      // No real root (D = B² − AC < 0, so f > 0 everywhere), or both roots before the step (B ≥ 0
      // with C > 0): one test for the two common misses, whichever holds.
      if ((+(D < -eD) | +(B >= eB)) !== 0) {
        STATS.double++;
        return MISS;
      }
      if (D <= eD) {
        // B² − AC cancelled (paths passing within a few radii): D = A·R² − |w × dv|² by Lagrange's
        // identity, with sweepCode's bounds (w·dv products ≤ 4.1u·|w|·md each, so the three cross
        // products' errors sum to at most E = 4.1u·Σ|w|·Σmd + u·Σ|c|, and |w × dv|²'s to at most
        // Σ(2|cX| + eX)·eX ≤ (2·Σ|c| + E)·E): most such misses end here rather than in a
        // double-double evaluation
        const cx = wy * dz - wz * dy;
        const cy = wz * dx - wx * dz;
        const cz = wx * dy - wy * dx;
        const c1 = Math.abs(cx) + Math.abs(cy) + Math.abs(cz);
        const E = 4.1 * U * ((Math.abs(wx) + Math.abs(wy) + Math.abs(wz)) * (mx + my + mz)) + U * c1 + ETA4;
        const S = cx * cx + cy * cy + cz * cz;
        const eS = (2 * c1 + E) * E;
        const DL = A * R2 - S;
        const eDL = 1.01 * (eS + 4 * U * S + eA * R2 + 5 * U * A * R2) + U * Math.abs(DL) + ETA;
        if (DL < -eDL) {
          STATS.double++;
          return MISS;
        }
        // two roots for certain (a contact if they fall in the step): the minimum of f is clearly
        // below 0, so f at the minimiser may need no double-double (the staged gap below)
        staged = DL > eDL;
      }
      // (A = 0 with the same motion exactly: B ≥ eB above unless B is near 0, left to sweepCode)
      if (!(A > eA)) return UNDECIDED;
      if (B <= -eB && A + B < -(eA + eB + 2 * U * Math.abs(A + B))) {
        // the minimum lies at t ≥ 1: a miss iff f(1) = |p1 − q1|² − R² > 0
        const vx = p1x - q1x, vy = p1y - q1y, vz = p1z - q1z;
        const F1 = vx * vx + vy * vy + vz * vz;
        if (F1 - R2 > G3 * (F1 + 2 * R2) + ETA) {
          STATS.double++;
          return MISS;
        }
      }
    }
    // Open in doubles: paths passing within a few radii, grazing contacts, every hit after the
    // start, f(0) ≈ 0. w = p0 − q0 = wX + wlX exactly, the displacements likewise, dv = dX + dlX
    // within u² of mX = |p1 − p0| + |q1 − q0| (Knuth's two-difference)
    const wlx = p0x - (wx + (p0x - wx)) + (p0x - wx - q0x);
    const wly = p0y - (wy + (p0y - wy)) + (p0y - wy - q0y);
    const wlz = p0z - (wz + (p0z - wz)) + (p0z - wz - q0z);
    if (!(C > eC)) {
      // f(0) = |w|² − R² ≈ 0 (a contact grazing at the start): the pass below at τ = 0 without
      // its products by τ, from w's two-differences alone (the same values as there, so the same
      // bound); here only its two clear outcomes, moving apart (B ≥ eB: f′(0) ≥ 0, so f ≥ f(0)
      // over the step) or touching at the start; the rest below
      const wHx = SPLIT * wx - (SPLIT * wx - wx);
      const wHy = SPLIT * wy - (SPLIT * wy - wy);
      const wHz = SPLIT * wz - (SPLIT * wz - wz);
      const qx = wx * wx;
      const qy = wy * wy;
      const qz = wz * wz;
      const s1 = qx + qy;
      const sh = s1 + qz;
      const sl = qx - (s1 - (s1 - qx)) + (qy - (s1 - qx)) + (s1 - (sh - (sh - s1)) + (qz - (sh - s1)));
      const qlx = (wx - wHx) * (wx - wHx) - (qx - wHx * wHx - 2 * wHx * (wx - wHx)) + 2 * wx * wlx;
      const qly = (wy - wHy) * (wy - wHy) - (qy - wHy * wHy - 2 * wHy * (wy - wHy)) + 2 * wy * wly;
      const qlz = (wz - wHz) * (wz - wHz) - (qz - wHz * wHz - 2 * wHz * (wz - wHz)) + 2 * wz * wlz;
      const Rh = r1 + r2;
      const Rl = r1 - (Rh - (Rh - r1)) + (r2 - (Rh - r1));
      const RH = SPLIT * Rh - (SPLIT * Rh - Rh);
      const R2l = (Rh - RH) * (Rh - RH) - (R2 - RH * RH - 2 * RH * (Rh - RH)) + 2 * Rh * Rl;
      const f0 = sh - R2;
      const f = f0 + (sl + qlx + qly + qlz + (sh - (f0 + (sh - f0)) + (sh - f0 - R2)) - R2l);
      const ef = 128 * U * U * (C0 + R2) + 2 * U * Math.abs(f) + ETA;
      if (f > ef && B >= eB) {
        STATS.doubleDouble++;
        return MISS;
      }
      if (f < -ef) {
        // touching at the start: g = w for the normal (certifiedNormal at o = 0)
        STATS.doubleDouble++;
        lX = wlx;
        lY = wly;
        lZ = wlz;
        break found;
      }
    }
    const dlx = ax - (dx + (ax - dx)) + (ax - dx - bx) + (p1x - (ax + (p1x - ax)) + (p1x - ax - p0x) - (q1x - (bx + (q1x - bx)) + (q1x - bx - q0x)));
    const dly = ay - (dy + (ay - dy)) + (ay - dy - by) + (p1y - (ay + (p1y - ay)) + (p1y - ay - p0y) - (q1y - (by + (q1y - by)) + (q1y - by - q0y)));
    const dlz = az - (dz + (az - dz)) + (az - dz - bz) + (p1z - (az + (p1z - az)) + (p1z - az - p0z) - (q1z - (bz + (q1z - bz)) + (q1z - bz - q0z)));
    const dHx = SPLIT * dx - (SPLIT * dx - dx);
    const dHy = SPLIT * dy - (SPLIT * dy - dy);
    const dHz = SPLIT * dz - (SPLIT * dz - dz);
    // |dv|² in doubles and its bound, as quickCertify; 1/(A − ea) (a lower bound of A) once, off
    // the evaluation's critical path: τ below and the miss test's γ²/A use it
    const ea = G3 * mA;
    const al = A - ea;
    const ial = al > 0 ? 1 / al : 0;
    let t = 0;
    if (C > eC) {
      if (!(A > eA)) return UNDECIDED;
      // ≈ −B/A to within (ea/A)·t, so A·(τ − t*)² ≤ (ea/A)²·B²/A: far below u·R² (any τ is valid; a
      // near one makes the miss test's γ²/A small)
      t = -B * ial;
      if (!(t > 0)) t = 0;
      if (t > 1) t = 1;
      if (B < -eB && D > eD) {
        const t1 = C / (Math.sqrt(D) - B);
        if (t1 > 0 && t1 <= 1) t = t1;
        staged = true;
      }
    }
    for (let pass = 0; pass < 3; pass++) {
      // g = w + t·dv in double-double (an error-free product and sum), its squares by two-products
      const tH = SPLIT * t - (SPLIT * t - t);
      const tL = t - tH;
      const phx = t * dx;
      const phy = t * dy;
      const phz = t * dz;
      const ghx = wx + phx;
      const ghy = wy + phy;
      const ghz = wz + phz;
      const glx = wx - (ghx - (ghx - wx)) + (phx - (ghx - wx)) + (wlx + (tL * (dx - dHx) - (phx - tH * dHx - tL * dHx - tH * (dx - dHx)) + t * dlx));
      const gly = wy - (ghy - (ghy - wy)) + (phy - (ghy - wy)) + (wly + (tL * (dy - dHy) - (phy - tH * dHy - tL * dHy - tH * (dy - dHy)) + t * dly));
      const glz = wz - (ghz - (ghz - wz)) + (phz - (ghz - wz)) + (wlz + (tL * (dz - dHz) - (phz - tH * dHz - tL * dHz - tH * (dz - dHz)) + t * dlz));
      const qx = ghx * ghx;
      const qy = ghy * ghy;
      const qz = ghz * ghz;
      const mmx = Math.abs(wx) + t * mx;
      const mmy = Math.abs(wy) + t * my;
      const mmz = Math.abs(wz) + t * mz;
      const gx = ghx + glx;
      const gy = ghy + gly;
      const gz = ghz + glz;
      const px = gx * dx;
      const py = gy * dy;
      const pz = gz * dz;
      const s1 = qx + qy;
      const sh = s1 + qz;
      const f0 = sh - R2;
      // f's bound, M = Σ(|w| + t·md)² + R²: g = gh + gl within 8u²·(|w| + t·md) (16u²M on f), the
      // rounded 2·gh·gl and the dropped gl² (|gl| ≤ 4u·(|w| + t·md): 24u²M), the sum of the six
      // low parts (≤ 12u·M in all; six roundings: 62u²M), R²'s low part (2u²M): ≤ 104u²M
      const e2 = 128 * U * U * (mmx * mmx + mmy * mmy + mmz * mmz + R2) + ETA;
      // Staged (Shewchuk's adaptive idea): first f ≈ (Σgh² − R²) + 2·Σgh·gl without the low parts
      // of the squares, of their sum and of R² (each ≤ u of its term: the square roundings u·Σgh²,
      // the two sums 2u·Σgh², R²'s low part 3u·R², the two last roundings): where the cases ahead
      // need f only to a few bits — f clearly positive, or f < 0 with the bound far below the
      // change of f from one double to the next near the root, 2·√(A·|f|)·t·u, or below that change
      // at τ itself, 2·|γ|·ulp(τ) > 2·|γ|·τ·u (τ the float root) — that settles it (a tiny and fast
      // contact, where g = w + t·dv has cancelled but f has not); else the low
      // parts, as double-double (a grazing contact, where f itself is a few u of R²). Only at the
      // first pass, and where f is known to have two roots (staged: by Lagrange's form or B² − AC).
      let f = f0 + 2 * (ghx * glx + ghy * gly + ghz * glz);
      let ef = e2 + 3.1 * U * (sh + R2) + U * Math.abs(f0) + 2 * U * Math.abs(f);
      const gd = px + py + pz;
      const full = !staged || pass !== 0 || (f > 0 ? !(ef < 2 ** -8 * f) : !(ef * ef < 2 ** -16 * A * -f * (t * U) * (t * U))) && !(ef < 2 ** -8 * Math.abs(gd) * t * U);
      // (counted on every pass, not in an else branch: a branch first taken late, as by the first
      // tiny and fast case after thousands of others, would cost a deoptimisation there)
      STATS.staged += +!full;
      if (full) {
        const gHx = SPLIT * ghx - (SPLIT * ghx - ghx);
        const gHy = SPLIT * ghy - (SPLIT * ghy - ghy);
        const gHz = SPLIT * ghz - (SPLIT * ghz - ghz);
        const sl = qx - (s1 - (s1 - qx)) + (qy - (s1 - qx)) + (s1 - (sh - (sh - s1)) + (qz - (sh - s1)));
        const qlx = (ghx - gHx) * (ghx - gHx) - (qx - gHx * gHx - 2 * gHx * (ghx - gHx)) + 2 * ghx * glx;
        const qly = (ghy - gHy) * (ghy - gHy) - (qy - gHy * gHy - 2 * gHy * (ghy - gHy)) + 2 * ghy * gly;
        const qlz = (ghz - gHz) * (ghz - gHz) - (qz - gHz * gHz - 2 * gHz * (ghz - gHz)) + 2 * ghz * glz;
        // (r1 + r2)² = R2 + R2l (Dekker's product of the two-sum's high part, and its low part)
        const Rh = r1 + r2;
        const Rl = r1 - (Rh - (Rh - r1)) + (r2 - (Rh - r1));
        const RH = SPLIT * Rh - (SPLIT * Rh - Rh);
        const R2l = (Rh - RH) * (Rh - RH) - (R2 - RH * RH - 2 * RH * (Rh - RH)) + 2 * Rh * Rl;
        f = f0 + (sl + qlx + qly + qlz + (sh - (f0 + (sh - f0)) + (sh - f0 - R2)) - R2l);
        ef = e2 + 2 * U * Math.abs(f);
      }
      // γ = g·dv in doubles: g within u·|gX| + 8u²·mmX of the exact value, dX within 2.01u·mX of
      // dv and |dX| ≤ (1 + 2.01u)·mX, so the errors of g and dv and the roundings of the three
      // products and two sums (4u·Σ|gX·dX|) stay below 7.1u·Σ|gX|·mX + 8.1u²·Σ mmX·mX, and
      // 1.01·ETA·ΣmX for the underflows (written 2⁻¹⁰⁰⁰·ΣmX: a product with a subnormal result
      // takes a slow microcode assist on x86, ~100 cycles)
      const egd = 7.2 * U * (Math.abs(gx) * mx + Math.abs(gy) * my + Math.abs(gz) * mz) + 8.5 * U * U * (mmx * mx + mmy * my + mmz * mz) + (mx + my + mz) * 2 ** -1000 + ETA;
      if (f > ef) {
        // a miss: f's minimum over the step is at least f(t) − γ²/A (see quickCertify); γ²/A from
        // 1/al (≥ (1/al)(1 − u), two more roundings: (1 + 8u) covers them)
        const gg = Math.abs(gd) + egd;
        const pen = (t === 0 && gd >= egd) || (t === 1 && gd <= -egd) ? 0 : al > 0 ? gg * (gg * ial) * (1 + 8 * U) + ETA : -1;
        if (pen >= 0 && f > (ef + pen) * (1 + 4 * U)) {
          STATS.doubleDouble++;
          return MISS;
        }
      } else if (t === 0 && f < -ef) {
        // touching at the start: g = w for the normal (certifiedNormal; as contactNormal at 0)
        STATS.doubleDouble++;
        lX = wlx;
        lY = wly;
        lZ = wlz;
        vX = dx;
        vY = dy;
        vZ = dz;
        vlX = dlx;
        vlY = dly;
        vlZ = dlz;
        break found;
      }
      // The first root c of the local quadratic and the signs around it (see quickCertify), with γ
      // in doubles first. f at the doubles c⁻ and c differs by about 2·A·|c − t|·ulp(c), and γ's
      // rounding enters the signs as 2·|c − t|·egd: where egd is not well below A·t·2⁻⁵³ (a
      // grazing contact evaluated at the minimiser, whose root is ~√u·R/|dv| away), or where the
      // doubles did not settle it, γ in double-double from the values at hand instead of a second
      // pass: gh·dh by Dekker's product (gh, not the rounded g of the first γ: gh + gl is g
      // to u², and g itself may differ from gh), gh·dl + gl·dh; the dropped gl·dl, the errors of g
      // and dv and the sum of the low parts stay below 128u²·Σ(|g| + |w| + t·md)·md.
      let gam = gd;
      let egam = egd;
      let fine = false;
      let refine = egd > 0.125 * Math.abs(gd) + A * t * 2 ** -56;
      let c = t;
      for (;;) {
        if (refine && !fine) {
          const gHx = SPLIT * ghx - (SPLIT * ghx - ghx);
          const gHy = SPLIT * ghy - (SPLIT * ghy - ghy);
          const gHz = SPLIT * ghz - (SPLIT * ghz - ghz);
          const hx = ghx * dx;
          const hy = ghy * dy;
          const hz = ghz * dz;
          const ex = (ghx - gHx) * (dx - dHx) - (hx - gHx * dHx - (ghx - gHx) * dHx - gHx * (dx - dHx));
          const ey = (ghy - gHy) * (dy - dHy) - (hy - gHy * dHy - (ghy - gHy) * dHy - gHy * (dy - dHy));
          const ez = (ghz - gHz) * (dz - dHz) - (hz - gHz * dHz - (ghz - gHz) * dHz - gHz * (dz - dHz));
          const s1 = hx + hy;
          const s2 = s1 + hz;
          const lo = hx - (s1 - (s1 - hx)) + (hy - (s1 - hx)) + (s1 - (s2 - (s2 - s1)) + (hz - (s2 - s1))) + ex + ey + ez + (ghx * dlx + glx * dx) + (ghy * dly + gly * dy) + (ghz * dlz + glz * dz);
          gam = s2 + lo;
          egam = 128 * U * U * ((Math.abs(gx) + mmx) * mx + (Math.abs(gy) + mmy) * my + (Math.abs(gz) + mmz) * mz) + U * Math.abs(gam) + ETA;
          fine = true;
        }
        const disc = gam * gam - A * f;
        if (!(disc >= 0)) {
          if (fine) break;
          return UNDECIDED;
        }
        const sq = Math.sqrt(disc);
        c = t + (gam <= 0 ? f / (sq - gam) : -(gam + sq) / A);
        if (!(c > 0.75 * t && c < 1.5 * t)) {
          // far from t: evaluate there next (clamped to the step)
          if (!(c > 0)) c = 0;
          if (!(c <= 1)) c = 1;
          break;
        }
        // The usual outcomes first, from the values at hand: f ≤ 0 at c and > 0 at c⁻, or f > 0 at c
        // and ≤ 0 at c⁺ (as signsAround, with one bound for the three offsets: signNear's bound
        // grows with |o|, and c⁻ ≤ c ≤ c⁺ lie within the largest of |c⁻ − t|, |c⁺ − t|); the
        // rest through signsAround
        let hitAt = -1;
        const c1 = c > 1 ? 1 : c;
        if (c1 >= N_MIN) {
          const cm = c1 - c1 * PRED_F;
          const cp = c1 + c1 * SUCC_F;
          const oc = c1 - t;
          const om = cm - t;
          const op = cp - t;
          const ao = Math.abs(om) > Math.abs(op) ? Math.abs(om) : Math.abs(op);
          const e = ef + 2 * ao * egam + ao * (ao * ea) + 4 * U * (Math.abs(f) + 2 * ao * Math.abs(gam) + ao * (ao * A)) + ETA;
          const vc = f + 2 * oc * gam + oc * (oc * A);
          const vm = f + 2 * om * gam + om * (om * A);
          const vp = f + 2 * op * gam + op * (op * A);
          // c rounds below or above the root about equally often: the two outcomes as bits, not
          // as branches (a mispredicted branch costs more than the third evaluation); cp − c1 is
          // one ulp exactly, so c1 + up·(cp − c1) is c1 or cp exactly
          const at = +(vc < -e) & +(vm > e);
          const up = +(vc > e) & +(vp < -e) & +(cp <= 1);
          if ((at | up) !== 0) hitAt = c1 + up * (cp - c1);
        }
        if (hitAt < 0) {
          QC[0] = f;
          QC[1] = ef;
          QC[2] = gam;
          QC[3] = egam;
          QC[4] = A;
          QC[5] = ea;
          QC[6] = t;
          NUM[K_N] = c;
          if (signsAround() === HIT) hitAt = NUM[K_OUT];
        }
        if (hitAt >= 0) {
          // g at t for the normal (certifiedNormal)
          time = hitAt;
          gt = t;
          gX = ghx;
          gY = ghy;
          gZ = ghz;
          lX = glx;
          lY = gly;
          lZ = glz;
          vX = dx;
          vY = dy;
          vZ = dz;
          vlX = dlx;
          vlY = dly;
          vlZ = dlz;
          STATS.certify++;
          STATS.quick++;
          break found;
        }
        c = QC[7];
        if (fine || pass !== 0) break;
        refine = true; // (γ in double-double: the block above)
      }
      if (c === t) return UNDECIDED;
      t = c;
    }
    return UNDECIDED;
  }
  // The hit's output, as hitInto writes it (the same operations, so the same bits), from the
  // values at hand: the centres p0 + t·(p1 − p0) from the nearer end (the displacements are
  // finite here: the input passed the HUGE test), the normal −g(t) over its largest magnitude,
  // over its length
  const p = out.p;
  const q = out.q;
  const n = out.normal;
  out.hit = true;
  out.time = time;
  // (the coordinates read again: the twelve need not stay live through the whole function).
  // From the nearer end without a branch (time ≤ ½ is a coin toss in a family of hits): the end
  // and the factor picked by index, a + time·(b − a) or b + (−(1 − time))·(b − a), which is
  // b − (1 − time)·(b − a) bit for bit (x − y is x + (−y) in IEEE arithmetic)
  const k = +(time > 0.5);
  SEL[4] = time;
  SEL[5] = -(1 - time);
  const ft = SEL[4 + k];
  for (let i = 0; i < 3; i++) {
    const a = P0[i];
    const b = P1[i];
    const c = Q0[i];
    const e = Q1[i];
    SEL[0] = a;
    SEL[1] = b;
    SEL[2] = c;
    SEL[3] = e;
    p[i] = SEL[k] + ft * (b - a);
    q[i] = SEL[2 + k] + ft * (e - c);
  }
  const o = time - gt;
  const x = -(gX + o * vX + (lX + o * vlX));
  const y = -(gY + o * vY + (lY + o * vlY));
  const z = -(gZ + o * vZ + (lZ + o * vlZ));
  // the largest magnitude picked by index, not by branches (which one it is is a coin toss)
  MX[0] = Math.abs(x);
  MX[1] = Math.abs(y);
  MX[2] = Math.abs(z);
  const i = +(MX[1] > MX[0]);
  const m = MX[i + +(MX[2] > MX[i]) * (2 - i)];
  if (m > 0) {
    const xm = x / m;
    const ym = y / m;
    const zm = z / m;
    const l = Math.sqrt(xm * xm + ym * ym + zm * zm);
    n[0] = xm / l + 0; // + 0: no −0
    n[1] = ym / l + 0;
    n[2] = zm / l + 0;
  } else {
    NUM[K_OUT] = time;
    contactNormal(P0, P1, Q0, Q1, n);
  }
  return HIT;
}

// sweepCode's differences in doubles, w = p0 − q0, dv = (p1 − p0) − (q1 − q0) and |p1 − p0| + |q1 − q0|,
// kept for Lagrange's form (module-level scratch, grown to the dimension; not re-entrant).
let SW = new Float64Array(4);
let SD = new Float64Array(4);
let SM = new Float64Array(4);

/** Throws the precise SkewlineInputError when a coordinate is not a finite number. */
function checkFinite(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>): void {
  coords(P0, 'sphereSweep: p0');
  coords(P1, 'sphereSweep: p1');
  coords(Q0, 'sphereSweep: q0');
  coords(Q1, 'sphereSweep: q1');
}

/** {@link exactTime} as a code (HIT, the time in NUM[K_OUT], or MISS). */
function exactCode(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>): number {
  const r1 = NUM[K_R1];
  const r2 = NUM[K_R2];
  const t = exactTime(P0, P1, Q0, Q1, r1, r2);
  if (t < 0) return MISS;
  NUM[K_OUT] = t;
  return HIT;
}

const HIT = 1;
const MISS = -1;
const UNDECIDED = -2;
const CERTIFY = -3;
/** sweepGeneral's `known` where sweep3 has not been asked yet. */
const TRY3 = -4;
/** Whether p1 − p0 = q1 − q0 exactly (the relative motion is zero): by error-free differences. */
function sameMotion(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>): boolean {
  for (let i = 0; i < P0.length; i++) {
    const ea = P1[i] - P0[i];
    const eb = Q1[i] - Q0[i];
    if (ea !== eb || twoDiffErr(P1[i], P0[i], ea) !== twoDiffErr(Q1[i], Q0[i], eb)) return false;
  }
  return true;
}

/** The absolute error a product may gain by underflowing, with room for the sums of dim of them. */
const ETA = 2 ** -1040;
/** 4·ETA, as a constant (a product with a subnormal result takes a slow microcode assist on x86). */
const ETA4 = 4 * ETA;
/** Above this the squares and products of the bounds could overflow: left to the exact path. */
const HUGE = 2 ** 500;

/**
 * The decisions from the coefficients and their error bounds in NUM (K_A … K_EF1): MISS; HIT
 * with time 0 in NUM[K_OUT] (touching at the start); CERTIFY with the candidate time (the
 * formula's first root) in NUM[K_TIME] for a later contact; UNDECIDED when a bound does not
 * decide.
 */
function decide(): number {
  const A = NUM[K_A];
  const B = NUM[K_B];
  const C = NUM[K_C];
  const D = NUM[K_D];
  const eA = NUM[K_EA];
  const eB = NUM[K_EB];
  const eC = NUM[K_EC];
  const eD = NUM[K_ED];
  const f1 = NUM[K_F1];
  const e1 = NUM[K_EF1];
  // 1. Touching at the start?
  if (C <= -eC) {
    NUM[K_OUT] = 0;
    return HIT;
  }
  if (C <= eC) return UNDECIDED;
  // 2. Moving apart (or not moving relative to each other)?
  if (B >= eB) return MISS;
  if (B > -eB || A <= eA) return UNDECIDED;
  // 3. Where is the minimum, and does f reach 0?
  const AB = A + B;
  if (Math.abs(AB) <= eA + eB + 2 * U * Math.abs(AB)) return UNDECIDED;
  if (AB < 0) {
    // minimum at t ≥ 1: hit iff f(1) = |p1 − q1|² − R² ≤ 0
    if (f1 > e1) return MISS;
    if (f1 > -e1) return UNDECIDED;
  }
  if (AB > 0) {
    if (D < -eD) return MISS;
    if (D <= eD) return UNDECIDED;
  } else if (D <= eD) return UNDECIDED;
  // 4. The first root t1 = C / (−B + √D): no cancellation, since −B > 0. A candidate only: even
  // a bound of two ulps would not say which double is the first one of contact, so every such
  // time is certified (one pass in the common case, quickCertify).
  NUM[K_TIME] = C / (Math.sqrt(D) - B);
  return CERTIFY;
}

// Numbers kept between the helpers, in a Float64Array: module-level `let` numbers would box a
// fresh heap number on every store (an allocation per call); typed-array slots do not. Not
// re-entrant. The double-double tier's coefficients and bounds, the time candidate, (r1 + r2)²
// as hi + lo, and the last gap value in doubles (for the Newton step only).
const NUM = new Float64Array(23);
const K_A = 0, K_B = 1, K_C = 2, K_D = 3, K_EA = 4, K_EB = 5, K_EC = 6, K_ED = 7, K_TIME = 8, K_F1 = 9, K_EF1 = 10, K_RSH = 11, K_RSL = 12, K_GAP = 13, K_OUT = 14, K_T = 15, K_N = 16, K_LO = 17, K_HI = 18, K_NRM = 19, K_GT = 20, K_R1 = 21, K_R2 = 22;

/** a − b = s + twoDiffErr(a, b, s) exactly, s = fl(a − b) (Knuth). */
function twoDiffErr(a: number, b: number, s: number): number {
  const bb = a - s;
  return a - (s + bb) + (bb - b);
}

/**
 * A, B, C and D = B² − AC in double-double from the inputs (w = p0 − q0 and the two
 * displacements exactly by two-differences, dv = (p1 − p0) − (q1 − q0) to u², products by
 * Dekker's two-product), each rounded to a double at the end with a bound of order u² of the
 * magnitudes plus the final rounding u·|value|. Results in NUM[K_A]…NUM[K_ED].
 */
function coefficientsDD(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>): void {
  const r1 = NUM[K_R1];
  const r2 = NUM[K_R2];
  const dim = P0.length;
  let ah = 0, al = 0, bh = 0, bl = 0, ch = 0, cl = 0;
  let mA = 0, mB = 0, mC = 0;
  let fh = 0, fl = 0, mF = 0;
  // f(1) only where the float tier found the minimum may lie at t ≥ 1 (it left NUM[K_EF1] > 0)
  const needF1 = NUM[K_EF1] > 0;
  for (let i = 0; i < dim; i++) {
    if (needF1) {
      // |p1 − q1|² for f(1), the same way
      const vh = P1[i] - Q1[i];
      const vl = P1[i] - (vh + (P1[i] - vh)) + (P1[i] - vh - Q1[i]);
      const vH = SPLIT * vh - (SPLIT * vh - vh);
      const vq = vh * vh;
      const vs = fh + vq;
      fl += fh - (vs - (vs - fh)) + (vq - (vs - fh)) + ((vh - vH) * (vh - vH) - (vq - vH * vH - 2 * vH * (vh - vH)) + 2 * vh * vl);
      fh = vs;
      mF += vq;
    }
    const wh = P0[i] - Q0[i];
    const wl = P0[i] - (wh + (P0[i] - wh)) + (P0[i] - wh - Q0[i]);
    const ea = P1[i] - P0[i];
    const eal = P1[i] - (ea + (P1[i] - ea)) + (P1[i] - ea - P0[i]);
    const eb = Q1[i] - Q0[i];
    const ebl = Q1[i] - (eb + (Q1[i] - eb)) + (Q1[i] - eb - Q0[i]);
    const dh = ea - eb;
    const dl = ea - (dh + (ea - dh)) + (ea - dh - eb) + (eal - ebl);
    // Dekker's splits of dh and wh, each shared by two products
    const dH = SPLIT * dh - (SPLIT * dh - dh);
    const dL = dh - dH;
    const wH = SPLIT * wh - (SPLIT * wh - wh);
    const wL = wh - wH;
    // dv² = dh² + 2·dh·dl
    let p = dh * dh;
    let pl = dL * dL - (p - dH * dH - 2 * dH * dL) + 2 * dh * dl;
    let t = ah + p;
    al += ah - (t - (t - ah)) + (p - (t - ah)) + pl;
    ah = t;
    // w·dv = wh·dh + wh·dl + wl·dh
    p = wh * dh;
    pl = wL * dL - (p - wH * dH - wL * dH - wH * dL) + (wh * dl + wl * dh);
    t = bh + p;
    bl += bh - (t - (t - bh)) + (p - (t - bh)) + pl;
    bh = t;
    // w² = wh² + 2·wh·wl
    p = wh * wh;
    pl = wL * wL - (p - wH * wH - 2 * wH * wL) + 2 * wh * wl;
    t = ch + p;
    cl += ch - (t - (t - ch)) + (p - (t - ch)) + pl;
    ch = t;
    const md = Math.abs(ea) + Math.abs(eb);
    mA += md * md;
    mB += Math.abs(wh) * md;
    mC += wh * wh;
  }
  const Rh = r1 + r2;
  const Rl = (r1 - (Rh - (Rh - r1)) + (r2 - (Rh - r1)));
  const q = Rh * Rh;
  const ql = ((Rh - (SPLIT * Rh - (SPLIT * Rh - Rh))) * (Rh - (SPLIT * Rh - (SPLIT * Rh - Rh))) - (q - (SPLIT * Rh - (SPLIT * Rh - Rh)) * (SPLIT * Rh - (SPLIT * Rh - Rh)) - (Rh - (SPLIT * Rh - (SPLIT * Rh - Rh))) * (SPLIT * Rh - (SPLIT * Rh - Rh)) - (SPLIT * Rh - (SPLIT * Rh - Rh)) * (Rh - (SPLIT * Rh - (SPLIT * Rh - Rh))))) + 2 * Rh * Rl;
  const s = ch - q;
  cl += (ch - (s + (ch - s)) + ((ch - s) - q)) - ql;
  ch = s;
  if (needF1) {
    const fs = fh - q;
    fl += (fh - (fs + (fh - fs)) + ((fh - fs) - q)) - ql;
    NUM[K_F1] = fs + fl;
    NUM[K_EF1] = (16 + 4 * dim) * U * U * (mF + Rh * Rh) + U * Math.abs(NUM[K_F1]) + ETA;
  }
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
  const D = dh + ((b2 - (dh + (b2 - dh)) + ((b2 - dh) - ac)) + (((bh - (SPLIT * bh - (SPLIT * bh - bh))) * (bh - (SPLIT * bh - (SPLIT * bh - bh))) - (b2 - (SPLIT * bh - (SPLIT * bh - bh)) * (SPLIT * bh - (SPLIT * bh - bh)) - (bh - (SPLIT * bh - (SPLIT * bh - bh))) * (SPLIT * bh - (SPLIT * bh - bh)) - (SPLIT * bh - (SPLIT * bh - bh)) * (bh - (SPLIT * bh - (SPLIT * bh - bh))))) - ((ah - (SPLIT * ah - (SPLIT * ah - ah))) * (ch - (SPLIT * ch - (SPLIT * ch - ch))) - (ac - (SPLIT * ah - (SPLIT * ah - ah)) * (SPLIT * ch - (SPLIT * ch - ch)) - (ah - (SPLIT * ah - (SPLIT * ah - ah))) * (SPLIT * ch - (SPLIT * ch - ch)) - (SPLIT * ah - (SPLIT * ah - ah)) * (ch - (SPLIT * ch - (SPLIT * ch - ch)))))) + (2 * bh * bl - (ah * cl + al * ch)));
  const still = A === 0 && sameMotion(P0, P1, Q0, Q1);
  NUM[K_A] = still ? 0 : A;
  NUM[K_B] = still ? 0 : Bv;
  NUM[K_C] = C;
  NUM[K_D] = D;
  NUM[K_EA] = still ? 0 : eA2 + U * Math.abs(A) + ETA;
  NUM[K_EB] = still ? 0 : eB2 + U * Math.abs(Bv) + ETA;
  NUM[K_EC] = eC2 + U * Math.abs(C) + ETA;
  const aB = Math.abs(Bv);
  const aA = Math.abs(A);
  const aC = Math.abs(C);
  NUM[K_ED] = 2 * aB * eB2 + eB2 * eB2 + aA * eC2 + aC * eA2 + eA2 * eC2 + 8 * U * U * (Bv * Bv + aA * aC) + U * Math.abs(D) + ETA;
}

// The certificate's working set (module-level scratch, grown to the dimension; not re-entrant):
// w = p0 − q0 and dv = (p1 − p0) − (q1 − q0) as unevaluated sums hi + lo (w exactly, dv to
// within u² of its magnitude), the magnitudes |w| and |p1 − p0| + |q1 − q0| for the error
// bounds, and (r1 + r2)² as hi + lo exactly.
let WH = new Float64Array(4);
let WL = new Float64Array(4);
/** g = w + t·dv at quickCertify's last t (hi + lo), for the contact normal. */
let GH = new Float64Array(4);
let GL = new Float64Array(4);
let DH = new Float64Array(4);
let DL = new Float64Array(4);
let MW = new Float64Array(4);
let MD = new Float64Array(4);

/** Loads the working set for the gap evaluations of {@link certify}. */
function prepare(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>): void {
  const r1 = NUM[K_R1];
  const r2 = NUM[K_R2];
  const dim = P0.length;
  if (WH.length < dim) {
    WH = new Float64Array(dim);
    WL = new Float64Array(dim);
    GH = new Float64Array(dim);
    GL = new Float64Array(dim);
    DH = new Float64Array(dim);
    DL = new Float64Array(dim);
    MW = new Float64Array(dim);
    MD = new Float64Array(dim);
  }
  for (let i = 0; i < dim; i++) {
    const wh = P0[i] - Q0[i];
    WH[i] = wh;
    WL[i] = (P0[i] - (wh + (P0[i] - wh)) + ((P0[i] - wh) - Q0[i]));
    const ea = P1[i] - P0[i];
    const eal = (P1[i] - (ea + (P1[i] - ea)) + ((P1[i] - ea) - P0[i]));
    const eb = Q1[i] - Q0[i];
    const ebl = (Q1[i] - (eb + (Q1[i] - eb)) + ((Q1[i] - eb) - Q0[i]));
    const dh = ea - eb;
    DH[i] = dh;
    DL[i] = (ea - (dh + (ea - dh)) + ((ea - dh) - eb)) + (eal - ebl);
    MW[i] = Math.abs(wh);
    MD[i] = Math.abs(ea) + Math.abs(eb);
  }
  const Rh = r1 + r2;
  const Rl = (r1 - (Rh - (Rh - r1)) + (r2 - (Rh - r1)));
  NUM[K_RSH] = Rh * Rh;
  NUM[K_RSL] = ((Rh - (SPLIT * Rh - (SPLIT * Rh - Rh))) * (Rh - (SPLIT * Rh - (SPLIT * Rh - Rh))) - (NUM[K_RSH] - (SPLIT * Rh - (SPLIT * Rh - Rh)) * (SPLIT * Rh - (SPLIT * Rh - Rh)) - (Rh - (SPLIT * Rh - (SPLIT * Rh - Rh))) * (SPLIT * Rh - (SPLIT * Rh - Rh)) - (SPLIT * Rh - (SPLIT * Rh - Rh)) * (Rh - (SPLIT * Rh - (SPLIT * Rh - Rh))))) + 2 * Rh * Rl;
}

/**
 * The sign of f(t) = |w + t·dv|² − (r1 + r2)² at the double t = NUM[K_T] from the working set: 1, −1, or 0
 * when the error bound does not decide. First g = w + t·dv in double-double (an error-free
 * product and sum), rounded once, with the squares in doubles (error about (dim + 4)·u·|g|²,
 * enough unless the contact is nearly tangential or comes within a few radii of the start);
 * then, if undecided, the squares in double-double too (error of order u² of the magnitudes).
 */
function gapSignAt(dim: number): number {
  const t = NUM[K_T];
  const tH = SPLIT * t - (SPLIT * t - t);
  const tL = t - tH;
  let S = 0;
  let E = 0;
  for (let i = 0; i < dim; i++) {
    const d = DH[i];
    const w = WH[i];
    const dH = SPLIT * d - (SPLIT * d - d);
    const dL = d - dH;
    const ph = t * d;
    const pl = tL * dL - (ph - tH * dH - tL * dH - tH * dL) + t * DL[i];
    const gh = w + ph;
    const g = gh + ((w - (gh - (gh - w)) + (ph - (gh - w))) + (WL[i] + pl));
    // g is within u·|g| + 8u²·(|w| + t·|dv|) of the exact value
    const eg = U * Math.abs(g) + 8 * U * U * (MW[i] + t * MD[i]) + ETA;
    S += g * g;
    E += (2 * Math.abs(g) + eg) * eg;
  }
  const f = S - NUM[K_RSH] - NUM[K_RSL];
  const err = 1.01 * E + (dim + 3) * U * (S + NUM[K_RSH]) + ETA;
  NUM[K_GAP] = f;
  if (f > err) return 1;
  if (f < -err) return -1;
  // The squares in double-double.
  let sh = 0;
  let sl = 0;
  let mag = 0;
  for (let i = 0; i < dim; i++) {
    const ph = t * DH[i];
    const pl = ((t - (SPLIT * t - (SPLIT * t - t))) * (DH[i] - (SPLIT * DH[i] - (SPLIT * DH[i] - DH[i]))) - (ph - (SPLIT * t - (SPLIT * t - t)) * (SPLIT * DH[i] - (SPLIT * DH[i] - DH[i])) - (t - (SPLIT * t - (SPLIT * t - t))) * (SPLIT * DH[i] - (SPLIT * DH[i] - DH[i])) - (SPLIT * t - (SPLIT * t - t)) * (DH[i] - (SPLIT * DH[i] - (SPLIT * DH[i] - DH[i]))))) + t * DL[i];
    const gh = WH[i] + ph;
    const gl = (WH[i] - (gh - (gh - WH[i])) + (ph - (gh - WH[i]))) + (WL[i] + pl);
    const qh = gh * gh;
    const ql = ((gh - (SPLIT * gh - (SPLIT * gh - gh))) * (gh - (SPLIT * gh - (SPLIT * gh - gh))) - (qh - (SPLIT * gh - (SPLIT * gh - gh)) * (SPLIT * gh - (SPLIT * gh - gh)) - (gh - (SPLIT * gh - (SPLIT * gh - gh))) * (SPLIT * gh - (SPLIT * gh - gh)) - (SPLIT * gh - (SPLIT * gh - gh)) * (gh - (SPLIT * gh - (SPLIT * gh - gh))))) + 2 * gh * gl;
    const s = sh + qh;
    sl += (sh - (s - (s - sh)) + (qh - (s - sh))) + ql;
    sh = s;
    const m = MW[i] + t * MD[i];
    mag += m * m;
  }
  const s = sh - NUM[K_RSH];
  sl += (sh - (s + (sh - s)) + ((sh - s) - NUM[K_RSH])) - NUM[K_RSL];
  const f2 = s + sl;
  const err2 = (64 + 32 * dim) * U * U * (mag + NUM[K_RSH]) + 2 * U * Math.abs(f2) + ETA; // (see sweep3's bound: the low parts' sum grows with dim)
  NUM[K_GAP] = f2;
  if (f2 > err2) return 1;
  if (f2 < -err2) return -1;
  return 0;
}

/**
 * The first double of contact near the candidate NUM[K_TIME] (see {@link sweepTime}), or the
 * exact path's answer when the signs cannot be decided; A, B of f in NUM[K_A], NUM[K_B]. A bracket lo (f > 0) < hi (f ≤ 0) is grown from the
 * candidate — its neighbour first, then Newton steps on the accurate f(t) (f′ = 2(A·t + B) from
 * the coefficients in doubles, which only moves the candidate, never decides) — and then
 * halved until lo and hi are adjacent doubles: hi is then the first double of contact, since f
 * decreases up to the first root. No allocation.
 */
function certify(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>): number {
  STATS.certify++;
  let t = NUM[K_TIME];
  const dim = P0.length;
  prepare(P0, P1, Q0, Q1);
  if (!(t > 0)) t = Number.MIN_VALUE;
  if (t > 1) t = 1;
  // The bracket and the candidate live in NUM (K_LO, K_HI, K_T), the loop's own state is an
  // integer: double loop variables carried across calls can end up boxed on every iteration.
  NUM[K_LO] = 0; // f(0) > 0 is established
  NUM[K_HI] = -1;
  NUM[K_T] = t;
  const q = quickCertify(dim);
  if (q === HIT) {
    STATS.quick++;
    NUM[K_NRM] = 1; // GH + GL hold g at NUM[K_GT], for the normal
    return HIT;
  }
  if (q === MISS) return MISS;
  for (let iter = 0; iter < 64; iter++) {
    const r = bracketStep(dim, iter === 0);
    if (r === HIT) return HIT;
    if (r !== 0) break;
  }
  return exactCode(P0, P1, Q0, Q1);
}

/**
 * {@link certify}'s common case: one pass over the coordinates at the candidate t = NUM[K_T]
 * gives f(t) in double-double (g = w + t·dv by an error-free product and sum, its squares by
 * two-products: an error of order u² of the magnitudes, as in gapSignAt's second bound) and
 * γ = g·dv in doubles with a bound. Since f is a quadratic, f(t + o) = f(t) + 2o·γ + o²·|dv|²
 * exactly, and for an offset o of a few ulps the terms in o need only a relative accuracy far
 * below 1, so doubles suffice. A Newton step c = t − f(t) / (2γ) lands within an ulp or so of the
 * root; the signs of f at c⁻⁻, c⁻, c, c⁺ (exact offsets from t by Sterbenz's lemma) then show the
 * first double of contact: f > 0 at one double and ≤ 0 at the next (f ≤ 0 on one interval, and
 * f(0) > 0). Up to three passes when the candidate was far. HIT with NUM[K_OUT] the first double
 * of contact, or 0 when this does not settle it (the bracket search then does).
 */
function quickCertify(dim: number): number {
  for (let pass = 0; pass < 3; pass++) {
    const t = NUM[K_T];
    const tH = SPLIT * t - (SPLIT * t - t);
    const tL = t - tH;
    let sh = 0;
    let sl = 0;
    let mag = 0;
    let gd = 0;
    let egd = 0;
    let aa = 0;
    let ea = 0;
    for (let i = 0; i < dim; i++) {
      const d = DH[i];
      const w = WH[i];
      const md = MD[i];
      const dH = SPLIT * d - (SPLIT * d - d);
      const dL = d - dH;
      const ph = t * d;
      const pl = tL * dL - (ph - tH * dH - tL * dH - tH * dL) + t * DL[i];
      const gh = w + ph;
      const gb = gh - w;
      const gl = w - (gh - gb) + (ph - gb) + (WL[i] + pl);
      GH[i] = gh;
      GL[i] = gl;
      // the square gh² + 2·gh·gl, accumulated in double-double
      const gH = SPLIT * gh - (SPLIT * gh - gh);
      const q = gh * gh;
      const ql = (gh - gH) * (gh - gH) - (q - gH * gH - 2 * gH * (gh - gH)) + 2 * gh * gl;
      const sn = sh + q;
      sl += sh - (sn - (sn - sh)) + (q - (sn - sh)) + ql;
      sh = sn;
      const m = MW[i] + t * md;
      mag += m * m;
      // γ = g·dv in doubles: g within u·|g| + 8u²·m of the exact value, dh within 2.01u·md of dv
      const g = gh + gl;
      const eg = U * Math.abs(g) + 8 * U * U * m + ETA;
      const p = g * d;
      gd += p;
      egd += eg * Math.abs(d) + (Math.abs(g) + eg) * 2.01 * U * md + (dim + 1) * U * Math.abs(p);
      aa += d * d;
      ea += md * md;
    }
    const f0 = sh - NUM[K_RSH];
    const f = f0 + (sl + (sh - (f0 + (sh - f0)) + (sh - f0 - NUM[K_RSH])) - NUM[K_RSL]);
    const ef = (64 + 32 * dim) * U * U * (mag + NUM[K_RSH]) + 2 * U * Math.abs(f) + ETA; // (see sweep3's bound)
    egd += ETA;
    ea *= (dim + 8) * U;
    if (f > ef) {
      // A miss? f(t + o) = f(t) + 2o·γ + A·o² ≥ f(t) − γ²/A for every o, and ≥ f(t) over the
      // step where t = 0 and γ ≥ 0, or t = 1 and γ ≤ 0: a lower bound of f's minimum over [0, 1]
      // from this one evaluation (A ≥ aa − ea, |γ| ≤ |gd| + egd; the few roundings are covered
      // by 8u, an underflow of γ·(γ/A) by ETA: γ² alone could underflow to 0 where A does not).
      const al = aa - ea;
      const gg = Math.abs(gd) + egd;
      const pen = (t === 0 && gd >= egd) || (t === 1 && gd <= -egd) ? 0 : al > 0 ? gg * (gg / al) * (1 + 8 * U) + ETA : -1;
      if (pen >= 0 && f > (ef + pen) * (1 + 4 * U)) return MISS;
    } else if (t === 0 && f < -ef) {
      NUM[K_OUT] = 0; // touching at the start
      NUM[K_GT] = 0;
      return HIT;
    }
    // The first root of the local quadratic f(t) + 2o·γ + A·o² (in the form without
    // cancellation for either sign of γ): within an ulp or so of f's first root when t is close;
    // QC keeps the numbers the checks below share (no double crosses a call).
    const disc = gd * gd - aa * f;
    if (!(disc >= 0)) return 0;
    const sq = Math.sqrt(disc);
    NUM[K_N] = t + (gd <= 0 ? f / (sq - gd) : -(gd + sq) / aa);
    if (!(NUM[K_N] > 0.75 * t && NUM[K_N] < 1.5 * t)) {
      // far from t: evaluate there (clamped to the step: a first root past 1 is then a miss by
      // f(1) > 0 with γ ≤ 0, one before 0 a touch at the start)
      if (!(NUM[K_N] > 0)) NUM[K_N] = 0;
      if (!(NUM[K_N] <= 1)) NUM[K_N] = 1;
      if (NUM[K_N] === t) return 0;
      NUM[K_T] = NUM[K_N];
      continue;
    }
    QC[0] = f;
    QC[1] = ef;
    QC[2] = gd;
    QC[3] = egd;
    QC[4] = aa;
    QC[5] = ea;
    QC[6] = t;
    if (signsAround() === HIT) return HIT;
    // undecided from t's expansion (c too far for γ's bound): evaluate at c itself
    if (QC[7] === t) return 0;
    NUM[K_T] = QC[7];
  }
  return 0;
}

/**
 * The signs of f at c = NUM[K_N] (clamped to 1) and at its neighbouring doubles, from the
 * expansion about t = QC[6] (f, γ, |dv|² and their bounds in QC; see {@link signNear}): HIT with
 * NUM[K_OUT] the first double of contact (f > 0 at one double and ≤ 0 at the next: f ≤ 0 on one
 * interval, so nothing before is a contact), NUM[K_GT] = t; 0 when the signs do not settle it.
 */
function signsAround(): number {
  const t = QC[6];
  if (NUM[K_N] > 1) NUM[K_N] = 1;
  // c⁻ and c: the usual outcome (neighbours by ulp.ts's PRED / SUCC, stepIn near the subnormals)
  QC[7] = NUM[K_N];
  if (NUM[K_N] >= N_MIN) NUM[K_N] -= NUM[K_N] * PRED_F;
  else stepIn(NUM, K_N, false);
  QC[8] = NUM[K_N] - t;
  const below = signNear();
  QC[8] = QC[7] - t;
  const at = signNear();
  NUM[K_GT] = t;
  if (below > 0 && at < 0) {
    NUM[K_OUT] = QC[7];
    return HIT;
  }
  if (at > 0 && QC[7] < 1) {
    NUM[K_N] = QC[7];
    if (NUM[K_N] >= N_MIN) NUM[K_N] += NUM[K_N] * SUCC_F;
    else stepIn(NUM, K_N, true);
    QC[8] = NUM[K_N] - t;
    if (NUM[K_N] <= 1 && signNear() < 0) {
      NUM[K_OUT] = NUM[K_N];
      return HIT;
    }
  } else if (below < 0) {
    const hi = NUM[K_N];
    if (NUM[K_N] >= N_MIN) NUM[K_N] -= NUM[K_N] * PRED_F;
    else stepIn(NUM, K_N, false);
    QC[8] = NUM[K_N] - t;
    if (NUM[K_N] > 0 && signNear() > 0) {
      NUM[K_OUT] = hi;
      return HIT;
    }
  }
  return 0;
}

/**
 * The sign of f(t + o) = f(t) + 2o·γ + o²·|dv|² from QC (f(t) and its bound, γ and its bound,
 * |dv|² and its bound, and o in QC[8]: a double argument would be boxed where V8 does not
 * inline): 1, −1, or 0 when the bound does not decide. o is exact (a difference of nearby
 * doubles); the three roundings of the evaluation are bounded by 4u of its terms.
 */
function signNear(): number {
  const o = QC[8];
  const ao = Math.abs(o);
  const a = 2 * o * QC[2];
  const b = o * (o * QC[4]); // (o·o alone could underflow; this way an underflow costs ≤ 2⁻¹⁰⁷⁴, in ETA)
  const v = QC[0] + a + b;
  const e = QC[1] + 2 * ao * QC[3] + ao * (ao * QC[5]) + 4 * U * (Math.abs(QC[0]) + Math.abs(a) + b) + ETA;
  return v > e ? 1 : v < -e ? -1 : 0;
}
// quickCertify's numbers: f(t), its bound, γ, its bound, |dv|², its bound, t, c, the offset o
const QC = new Float64Array(9);
// sweep3's three magnitudes of the normal (module-level scratch, not re-entrant)
const MX = new Float64Array(3);
// sweep3's ends and factors of a hit's centres, picked by index (module-level scratch, not re-entrant)
const SEL = new Float64Array(6);

/**
 * One step of {@link certify}'s bracket search at t = NUM[K_T]: HIT (NUM[K_OUT] is the first
 * double of contact), 0 to go on (the next candidate in NUM[K_T]), or −1 to give up (a sign the
 * double-double bound cannot decide, or f(1) > 0 against the decision).
 */
function bracketStep(dim: number, first: boolean): number {
  const t = NUM[K_T];
  const f = gapSignAt(dim);
  if (f === 0) return -1;
  if (f > 0) NUM[K_LO] = t;
  else NUM[K_HI] = t;
  const lo = NUM[K_LO];
  const hi = NUM[K_HI];
  if (hi > 0) {
    NUM[K_N] = lo;
    stepIn(NUM, K_N, true);
    if (NUM[K_N] >= hi) {
      NUM[K_OUT] = hi;
      return HIT;
    }
  }
  let tn: number;
  if (first) {
    // the candidate is usually within an ulp or two
    NUM[K_N] = t;
    stepIn(NUM, K_N, f > 0);
    tn = NUM[K_N];
  } else if (lo > 0 && hi > 0) tn = lo + (hi - lo) * 0.5; // bisection once bracketed
  else {
    // a Newton step on the accurate f (f′ = 2(A·t + B) < 0 before the first root, A and B in doubles)
    const fd = 2 * (NUM[K_A] * t + NUM[K_B]);
    tn = t - NUM[K_GAP] / fd; // (no NaN literal here: it would make tn a boxed value)
    if (!(fd < 0) || (f > 0 ? !(tn > t) : !(tn < t))) {
      NUM[K_N] = t;
      stepIn(NUM, K_N, f > 0);
      tn = NUM[K_N];
    }
  }
  if (tn <= lo) {
    NUM[K_N] = lo;
    stepIn(NUM, K_N, true);
    tn = NUM[K_N];
  }
  if (hi > 0 && tn >= hi) {
    NUM[K_N] = hi;
    stepIn(NUM, K_N, false);
    tn = NUM[K_N];
  }
  if (tn > 1) {
    if (!(hi > 0)) return -1;
    NUM[K_N] = hi;
    stepIn(NUM, K_N, false);
    tn = NUM[K_N];
  }
  NUM[K_T] = tn;
  return 0;
}


/**
 * How many calls of {@link sweepTime} took each path (for the benchmark's report; reset the
 * fields to 0 to count afresh): `double`, decided in doubles alone (misses, and touching at the
 * start: every later time is certified); `doubleDouble`,
 * decisions redone with double-double coefficients, or (3D) decided by one double-double
 * evaluation of the gap (a miss, or touching at the start); `certify`, times certified by
 * double-double evaluations of the gap, of which `quick` were settled by the one-pass certificate
 * (a Newton step and the signs at the neighbouring doubles) without the bracket search; `exact`,
 * BigInt decisions and time searches (a call can count in more than one of the last three);
 * `staged`, (3D) the cases among those whose gap at the chosen time was settled in doubles, its
 * double-double low parts left out (a contact clearly inside the spheres' reach, as a tiny and
 * fast one).
 */
export const sweepStats = STATS;

/** The exact path: decisions in BigInt, and the time by bisection over the doubles. */
function exactTime(P0: ArrayLike<number>, P1: ArrayLike<number>, Q0: ArrayLike<number>, Q1: ArrayLike<number>, r1: number, r2: number): number {
  STATS.exact++;
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
  checkRadius(r, 'pathsWithin: r');
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
  checkRadius(ra, 'capsuleDistance: ra');
  checkRadius(rb, 'capsuleDistance: rb');
  return closestPoints(segment(A0, A1), segment(B0, B1)).distance - (ra + rb);
}
