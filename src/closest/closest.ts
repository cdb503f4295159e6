/**
 * The friendly closest-point API: validated primitives in, a fresh result object out.
 * All the numerics live in kernel.ts.
 */
import {
  FLAG_DEGENERATE,
  FLAG_NOT_UNIQUE,
  FLAG_PARALLEL,
  OUT_FLAGS,
  OUT_REL,
  OUT_S,
  OUT_T,
  OUT_VEC,
  REL_INTERSECTING,
  REL_OVERLAPPING,
  OUT_DIST,
  closestInto,
} from './kernel.js';
import { FAST_DONE, FAST_SQ, closestNdFast, fastResidual, fastResidualAt } from './kernel-nd.js';
import { SEGMENT, exactNearestPointsFlat, kindCode } from '../core/exact.js';
import { SPLITTER } from '../core/eft.js';
import { checkOptions, numberOption } from '../core/options.js';
import { MAX_DIM, SkewlineInputError, describeValue, isPrimitive, segment, line as makeLine, toVector } from '../core/primitives.js';
import type { ClosestResult, Primitive, Relation, VecLike } from '../core/types.js';

const RELATIONS: readonly Relation[] = ['apart', 'intersecting', 'overlapping', 'parallel', 'degenerate'];

let flat = new Float64Array(12);
let out = new Float64Array(8);

function check(a: unknown, b: unknown): asserts a is Primitive {
  checkShape(a, b);
  finite(a, 'first');
  finite(b as Primitive, 'second');
}

/** check's O(1) part: primitives of one dimension whose arrays still have it. */
function checkShape(a: unknown, b: unknown): asserts a is Primitive {
  if (!isPrimitive(a)) throw new SkewlineInputError(`first argument is not a primitive (use point, segment, line or ray)`);
  if (!isPrimitive(b)) throw new SkewlineInputError(`second argument is not a primitive (use point, segment, line or ray)`);
  if (a.dim !== b.dim) throw new SkewlineInputError(`primitives of different dimensions (${a.dim} and ${b.dim})`);
  shape(a, 'first');
  shape(b, 'second');
}

function shape(p: Primitive, which: string): void {
  const second = p.kind === 'ray' ? p.dir : p.p1;
  if (p.p0.length !== p.dim || second.length !== p.dim) {
    throw new SkewlineInputError(`${which} argument: its arrays no longer have its dimension ${p.dim} (primitives must not be modified)`);
  }
}

/**
 * n-D (dim ≥ 4): kernel-nd.ts's fused path straight on the primitives' arrays (no copy, and no
 * validation pass: its sums are finite only if every coordinate is, and where one is not it
 * declines and closestPoints validates). True when it answered (out holds s, t, the distance).
 */
function fastNd(a: Primitive, b: Primitive, vec: boolean): boolean {
  // (Float64Arrays as the constructors make them; a hand-made primitive takes the general path.)
  if (!(a.p1 instanceof Float64Array && a.dir instanceof Float64Array && b.p1 instanceof Float64Array && b.dir instanceof Float64Array)) return false;
  if (a.dir.length !== a.dim || b.dir.length !== b.dim) return false;
  return closestNdFast(kindCode(a), kindCode(b), a.dim, a.p0, 0, a.kind === 'ray' ? a.dir : a.p1, 0, b.p0, 0, b.kind === 'ray' ? b.dir : b.p1, 0, out, vec) === FAST_DONE;
}

/**
 * A primitive's arrays are typed arrays, which Object.freeze cannot freeze: check that they
 * still hold `dim` finite numbers (someone may have written into them after construction).
 */
function finite(p: Primitive, which: string): void {
  const second = p.kind === 'ray' ? p.dir : p.p1;
  const name = p.kind === 'ray' ? 'dir' : 'p1';
  if (p.p0.length !== p.dim || second.length !== p.dim) {
    throw new SkewlineInputError(`${which} argument: its arrays no longer have its dimension ${p.dim} (primitives must not be modified)`);
  }
  for (let i = 0; i < p.dim; i++) {
    if (!Number.isFinite(p.p0[i]) || !Number.isFinite(second[i])) {
      const bad = Number.isFinite(p.p0[i]) ? `${name}[${i}] = ${second[i]}` : `p0[${i}] = ${p.p0[i]}`;
      throw new SkewlineInputError(`${which} argument: ${bad} is not finite (primitives must not be modified after construction)`);
    }
  }
}

