/**
 * What kind of contact two segments make, decided exactly: a proper crossing, a touch at a
 * vertex (an endpoint of each), a T-junction (an endpoint of one on the interior of the other),
 * or a collinear overlap (a shared piece of positive length). This is what tells a ring that
 * touches itself (a self-tangent ring, valid in many GIS models) from one that crosses itself.
 */
import { orient2Sign as orient2Sign_ } from '../intersect/intersects.js';
import { toScaledBigInts } from '../core/exact.js';
import { SkewlineInputError } from '../core/primitives.js';

// A local copy of the imported predicate: a loader that compiles ESM to getters makes each read
// of an imported binding a call.
const orient2Sign = orient2Sign_;

/** The two segments share no point. */
export const NO_CONTACT = 0;
/** A proper crossing: one common point, interior to both segments. */
export const CROSSING = 1;
/** A touch at a vertex: one common point, an endpoint of both segments. */
export const VERTEX_TOUCH = 2;
/** A T-junction: one common point, an endpoint of one segment on the interior of the other. */
export const T_JUNCTION = 3;
/** A collinear overlap: the segments share a piece of positive length. */
export const OVERLAP = 4;

/** The names of the contact kinds, indexed by code: `CONTACT_KIND_NAMES[CROSSING] === 'crossing'`. */
export const CONTACT_KIND_NAMES = ['none', 'crossing', 'vertex-touch', 't-junction', 'overlap'] as const;

/** A contact kind's name (as in {@link CONTACT_KIND_NAMES}). */
export type ContactKindName = (typeof CONTACT_KIND_NAMES)[number];

/**
 * Scratch written by {@link classify2}: the common point for CROSSING is not written; for
 * VERTEX_TOUCH and T_JUNCTION it is the input vertex where the segments meet (exact).
 */
export const TOUCH = new Float64Array(2);

/**
 * The contact kind of the 2D segments a0a1 and b0b1 (eight finite doubles, not checked), from
 * the four exact orientation signs (a filtered double evaluation with an exact fallback:
 * `orient2Sign`). For a single common point the kind says whether that point is an endpoint of
 * both segments (VERTEX_TOUCH), of one (T_JUNCTION) or of neither (CROSSING); for VERTEX_TOUCH
 * and T_JUNCTION the point (an input vertex) is left in {@link TOUCH}. A zero-length segment is a
 * point and counts as its own endpoint. Not re-entrant (module scratch). Not part of the public
 * API: {@link contactKind} is.
 */
export function classify2(
  ax0: number, ay0: number, ax1: number, ay1: number,
  bx0: number, by0: number, bx1: number, by1: number,
): number {
  const d3 = orient2Sign(ax0, ay0, ax1, ay1, bx0, by0);
  const d4 = orient2Sign(ax0, ay0, ax1, ay1, bx1, by1);
  if (d3 === d4 && d3 !== 0) return NO_CONTACT;
  const d1 = orient2Sign(bx0, by0, bx1, by1, ax0, ay0);
  const d2 = orient2Sign(bx0, by0, bx1, by1, ax1, ay1);
  if (d1 === d2 && d1 !== 0) return NO_CONTACT;
  if (d1 !== 0 && d2 !== 0 && d3 !== 0 && d4 !== 0) return CROSSING;
  if (d1 === 0 && d2 === 0 && d3 === 0 && d4 === 0) return collinear2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
  // Not all four points collinear, and the segments meet: their lines are distinct and meet
  // in one point, which lies on both lines. An endpoint whose orientation is zero lies on the
  // other segment's line and on its own, so it is that point.
  let px: number, py: number;
  if (d1 === 0) [px, py] = [ax0, ay0];
  else if (d2 === 0) [px, py] = [ax1, ay1];
  else if (d3 === 0) [px, py] = [bx0, by0];
  else [px, py] = [bx1, by1];
  TOUCH[0] = px;
  TOUCH[1] = py;
  const endA = (px === ax0 && py === ay0) || (px === ax1 && py === ay1);
  const endB = (px === bx0 && py === by0) || (px === bx1 && py === by1);
  return endA && endB ? VERTEX_TOUCH : T_JUNCTION;
}

