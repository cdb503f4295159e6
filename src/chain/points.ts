/**
 * Where planar chains meet, for GIS users: the crossing and touching points of a chain's
 * self-intersections (or of two chains), and its collinear overlaps as pieces.
 */
import { SkewlineInputError } from '../core/primitives.js';
import { intersection2D } from '../intersect/segment-2d.js';
import { contactPairs } from './contacts.js';
import type { ChainOptions } from './contacts.js';
import type { ChainPoints } from './input.js';

/** Kind codes of {@link ChainIntersections.kind}. */
export const POINT_CONTACT = 1;
/** Kind code of a collinear overlap (a shared piece of positive length). */
export const OVERLAP_CONTACT = 2;

/**
 * The intersections of a planar chain, one per pair of segments that share a point (the pairs of
 * `chainContacts` with thickness 0, in the same order).
 */
export interface ChainIntersections {
  /** Number of pairs that share a point. */
  count: number;
  /** First segment of each pair (as in `chainContacts`). */
  i: Int32Array;
  /** Second segment. */
  j: Int32Array;
  /** {@link POINT_CONTACT} (one common point) or {@link OVERLAP_CONTACT} (a shared piece). */
  kind: Uint8Array;
  /** x of the common point, or of the end of the shared piece nearer segment i's first vertex. */
  x0: Float64Array;
  /** y of that point. */
  y0: Float64Array;
  /** x of the same point again, or of the other end of the shared piece. */
  x1: Float64Array;
  /** y of that point. */
  y1: Float64Array;
}


/**
 * Every point where a 2D chain meets itself (or, with `options.against`, another chain): proper
 * crossings, touching vertices, T-junctions, and collinear overlaps as pieces — the pairs that
 * {@link chainContacts} reports with thickness 0, same order, same rules (adjacent segments only
 * when they fold back; zero-length segments dropped; rings). A crossing point is the exact
 * rational intersection rounded once to the nearest doubles; touching points and the ends of a
 * shared piece are input vertices, returned exactly.
 *
 * Cost: `chainContacts`' search, plus exact rational arithmetic for each proper crossing (a few
 * microseconds each — meant for GIS data with up to some hundred thousand crossings; for
 * millions, `chainContacts`' s and t are the cheap answer).
 * @throws SkewlineInputError if the chain is not 2D or `options.thickness` is not 0, and for the
 * input errors of `chainContacts`.
 */
export function chainIntersections(points: ChainPoints, options: Omit<ChainOptions, 'thickness'> & { thickness?: 0 } = {}): ChainIntersections {
  if (options.thickness !== undefined && options.thickness !== 0) {
    throw new SkewlineInputError('chainIntersections: intersection points need thickness 0 (use chainContacts for a thickness)');
  }
  // A flat array without dim is read as x, y pairs (this query is 2D only).
  const flat = ArrayBuffer.isView(points) || typeof (points as ArrayLike<unknown>)[0] === 'number';
  const dim = options.dim ?? (flat ? 2 : undefined);
  const { A, B, CI, CJ } = contactPairs(points, dim === undefined ? { ...options, thickness: 0 } : { ...options, dim, thickness: 0 });
  if (A.dim !== 2) throw new SkewlineInputError(`chainIntersections: the chain must be 2D (got ${A.dim} coordinates per vertex)`);
  const n = CI.length;
  const I = new Int32Array(n), J = new Int32Array(n);
  const kind = new Uint8Array(n);
  const x0 = new Float64Array(n), y0 = new Float64Array(n), x1 = new Float64Array(n), y1 = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    I[k] = A.orig[CI[k]];
    J[k] = B.orig[CJ[k]];
    const a = 2 * CI[k], b = 2 * CJ[k];
    const ax0 = A.P[a], ay0 = A.P[a + 1], ax1 = A.P[a + 2], ay1 = A.P[a + 3];
    const bx0 = B.P[b], by0 = B.P[b + 1], bx1 = B.P[b + 2], by1 = B.P[b + 3];
    const r = intersection2D(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
    if (r.kind === 'point') {
      kind[k] = POINT_CONTACT;
      x0[k] = x1[k] = r.point[0];
      y0[k] = y1[k] = r.point[1];
    } else if (r.kind === 'overlap') {
      kind[k] = OVERLAP_CONTACT;
      [x0[k], y0[k]] = r.start;
      [x1[k], y1[k]] = r.end;
    } else {
      // Unreachable: the contact search decided these pairs share a point exactly.
      throw new Error(`chainIntersections: internal disagreement on segments ${I[k]} and ${J[k]}`);
    }
  }
  return { count: n, i: I, j: J, kind, x0, y0, x1, y1 };
}