/** The keys {@link ClosestOptions} accepts. */
const CLOSEST_KEYS = ['target', 'stable', 'tolerance'] as const;

/** Writes p's coordinates at `at` in the flat layout (a ray's second vector is its direction). */
function put(p: Primitive, at: number): void {
  flat.set(p.p0, at);
  flat.set(p.kind === 'ray' ? p.dir : p.p1, at + p.dim);
}

/**
 * The point of p at parameter s, from the nearer end of a segment or line so that s = 1
 * gives p1 exactly and the rounding error is relative to the shorter piece.
 * Edge case: s beyond ±1.8e308/|dir| gives non-finite coordinates (see {@link closestPoints},
 * which avoids that through exact arithmetic).
 */
export function pointAt(p: Primitive, s: number): number[] {
  return pointAtInto(p, s, new Array<number>(p.dim));
}

function pointAtInto(p: Primitive, s: number, r: number[]): number[] {
  if (p.kind === 'point') {
    for (let i = 0; i < p.dim; i++) r[i] = p.p0[i];
  } else if (p.kind === 'ray' || s <= 0.5) {
    for (let i = 0; i < p.dim; i++) r[i] = p.p0[i] + s * p.dir[i];
  } else {
    for (let i = 0; i < p.dim; i++) r[i] = p.p1[i] + (s - 1) * p.dir[i];
  }
  if (p.kind !== 'ray') {
    // p1 − p0 overflows for coordinates near ±1.8e308: interpolate those without it.
    for (let i = 0; i < p.dim; i++) if (!Number.isFinite(p.dir[i])) r[i] = (1 - s) * p.p0[i] + s * p.p1[i];
  }
  return r;
}

/**
 * {@link pointAtInto} for closestPoints' nearest points: c = a(r.s) (onB false) or d = b(r.t),
 * reading the parameter from r, so that no double crosses a call V8 may not inline (it would be
 * boxed: issue 16, zero allocation with a target). Same arithmetic as pointAtInto.
 */
function nearestInto(p: Primitive, r: ClosestResult, onB: boolean): void {
  const s = onB ? r.t : r.s;
  const x = onB ? r.d : r.c;
  const p0 = p.p0;
  const dir = p.dir;
  if (p.kind === 'point') {
    for (let i = 0; i < p.dim; i++) x[i] = p0[i];
  } else if (p.kind === 'ray') {
    for (let i = 0; i < p.dim; i++) x[i] = p0[i] + s * dir[i];
  } else {
    // One pass: from the nearer end, or without p1 − p0 where that overflowed.
    const p1 = p.p1;
    const near = s <= 0.5;
    for (let i = 0; i < p.dim; i++) {
      const di = dir[i];
      x[i] = !Number.isFinite(di) ? (1 - s) * p0[i] + s * p1[i] : near ? p0[i] + s * di : p1[i] + (s - 1) * di;
    }
  }
}

/** Options of {@link closestPoints}. */
export interface ClosestOptions {
  /**
   * A result object to fill instead of allocating one (make it with {@link createClosestResult};
   * its arrays must have the primitives' dimension). With a target, closestPoints allocates
   * nothing on the floating-point path (the rare exact fallbacks still do).
   */
  target?: ClosestResult;
  /**
   * Stable nearest points (segments and points only). Rhodes (Game Programming Gems 2, §2.3)
   * notes that as two nearly parallel segments rotate through parallel, the nearest points jump
   * from one end to the other, and suggests blending. With `stable`, c and d minimise
   * |a(s) − b(t)|² + ε·(|u|²(s − ½)² + |v|²(t − ½)²) with ε = 2·tolerance² (a Tikhonov term
   * pulling towards the middles), which is strictly convex, so c and d move continuously with the
   * input. Guarantee: |c − d|² ≤ dmin² + (tolerance·max(|u|, |v|))² (plus rounding), where dmin is
   * the exact minimum. In this mode `distance`, `distanceSq` and `vector` describe the returned
   * c and d (so `distance` may exceed the minimum by that bound and is not exactly 0 for a
   * crossing); `relation`, `unique`, `parallel` and `degenerate` are still the exact facts.
   */
  stable?: boolean;
  /** The relative tolerance of `stable` (a fraction of the longer segment's length); default 0.05 (smooth to the eye; c and d then turn over within about ε/(offset) radians of parallel, ε = 2·tolerance²). */
  tolerance?: number;
}

