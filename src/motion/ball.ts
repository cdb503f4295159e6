/**
 * A ball bouncing off walls in 2D over one time step, without ever tunnelling or sinking in.
 *
 * The 2D tutorial ("Intersection of Line Segments", its "Kicker" demo) tests the ball's velocity
 * segment against the table's walls and reflects it off the wall normal. Done in floating point
 * with a zero-radius ball, that lets it pass through walls, sink into them and stick in corners.
 * Here the ball's centre is a moving point and each wall, inflated by the ball's radius, is a
 * capsule (a stadium): the ball touches a wall exactly when its centre comes within r of the
 * wall segment. Within a step the centre flies straight from x to the double end point
 * x + τ·v; for that flight:
 * - whether it comes within r of a wall is the exact segments-within-r predicate
 *   (closest/within.ts: a filtered distance, exact BigInt where the filter cannot decide);
 * - a wall it touches at the start while moving away or along it (the exact sign of the
 *   derivative of the squared distance) is no contact: the distance along a line is convex, so
 *   it cannot come back;
 * - the earliest contact comes from the wall's features in floating point (the face: the
 *   signed distance to the wall's line, linear in time; each end: the sphere-sweep quadratic
 *   in the cancellation-free form t = C / (−B + √(B² − AC)));
 * - the ball is then put at the last point of its flight, searched backwards from the
 *   contact, where its exact distance to every wall is ≥ r (it never ends inside a wall,
 *   whatever the rounding of x + λ·(x_end − x));
 * - it reflects off the contact normal, the unit vector from the nearest point of the wall to
 *   the centre (the wall's face normal, or the direction from its end: corners), keeping a
 *   tiny outward normal component so the next flight leaves the wall.
 */
import { SkewlineInputError, toVector } from '../core/primitives.js';
import type { VecLike } from '../core/types.js';
import { SEGMENT, exactClosestFlat, toScaledBigInts } from '../core/exact.js';
import { compareWithSquare } from '../closest/within.js';
import { closestSegSeg2 } from '../closest/segment-kernels.js';
import { checkOptions, numberOption } from '../core/options.js';

/** The option keys {@link bounceBall} accepts. */
const BOUNCE_OPTIONS = ['restitution', 'maxHits'] as const;

const U = 2 ** -53;

/** The ball given to {@link bounceBall}. */
export interface Ball {
  /** The centre, [x, y] or {x, y}. */
  position: VecLike;
  /** The velocity, in units per second. */
  velocity: VecLike;
  /** The radius, a finite number ≥ 0. */
  radius: number;
}

/** One bounce within a step. */
export interface BallHit {
  /** Seconds from the start of the step. */
  time: number;
  /** The index of the wall. */
  wall: number;
  /** The point of the wall the ball touches (the nearest point of the wall segment to the centre). */
  point: number[];
  /** The unit contact normal, from `point` towards the ball's centre. */
  normal: number[];
  /** The ball's centre at the bounce. */
  position: number[];
  /** The velocity after the bounce. */
  velocity: number[];
}

/** The result of {@link bounceBall}. */
export interface BounceResult {
  /** The centre at the end of the step. */
  position: number[];
  /** The velocity at the end of the step. */
  velocity: number[];
  /** The bounces in order of time. */
  hits: BallHit[];
}

/** Options of {@link bounceBall}. */
export interface BounceOptions {
  /** The coefficient of restitution in [0, 1]: the normal speed is multiplied by it at a bounce. Default 1. */
  restitution?: number;
  /** The most bounces in one step (default 1,024, at most 65,536); see {@link bounceBall} for what happens there. */
  maxHits?: number;
}

/** Walls as `[[x0, y0], [x1, y1]][]` or a flat Float64Array x0, y0, x1, y1 per wall. */
export type Walls = readonly (readonly [VecLike, VecLike])[] | Float64Array;

// Module-level scratch: the flight (path) and a wall, on the flat segment layout a0, a1, b0, b1;
// BS passes numbers between the helpers (a double argument or result of a call V8 does not
// inline is boxed in a fresh heap number, an allocation).
const BS = new Float64Array(6);
const B_PX = 0, B_PY = 1, B_LAM = 2, B_HA = 3, B_HB = 4, B_R = 5;

/**
 * √(BS[B_HA]² + BS[B_HB]²) into BS[B_HA], without overflow or underflow (scaled by the larger
 * magnitude; 0 for two zeros). Through BS, not arguments, and not Math.hypot: the doubles would
 * be boxed on the way in and out (measured: ~14 bytes a step of bounceBallFlat).
 */