/** Lexicographic comparison of two points of the plane. */
function lex(px: number, py: number, qx: number, qy: number): number {
  return px < qx ? -1 : px > qx ? 1 : py < qy ? -1 : py > qy ? 1 : 0;
}

/**
 * Four collinear points: on their common line the lexicographic order of the plane is the
 * line's order, so the common set is [max(lows), min(highs)] compared lexicographically.
 */
function collinear2(ax0: number, ay0: number, ax1: number, ay1: number, bx0: number, by0: number, bx1: number, by1: number): number {
  const fa = lex(ax0, ay0, ax1, ay1) <= 0, fb = lex(bx0, by0, bx1, by1) <= 0;
  const alx = fa ? ax0 : ax1, aly = fa ? ay0 : ay1, ahx = fa ? ax1 : ax0, ahy = fa ? ay1 : ay0;
  const blx = fb ? bx0 : bx1, bly = fb ? by0 : by1, bhx = fb ? bx1 : bx0, bhy = fb ? by1 : by0;
  const lo = lex(alx, aly, blx, bly) >= 0 ? 0 : 1; // 0: a's low end is the common low end
  const lox = lo === 0 ? alx : blx, loy = lo === 0 ? aly : bly;
  const hi = lex(ahx, ahy, bhx, bhy) <= 0 ? 0 : 1;
  const hix = hi === 0 ? ahx : bhx, hiy = hi === 0 ? ahy : bhy;
  const c = lex(lox, loy, hix, hiy);
  if (c > 0) return NO_CONTACT;
  if (c < 0) return OVERLAP;
  TOUCH[0] = lox;
  TOUCH[1] = loy;
  // One common point, which is an end of the common set and so an endpoint of one segment;
  // it is a vertex touch when it is an endpoint of the other one too.
  const endA = (lox === ax0 && loy === ay0) || (lox === ax1 && loy === ay1);
  const endB = (lox === bx0 && loy === by0) || (lox === bx1 && loy === by1);
  return endA && endB ? VERTEX_TOUCH : T_JUNCTION;
}

/**
 * The exact contact kind of two 3D segments, in BigInt integer arithmetic (every double is an
 * integer times a common power of two). Non-parallel: coplanar (w·(u×v) = 0) and the
 * parameters s = ((w×v)·n)/(n·n), t = ((w×u)·n)/(n·n), n = u×v, in [0, 1]; parallel: on one
 * line (w×u = 0) and the parameter intervals meet.
 */
function classify3(c: readonly number[]): number {
  const { ints: z } = toScaledBigInts(c);
  const [a0x, a0y, a0z, a1x, a1y, a1z, b0x, b0y, b0z, b1x, b1y, b1z] = z;
  const ux = a1x - a0x, uy = a1y - a0y, uz = a1z - a0z;
  const vx = b1x - b0x, vy = b1y - b0y, vz = b1z - b0z;
  const wx = b0x - a0x, wy = b0y - a0y, wz = b0z - a0z;
  const zeroU = ux === 0n && uy === 0n && uz === 0n, zeroV = vx === 0n && vy === 0n && vz === 0n;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const kind = (sEnd: boolean, tEnd: boolean): number => (sEnd && tEnd ? VERTEX_TOUCH : sEnd || tEnd ? T_JUNCTION : CROSSING);
  if (nx !== 0n || ny !== 0n || nz !== 0n) {
    if (wx * nx + wy * ny + wz * nz !== 0n) return NO_CONTACT; // skew
    const nn = nx * nx + ny * ny + nz * nz;
    // w × v and w × u, dotted with n.
    const s = (wy * vz - wz * vy) * nx + (wz * vx - wx * vz) * ny + (wx * vy - wy * vx) * nz;
    const t = (wy * uz - wz * uy) * nx + (wz * ux - wx * uz) * ny + (wx * uy - wy * ux) * nz;
    if (s < 0n || s > nn || t < 0n || t > nn) return NO_CONTACT;
    return kind(s === 0n || s === nn, t === 0n || t === nn);
  }
  if (zeroU && zeroV) return wx === 0n && wy === 0n && wz === 0n ? VERTEX_TOUCH : NO_CONTACT;
  // Parallel, or one is a point p: work along the other, e0 + λ·d (λ·|d|² ∈ [0, |d|²]).
  const [px, py, pz] = zeroU ? [a0x, a0y, a0z] : [b0x, b0y, b0z];
  const [ex, ey, ez, dx, dy, dz] = zeroU ? [b0x, b0y, b0z, vx, vy, vz] : [a0x, a0y, a0z, ux, uy, uz];
  // Is p on the line? (d × (p − e0) = 0)
  const qx = px - ex, qy = py - ey, qz = pz - ez;
  if (dy * qz - dz * qy !== 0n || dz * qx - dx * qz !== 0n || dx * qy - dy * qx !== 0n) return NO_CONTACT;
  const dd = dx * dx + dy * dy + dz * dz;
  const along = (x: bigint, y: bigint, zz: bigint): bigint => (x - ex) * dx + (y - ey) * dy + (zz - ez) * dz;
  if (zeroU || zeroV) {
    const l = along(px, py, pz);
    if (l < 0n || l > dd) return NO_CONTACT;
    return l === 0n || l === dd ? VERTEX_TOUCH : T_JUNCTION;
  }
  const l0 = along(b0x, b0y, b0z), l1 = along(b1x, b1y, b1z);
  const lo = l0 < l1 ? l0 : l1, hi = l0 < l1 ? l1 : l0;
  const from = lo > 0n ? lo : 0n, to = hi < dd ? hi : dd;
  if (from > to) return NO_CONTACT;
  return from < to ? OVERLAP : VERTEX_TOUCH;
}