/**
 * Zeros kept for {@link zeros} (never handed out, never written): grown to the largest dimension
 * asked for up to ZEROS_CACHED; larger ones are built each time.
 */
let ZEROS: number[] = buildZeros(4);
const ZEROS_CACHED = 1 << 16;

/** Builds `n` zeros as a packed array of doubles (a first element 0.5, reset), regrowing as it goes. */
function buildZeros(n: number): number[] {
  const x: number[] = [0.5];
  for (let i = 1; i < n; i++) x.push(0);
  x[0] = 0;
  return x;
}

/**
 * A fresh array of `dim` zeros, PACKED_DOUBLE_ELEMENTS in V8: in 3-D a literal of doubles reset,
 * otherwise a slice of the kept zeros (a block copy that keeps the elements kind).
 */
function zeros(dim: number): number[] {
  if (dim === 3) {
    const x = [0.5, 0.5, 0.5];
    x[0] = 0;
    x[1] = 0;
    x[2] = 0;
    return x;
  }
  if (dim > ZEROS_CACHED) return buildZeros(dim);
  if (ZEROS.length < dim) ZEROS = buildZeros(Math.max(dim, 2 * ZEROS.length));
  return ZEROS.slice(0, dim);
}

/**
 * A result object for {@link closestPoints}' `target` option: arrays of length `dim`, zeros.
 * @throws SkewlineInputError if dim is not an integer ≥ 1.
 */
export function createClosestResult(dim: number): ClosestResult {
  if (!Number.isInteger(dim) || dim < 1) throw new SkewlineInputError(`createClosestResult: dim must be an integer ≥ 1 (got ${describeValue(dim)})`);
  // Packed arrays of doubles from birth. Not new Array(dim) (holey: V8 then boxes each double it
  // copies out, issue 16), not .fill(0) (small integers: the first double written converts, i.e.
  // copies, the array), and not a loop of push (it regrows the backing store about log(dim)
  // times: one push loop and three copies took 5.5 µs at 1000-D, a slice of kept zeros and three
  // copies 1.7 µs; issue 16). The copies are slice() without arguments, V8's quickest.
  const x = zeros(dim);
  return {
    c: x, d: x.slice(), p: x.slice(), vector: x.slice(), distance: 0, distanceSq: 0, s: 0, t: 0,
    relation: 'apart', tag: 'apart', unique: true, parallel: false, degenerate: false,
  };
}

/**
 * Closest points between any two primitives of the same dimension (point, segment, line,
 * ray; 1 ≤ dim).
 *
 * Edge cases:
 * - sharing a point: `distance === 0` exactly, c = d = p = the shared point (for an overlap,
 *   the middle of the shared piece), decided exactly;
 * - parallel with overlapping shadows (and overlapping collinear pieces): a whole locus of
 *   nearest pairs; `unique` is false and c, d are the middle of the overlap (for a half-infinite
 *   overlap its finite end; for two parallel lines the middle of a.p0 and the shadow of b.p0),
 *   so swapping the arguments or reversing a segment gives the mirrored answer;
 * - a zero-length segment acts as its point (relation `degenerate` unless they touch);
 * - two rays: (c, vector) is the "shortest ray" from ray a to ray b (the ray–ray Q&A);
 * - a nearest point far outside the inputs (a line or ray with a tiny direction): c and d are
 *   rounded once from the exact solution, so they are finite wherever they are representable;
 *   s or t may then be ±Infinity (the parameter itself overflows). If a nearest point lies beyond
 *   the double range, a RangeError says so (never a NaN).
 *
 * Accuracy: the distance is faithful — `distance` is the exact minimum distance of the given
 * doubles rounded up or down (within one ulp of itself), however small it is beside the
 * primitives, at any distance from the origin, any angle and any magnitude (closest/faithful.ts).
 * c and d lie within 8·2⁻⁵³·M′ of their primitives, M′ the largest |coordinate| of the inputs,
 * c and d (see the README's Accuracy section); in n-D the roundings of the n coordinates add up
 * like √n, so above about 33-D that bound grows (9.7·2⁻⁵³·M′ measured at 1000-D).
 * `distanceSq` is the squared length of `vector`, summed with error-free products and scaled
 * so that it under/overflows only where the true value does; in n-D (dim ≥ 4), where the fused
 * two-pass path answers (kernel-nd.ts), it is that path's certified double-double d*², rounded.
 *
 * Cost in n-D: a block copy of the coordinates and two passes over them in the common case (not
 * nearly parallel, apart; as WebAssembly SIMD where available), plus one that writes c, d, p and
 * vector; the previous, longer path only where its certificate cannot vouch (see kernel-nd.ts
 * closestNdFast). Without a target, the four fresh arrays of dim numbers cost about a third of
 * the call at 1000-D; pass a target in a loop.
 *
 * The third argument is either {@link ClosestOptions} or, gl-matrix style, a target result to
 * fill (`closestPoints(a, b, target)`, see {@link createClosestResult}): then nothing is allocated.
 * @throws SkewlineInputError if an argument is not a primitive (or its arrays were modified to
 * hold a non-finite number), the dimensions differ, an option is unknown or out of range, a
 * target has the wrong dimension, or `stable` is asked for a line or ray.
 * @throws RangeError if the distance itself exceeds the largest double (two points near
 * ∓1.8e308), or a nearest point lies beyond the double range.
 */