function hyp(): void {
  const x = Math.abs(BS[B_HA]);
  const y = Math.abs(BS[B_HB]);
  const m = x > y ? x : y;
  if (!(m > 0)) {
    BS[B_HA] = 0;
    return;
  }
  const p = x / m;
  const q = y / m;
  BS[B_HA] = m * Math.sqrt(p * p + q * q);
}
const seg = new Float64Array(8);
const kout = new Float64Array(2);

function flatWalls(walls: Walls): Float64Array {
  if (walls instanceof Float64Array) {
    if (walls.length % 4 !== 0) throw new SkewlineInputError(`bounceBall: walls as a Float64Array need 4 numbers per wall (got ${walls.length})`);
    for (let i = 0; i < walls.length; i++) {
      if (!Number.isFinite(walls[i])) throw new SkewlineInputError(`bounceBall: wall ${i >> 2} has a non-finite coordinate (${walls[i]})`);
    }
    return walls;
  }
  if (!Array.isArray(walls)) throw new SkewlineInputError('bounceBall: walls must be an array of [[x0, y0], [x1, y1]] or a Float64Array');
  const w = new Float64Array(4 * walls.length);
  for (let k = 0; k < walls.length; k++) {
    const s = walls[k] as unknown;
    if (!Array.isArray(s) || s.length !== 2) throw new SkewlineInputError(`bounceBall: wall ${k} must be a pair of points [[x0, y0], [x1, y1]]`);
    const p = toVector(s[0], `bounceBall: wall ${k} start`);
    const q = toVector(s[1], `bounceBall: wall ${k} end`);
    if (p.length !== 2 || q.length !== 2) throw new SkewlineInputError(`bounceBall: wall ${k} is not 2D`);
    w[4 * k] = p[0];
    w[4 * k + 1] = p[1];
    w[4 * k + 2] = q[0];
    w[4 * k + 3] = q[1];
  }
  return w;
}

/**
 * The sign of |(px, py) − wall| − r, exactly: 1 outside (distance > r), 0 touching, −1 inside.
 * A filtered floating-point distance first, exact BigInt where the filter cannot decide.
 */
export function wallGapSign(px: number, py: number, W: ArrayLike<number>, k: number, r: number, floatOnly = false): number {
  BS[B_PX] = px;
  BS[B_PY] = py;
  BS[B_R] = r;
  return gapSignAt(W, k, floatOnly);
}

/** {@link wallGapSign} for the centre in BS[B_PX], BS[B_PY] and the radius in BS[B_R] (no double crosses the call, so none is boxed). */
function gapSignAt(W: ArrayLike<number>, k: number, floatOnly: boolean): number {
  const r = BS[B_R];
  const px = BS[B_PX];
  const py = BS[B_PY];
  const ax = W[k];
  const ay = W[k + 1];
  const ex = W[k + 2] - ax;
  const ey = W[k + 3] - ay;
  const qx = px - ax;
  const qy = py - ay;
  const ee = ex * ex + ey * ey;
  let s = ee > 0 ? (qx * ex + qy * ey) / ee : 0;
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  const dx = qx - s * ex;
  const dy = qy - s * ey;
  const d = Math.sqrt(dx * dx + dy * dy);
  // Rounding of q, e, s·e and the norm: generously 16·u of the magnitudes involved.
  const err = 16 * U * (Math.abs(qx) + Math.abs(qy) + Math.abs(ex) + Math.abs(ey) + r);
  if (d - err > r) return 1;
  if (d + err < r) return -1;
  if (floatOnly) return -2;
  return gapSignExact(px, py, W[k], W[k + 1], W[k + 2], W[k + 3], r);
}

/**
 * The exact sign of |P − segment AB| − r in integers (every double is m·2^e): with q = P − A and
 * e = B − A, the nearest point is A when q·e ≤ 0, B when q·e ≥ e·e, and otherwise the squared
 * distance is (|q|²·|e|² − (q·e)²) / |e|², compared with r² without dividing.
 */
