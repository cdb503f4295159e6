/**
 * Reading a chain: validation, and the compact form the broad phase works on (zero-length
 * segments dropped, a ring's closing vertex appended so segment c always runs from vertex c to
 * vertex c + 1).
 */
import { SkewlineInputError, toVector } from '../core/primitives.js';
import type { VecLike } from '../core/types.js';

/** A chain's vertices: a flat array (x, y[, z …] per vertex, with `dim`) or an array of points. */
export type ChainPoints = ArrayLike<number> | readonly VecLike[];

/**
 * A chain prepared for the broad phase. Segment c (0 ≤ c < m) runs from vertex c to vertex
 * c + 1 of `P`; it is the input's segment `orig[c]`.
 */
export interface PreparedChain {
  /** Vertices, `dim` numbers each, m + 1 of them (a ring's first vertex repeated at the end). */
  P: Float64Array;
  dim: number;
  /** Number of (nonzero-length) segments. */
  m: number;
  /** True when the first and last segment share a vertex (a closed chain or a ring whose first vertex is repeated at the end). */
  ring: boolean;
  /** The input's index of each segment. */
  orig: Int32Array;
  /** How many segments the input has (zero-length ones included): the length of a per-segment result. */
  segments: number;
}

/**
 * Validates and flattens `points`. `what` names the argument in errors ("points", "against").
 * @throws SkewlineInputError for a flat array without a valid `dim`, a length that is not a
 * multiple of `dim`, points of mixed dimensions, or a coordinate that is not a finite number
 * (the message names the vertex and coordinate).
 */
export function flattenChain(points: ChainPoints, dim: number | undefined, what: string): { flat: Float64Array; dim: number } {
  if (points === null || typeof points !== 'object' || typeof (points as { length?: unknown }).length !== 'number') {
    throw new SkewlineInputError(`${what} must be a flat array of coordinates (with options.dim) or an array of points`);
  }
  const n = points.length;
  if (dim !== undefined && (!Number.isInteger(dim) || dim < 2)) {
    throw new SkewlineInputError(`options.dim must be an integer ≥ 2 (got ${String(dim)})`);
  }
  const first = n > 0 ? (points as ArrayLike<unknown>)[0] : undefined;
  if (n === 0 || typeof first === 'number' || ArrayBuffer.isView(points)) {
    // Flat layout.
    if (dim === undefined) {
      if (n === 0) return { flat: new Float64Array(0), dim: 2 };
      throw new SkewlineInputError(`${what} is a flat array of numbers: say how many per vertex with options.dim`);
    }
    if (n % dim !== 0) throw new SkewlineInputError(`${what} has ${n} numbers, not a multiple of dim = ${dim}`);
    const flat = new Float64Array(n);
    const src = points as ArrayLike<unknown>;
    for (let i = 0; i < n; i++) {
      const x = src[i];
      if (typeof x !== 'number' || !Number.isFinite(x)) {
        throw new SkewlineInputError(`${what}: vertex ${Math.floor(i / dim)} coordinate ${i % dim} is not a finite number (got ${String(x)})`);
      }
      flat[i] = x;
    }
    return { flat, dim };
  }
  const pts = points as readonly VecLike[];
  const p0 = toVector(pts[0], `${what}[0]`);
  const d = p0.length;
  if (dim !== undefined && dim !== d) throw new SkewlineInputError(`${what}[0] has ${d} coordinates but options.dim is ${dim}`);
  if (d < 2) throw new SkewlineInputError(`${what}[0] has ${d} coordinate; a chain needs at least 2`);
  const flat = new Float64Array(n * d);
  flat.set(p0, 0);
  for (let i = 1; i < n; i++) {
    const p = toVector(pts[i], `${what}[${i}]`);
    if (p.length !== d) throw new SkewlineInputError(`${what}[${i}] has ${p.length} coordinates, ${what}[0] has ${d}`);
    flat.set(p, i * d);
  }
  return { flat, dim: d };
}

function sameVertex(f: Float64Array, dim: number, a: number, b: number): boolean {
  for (let k = 0; k < dim; k++) if (f[a * dim + k] !== f[b * dim + k]) return false;
  return true;
}

/**
 * The compact chain. Rules (documented on `chainContacts`):
 * - a segment whose two vertices are equal (a repeated vertex) is dropped; its neighbours then
 *   share a vertex and count as adjacent;
 * - `closed` adds the segment from the last vertex back to the first;
 * - an open chain whose last vertex equals its first (a GeoJSON ring) is a ring too: its first
 *   and last segment share that vertex and count as adjacent.
 */
export function prepareChain(flat: Float64Array, dim: number, closed: boolean): PreparedChain {
  const n = flat.length / dim;
  const segments = n < 2 ? 0 : closed ? n : n - 1;
  const keep = new Int32Array(segments);
  let m = 0;
  for (let k = 0; k < segments; k++) {
    const next = k + 1 === n ? 0 : k + 1;
    if (!sameVertex(flat, dim, k, next)) keep[m++] = k;
  }
  const orig = keep.slice(0, m);
  const ring = m >= 2 && (closed || sameVertex(flat, dim, 0, n - 1));
  const P = new Float64Array((m + 1) * dim);
  if (m === segments && !closed) {
    P.set(flat); // nothing dropped: a plain copy
  } else {
    for (let c = 0; c < m; c++) for (let k = 0; k < dim; k++) P[c * dim + k] = flat[orig[c] * dim + k];
    if (m > 0) {
      const last = orig[m - 1] + 1 === n ? 0 : orig[m - 1] + 1;
      for (let k = 0; k < dim; k++) P[m * dim + k] = flat[last * dim + k];
    }
  }
  return { P, dim, m, ring, orig, segments };
}