export function closestPoints(a: Primitive, b: Primitive, options?: ClosestOptions | ClosestResult): ClosestResult {
  checkShape(a, b);
  let target: ClosestResult | undefined;
  let opts: ClosestOptions | undefined;
  if (options !== undefined && options !== null) {
    if (typeof options === 'object' && Array.isArray((options as ClosestResult).c)) target = options as ClosestResult;
    else {
      checkOptions(options, CLOSEST_KEYS, 'closestPoints');
      opts = options as ClosestOptions;
      target = opts.target;
      if (target !== undefined && !(typeof target === 'object' && target !== null && Array.isArray(target.c))) {
        throw new SkewlineInputError(`closestPoints: options.target must be a result from createClosestResult (got ${describeValue(target)})`);
      }
      if (opts.stable !== undefined && typeof opts.stable !== 'boolean') {
        throw new SkewlineInputError(`closestPoints: options.stable must be true or false (got ${describeValue(opts.stable)})`);
      }
      numberOption(opts as Record<string, unknown>, 'tolerance', 'closestPoints', Number.MIN_VALUE, Number.MAX_VALUE, 0.05);
    }
  }
  const dim = a.dim;
  if (target !== undefined && (target.c.length !== dim || target.d.length !== dim || target.p.length !== dim || target.vector.length !== dim)) {
    throw new SkewlineInputError(`target has dimension ${target.c.length}, the primitives ${dim} (use createClosestResult(${dim}))`);
  }
  const r = target ?? createClosestResult(dim);
  if (flat.length < 4 * dim) flat = new Float64Array(4 * dim);
  if (out.length < OUT_VEC + dim) out = new Float64Array(OUT_VEC + dim);
  if (dim > 3 && opts?.stable !== true && fastNd(a, b, false)) {
    if (fastPoints(a, b, r)) return r;
    // A nearest point beyond the double range (or rounded past it): the general path says which.
  }
  finite(a, 'first');
  finite(b, 'second');
  put(a, 0);
  put(b, 2 * dim);
  const ka = kindCode(a);
  const kb = kindCode(b);
  closestInto(ka, kb, dim, flat, 0, out);
  const distance = out[OUT_DIST];
  if (distance === Infinity) {
    throw new RangeError('closestPoints: the distance exceeds the largest double (1.8e308); scale the input down');
  }
  const relCode = out[OUT_REL];
  const flags = out[OUT_FLAGS];
  const relation = RELATIONS[relCode];
  r.relation = relation;
  r.tag = relation;
  r.unique = (flags & FLAG_NOT_UNIQUE) === 0;
  r.parallel = (flags & FLAG_PARALLEL) !== 0;
  r.degenerate = (flags & FLAG_DEGENERATE) !== 0;
  if (opts?.stable === true) return stable(a, b, opts.tolerance ?? 0.05, r);
  r.s = out[OUT_S];
  r.t = out[OUT_T];
  r.distance = distance;
  for (let i = 0; i < dim; i++) r.vector[i] = out[OUT_VEC + i];
  nearestInto(a, r, false);
  const touching = relCode === REL_INTERSECTING || relCode === REL_OVERLAPPING;
  if (touching) for (let i = 0; i < dim; i++) r.d[i] = r.c[i];
  else nearestInto(b, r, true);
  if (!allFinite(r.c) || !allFinite(r.d)) farPoints(ka, kb, dim, r, touching);
  for (let i = 0; i < dim; i++) r.p[i] = 0.5 * r.c[i] + 0.5 * r.d[i];
  squaredNorm(r);
  return r;
}