function gapSignExact(px: number, py: number, ax: number, ay: number, bx: number, by: number, r: number): number {
  const { ints } = toScaledBigInts([px, py, ax, ay, bx, by, r]);
  const [PX, PY, AX, AY, BX, BY, R] = ints;
  const qx = PX - AX;
  const qy = PY - AY;
  const ex = BX - AX;
  const ey = BY - AY;
  const se = qx * ex + qy * ey;
  const ee = ex * ex + ey * ey;
  const R2 = R * R;
  let lhs: bigint;
  let rhs: bigint;
  if (ee === 0n || se <= 0n) {
    lhs = qx * qx + qy * qy;
    rhs = R2;
  } else if (se >= ee) {
    const dx = PX - BX;
    const dy = PY - BY;
    lhs = dx * dx + dy * dy;
    rhs = R2;
  } else {
    lhs = (qx * qx + qy * qy) * ee - se * se;
    rhs = R2 * ee;
  }
  return lhs > rhs ? 1 : lhs < rhs ? -1 : 0;
}

/**
 * The exact sign of the derivative at the start of the squared distance from the centre moving
 * from (x, y) towards (x1, y1) to the wall: > 0 moving away, 0 along, < 0 approaching. The
 * nearest point of the wall is an end (the dot product of centre − end with the motion) or
 * interior (the product of the cross products e × (centre − a) and e × motion).
 */
function approachSign(x: number, y: number, x1: number, y1: number, W: ArrayLike<number>, k: number): number {
  const ax = W[k];
  const ay = W[k + 1];
  const bx = W[k + 2];
  const by = W[k + 3];
  const { ints } = toScaledBigInts([x, y, x1, y1, ax, ay, bx, by]);
  const [X, Y, X1, Y1, AX, AY, BX, BY] = ints;
  const dX = X1 - X;
  const dY = Y1 - Y;
  const eX = BX - AX;
  const eY = BY - AY;
  const sgn = (v: bigint): number => (v > 0n ? 1 : v < 0n ? -1 : 0);
  const sa = (X - AX) * eX + (Y - AY) * eY; // projection parameter · |e|²
  const ee = eX * eX + eY * eY;
  if (ee === 0n || sa <= 0n) return sgn((X - AX) * dX + (Y - AY) * dY);
  if (sa >= ee) return sgn((X - BX) * dX + (Y - BY) * dY);
  return sgn((eX * (Y - AY) - eY * (X - AX)) * (eX * dY - eY * dX));
}

/** The same sign in floating point when it is clear, else exact, for the flight in seg[0..3]. */
function approach(W: ArrayLike<number>, k: number): number {
  const x = seg[0];
  const y = seg[1];
  const x1 = seg[2];
  const y1 = seg[3];
  const ax = W[k];
  const ay = W[k + 1];
  const ex = W[k + 2] - ax;
  const ey = W[k + 3] - ay;
  const qx = x - ax;
  const qy = y - ay;
  const dx = x1 - x;
  const dy = y1 - y;
  const ee = ex * ex + ey * ey;
  const se = qx * ex + qy * ey;
  const mag = (Math.abs(qx) + Math.abs(qy) + Math.abs(ex) + Math.abs(ey)) * (Math.abs(dx) + Math.abs(dy));
  const magE = (Math.abs(qx) + Math.abs(qy)) * (Math.abs(ex) + Math.abs(ey));
  const errS = 8 * U * magE;
  let v: number;
  if (ee === 0 || se < -errS) v = qx * dx + qy * dy;
  else if (se > ee + errS + 4 * U * ee) v = (qx - ex) * dx + (qy - ey) * dy;
  else if (se > errS && se < ee - errS - 4 * U * ee) {
    const c0 = ex * qy - ey * qx;
    const cd = ex * dy - ey * dx;
    const e0 = 8 * U * (Math.abs(ex * qy) + Math.abs(ey * qx));
    const e1 = 8 * U * (Math.abs(ex * dy) + Math.abs(ey * dx));
    if (Math.abs(c0) > e0 && Math.abs(cd) > e1) return (c0 > 0) === (cd > 0) ? 1 : -1; // small integers: no boxed double
    return approachSign(x, y, x1, y1, W, k);
  } else return approachSign(x, y, x1, y1, W, k);
  if (Math.abs(v) > 16 * U * mag) return v > 0 ? 1 : -1;
  return approachSign(x, y, x1, y1, W, k);
}

/**
 * The fraction λ ∈ [0, 1] of the flight (x, y) → (x1, y1) at which the centre first comes within
 * r of wall k (floating point; the exact predicate has already said it does). Falls back on the
 * flight's nearest point to the wall when rounding hides the root (a grazing touch). Into BS[B_LAM].
 */
