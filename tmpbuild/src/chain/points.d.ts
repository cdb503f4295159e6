import type { ChainOptions } from './contacts.js';
import type { ChainPoints } from './input.js';
/** Kind codes of {@link ChainIntersections.kind}. */
export declare const POINT_CONTACT = 1;
/** Kind code of a collinear overlap (a shared piece of positive length). */
export declare const OVERLAP_CONTACT = 2;
/**
 * The intersections of a planar chain, one per pair of segments that share a point (the pairs of
 * `chainContacts` with thickness 0, in the same order).
 */
export interface ChainIntersections {
    count: number;
    /** First segment of each pair (as in `chainContacts`). */
    i: Int32Array;
    /** Second segment. */
    j: Int32Array;
    /** {@link POINT_CONTACT} (one common point) or {@link OVERLAP_CONTACT} (a shared piece). */
    kind: Uint8Array;
    /** The common point, or the end of the shared piece nearer segment i's first vertex. */
    x0: Float64Array;
    y0: Float64Array;
    /** The same point again, or the other end of the shared piece. */
    x1: Float64Array;
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
export declare function chainIntersections(points: ChainPoints, options?: Omit<ChainOptions, 'thickness'> & {
    thickness?: 0;
}): ChainIntersections;