/**
 * The fused path's result into r in one pass: s, t, the distance, the relation (apart, unique,
 * not parallel), c and d as {@link nearestInto} forms them, p, and d − c = −(r + ds·u − dt·v)
 * from the kernel's residual; distanceSq is the kernel's certified d*² (see FAST_SQ). False when
 * c or d is not finite (beyond the double range: the general path answers).
 */
function fastPoints(a: Primitive, b: Primitive, r: ClosestResult): boolean {
  const dim = a.dim;
  const s = out[OUT_S];
  const t = out[OUT_T];
  r.s = s;
  r.t = t;
  r.distance = out[OUT_DIST];
  r.distanceSq = FAST_SQ[0];
  r.relation = 'apart';
  r.tag = 'apart';
  r.unique = true;
  r.parallel = false;
  r.degenerate = false;
  const ds = FAST_SQ[1];
  const dt = FAST_SQ[2];
  const res = fastResidual();
  const c = r.c;
  const d = r.d;
  const p = r.p;
  const v = r.vector;
  const u = a.dir;
  const w = b.dir;
  // The nearer end (as nearestInto: s = 1 gives p1 exactly); a ray or point from p0.
  const aFar = a.kind !== 'ray' && a.kind !== 'point' && s > 0.5;
  const bFar = b.kind !== 'ray' && b.kind !== 'point' && t > 0.5;
  const ea = aFar ? a.p1 : a.p0;
  const eb = bFar ? b.p1 : b.p0;
  const sa = aFar ? s - 1 : s;
  const tb = bFar ? t - 1 : t;
  const ro = fastResidualAt();
  let nan = 0; // stays 0 while every c and d is finite (x − x is NaN for ±Infinity)
  // Two coordinates an iteration: V8 checks each of the nine arrays once an iteration (the loop's
  // interrupt check ends what it knows about them), so this halves those checks.
  const odd = dim & 1;
  if (odd === 1) {
    const ui = u[0];
    const wi = w[0];
    const ci = ea[0] + sa * ui;
    const di = eb[0] + tb * wi;
    c[0] = ci;
    d[0] = di;
    p[0] = 0.5 * ci + 0.5 * di;
    v[0] = -(res[ro] + ds * ui - dt * wi);
    nan += ci - ci + (di - di);
  }
  for (let i = odd; i < dim; i += 2) {
    const j = i + 1;
    const ui = u[i];
    const wi = w[i];
    const uj = u[j];
    const wj = w[j];
    const ci = ea[i] + sa * ui;
    const di = eb[i] + tb * wi;
    const cj = ea[j] + sa * uj;
    const dj = eb[j] + tb * wj;
    c[i] = ci;
    c[j] = cj;
    d[i] = di;
    d[j] = dj;
    p[i] = 0.5 * ci + 0.5 * di;
    p[j] = 0.5 * cj + 0.5 * dj;
    v[i] = -(res[(ro + i) | 0] + ds * ui - dt * wi);
    v[j] = -(res[(ro + j) | 0] + ds * uj - dt * wj);
    nan += ci - ci + (di - di) + (cj - cj + (dj - dj));
  }
  return nan === 0;
}

function allFinite(x: number[]): boolean {
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return false;
  return true;
}