function contactFraction(W: ArrayLike<number>, k: number): void {
  const r = BS[B_R];
  const x = seg[0];
  const y = seg[1];
  const x1 = seg[2];
  const y1 = seg[3];
  const ax = W[k];
  const ay = W[k + 1];
  const ex = W[k + 2] - ax;
  const ey = W[k + 3] - ay;
  const px = x - ax;
  const py = y - ay;
  const dx = x1 - x;
  const dy = y1 - y;
  const A = dx * dx + dy * dy;
  const ee = ex * ex + ey * ey;
  // Each end: the smaller root in [0, 1] of A λ² + 2B λ + C for the point approaching the
  // circle of radius r about it (B < 0), in the cancellation-free form λ = C / (−B + √(B² − AC))
  // (Numerical Recipes §5.6); written out here, not a call (a double crossing a call is boxed).
  let best = Infinity;
  for (let end = 0; end < 2; end++) {
    const qx = end === 0 ? px : px - ex;
    const qy = end === 0 ? py : py - ey;
    const B = qx * dx + qy * dy;
    const C = qx * qx + qy * qy - r * r;
    if (!(B < 0)) continue; // moving away from this end or along it: no first contact
    if (C <= 0) {
      best = 0;
      continue;
    }
    const D = B * B - A * C;
    if (!(D >= 0)) continue;
    const t = C / (Math.sqrt(D) - B);
    if (t <= 1 && t < best) best = t;
  }
  if (ee > 0) {
    const c0 = ex * py - ey * px;
    const cd = ex * dy - ey * dx;
    if (c0 * cd < 0) {
      let lf = (Math.abs(c0) - r * Math.sqrt(ee)) / Math.abs(cd);
      if (lf < 0) lf = 0;
      if (lf < best) {
        const s = (px * ex + py * ey + lf * (dx * ex + dy * ey)) / ee;
        if (s >= 0 && s <= 1) best = lf;
      }
    }
  }
  if (best <= 1) {
    BS[B_LAM] = best;
    return;
  }
  // Rounding hid the root: the flight's point nearest the wall.
  seg[0] = x;
  seg[1] = y;
  seg[2] = x1;
  seg[3] = y1;
  seg[4] = ax;
  seg[5] = ay;
  seg[6] = W[k + 2];
  seg[7] = W[k + 3];
  closestSegSeg2(seg, 0, kout, 0);
  BS[B_LAM] = kout[0];
}

/**
 * Whether the flight and the wall loaded in `seg` (path a0a1, wall b0b1) can come within r: a
 * bounding-box test with a margin of 2⁻⁴⁰ of the coordinates' size (far above rounding), so a
 * false is certain. {@link flightWithin} then decides exactly.
 */
function nearFlight(d: Float64Array): boolean {
  const r = BS[B_R];
  const size = Math.abs(d[0]) + Math.abs(d[1]) + Math.abs(d[2]) + Math.abs(d[3]) + Math.abs(d[4]) + Math.abs(d[5]) + Math.abs(d[6]) + Math.abs(d[7]) + r;
  const reach = r + 2 ** -40 * size;
  if (Math.min(d[4], d[6]) > Math.max(d[0], d[2]) + reach || Math.max(d[4], d[6]) < Math.min(d[0], d[2]) - reach) return false;
  return !(Math.min(d[5], d[7]) > Math.max(d[1], d[3]) + reach || Math.max(d[5], d[7]) < Math.min(d[1], d[3]) - reach);
}

/**
 * The sign of the orientation of the point d[j], d[j + 1] against the line through d[i..i+3] when the filter
 * certifies it (±1), else 0. Bound 8·u·(|t₁| + |t₂|), above Shewchuk's ccwerrboundA (which
 * covers the rounded differences too); no overflow, as bounceBallFlat's inputs are within 2⁵⁰⁰.
 */
function orientSign(d: Float64Array, i: number, j: number): number {
  const cx = d[j];
  const cy = d[j + 1];
  const t1 = (d[i + 2] - d[i]) * (cy - d[i + 1]);
  const t2 = (d[i + 3] - d[i + 1]) * (cx - d[i]);
  const det = t1 - t2;
  const err = 8 * U * (Math.abs(t1) + Math.abs(t2));
  return det > err ? 1 : det < -err ? -1 : 0;
}

