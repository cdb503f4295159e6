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
 * One or more chains prepared for the broad phase, laid end to end. Segment c (0 ≤ c < m) runs
 * from vertex c to vertex c + 1 of `P`; between two chains lies a gap segment (`dead`), which
 * is never tested. Compact order is chain by chain, and within a chain the input's order.
 */
export interface PreparedChain {
  /** Vertices, `dim` numbers each, m + 1 of them (each ring's first vertex repeated after its last). */
  P: Float64Array;
  dim: number;
  /** Number of segments, gaps included. */
  m: number;
  /** The ring partner of each segment (the last segment of a ring for its first, and back), or −1; null when there is no ring. */
  partner: Int32Array | null;
  /** 1 for the gap segments between chains; null for a single chain. */
  dead: Uint8Array | null;
  /** The input's index of each segment within its chain (−1 for gaps). */
  orig: Int32Array;
  /** The chain of each segment. */
  chain: Int32Array;
  /** First compact segment of each chain, and m + 1 at the end (chain k: [start[k], start[k + 1] − 1)). */
  start: Int32Array;
  /** How many segments each input chain has (zero-length ones included). */
  segments: Int32Array;
  /** True when orig[k] = k for every k (known without a pass over it). */
  identity?: boolean;
  /** False when nobody has validated the vertices yet (a parallel search does it while it builds). */
  checked?: boolean;
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
    if (points instanceof Float64Array) {
      // Validated in place, not copied: the compact form copies it anyway (and never writes to it).
      for (let i = 0; i < n; i++) {
        if (points[i] - points[i] !== 0) {
          throw new SkewlineInputError(`${what}: vertex ${Math.floor(i / dim)} coordinate ${i % dim} is not a finite number (got ${String(points[i])})`);
        }
      }
      return { flat: points, dim };
    }
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
 * The compact form of one or more chains. Rules (documented on `chainContacts`):
 * - a segment whose two vertices are equal (a repeated vertex) is dropped; its neighbours then
 *   share a vertex and count as adjacent;
 * - `closed` adds the segment from the last vertex back to the first;
 * - an open chain whose last vertex equals its first (a GeoJSON ring) is a ring too: its first
 *   and last segment share that vertex and count as adjacent.
 * With `alias`, an open chain with nothing to drop uses `flats[0]` itself as P (no copy): for
 * callers that only read P during the call.
 */
export function prepareChains(flats: readonly Float64Array[], dim: number, closed: boolean, alias = false): PreparedChain {
  if (flats.length === 1) {
    const one = prepareOne(flats[0], dim, closed, alias);
    if (one !== null) return one;
  }
  const K = flats.length;
  const segments = new Int32Array(K);
  const kept: Int32Array[] = [];
  const rings: boolean[] = [];
  let m = 0;
  for (let c = 0; c < K; c++) {
    const flat = flats[c];
    const n = flat.length / dim;
    const count = n < 2 ? 0 : closed ? n : n - 1;
    segments[c] = count;
    const keep = new Int32Array(count);
    let mk = 0;
    for (let k = 0; k < count; k++) {
      const next = k + 1 === n ? 0 : k + 1;
      if (!sameVertex(flat, dim, k, next)) keep[mk++] = k;
    }
    kept.push(keep.subarray(0, mk));
    rings.push(mk >= 2 && (closed || sameVertex(flat, dim, 0, n - 1)));
    m += mk + (c + 1 < K ? 1 : 0); // a gap after every chain but the last
  }
  const P = new Float64Array((m + 1) * dim);
  const orig = new Int32Array(m).fill(-1);
  const chain = new Int32Array(m);
  const start = new Int32Array(K + 1);
  const dead = K > 1 ? new Uint8Array(m) : null;
  const anyRing = rings.some((r) => r);
  const partner = anyRing ? new Int32Array(m).fill(-1) : null;
  let v = 0; // next compact vertex
  for (let c = 0; c < K; c++) {
    const flat = flats[c];
    const n = flat.length / dim;
    const keep = kept[c];
    const mk = keep.length;
    start[c] = v;
    if (mk === flat.length / dim - 1 && !closed) {
      P.set(flat, v * dim); // nothing dropped: a plain copy
    } else {
      for (let q = 0; q < mk; q++) for (let k = 0; k < dim; k++) P[(v + q) * dim + k] = flat[keep[q] * dim + k];
      if (mk > 0) {
        const last = keep[mk - 1] + 1 === n ? 0 : keep[mk - 1] + 1;
        for (let k = 0; k < dim; k++) P[(v + mk) * dim + k] = flat[last * dim + k];
      }
    }
    for (let q = 0; q < mk; q++) {
      orig[v + q] = keep[q];
      chain[v + q] = c;
    }
    if (rings[c]) {
      partner![v] = v + mk - 1;
      partner![v + mk - 1] = v;
    }
    if (mk === 0 && n > 0) {
      // no segment: the vertex slot still holds a point so the gap segments stay finite
      for (let k = 0; k < dim; k++) P[v * dim + k] = flat[k];
    }
    v += mk;
    if (c + 1 < K) {
      dead![v] = 1; // the gap from this chain's last vertex to the next chain's first
      chain[v] = c;
      v += 1;
    }
  }
  start[K] = m + 1;
  return { P, dim, m, partner, dead, orig, chain, start, segments };
}

/**
 * prepareChains for the common case, with few allocations (on a map of thousands of small rings
 * they cost more than the search): one chain of at least one segment and no repeated
 * consecutive vertex. Null for anything else.
 */
function prepareOne(flat: Float64Array, dim: number, closed: boolean, alias: boolean): PreparedChain | null {
  const n = flat.length / dim;
  if (n < 2) return null;
  const m = closed ? n : n - 1;
  for (let k = 0; k < m; k++) if (sameVertex(flat, dim, k, k + 1 === n ? 0 : k + 1)) return null;
  let P: Float64Array;
  if (!closed) P = alias ? flat : flat.slice();
  else {
    P = new Float64Array((m + 1) * dim);
    P.set(flat);
    P.set(flat.subarray(0, dim), n * dim); // the closing segment ends at vertex 0
  }
  const orig = new Int32Array(m);
  for (let k = 0; k < m; k++) orig[k] = k;
  let partner: Int32Array | null = null;
  if (m >= 2 && (closed || sameVertex(flat, dim, 0, n - 1))) {
    partner = new Int32Array(m).fill(-1);
    partner[0] = m - 1;
    partner[m - 1] = 0;
  }
  return { P, dim, m, partner, dead: null, orig, chain: new Int32Array(m), start: Int32Array.of(0, m + 1), segments: Int32Array.of(m), identity: true };
}