/** c and d rounded once from the exact solution, for nearest points the floating-point p0 + s·dir cannot reach. */
function farPoints(ka: number, kb: number, dim: number, r: ClosestResult, touching: boolean): void {
  const { c, d } = exactNearestPointsFlat(ka, kb, dim, flat, 0);
  const which = !allFinite(c) ? 'a' : !allFinite(d) ? 'b' : null;
  if (which !== null) {
    throw new RangeError(`closestPoints: the nearest point on ${which} lies beyond the double range (|coordinate| > 1.8e308); the distance is ${r.distance}`);
  }
  for (let i = 0; i < dim; i++) {
    r.c[i] = c[i];
    r.d[i] = touching ? c[i] : d[i];
  }
}

/**
 * Σ v_i² with Dekker's error-free products and a compensated sum, scaled by a power of two so
 * that it under/overflows only where the true value does. Where its square root does not round
 * to the kernel's distance (the vector is less accurate than the distance, as for far nearest
 * points), distance² is used instead. Reads r.vector and r.distance and writes r.distanceSq: a
 * double passed to or returned from a function V8 does not inline is boxed (issue 16, zero
 * allocation).
 */
function squaredNorm(r: ClosestResult): void {
  const v = r.vector;
  const distance = r.distance;
  let m = 0;
  for (let i = 0; i < v.length; i++) m = Math.max(m, Math.abs(v[i]));
  if (m === 0) {
    r.distanceSq = distance * distance;
    return;
  }
  const k = -Math.floor(Math.log2(m)); // scale m to [1, 2)
  const f = 2 ** Math.max(-1000, Math.min(1000, k));
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i] * f;
    const p = x * x;
    // x² − p exactly (Dekker's product, written out: a call V8 does not inline boxes its arguments).
    const cx = SPLITTER * x;
    const xh = cx - (cx - x);
    const xl = x - xh;
    const e = xl * xl - (p - xh * xh - 2 * xh * xl);
    const sum = hi + p;
    const bv = sum - hi;
    lo += hi - (sum - bv) + (p - bv) + e;
    hi = sum;
  }
  const scaled = hi + lo;
  const back = Math.max(-1000, Math.min(1000, k));
  // scaled·2^(−2k) in two steps so the intermediate stays in range.
  const sq = scaled * 2 ** -back * 2 ** -back;
  if (Math.sqrt(sq) === distance || (distance > 0 && Math.abs(Math.sqrt(sq) - distance) <= 2 ** -52 * distance)) {
    r.distanceSq = sq;
    return;
  }
  const dd = distance * 2 ** (k > 0 ? Math.min(k, 1000) : Math.max(k, -1000));
  r.distanceSq = dd * dd * 2 ** -back * 2 ** -back;
}