/**
 * The exact within-r decision of {@link nearFlight}'s flight and wall. In 2D two segments are
 * at distance 0 when they cross and otherwise at the least of the four distances from an end of
 * one to the other (Ericson, Real-Time Collision Detection, §5.1.9), so a floating-point filter
 * decides from the four end-to-segment gaps ({@link gapSignAt}'s certified filter) and the
 * four certified orientations; the exact squared distance (BigInt) where the filter cannot
 * decide. Passes every double through BS or `d`, so the common case allocates nothing.
 */
function flightWithin(d: Float64Array): boolean {
  const r = BS[B_R];
  let undecided = false;
  for (let e = 0; e < 4; e++) {
    // ends of the flight against the wall (d[4..7]), ends of the wall against the flight (d[0..3])
    BS[B_PX] = d[2 * e];
    BS[B_PY] = d[2 * e + 1];
    const g = gapSignAt(d, e < 2 ? 4 : 0, true);
    if (g === -1) return true;
    if (g !== 1) undecided = true;
  }
  if (!undecided) {
    const o1 = orientSign(d, 0, 4);
    const o2 = orientSign(d, 0, 6);
    const o3 = orientSign(d, 4, 0);
    const o4 = orientSign(d, 4, 2);
    // Every end is farther than r from the other segment: within r only if they cross.
    if ((o1 !== 0 && o1 === o2) || (o3 !== 0 && o3 === o4)) return false;
    if (o1 * o2 === -1 && o3 * o4 === -1) return true;
  }
  const { distanceSq } = exactClosestFlat(SEGMENT, SEGMENT, 2, d, 0);
  return compareWithSquare(distanceSq.num, distanceSq.den, r) <= 0;
}

/**
 * Whether the centre at (BS[B_PX], BS[B_PY]) is at distance ≥ r from every wall: exactly, or with
 * `floatOnly` only where the floating-point filter certifies it (undecided counts as not clear).
 */
function clearOfAll(W: Float64Array, floatOnly: boolean): boolean {
  for (let k = 0; k < W.length; k += 4) if (gapSignAt(W, k, floatOnly) < 0) return false;
  return true;
}

function check(x: unknown, what: string, lo: number, hi = Infinity): number {
  if (typeof x !== 'number' || !Number.isFinite(x) || x < lo || x > hi) {
    throw new SkewlineInputError(`bounceBall: ${what} must be a finite number${hi < Infinity ? ` in [${lo}, ${hi}]` : ` ≥ ${lo}`} (got ${String(x)})`);
  }
  return x;
}

/**
 * Moves a ball for one time step `dt` among fixed walls in 2D, bouncing off them: the ball flies
 * straight between bounces and reflects off the contact normal (the wall's face, or the
 * direction from a wall's end when it hits the end: corners and free-standing walls). Walls are
 * two-sided segments, may touch, cross, meet at any angle or have zero length (a post).
 *
 * Guarantees (see the module comment for how): every "does the ball reach this wall during this
 * flight" is decided exactly; the ball never ends a step, nor stops at a bounce, at an exact
 * distance below `radius` from any wall (margin 0: the distance is ≥ radius exactly), so a ball
 * inside a closed table never leaves it. With restitution 1 the speed changes only by rounding
 * (about one ulp per bounce). Contacts where the ball touches a wall while moving away from it
 * or along it are not bounces.
 *
 * Edge cases: `dt = 0` or a zero velocity return the ball unchanged. A ball exactly touching a
 * wall at the start is fine. After `maxHits` bounces in one step (default 1,024: a ball wedged
 * between two walls, or absurd speeds in a tiny pocket; at 1,000 table widths per second a ball
 * between two walls half a width apart bounces about 70 times a step) the ball stops for the rest of the step
 * where it is — outside every wall, with its velocity after the last bounce — so the step always
 * ends; the last hit's time then tells how far the step got.
 * Not re-entrant (module-level scratch). Allocates its result; walls given as arrays are copied
 * into a Float64Array on every call (pass a Float64Array to avoid that).
 * @throws SkewlineInputError on a bad ball, walls or options, and when the ball starts
 * overlapping a wall (its centre closer than `radius`): the message names the wall.
 */
