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
  closestFlat,
} from './kernel.js';
import { kindCode } from '../core/exact.js';
import { SkewlineInputError, isPrimitive, segment, line as makeLine, toVector } from '../core/primitives.js';
import type { ClosestResult, Primitive, Relation, VecLike } from '../core/types.js';

const RELATIONS: readonly Relation[] = ['apart', 'intersecting', 'overlapping', 'parallel', 'degenerate'];

let flat = new Float64Array(12);
let out = new Float64Array(8);

function check(a: unknown, b: unknown): asserts a is Primitive {
  if (!isPrimitive(a)) throw new SkewlineInputError(`first argument is not a primitive (use point, segment, line or ray)`);
  if (!isPrimitive(b)) throw new SkewlineInputError(`second argument is not a primitive (use point, segment, line or ray)`);
  if (a.dim !== b.dim) throw new SkewlineInputError(`primitives of different dimensions (${a.dim} and ${b.dim})`);
}

/** Writes p's coordinates at `at` in the flat layout (a ray's second vector is its direction). */
function put(p: Primitive, at: number): void {
  flat.set(p.p0, at);
  flat.set(p.kind === 'ray' ? p.dir : p.p1, at + p.dim);
}

/**
 * The point of p at parameter s, from the nearer end of a segment or line so that s = 1
 * gives p1 exactly and the rounding error is relative to the shorter piece.
 */
export function pointAt(p: Primitive, s: number): number[] {
  const r: number[] = new Array(p.dim);
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
 * - two rays: (c, vector) is the "shortest ray" from ray a to ray b.
 *
 * Accuracy: `distance` is within 8·2⁻⁵³·S of the exact minimum distance of the given doubles,
 * S = max(|a1 − a0|, |b1 − b0|, |b0 − a0|), at any distance from the origin and any angle.
 * @throws SkewlineInputError if an argument is not a primitive or the dimensions differ.
 */
export function closestPoints(a: Primitive, b: Primitive): ClosestResult {
  check(a, b);
  const dim = a.dim;
  if (flat.length < 4 * dim) flat = new Float64Array(4 * dim);
  if (out.length < OUT_VEC + dim) out = new Float64Array(OUT_VEC + dim);
  put(a, 0);
  put(b, 2 * dim);
  const distance = closestFlat(kindCode(a), kindCode(b), dim, flat, 0, out);
  const s = out[OUT_S];
  const t = out[OUT_T];
  const relCode = out[OUT_REL];
  const flags = out[OUT_FLAGS];
  const vector = Array.from(out.subarray(OUT_VEC, OUT_VEC + dim));
  const c = pointAt(a, s);
  const touching = relCode === REL_INTERSECTING || relCode === REL_OVERLAPPING;
  const d = touching ? c.slice() : pointAt(b, t);
  const p = c.map((x, i) => 0.5 * x + 0.5 * d[i]);
  const relation = RELATIONS[relCode];
  return {
    c,
    d,
    p,
    vector,
    distance,
    distanceSq: distance * distance,
    s,
    t,
    relation,
    tag: relation,
    unique: (flags & FLAG_NOT_UNIQUE) === 0,
    parallel: (flags & FLAG_PARALLEL) !== 0,
    degenerate: (flags & FLAG_DEGENERATE) !== 0,
  };
}

/**
 * Document 002's `segdis(a0, a1, b0, b1)`: the distance between two segments in R^n (n ≥ 1),
 * with the accuracy of {@link closestPoints}. Zero-length segments are points.
 * @throws SkewlineInputError on missing, non-finite or different-dimension points.
 */
export function segmentDistance(a0: VecLike, a1: VecLike, b0: VecLike, b1: VecLike): number {
  return closestPoints(segment(a0, a1), segment(b0, b1)).distance;
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
  const tol = options.tolerance ?? 0;
  if (typeof tol !== 'number' || !(tol >= 0) || !Number.isFinite(tol)) {
    throw new SkewlineInputError(`tolerance must be a finite number ≥ 0 (got ${String(tol)})`);
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