/** Stable mode (see {@link ClosestOptions.stable}): the Tikhonov-regularised minimiser. */
function stable(a: Primitive, b: Primitive, tolerance: number, r: ClosestResult): ClosestResult {
  if (a.kind === 'line' || a.kind === 'ray' || b.kind === 'line' || b.kind === 'ray') {
    throw new SkewlineInputError('closestPoints: stable mode is for segments and points (lines and rays have no middle)');
  }
  if (typeof tolerance !== 'number' || !(tolerance > 0) || !Number.isFinite(tolerance)) {
    throw new SkewlineInputError(`closestPoints: tolerance must be a finite number > 0 (got ${describeValue(tolerance)})`);
  }
  const dim = a.dim;
  const u = a.dir, v = b.dir;
  let A = 0, B = 0, C = 0, D = 0, E = 0, M = 0;
  for (let i = 0; i < dim; i++) {
    const w = a.p0[i] - b.p0[i];
    A += u[i] * u[i];
    B += u[i] * v[i];
    C += v[i] * v[i];
    D += u[i] * w;
    E += v[i] * w;
    // Lagrange's identity: AC − B² = Σ_{i<j} (u_i v_j − u_j v_i)², without its cancellation.
    for (let j = i + 1; j < dim; j++) {
      const m = u[i] * v[j] - u[j] * v[i];
      M += m * m;
    }
  }
  const eps = 2 * tolerance * tolerance;
  // g(s, t) = A s² − 2B s t + C t² + 2D s − 2E t + ε(A(s − ½)² + C(t − ½)²) + const.
  const Ae = A * (1 + eps), Ce = C * (1 + eps);
  const rs = -D + 0.5 * eps * A; // ∂g/∂s = 0: Ae·s − B·t = rs
  const rt = E + 0.5 * eps * C; //  ∂g/∂t = 0: −B·s + Ce·t = rt
  const g = (s: number, t: number) => A * s * s - 2 * B * s * t + C * t * t + 2 * D * s - 2 * E * t + eps * (A * (s - 0.5) ** 2 + C * (t - 0.5) ** 2);
  const clamp = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);
  let s = 0, t = 0;
  if (A === 0 && C === 0) {
    s = 0;
    t = 0;
  } else if (A === 0) {
    t = clamp(rt / Ce);
  } else if (C === 0) {
    s = clamp(rs / Ae);
  } else {
    const det = M + eps * (2 + eps) * A * C;
    s = (rs * Ce + B * rt) / det;
    t = (Ae * rt + B * rs) / det;
    if (!(s >= 0 && s <= 1 && t >= 0 && t <= 1)) {
      // Strictly convex on the square: the minimum is on an edge; each edge's minimiser clamped.
      let best = Infinity;
      for (const s0 of [0, 1]) {
        const t0 = clamp((rt + B * s0) / Ce);
        const q = g(s0, t0);
        if (q < best) [best, s, t] = [q, s0, t0];
      }
      for (const t0 of [0, 1]) {
        const s0 = clamp((rs + B * t0) / Ae);
        const q = g(s0, t0);
        if (q < best) [best, s, t] = [q, s0, t0];
      }
    }
  }
  r.s = s;
  r.t = t;
  pointAtInto(a, s, r.c);
  pointAtInto(b, t, r.d);
  let sq = 0;
  for (let i = 0; i < dim; i++) {
    // Difference form: d − c = (b0 − a0) + t·v − s·u.
    const x = b.p0[i] - a.p0[i] + t * v[i] - s * u[i];
    r.vector[i] = x;
    sq += x * x;
    r.p[i] = 0.5 * r.c[i] + 0.5 * r.d[i];
  }
  r.distance = Math.sqrt(sq);
  squaredNorm(r);
  return r;
}

/**
 * Boes' `segdis(a0, a1, b0, b1)` ("Segment Distance"): the distance between two segments in R^n (n ≥ 1),
 * with the accuracy of {@link closestPoints} (the distance is faithful). Zero-length segments are points.
 * @throws SkewlineInputError on missing, non-finite or different-dimension points.
 * @throws RangeError if the distance itself exceeds the largest double.
 */
export function segmentDistance(a0: VecLike, a1: VecLike, b0: VecLike, b1: VecLike): number {
  // closestPoints' distance without its result object (four arrays of dim numbers) and the
  // points: in n-D those cost more than the kernel itself (issue 16). Four arrays of one length
  // above 3 go straight to kernel-nd.ts's fused path, without building segments (toVector's
  // checks per coordinate cost more than the kernel): numbers are copied and typed in one pass,
  // finiteness shows in the kernel's sums; anything it declines takes the checked path below.
  const n = fastDim(a0, a1, b0, b1);
  if (n > 3) {
    if (out.length < OUT_VEC + n) out = new Float64Array(OUT_VEC + n);
    if (a0 instanceof Float64Array && a1 instanceof Float64Array && b0 instanceof Float64Array && b1 instanceof Float64Array) {
      if (closestNdFast(SEGMENT, SEGMENT, n, a0, 0, a1, 0, b0, 0, b1, 0, out, false) === FAST_DONE) return out[OUT_DIST];
    } else {
      if (flat.length < 4 * n) flat = new Float64Array(4 * n);
      if (copyNumbers(a0, 0, n) && copyNumbers(a1, n, n) && copyNumbers(b0, 2 * n, n) && copyNumbers(b1, 3 * n, n) &&
        closestNdFast(SEGMENT, SEGMENT, n, flat, 0, flat, n, flat, 2 * n, flat, 3 * n, out, false) === FAST_DONE) {
        return out[OUT_DIST];
      }
    }
  }
  const a = segment(a0, a1);
  const b = segment(b0, b1);
  check(a, b);
  const dim = a.dim;
  if (flat.length < 4 * dim) flat = new Float64Array(4 * dim);
  if (out.length < OUT_VEC + dim) out = new Float64Array(OUT_VEC + dim);
  put(a, 0);
  put(b, 2 * dim);
  closestInto(kindCode(a), kindCode(b), dim, flat, 0, out);
  const distance = out[OUT_DIST];
  if (distance === Infinity) {
    throw new RangeError('segmentDistance: the distance exceeds the largest double (1.8e308); scale the input down');
  }
  return distance;
}