export function bounceBall(ball: Ball, walls: Walls, dt: number, options: BounceOptions = {}): BounceResult {
  if (ball === null || typeof ball !== 'object') throw new SkewlineInputError('bounceBall: ball must be { position, velocity, radius }');
  const P = toVector(ball.position, 'bounceBall: ball.position');
  const V = toVector(ball.velocity, 'bounceBall: ball.velocity');
  if (P.length !== 2 || V.length !== 2) throw new SkewlineInputError('bounceBall: the ball must be 2D (position and velocity with x and y)');
  const r = check(ball.radius, 'ball.radius', 0);
  check(dt, 'dt', 0);
  checkOptions(options, BOUNCE_OPTIONS, 'bounceBall');
  const e = numberOption(options as Record<string, unknown> | undefined, 'restitution', 'bounceBall', 0, 1, 1);
  const maxHits = numberOption(options as Record<string, unknown> | undefined, 'maxHits', 'bounceBall', 0, 65536, 1024);
  const W = flatWalls(walls);
  STATE[0] = P[0];
  STATE[1] = P[1];
  STATE[2] = V[0];
  STATE[3] = V[1];
  if (hitScratch.length < HIT_STRIDE * Math.min(maxHits, 1 << 16)) hitScratch = new Float64Array(HIT_STRIDE * Math.min(maxHits, 1 << 16));
  const n = bounceBallFlat(STATE, W, r, dt, e, maxHits, hitScratch);
  const hits: BallHit[] = [];
  for (let h = 0; h < n; h++) {
    const o = HIT_STRIDE * h;
    const H = hitScratch;
    hits.push({ time: H[o], wall: H[o + 1], point: [H[o + 2], H[o + 3]], normal: [H[o + 4], H[o + 5]], position: [H[o + 6], H[o + 7]], velocity: [H[o + 8], H[o + 9]] });
  }
  return { position: [STATE[0], STATE[1]], velocity: [STATE[2], STATE[3]], hits };
}

/**
 * bounceBallFlat's checks, without allocating unless it throws: the numbers finite and in range,
 * and positions and flights small enough that squares of differences cannot overflow (2⁵⁰⁰;
 * beyond that the exact predicates would meet infinities).
 */
function checkFlat(state: Float64Array, W: Float64Array, r: number, dt: number, e: number, maxHits: number, hits: Float64Array): void {
  if (!(state instanceof Float64Array) || state.length < 4) throw new SkewlineInputError('bounceBallFlat: state must be a Float64Array of x, y, vx, vy');
  if (!(W instanceof Float64Array) || W.length % 4 !== 0) throw new SkewlineInputError('bounceBallFlat: walls must be a Float64Array of x0, y0, x1, y1 per wall');
  if (!(hits instanceof Float64Array)) throw new SkewlineInputError('bounceBallFlat: hits must be a Float64Array');
  if (typeof r !== 'number' || !(r >= 0 && r <= FLAT_MAX)) throw new SkewlineInputError(`bounceBallFlat: radius must be a finite number in [0, 2^500] (got ${String(r)})`);
  if (typeof dt !== 'number' || !(dt >= 0 && dt <= FLAT_MAX)) throw new SkewlineInputError(`bounceBallFlat: dt must be a finite number ≥ 0 (got ${String(dt)})`);
  if (typeof e !== 'number' || !(e >= 0 && e <= 1)) throw new SkewlineInputError(`bounceBallFlat: restitution must be a number in [0, 1] (got ${String(e)})`);
  if (typeof maxHits !== 'number' || !(maxHits >= 0)) throw new SkewlineInputError(`bounceBallFlat: maxHits must be a number ≥ 0 (got ${String(maxHits)})`);
  const x = state[0], y = state[1], vx = state[2], vy = state[3];
  if (!(Math.abs(x) <= FLAT_MAX && Math.abs(y) <= FLAT_MAX)) throw new SkewlineInputError(`bounceBallFlat: the position must be finite and within ±2^500 (got [${x}, ${y}])`);
  if (!(Math.abs(vx) * dt <= FLAT_MAX && Math.abs(vy) * dt <= FLAT_MAX) || vx - vx !== 0 || vy - vy !== 0) {
    throw new SkewlineInputError(`bounceBallFlat: the velocity must be finite, and dt·velocity within ±2^500 (got [${vx}, ${vy}] over dt ${dt})`);
  }
  for (let i = 0; i < W.length; i++) {
    if (!(Math.abs(W[i]) <= FLAT_MAX)) throw new SkewlineInputError(`bounceBallFlat: wall ${i >> 2} has a coordinate that is not finite or beyond ±2^500 (${W[i]})`);
  }
}
/** The largest magnitude bounceBallFlat accepts for coordinates, radius and one step's flight. */
const FLAT_MAX = 2 ** 500;

const STATE = new Float64Array(4);
let hitScratch = new Float64Array(64 * 10);

