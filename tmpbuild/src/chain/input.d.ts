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
}
/**
 * Validates and flattens `points`. `what` names the argument in errors ("points", "against").
 * @throws SkewlineInputError for a flat array without a valid `dim`, a length that is not a
 * multiple of `dim`, points of mixed dimensions, or a coordinate that is not a finite number
 * (the message names the vertex and coordinate).
 */
export declare function flattenChain(points: ChainPoints, dim: number | undefined, what: string): {
    flat: Float64Array;
    dim: number;
};
/**
 * The compact form of one or more chains. Rules (documented on `chainContacts`):
 * - a segment whose two vertices are equal (a repeated vertex) is dropped; its neighbours then
 *   share a vertex and count as adjacent;
 * - `closed` adds the segment from the last vertex back to the first;
 * - an open chain whose last vertex equals its first (a GeoJSON ring) is a ring too: its first
 *   and last segment share that vertex and count as adjacent.
 */
export declare function prepareChains(flats: readonly Float64Array[], dim: number, closed: boolean): PreparedChain;