/**
 * The exact kind of contact between segments i and j of a chain — for the contacts
 * `chainContacts` reports at thickness 0 (a CLI can label each one with it). Segment k runs from
 * vertex k to vertex k + 1; with `closed` the last segment (k = n − 1) runs from the last vertex
 * back to the first.
 *
 * Returns {@link NO_CONTACT} (0) when the two segments share no point, else {@link CROSSING},
 * {@link VERTEX_TOUCH}, {@link T_JUNCTION} or {@link OVERLAP} (names in
 * {@link CONTACT_KIND_NAMES}). Edge cases: two adjacent segments (j = i + 1) share their vertex
 * and so are a VERTEX_TOUCH unless they fold back along each other (an OVERLAP); i = j gives
 * OVERLAP (a segment shares itself) unless it has zero length; a zero-length segment is a point
 * and counts as its own endpoint (on the other's interior: T_JUNCTION; on its end: VERTEX_TOUCH).
 * 2D decides with exact orientation signs (a filtered double evaluation, exact when needed);
 * 3D in exact integer arithmetic (coplanarity first).
 * @param points a flat array of coordinates, `dim` per vertex.
 * @throws SkewlineInputError if dim is not 2 or 3, points is not a flat array of finite numbers
 *   of a multiple of dim, or i or j is not the index of a segment.
 */
export function contactKind(points: ArrayLike<number>, dim: number, i: number, j: number, closed = false): number {
  if (dim !== 2 && dim !== 3) throw new SkewlineInputError(`contactKind: dim must be 2 or 3 (got ${String(dim)})`);
  if (points === null || typeof points !== 'object' || typeof points.length !== 'number' || points.length % dim !== 0) {
    throw new SkewlineInputError(`contactKind: points must be a flat array of ${dim} coordinates per vertex`);
  }
  const n = points.length / dim;
  const m = closed ? n : n - 1;
  for (const [name, k] of [['i', i], ['j', j]] as const) {
    if (!Number.isInteger(k) || k < 0 || k >= m) {
      throw new SkewlineInputError(`contactKind: ${name} = ${String(k)} is not a segment index (the chain has ${Math.max(m, 0)} segments)`);
    }
  }
  const c: number[] = [];
  for (const k of [i, (i + 1) % n, j, (j + 1) % n]) {
    for (let d = 0; d < dim; d++) {
      const x = points[k * dim + d];
      if (typeof x !== 'number' || !Number.isFinite(x)) throw new SkewlineInputError(`contactKind: vertex ${k} coordinate ${d} is not a finite number (${String(x)})`);
      c.push(x);
    }
  }
  if (dim === 2) return classify2(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
  return classify3(c);
}