/** Numbers per hit in {@link bounceBallFlat}'s `hits`: time, wall, point x, y, normal x, y, centre x, y, velocity x, y. */
export const HIT_STRIDE = 10;

/**
 * {@link bounceBall} without allocating: `state` holds x, y, vx, vy and is updated in place;
 * `walls` is the flat x0, y0, x1, y1 per wall; each bounce writes {@link HIT_STRIDE} numbers
 * to `hits` (time, wall index, contact point, normal, centre, velocity after). Returns the
 * number of bounces. Inputs are not validated beyond the starting overlap (finite numbers,
 * radius ≥ 0, dt ≥ 0, restitution in [0, 1] are the caller's job); at most
 * min(maxHits, hits.length / HIT_STRIDE) bounces are made, after which the ball stops for the
 * rest of the step (see {@link bounceBall}). Not re-entrant (module-level scratch).
 * @throws SkewlineInputError when the ball starts closer than `radius` to a wall (naming it).
 */
export function bounceBallFlat(state: Float64Array, W: Float64Array, r: number, dt: number, e: number, maxHits: number, hits: Float64Array): number {
  checkFlat(state, W, r, dt, e, maxHits, hits);
  BS[B_R] = r;
  maxHits = Math.min(maxHits, Math.floor(hits.length / HIT_STRIDE));
  let x = state[0];
  let y = state[1];
  let vx = state[2];
  let vy = state[3];
  for (let k = 0; k < W.length; k += 4) {
    BS[B_PX] = x;
    BS[B_PY] = y;
    if (gapSignAt(W, k, false) < 0) {
      throw new SkewlineInputError(
        `bounceBall: the ball overlaps wall ${k >> 2} ([${W[k]}, ${W[k + 1]}] to [${W[k + 2]}, ${W[k + 3]}]) at the start: its centre [${x}, ${y}] is closer than the radius ${r}`,
      );
    }
  }
  let count = 0;
  let elapsed = 0;
  while (true) {
    const tau = dt - elapsed;
    if (!(tau > 0)) break;
    const x1 = x + tau * vx;
    const y1 = y + tau * vy;
    if (x1 === x && y1 === y) break;
    seg[0] = x;
    seg[1] = y;
    seg[2] = x1;
    seg[3] = y1;
    let best = Infinity;
    let bw = -1;
    for (let k = 0; k < W.length; k += 4) {
      seg[0] = x;
      seg[1] = y;
      seg[2] = x1;
      seg[3] = y1;
      seg[4] = W[k];
      seg[5] = W[k + 1];
      seg[6] = W[k + 2];
      seg[7] = W[k + 3];
      if (!nearFlight(seg)) continue;
      // Leaving or sliding along the wall: the distance cannot decrease (it is convex along the
      // flight and starts ≥ r), so there is no contact but a touch at the start, which is none.
      if (approach(W, k) >= 0) continue;
      if (!flightWithin(seg)) continue;
      contactFraction(W, k);
      const lam = BS[B_LAM];
      if (lam < best) {
        best = lam;
        bw = k;
      }
    }
    if (bw < 0) {
      // No wall within r along the whole flight: the end point is clear of every wall.
      x = x1;
      y = y1;
      break;
    }
    if (count >= maxHits) break; // the cap: stop here, outside every wall
    // The last point of the flight at or before the contact that is clear of every wall.
    let lam = best;
    let px = x;
    let py = y;
    const dx = x1 - x;
    const dy = y1 - y;
    // The first step back, in units of λ: a few ulps of the position x + λ·d, whose rounding is
    // about u·(|x| + λ·|d|), i.e. u·(rel + λ) in λ. Capped at the old u·(1 + 2·rel) for short
    // flights; for very long ones (issue 19: a flight 1e18 table widths long) it shrinks with λ,
    // where a fixed u in λ would step back a thousand table widths.
    const rel = (Math.abs(x) + Math.abs(y)) / (Math.abs(dx) + Math.abs(dy));
    let step = 4 * U * (Math.min(lam, 1) + Math.min(1, lam + rel) * (1 + 2 * rel));
    // The first tries take only what the floating-point filter certifies (stopping a hair,
    // about 10⁻¹⁴ of the table, short of the contact), so the exact path is rarely needed.
    for (let tries = 0; lam > 0; tries++) {
      const qx = lam <= 0.5 ? x + lam * dx : x1 - (1 - lam) * dx;
      const qy = lam <= 0.5 ? y + lam * dy : y1 - (1 - lam) * dy;
      BS[B_PX] = qx;
      BS[B_PY] = qy;
      if (clearOfAll(W, tries < 6)) {
        px = qx;
        py = qy;
        break;
      }
      lam -= step;
      step *= 4;
    }
    if (!(lam > 0)) lam = 0;
    // The contact: the nearest point of the wall and the normal from it to the centre.
    const ax = W[bw];
    const ay = W[bw + 1];
    const ex = W[bw + 2] - ax;
    const ey = W[bw + 3] - ay;
    const ee = ex * ex + ey * ey;
    let s = ee > 0 ? ((px - ax) * ex + (py - ay) * ey) / ee : 0;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    const cx = ax + s * ex;
    const cy = ay + s * ey;
    let nx = px - cx;
    let ny = py - cy;
    BS[B_HA] = nx;
    BS[B_HB] = ny;
    hyp();
    const nl = BS[B_HA];
    if (s > 0 && s < 1) {
      // The face: its unit normal, on the centre's side (exactly perpendicular to the wall, not
      // tilted by the rounding of the nearest point).
      BS[B_HA] = ex;
      BS[B_HB] = ey;
      hyp();
      const el = BS[B_HA];
      const side = ex * (py - ay) - ey * (px - ax) >= 0 ? 1 : -1;
      nx = (-side * ey) / el + 0; // + 0: no −0 in results
      ny = (side * ex) / el + 0;
    } else if (nl > 0) {
      nx /= nl;
      ny /= nl;
    } else {
      // A point ball on the wall: the face normal against the motion.
      BS[B_HA] = ex;
      BS[B_HB] = ey;
      hyp();
      const el = BS[B_HA];
      nx = el > 0 ? -ey / el : -vx;
      ny = el > 0 ? ex / el : -vy;
      if (nx * vx + ny * vy > 0) {
        nx = -nx;
        ny = -ny;
      }
      BS[B_HA] = nx;
      BS[B_HB] = ny;
      hyp();
      const l = BS[B_HA];
      nx /= l;
      ny /= l;
    }
    // Reflection v − (1 + e)·(v·n)·n / (n·n): dividing by the rounded n's squared length keeps
    // |v| for e = 1 to rounding, with no bias from |n| ≠ 1 (which, wall after wall, would drift).
    const vn = (vx * nx + vy * ny) / (nx * nx + ny * ny);
    if (vn < 0) {
      BS[B_HA] = vx;
      BS[B_HB] = vy;
      hyp();
      const before = BS[B_HA];
      vx -= (1 + e) * vn * nx;
      vy -= (1 + e) * vn * ny;
      if (e === 1) {
        // An elastic bounce keeps the speed: undo the rounding's change of |v| (otherwise a
        // ball bouncing between the same walls drifts by a few u per bounce, one way).
        BS[B_HA] = vx;
        BS[B_HB] = vy;
        hyp();
        const k = before / BS[B_HA];
        vx *= k;
        vy *= k;
      }
    }
    // Leave the wall: keep a normal component of at least 2⁻⁴⁰ of the speed (changes the speed
    // only by a relative 2⁻⁸⁰ when it applies, i.e. on grazing contacts and with restitution 0).
    BS[B_HA] = vx;
    BS[B_HB] = vy;
    hyp();
    const speed = BS[B_HA];
    const out = vx * nx + vy * ny;
    const min = speed * 2 ** -40;
    if (out < min) {
      vx += (min - out) * nx;
      vy += (min - out) * ny;
    }
    elapsed += lam * tau;
    // Math.min, not `if (elapsed > dt) elapsed = dt`: merging the parameter dt (a tagged value)
    // into elapsed made V8 keep elapsed boxed, a fresh heap number on every bounce.
    elapsed = Math.min(elapsed, dt);
    x = px;
    y = py;
    const o = HIT_STRIDE * count++;
    hits[o] = elapsed;
    hits[o + 1] = bw >> 2;
    hits[o + 2] = cx;
    hits[o + 3] = cy;
    hits[o + 4] = nx;
    hits[o + 5] = ny;
    hits[o + 6] = x;
    hits[o + 7] = y;
    hits[o + 8] = vx;
    hits[o + 9] = vy;
    if (count >= maxHits) break;
  }
  state[0] = x;
  state[1] = y;
  state[2] = vx;
  state[3] = vy;
  return count;
}