/** The common length of four arrays (plain or Float64Array), or 0 when they are not that. */
function fastDim(a0: unknown, a1: unknown, b0: unknown, b1: unknown): number {
  const n = arrayLength(a0);
  return n > 0 && arrayLength(a1) === n && arrayLength(b0) === n && arrayLength(b1) === n && n <= MAX_DIM ? n : 0;
}

function arrayLength(x: unknown): number {
  return Array.isArray(x) || x instanceof Float64Array ? x.length : 0;
}

/** Copies x's n entries into flat at `at`; false at the first that is not a number (holes too). */
function copyNumbers(x: VecLike, at: number, n: number): boolean {
  if (x instanceof Float64Array) {
    flat.set(x, at);
    return true;
  }
  const v = x as ArrayLike<unknown>;
  for (let i = 0; i < n; i++) {
    const xi = v[i];
    if (typeof xi !== 'number') return false;
    flat[at + i] = xi;
  }
  return true;
}

/** Options of {@link intersectLineSegments}. */
export interface IntersectLineSegmentsOptions {
  /** Treat both as infinite lines (the gem's `infinite_lines` switch). Default false. */
  infiniteLines?: boolean;
  /**
   * Your own length, in the input's units, below which a segment counts as a point (the gem's
   * tolerance). Default 0: only an exactly zero-length segment is a point. Never used to
   * decide whether the segments meet.
   */
  tolerance?: number;
}

/** The result of {@link intersectLineSegments}: the gem's outputs. */
export interface LineSegmentsResult extends ClosestResult {
  /** True when c and d lie within their segments (always true for finite segments; for
   * infinite lines, whether the nearest points fall between the given endpoints). */
  withinSegments: boolean;
}

/**
 * Rhodes' entry point (Game Programming Gems 2, §2.3) for people coming from the book: the
 * nearest points C (on a1a2) and D (on b1b2), their midpoint P, the vector C→D, and whether
 * the nearest points lie within both segments. With `infiniteLines` the segments are
 * extended to lines. A segment shorter than `tolerance` is treated as its first point (a
 * line shorter than it too, as a point).
 * @throws SkewlineInputError on bad points, different dimensions, or a negative/non-finite tolerance.
 */
export function intersectLineSegments(
  a1: VecLike,
  a2: VecLike,
  b1: VecLike,
  b2: VecLike,
  options: IntersectLineSegmentsOptions = {},
): LineSegmentsResult {
  checkOptions(options, ['infiniteLines', 'tolerance'], 'intersectLineSegments');
  const tol = numberOption(options as Record<string, unknown>, 'tolerance', 'intersectLineSegments', 0, Number.MAX_VALUE, 0);
  if (options.infiniteLines !== undefined && typeof options.infiniteLines !== 'boolean') {
    throw new SkewlineInputError(`intersectLineSegments: options.infiniteLines must be true or false (got ${describeValue(options.infiniteLines)})`);
  }
  const make = (p: VecLike, q: VecLike, name: string): Primitive => {
    const p0 = toVector(p, `${name}1`);
    const p1 = toVector(q, `${name}2`);
    if (p0.length !== p1.length) throw new SkewlineInputError(`${name}: points of different dimensions`);
    let len2 = 0;
    for (let i = 0; i < p0.length; i++) len2 += (p1[i] - p0[i]) ** 2;
    const short = tol > 0 && Math.sqrt(len2) < tol;
    if (short || len2 === 0) return segment(p0, short ? p0 : p1);
    return options.infiniteLines ? makeLine(p0, p1) : segment(p0, p1);
  };
  const a = make(a1, a2, 'a');
  const b = make(b1, b2, 'b');
  const r = closestPoints(a, b);
  const inside = (p: Primitive, x: number) => p.kind !== 'line' || (x >= 0 && x <= 1);
  return { ...r, withinSegments: inside(a, r.s) && inside(b, r.t) };
}
