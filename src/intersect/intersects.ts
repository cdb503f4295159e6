/**
 * Exact yes/no intersection tests: do two primitives share a point?
 *
 * Every decision is the sign of a polynomial in the input coordinates (an orientation, a 2×2
 * or 3×3 determinant) or an exact comparison of coordinates. Signs are found by an adaptive
 * filter in the manner of Shewchuk (1997), "Adaptive Precision Floating-Point Arithmetic and
 * Fast Robust Geometric Predicates", Discrete & Computational Geometry 18: a plain double
 * evaluation whose sign is accepted when it exceeds a static error bound, else an exact
 * evaluation — `robust-predicates` (a port of Shewchuk's code) for orientations of input points
 * whose magnitudes keep it free of overflow and underflow, and BigInt integer arithmetic for
 * everything else. There is no tolerance anywhere: the answers are those of the exact inputs.
 */
import { orient2d, orient3d } from 'robust-predicates';
import { kindCode } from '../core/exact.js';
import { OUT_REL, OUT_VEC, REL_INTERSECTING, REL_OVERLAPPING } from '../closest/kernel.js';
import { FAST_DONE, closestNdInto, linesApartNd } from '../closest/kernel-nd.js';
import { EPS } from '../core/eft.js';
import { toScaledBigInts } from '../core/exact.js';
import { SkewlineInputError, isPrimitive, toVector } from '../core/primitives.js';
import type { Primitive, VecLike } from '../core/types.js';

// ---------------------------------------------------------------------------------------------
// Error bounds

/**
 * Shewchuk (1997), §4.3, `ccwerrboundA = (3 + 16ε)ε`: if a 2×2 determinant l − r whose two
 * products each multiply two rounded differences of inputs is computed in doubles, its error is
 * at most ERR2·(|l| + |r|). Factors that are exact inputs (a ray's direction) only shrink it.
 */
const ERR2 = (3 + 16 * EPS) * EPS;
/** Shewchuk (1997), §4.3, `o3derrboundA = (7 + 56ε)ε`, relative to the permanent. */
const ERR3 = (7 + 56 * EPS) * EPS;
const abs = Math.abs;
/**
 * Shewchuk's bounds assume no underflow. A product that lands in the subnormal range may be
 * off by up to 2^-1075 in absolute terms; this term (2^15 times that) absorbs those errors, so a
 * double sign is only trusted when it clears both. It is a property of the number format, not a
 * geometric tolerance: it only sends results below ~1e-319 to the exact path.
 */
const UNDERFLOW = 2 ** -1060;
/**
 * `robust-predicates` is exact when no intermediate over- or underflows. With every nonzero
 * coordinate in [2^-300, 2^300] all inputs are multiples of 2^-352, every product of three
 * differences and its roundoff is a multiple of 2^-1056 (representable), and nothing exceeds
 * 2^910; outside that range we use BigInt.
 */
const SAFE_HI = 2 ** 300;
const SAFE_LO = 2 ** -300;

function unsafe(x: number): boolean {
  const m = Math.abs(x);
  return m > SAFE_HI || (m < SAFE_LO && m !== 0);
}

// ---------------------------------------------------------------------------------------------
// Exact BigInt evaluation (the last resort)

function bsign(x: bigint): number {
  return x > 0n ? 1 : x < 0n ? -1 : 0;
}

/** Exact sign of (a − b)(c − d) − (e − f)(g − h). */
function exactSign2(a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number): number {
  const { ints: z } = toScaledBigInts([a, b, c, d, e, f, g, h]);
  return bsign((z[0] - z[1]) * (z[2] - z[3]) - (z[4] - z[5]) * (z[6] - z[7]));
}

/** Exact sign of det[u; v; w] with u = (u1 − u0), v = (v1 − v0), w = (w1 − w0) in R³. */
function exactSign3(xs: number[]): number {
  const { ints: z } = toScaledBigInts(xs);
  const ux = z[0] - z[1], uy = z[2] - z[3], uz = z[4] - z[5];
  const vx = z[6] - z[7], vy = z[8] - z[9], vz = z[10] - z[11];
  const wx = z[12] - z[13], wy = z[14] - z[15], wz = z[16] - z[17];
  return bsign(ux * (vy * wz - vz * wy) + uy * (vz * wx - vx * wz) + uz * (vx * wy - vy * wx));
}

// ---------------------------------------------------------------------------------------------
// Orientation signs (counter-clockwise positive)

/**
 * Exact sign of the orientation of c relative to the directed line a→b in the plane:
 * +1 if c is to the left (a, b, c counter-clockwise), −1 to the right, 0 if collinear
 * (including a = b). This is the standard convention; note that `robust-predicates`'
 * `orient2d` returns the opposite sign (it is positive for clockwise triples), which is
 * accounted for here. Coordinates must be finite (not checked).
 */
export function orient2Sign(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  // det[b − a; c − a], the same shape as Shewchuk's orient2d (two products of rounded differences).
  return filteredSign((bx - ax) * (cy - ay), (by - ay) * (cx - ax)) || orient2Exact(ax, ay, bx, by, cx, cy);
}

function orient2Exact(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  if (unsafe(ax) || unsafe(ay) || unsafe(bx) || unsafe(by) || unsafe(cx) || unsafe(cy)) {
    return exactSign2(bx, ax, cy, ay, by, ay, cx, ax);
  }
  // robust-predicates computes (ay − cy)(bx − cx) − (ax − cx)(by − cy): clockwise-positive.
  const s = orient2d(ax, ay, bx, by, cx, cy);
  return s > 0 ? -1 : s < 0 ? 1 : 0;
}

/**
 * Exact sign of det[a1 − a0; b0 − a0; b1 − a0] in R³: zero exactly when the four points are
 * coplanar (always so when two of them coincide). The sign's orientation convention is
 * right-handed (positive for a0=0, a1=e_x, b0=e_y, b1=e_z). Coordinates must be finite.
 */
export function orient3Sign(
  ax0: number, ay0: number, az0: number, ax1: number, ay1: number, az1: number,
  bx0: number, by0: number, bz0: number, bx1: number, by1: number, bz1: number,
): number {
  const ux = ax1 - ax0, uy = ay1 - ay0, uz = az1 - az0;
  const vx = bx0 - ax0, vy = by0 - ay0, vz = bz0 - az0;
  const wx = bx1 - ax0, wy = by1 - ay0, wz = bz1 - az0;
  const vywz = vy * wz, vzwy = vz * wy, vzwx = vz * wx, vxwz = vx * wz, vxwy = vx * wy, vywx = vy * wx;
  const det = ux * (vywz - vzwy) + uy * (vzwx - vxwz) + uz * (vxwy - vywx);
  const aux = Math.abs(ux), auy = Math.abs(uy), auz = Math.abs(uz);
  const perm = aux * (Math.abs(vywz) + Math.abs(vzwy)) + auy * (Math.abs(vzwx) + Math.abs(vxwz)) +
    auz * (Math.abs(vxwy) + Math.abs(vywx));
  const bound = ERR3 * perm + UNDERFLOW * (aux + auy + auz + 1);
  if (det > bound) return 1;
  if (det < -bound) return -1;
  for (const x of [ax0, ay0, az0, ax1, ay1, az1, bx0, by0, bz0, bx1, by1, bz1]) {
    if (unsafe(x)) {
      return exactSign3([ax1, ax0, ay1, ay0, az1, az0, bx0, ax0, by0, ay0, bz0, az0, bx1, ax0, by1, ay0, bz1, az0]);
    }
  }
  // robust-predicates' orient3d is det[a − d; b − d; c − d], negative for the right-handed
  // frame above; its zero set is what matters here, the sign is flipped for consistency.
  const s = orient3d(ax0, ay0, az0, ax1, ay1, az1, bx0, by0, bz0, bx1, by1, bz1);
  return s > 0 ? -1 : s < 0 ? 1 : 0;
}

/**
 * Exact sign of (u1[i] − u0[i])(v1[j] − v0[j]) − (u1[j] − u0[j])(v1[i] − v0[i]): the 2D cross
 * product, on axes i and j, of two vectors each given as an exact difference of two arrays
 * (a ray's direction is passed as `dir − 0`).
 */
function cross2(u1: ArrayLike<number>, u0: ArrayLike<number>, v1: ArrayLike<number>, v0: ArrayLike<number>, i: number, j: number): number {
  const l = (u1[i] - u0[i]) * (v1[j] - v0[j]);
  const r = (u1[j] - u0[j]) * (v1[i] - v0[i]);
  const det = l - r;
  const bound = ERR2 * (Math.abs(l) + Math.abs(r)) + UNDERFLOW;
  if (det > bound) return 1;
  if (det < -bound) return -1;
  return exactSign2(u1[i], u0[i], v1[j], v0[j], u1[j], u0[j], v1[i], v0[i]);
}

/** Exact sign of det[u1 − u0; v1 − v0; w1 − w0] in R³ (float filter, then BigInt). */
function det3(u1: ArrayLike<number>, u0: ArrayLike<number>, v1: ArrayLike<number>, v0: ArrayLike<number>, w1: ArrayLike<number>, w0: ArrayLike<number>): number {
  const ux = u1[0] - u0[0], uy = u1[1] - u0[1], uz = u1[2] - u0[2];
  const vx = v1[0] - v0[0], vy = v1[1] - v0[1], vz = v1[2] - v0[2];
  const wx = w1[0] - w0[0], wy = w1[1] - w0[1], wz = w1[2] - w0[2];
  const vywz = vy * wz, vzwy = vz * wy, vzwx = vz * wx, vxwz = vx * wz, vxwy = vx * wy, vywx = vy * wx;
  const det = ux * (vywz - vzwy) + uy * (vzwx - vxwz) + uz * (vxwy - vywx);
  const aux = Math.abs(ux), auy = Math.abs(uy), auz = Math.abs(uz);
  const perm = aux * (Math.abs(vywz) + Math.abs(vzwy)) + auy * (Math.abs(vzwx) + Math.abs(vxwz)) +
    auz * (Math.abs(vxwy) + Math.abs(vywx));
  const bound = ERR3 * perm + UNDERFLOW * (aux + auy + auz + 1);
  if (det > bound) return 1;
  if (det < -bound) return -1;
  return exactSign3([
    u1[0], u0[0], u1[1], u0[1], u1[2], u0[2],
    v1[0], v0[0], v1[1], v0[1], v1[2], v0[2],
    w1[0], w0[0], w1[1], w0[1], w1[2], w0[2],
  ]);
}

// ---------------------------------------------------------------------------------------------
// Segment–segment kernels

/**
 * The 2D segment–segment decision: 0 = disjoint, 1 = they share a point, 2 = all four
 * orientations vanish (the four points are collinear, or, for a projection of a 3D
 * configuration, the projection may be degenerate) and the caller must decide along the line.
 *
 * Classic four-orientation test (e.g. Cormen et al., "Introduction to Algorithms", §33.1):
 * unless everything is collinear, the segments meet iff neither has both endpoints strictly
 * on one side of the other's line. A zero-length segment has both orientations zero w.r.t.
 * itself and equal orientations w.r.t. the other, so it falls into the right case.
 */
function segCore2(
  ax0: number, ay0: number, ax1: number, ay1: number,
  bx0: number, by0: number, bx1: number, by1: number,
): number {
  // Orientations of b0, b1 relative to a, then of a0, a1 relative to b: the filtered double
  // sign, or (0 = not certified) the exact one.
  const ux = ax1 - ax0, uy = ay1 - ay0;
  const d3 = filteredSign(ux * (by0 - ay0), uy * (bx0 - ax0)) || orient2Exact(ax0, ay0, ax1, ay1, bx0, by0);
  const d4 = filteredSign(ux * (by1 - ay0), uy * (bx1 - ax0)) || orient2Exact(ax0, ay0, ax1, ay1, bx1, by1);
  if (d3 === d4 && d3 !== 0) return 0;
  const vx = bx1 - bx0, vy = by1 - by0;
  const d1 = filteredSign(vx * (ay0 - by0), vy * (ax0 - bx0)) || orient2Exact(bx0, by0, bx1, by1, ax0, ay0);
  const d2 = filteredSign(vx * (ay1 - by0), vy * (ax1 - bx0)) || orient2Exact(bx0, by0, bx1, by1, ax1, ay1);
  if (d1 === d2 && d1 !== 0) return 0;
  if (d1 === 0 && d2 === 0 && d3 === 0 && d4 === 0) return 2;
  return 1;
}

/** Lexicographic "p < q" in the plane. */
function lexLess2(px: number, py: number, qx: number, qy: number): boolean {
  return px < qx || (px === qx && py < qy);
}

/**
 * Do two segments whose four endpoints are collinear share a point? On a line the
 * lexicographic order of points is a total order that agrees with the parametrisation (one
 * way or the other), so this is an interval overlap test with exact comparisons.
 */
function collinearOverlap2(
  ax0: number, ay0: number, ax1: number, ay1: number,
  bx0: number, by0: number, bx1: number, by1: number,
): boolean {
  let t: number;
  if (lexLess2(ax1, ay1, ax0, ay0)) {
    t = ax0; ax0 = ax1; ax1 = t;
    t = ay0; ay0 = ay1; ay1 = t;
  }
  if (lexLess2(bx1, by1, bx0, by0)) {
    t = bx0; bx0 = bx1; bx1 = t;
    t = by0; by0 = by1; by1 = t;
  }
  // Disjoint iff one ends before the other begins.
  return !(lexLess2(ax1, ay1, bx0, by0) || lexLess2(bx1, by1, ax0, ay0));
}

/** Lexicographic comparison of two points in R³: −1, 0 or 1. */
function lexCmp3(px: number, py: number, pz: number, qx: number, qy: number, qz: number): number {
  if (px !== qx) return px < qx ? -1 : 1;
  if (py !== qy) return py < qy ? -1 : 1;
  if (pz !== qz) return pz < qz ? -1 : 1;
  return 0;
}

function collinearOverlap3(
  ax0: number, ay0: number, az0: number, ax1: number, ay1: number, az1: number,
  bx0: number, by0: number, bz0: number, bx1: number, by1: number, bz1: number,
): boolean {
  const aRev = lexCmp3(ax1, ay1, az1, ax0, ay0, az0) < 0;
  const bRev = lexCmp3(bx1, by1, bz1, bx0, by0, bz0) < 0;
  // lo/hi ends of each, in lexicographic order
  const alx = aRev ? ax1 : ax0, aly = aRev ? ay1 : ay0, alz = aRev ? az1 : az0;
  const ahx = aRev ? ax0 : ax1, ahy = aRev ? ay0 : ay1, ahz = aRev ? az0 : az1;
  const blx = bRev ? bx1 : bx0, bly = bRev ? by1 : by0, blz = bRev ? bz1 : bz0;
  const bhx = bRev ? bx0 : bx1, bhy = bRev ? by0 : by1, bhz = bRev ? bz0 : bz1;
  return lexCmp3(ahx, ahy, ahz, blx, bly, blz) >= 0 && lexCmp3(bhx, bhy, bhz, alx, aly, alz) >= 0;
}

/** The exact stage of {@link intersectsSegments2} (also correct on its own). */
function segSeg2Exact(
  ax0: number, ay0: number, ax1: number, ay1: number,
  bx0: number, by0: number, bx1: number, by1: number,
): boolean {
  const code = segCore2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
  if (code !== 2) return code === 1;
  return collinearOverlap2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
}

function segSeg3(
  ax0: number, ay0: number, az0: number, ax1: number, ay1: number, az1: number,
  bx0: number, by0: number, bz0: number, bx1: number, by1: number, bz1: number,
): boolean {
  // Not coplanar: the four points are affinely independent, no common point.
  if (orient3Sign(ax0, ay0, az0, ax1, ay1, az1, bx0, by0, bz0, bx1, by1, bz1) !== 0) return false;
  // Coplanar. Estimate the plane's normal in doubles (sum of |cross products| of the three
  // triangles a0a1b0, a0a1b1, a0b0b1) only to order the projections: dropping the axis of the
  // largest normal component keeps the projection best conditioned. Correctness does not rest
  // on the estimate: a projection is used only once an exact orientation in it is nonzero,
  // which proves it is injective on the plane (see segCore2's code 2).
  const ux = ax1 - ax0, uy = ay1 - ay0, uz = az1 - az0;
  const vx = bx0 - ax0, vy = by0 - ay0, vz = bz0 - az0;
  const wx = bx1 - ax0, wy = by1 - ay0, wz = bz1 - az0;
  const nx = Math.abs(uy * vz - uz * vy) + Math.abs(uy * wz - uz * wy) + Math.abs(vy * wz - vz * wy);
  const ny = Math.abs(uz * vx - ux * vz) + Math.abs(uz * wx - ux * wz) + Math.abs(vz * wx - vx * wz);
  const nz = Math.abs(ux * vy - uy * vx) + Math.abs(ux * wy - uy * wx) + Math.abs(vx * wy - vy * wx);
  let first: number, second: number, third: number;
  if (nz >= nx && nz >= ny) {
    first = 2; second = nx >= ny ? 0 : 1; third = nx >= ny ? 1 : 0;
  } else if (ny >= nx) {
    first = 1; second = nz >= nx ? 2 : 0; third = nz >= nx ? 0 : 2;
  } else {
    first = 0; second = nz >= ny ? 2 : 1; third = nz >= ny ? 1 : 2;
  }
  for (let pass = 0; pass < 3; pass++) {
    const k = pass === 0 ? first : pass === 1 ? second : third;
    let code: number;
    if (k === 2) code = segCore2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
    else if (k === 1) code = segCore2(az0, ax0, az1, ax1, bz0, bx0, bz1, bx1);
    else code = segCore2(ay0, az0, ay1, az1, by0, bz0, by1, bz1);
    if (code !== 2) return code === 1;
  }
  // All orientations vanish in every projection: the four points are collinear in R³.
  return collinearOverlap3(ax0, ay0, az0, ax1, ay1, az1, bx0, by0, bz0, bx1, by1, bz1);
}

/**
 * Sign of l − r when Shewchuk's static bound certifies it, else 0 (not known): l and r are
 * the two rounded products of a 2×2 orientation determinant whose factors are rounded
 * differences of inputs. The bound is his orient2d's, |l − r| > ccwerrboundA·|l + r| (when
 * l and r have opposite signs the sign of l − r is certain anyway), plus the underflow term.
 * Small so that the hot kernels inline it.
 */
function filteredSign(l: number, r: number): number {
  const d = l - r;
  const e = ERR2 * abs(l + r) + UNDERFLOW;
  return d > e ? 1 : d < -e ? -1 : 0;
}

/**
 * Do the 2D segments a0a1 and b0b1 share a point? Flat, allocation-free form for batch code:
 * reads the eight numbers a0x, a0y, a1x, a1y, b0x, b0y, b1x, b1y starting at `data[k]`.
 *
 * Exact for all finite inputs: touching at an endpoint or an interior point counts,
 * collinear segments count only if they overlap or touch (collinear but disjoint → false),
 * zero-length segments behave as points, and reversed segments give the same answer.
 * Cost: four double orientations with Shewchuk's static filter; exact evaluation only when
 * the filter cannot decide. Inputs are not validated (NaN or ±Infinity give an unspecified
 * boolean). Not re-entrant while its rare BigInt fallback runs (module scratch), which only
 * matters if called from inside itself.
 */
export function intersectsSegments2(data: ArrayLike<number>, k: number): boolean {
  // Fast stage: the four orientations in doubles, each with Shewchuk's static bound exactly as
  // in his orient2d: |det| > ERR2·|l + r| (when l and r have opposite signs the sign of l − r
  // is certain anyway, and |l + r| ≤ |l| + |r|), plus the underflow term. If the
  // certified signs already decide (one segment strictly on one side of the other's line, or a
  // proper crossing), answer; anything uncertain or zero goes to the exact stage. Written out
  // flat, reading straight from `data`: passing eight doubles to a non-inlined call would box
  // them, which costs more than the whole test.
  const ax0 = data[k], ay0 = data[k + 1], ax1 = data[k + 2], ay1 = data[k + 3];
  const bx0 = data[k + 4], by0 = data[k + 5], bx1 = data[k + 6], by1 = data[k + 7];
  const ux = ax1 - ax0, uy = ay1 - ay0;
  const s3 = filteredSign(ux * (by0 - ay0), uy * (bx0 - ax0));
  const s4 = filteredSign(ux * (by1 - ay0), uy * (bx1 - ax0));
  if (s3 * s4 > 0) return false;
  const vx = bx1 - bx0, vy = by1 - by0;
  const s1 = filteredSign(vx * (ay0 - by0), vy * (ax0 - bx0));
  const s2 = filteredSign(vx * (ay1 - by0), vy * (ax1 - bx0));
  if (s1 * s2 > 0) return false;
  if (s3 * s4 < 0 && s1 * s2 < 0) return true; // a certified proper crossing
  return segSeg2Exact(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
}

/**
 * Do the 3D segments a0a1 and b0b1 share a point? Flat, allocation-free form: reads twelve
 * numbers a0xyz, a1xyz, b0xyz, b1xyz starting at `data[k]`.
 *
 * Exact: first an exact coplanarity test (orientation of the four points); coplanar pairs are
 * decided exactly in a projection onto a coordinate plane that is proven non-degenerate, and
 * fully collinear pairs by lexicographic order along the line. Edge cases as in
 * {@link intersectsSegments2}. Inputs are not validated.
 */
export function intersectsSegments3(data: ArrayLike<number>, k: number): boolean {
  // Common case first, flat (see intersectsSegments2): a certified nonzero orientation of the
  // four points (Shewchuk's orient3d static filter) means they are not coplanar, so disjoint.
  const ax0 = data[k], ay0 = data[k + 1], az0 = data[k + 2];
  const ux = data[k + 3] - ax0, uy = data[k + 4] - ay0, uz = data[k + 5] - az0;
  const vx = data[k + 6] - ax0, vy = data[k + 7] - ay0, vz = data[k + 8] - az0;
  const wx = data[k + 9] - ax0, wy = data[k + 10] - ay0, wz = data[k + 11] - az0;
  const vywz = vy * wz, vzwy = vz * wy, vzwx = vz * wx, vxwz = vx * wz, vxwy = vx * wy, vywx = vy * wx;
  const det = ux * (vywz - vzwy) + uy * (vzwx - vxwz) + uz * (vxwy - vywx);
  const aux = Math.abs(ux), auy = Math.abs(uy), auz = Math.abs(uz);
  const perm = aux * (Math.abs(vywz) + Math.abs(vzwy)) + auy * (Math.abs(vzwx) + Math.abs(vxwz)) +
    auz * (Math.abs(vxwy) + Math.abs(vywx));
  const bound = ERR3 * perm + UNDERFLOW * (aux + auy + auz + 1);
  if (det > bound || det < -bound) return false;
  return segSeg3(
    ax0, ay0, az0, data[k + 3], data[k + 4], data[k + 5],
    data[k + 6], data[k + 7], data[k + 8], data[k + 9], data[k + 10], data[k + 11],
  );
}

// ---------------------------------------------------------------------------------------------
// Mixed kinds (points, rays, lines) in 2D and 3D

/**
 * A primitive seen as origin `o` plus direction D = h − t (an exact difference of two arrays:
 * p1 − p0 for segments and lines, dir − 0 for rays), or a bare point.
 */
interface Lin {
  kind: 'point' | 'segment' | 'line' | 'ray';
  o: Float64Array;
  h: Float64Array;
  t: Float64Array;
}

const ZERO = new Float64Array(3);
/** Module scratch for {@link intersects}' 2D segment path (never exported; the call does not re-enter). */
const SCRATCH = new Float64Array(12);

function normalise(p: Primitive): Lin {
  if (p.kind === 'point') return { kind: 'point', o: p.p0, h: p.p0, t: p.p0 };
  if (p.kind === 'ray') return { kind: 'ray', o: p.p0, h: p.dir, t: ZERO };
  if (p.kind === 'segment') {
    let same = true;
    for (let i = 0; i < p.dim; i++) if (p.p0[i] !== p.p1[i]) same = false;
    if (same) return { kind: 'point', o: p.p0, h: p.p0, t: p.p0 };
  }
  return { kind: p.kind, o: p.p0, h: p.p1, t: p.p0 };
}

function lexCmp(p: ArrayLike<number>, q: ArrayLike<number>, dim: number): number {
  for (let i = 0; i < dim; i++) if (p[i] !== q[i]) return p[i] < q[i] ? -1 : 1;
  return 0;
}

/** Sign of the first nonzero component of h − t (exact: compares h[i] with t[i]). */
function lexDirSign(x: Lin, dim: number): number {
  return lexCmp(x.h, x.t, dim);
}

/**
 * For a primitive lying on a line, its extent in the lexicographic order of that line:
 * [lo, hi] with null meaning unbounded.
 */
function extent(x: Lin, dim: number): [ArrayLike<number> | null, ArrayLike<number> | null] {
  switch (x.kind) {
    case 'point':
      return [x.o, x.o];
    case 'segment':
      return lexCmp(x.h, x.o, dim) < 0 ? [x.h, x.o] : [x.o, x.h];
    case 'line':
      return [null, null];
    case 'ray':
      return lexDirSign(x, dim) > 0 ? [x.o, null] : [null, x.o];
  }
}

/** Collinear primitives (all on one line): do their lexicographic extents meet? */
function collinearMeet(a: Lin, b: Lin, dim: number): boolean {
  const [alo, ahi] = extent(a, dim);
  const [blo, bhi] = extent(b, dim);
  if (ahi !== null && blo !== null && lexCmp(ahi, blo, dim) < 0) return false;
  if (bhi !== null && alo !== null && lexCmp(bhi, alo, dim) < 0) return false;
  return true;
}

/** Is point p on the supporting line of the linear primitive b (exactly)? */
function onLine(p: ArrayLike<number>, b: Lin, dim: number): boolean {
  for (let i = 0; i < dim; i++) {
    for (let j = i + 1; j < dim; j++) if (cross2(b.h, b.t, p, b.o, i, j) !== 0) return false;
  }
  return true;
}

/**
 * Linear a and b (both with nonzero direction) whose lines cross in the projection on axes
 * (i, j) (c = sign of DA × DB there, nonzero): does each contain the crossing point?
 */
function crossingContained(a: Lin, b: Lin, c: number, i: number, j: number): boolean {
  // Side of a point P relative to b: sign(DB × (P − oB)); along a the side changes sign at the
  // crossing, so a segment contains it iff its ends are not strictly on one side, and a ray
  // iff the crossing parameter s* = −side(oA)/(DB × DA) is ≥ 0, i.e. side(oA)·c ≥ 0.
  if (a.kind === 'segment') {
    const s0 = cross2(b.h, b.t, a.o, b.o, i, j);
    const s1 = cross2(b.h, b.t, a.h, b.o, i, j);
    if (s0 * s1 > 0) return false;
  } else if (a.kind === 'ray') {
    if (cross2(b.h, b.t, a.o, b.o, i, j) * c < 0) return false;
  }
  // Symmetric for b relative to a: t* = −side(oB)/(DA × DB) ≥ 0 iff side(oB)·c ≤ 0.
  if (b.kind === 'segment') {
    const s0 = cross2(a.h, a.t, b.o, a.o, i, j);
    const s1 = cross2(a.h, a.t, b.h, a.o, i, j);
    if (s0 * s1 > 0) return false;
  } else if (b.kind === 'ray') {
    if (cross2(a.h, a.t, b.o, a.o, i, j) * c > 0) return false;
  }
  return true;
}

function linLin(a: Lin, b: Lin, dim: number): boolean {
  if (dim === 3 && det3(a.h, a.t, b.h, b.t, b.o, a.o) !== 0) return false; // not coplanar
  // Try projections (all three in 3D, in order of the estimated normal) until one is proven
  // non-degenerate on the common plane: DA × DB ≠ 0 or DA × (oB − oA) ≠ 0 there.
  let order: number[];
  if (dim === 2) order = [2];
  else {
    const ux = a.h[0] - a.t[0], uy = a.h[1] - a.t[1], uz = a.h[2] - a.t[2];
    const vx = b.h[0] - b.t[0], vy = b.h[1] - b.t[1], vz = b.h[2] - b.t[2];
    const wx = b.o[0] - a.o[0], wy = b.o[1] - a.o[1], wz = b.o[2] - a.o[2];
    const n = [
      Math.abs(uy * vz - uz * vy) + Math.abs(uy * wz - uz * wy),
      Math.abs(uz * vx - ux * vz) + Math.abs(uz * wx - ux * wz),
      Math.abs(ux * vy - uy * vx) + Math.abs(ux * wy - uy * wx),
    ];
    order = [0, 1, 2].sort((p, q) => n[q] - n[p]);
  }
  for (const k of order) {
    const i = k === 2 ? 0 : k === 1 ? 2 : 1;
    const j = k === 2 ? 1 : k === 1 ? 0 : 2;
    const c = cross2(a.h, a.t, b.h, b.t, i, j);
    if (c !== 0) return crossingContained(a, b, c, i, j);
    // Parallel in this projection; distinct parallel lines if oB is off a's line here.
    if (cross2(a.h, a.t, b.o, a.o, i, j) !== 0) return false;
  }
  // Same line.
  return collinearMeet(a, b, dim);
}

function pointLin(p: Float64Array, b: Lin, dim: number): boolean {
  if (!onLine(p, b, dim)) return false;
  return collinearMeet({ kind: 'point', o: p, h: p, t: p }, b, dim);
}

function generic(a: Primitive, b: Primitive): boolean {
  const dim = a.dim;
  const A = normalise(a);
  const B = normalise(b);
  if (A.kind === 'point' && B.kind === 'point') return lexCmp(A.o, B.o, dim) === 0;
  if (A.kind === 'point') return pointLin(A.o, B, dim);
  if (B.kind === 'point') return pointLin(B.o, A, dim);
  return linLin(A, B, dim);
}

/** A primitive whose three arrays are Float64Arrays of its dimension (O(1); see checkFinite). */
function checkShape(x: unknown, what: string): asserts x is Primitive {
  if (!isPrimitive(x)) throw new SkewlineInputError(`intersects: ${what} is not a primitive (use point/segment/line/ray)`);
  const p = x;
  for (let k = 0; k < 3; k++) {
    const name = k === 0 ? 'p0' : k === 1 ? 'p1' : 'dir';
    const v = k === 0 ? p.p0 : k === 1 ? p.p1 : p.dir;
    if (!(v instanceof Float64Array) || v.length !== p.dim) {
      throw new SkewlineInputError(`intersects: ${what}.${name} must be a Float64Array of length ${p.dim}`);
    }
  }
}

/** Finite coordinates (O(dim): n-D checks them only where its one-pass filter cannot answer). */
function checkFinite(p: Primitive, what: string): void {
  for (let k = 0; k < 3; k++) {
    const name = k === 0 ? 'p0' : k === 1 ? 'p1' : 'dir';
    const v = k === 0 ? p.p0 : k === 1 ? p.p1 : p.dir;
    // A segment's or line's dir is p1 − p0, which may overflow for finite endpoints near
    // ±1.8e308 (issue 19); only the points (and a ray's direction) are input.
    if (k === 2 && p.kind !== 'ray') continue;
    for (let i = 0; i < v.length; i++) {
      if (!Number.isFinite(v[i])) throw new SkewlineInputError(`intersects: ${what}.${name}[${i}] is not finite`);
    }
  }
}

let flat = new Float64Array(16);
let out = new Float64Array(16);

/**
 * n-D (dim ≥ 4): the O(n) closest-point kernel (kernel-nd.ts), whose relation is exact (a
 * certified distance filter, exact arithmetic below it).
 */
function intersectsNd(a: Primitive, b: Primitive): boolean {
  const dim = a.dim;
  const ka = kindCode(a);
  const kb = kindCode(b);
  const a1 = a.kind === 'ray' ? a.dir : a.p1;
  const b1 = b.kind === 'ray' ? b.dir : b.p1;
  // One pass answers most pairs: the lines are certainly apart (issue 16). Its sums are finite
  // only if every coordinate is, so the validation pass runs only when it cannot answer.
  if (linesApartNd(ka, kb, dim, a.p0, a1, b.p0, b1) === FAST_DONE) return false;
  checkFinite(a, 'a');
  checkFinite(b, 'b');
  if (flat.length < 4 * dim) flat = new Float64Array(4 * dim);
  if (out.length < OUT_VEC + dim) out = new Float64Array(OUT_VEC + dim);
  flat.set(a.p0, 0);
  flat.set(a1, dim);
  flat.set(b.p0, 2 * dim);
  flat.set(b1, 3 * dim);
  // The relation only: kernel-nd.ts decides it exactly; the faithful distance is not needed.
  closestNdInto(ka, kb, dim, flat, 0, out);
  const rel = out[OUT_REL];
  return rel === REL_INTERSECTING || rel === REL_OVERLAPPING;
}

/**
 * Do `a` and `b` share at least one point? Exact for every pair of kinds (point, segment,
 * ray, line) and every finite input: no tolerance is involved, the answer is that of the
 * exact inputs.
 *
 * Edge cases: touching (an endpoint on the other primitive, shared endpoints) is `true`;
 * collinear pieces are `true` only if they overlap or touch; zero-length segments behave as
 * points; a ray's direction is used exactly (origin + direction need not be representable).
 * In 2D and 3D the decision uses adaptive exact predicates (segment pairs take an
 * allocation-free fast path); in other dimensions the O(n) closest-point kernel decides (a
 * certified filter in doubles, exact BigInt arithmetic where it cannot tell).
 * @throws SkewlineInputError if either argument is not a primitive, holds non-finite
 * coordinates, or the two have different dimensions.
 */
export function intersects(a: Primitive, b: Primitive): boolean {
  checkShape(a, 'a');
  checkShape(b, 'b');
  if (a.dim !== b.dim) throw new SkewlineInputError(`intersects: dimensions differ (${a.dim} and ${b.dim})`);
  if (a.dim > 3) return intersectsNd(a, b);
  checkFinite(a, 'a');
  checkFinite(b, 'b');
  if (a.dim === 2) {
    if (a.kind === 'segment' && b.kind === 'segment') {
      SCRATCH[0] = a.p0[0]; SCRATCH[1] = a.p0[1]; SCRATCH[2] = a.p1[0]; SCRATCH[3] = a.p1[1];
      SCRATCH[4] = b.p0[0]; SCRATCH[5] = b.p0[1]; SCRATCH[6] = b.p1[0]; SCRATCH[7] = b.p1[1];
      return intersectsSegments2(SCRATCH, 0);
    }
    return generic(a, b);
  }
  if (a.dim === 3) {
    if (a.kind === 'segment' && b.kind === 'segment') {
      SCRATCH.set(a.p0, 0); SCRATCH.set(a.p1, 3); SCRATCH.set(b.p0, 6); SCRATCH.set(b.p1, 9);
      return intersectsSegments3(SCRATCH, 0);
    }
    return generic(a, b);
  }
  return intersectsNd(a, b);
}

// ---------------------------------------------------------------------------------------------
// Public exact helpers

function toPoints(name: string, pts: unknown[]): Float64Array[] {
  const out: Float64Array[] = [];
  const names = ['p', 'q', 'r', 's'];
  for (let k = 0; k < pts.length; k++) {
    const f = toVector(pts[k], `${name}: ${names[k]}`);
    if (k > 0 && f.length !== out[0].length) {
      throw new SkewlineInputError(`${name}: points of different dimensions (${out[0].length} and ${f.length})`);
    }
    out.push(f);
  }
  return out;
}

/**
 * Differences x − p of `xs` (1, 2 or 3 points) from p, each scaled by its own power of two so
 * that its largest component lies in [1, 2) (a zero difference stays zero); null when a
 * difference overflows. Scaling a vector by a power of two does not change whether the set is
 * linearly dependent, and keeps the Gram products below clear of overflow and underflow.
 */
function scaledDifferences(p: Float64Array, xs: Float64Array[]): Float64Array[] | null {
  const n = p.length;
  const out: Float64Array[] = [];
  for (const x of xs) {
    const d = new Float64Array(n);
    let m = 0;
    for (let i = 0; i < n; i++) {
      d[i] = x[i] - p[i];
      m = Math.max(m, Math.abs(d[i]));
    }
    if (!(m < Infinity)) return null;
    if (m > 0) {
      const e = Math.floor(Math.log2(m));
      const f1 = 2 ** -Math.trunc(e / 2);
      const f2 = 2 ** (Math.trunc(e / 2) - e);
      for (let i = 0; i < n; i++) d[i] = d[i] * f1 * f2;
    }
    out.push(d);
  }
  return out;
}

function dotF(x: Float64Array, y: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i] * y[i];
  return s;
}

/** γ_n of Higham's "Accuracy and Stability of Numerical Algorithms" (§3.1), n + 2 terms for the rounded differences. */
function gamma(n: number): number {
  return ((n + 2) * EPS) / (1 - (n + 2) * EPS);
}

/**
 * The exact integers of the differences x − p (one common power of two), for the rank tests'
 * exact stage: O(n) BigInt operations.
 */
function exactDifferences(p: Float64Array, xs: Float64Array[]): bigint[][] {
  const n = p.length;
  const all: number[] = Array.from(p);
  for (const x of xs) for (let i = 0; i < n; i++) all.push(x[i]);
  const { ints } = toScaledBigInts(all);
  return xs.map((_, k) => {
    const d: bigint[] = new Array<bigint>(n);
    for (let i = 0; i < n; i++) d[i] = ints[(k + 1) * n + i] - ints[i];
    return d;
  });
}

function dotB(x: bigint[], y: bigint[]): bigint {
  let s = 0n;
  for (let i = 0; i < x.length; i++) s += x[i] * y[i];
  return s;
}

/**
 * Are the points p, q, r collinear (exactly)? Any dimension ≥ 1; true when two of them
 * coincide. In 2D the exact orientation; otherwise u = q − p and v = r − p are dependent exactly
 * when their Gram determinant |u|²|v|² − (u·v)² (= Σ of the squared 2×2 minors, Lagrange's
 * identity) is zero: decided in doubles when it clears its error bound, else in exact integers.
 * O(n) in the dimension n (a 1e5-D call takes milliseconds).
 * @throws SkewlineInputError on missing, non-finite or different-dimension points.
 */
export function collinear(p: VecLike, q: VecLike, r: VecLike): boolean {
  const [P, Q, R] = toPoints('collinear', [p, q, r]);
  const n = P.length;
  if (n === 2) return orient2Sign(P[0], P[1], Q[0], Q[1], R[0], R[1]) === 0;
  const d = scaledDifferences(P, [Q, R]);
  if (d !== null) {
    const [u, v] = d;
    const a = dotF(u, u);
    const b = dotF(u, v);
    const c = dotF(v, v);
    if (a === 0 || c === 0) return true; // two points coincide
    // a, c relative error ≤ γ; |b| error ≤ γ·|u||v|; three roundings: 6u·ac. Components whose
    // squares underflow add at most n·2⁻¹⁰⁷⁴ each, far below this bound (a, c ≥ 1).
    const bound = (4 * gamma(n) + 8 * EPS) * a * c * (1 + 1e-10);
    if (a * c - b * b > bound) return false;
  }
  const [U, V] = exactDifferences(P, [Q, R]);
  const ab = dotB(U, V);
  return dotB(U, U) * dotB(V, V) === ab * ab;
}

/**
 * Are the points p, q, r, s coplanar (exactly)? Any dimension: always true in 1D and 2D;
 * in 3D the exact orientation (Shewchuk's orient3d with a static filter) is zero; in higher
 * dimensions the three differences from p are dependent, i.e. their 3×3 Gram determinant is zero:
 * decided in doubles when it clears its error bound, else in exact integers. O(n) in the
 * dimension. True when points coincide.
 * @throws SkewlineInputError on missing, non-finite or different-dimension points.
 */
export function coplanar(p: VecLike, q: VecLike, r: VecLike, s: VecLike): boolean {
  const [P, Q, R, S] = toPoints('coplanar', [p, q, r, s]);
  const n = P.length;
  if (n <= 2) return true;
  if (n === 3) return orient3Sign(P[0], P[1], P[2], Q[0], Q[1], Q[2], R[0], R[1], R[2], S[0], S[1], S[2]) === 0;
  const d = scaledDifferences(P, [Q, R, S]);
  if (d !== null) {
    const [u, v, w] = d;
    const a = dotF(u, u), b = dotF(u, v), c = dotF(u, w);
    const e = dotF(v, v), f = dotF(v, w), g = dotF(w, w);
    if (a === 0 || e === 0 || g === 0) return true;
    const det = a * (e * g - f * f) - b * (b * g - f * c) + c * (b * f - e * c);
    // Each entry errs by ≤ γ·|x||y|, so each of the six products of three entries (each ≤ P =
    // |u|²|v|²|w|² in size) by ≤ (3γ + 2u)·P, and their sum adds ≤ 5u·6P.
    const bound = (18 * gamma(n) + 42 * EPS) * a * e * g * (1 + 1e-10);
    if (det > bound) return false;
  }
  const [U, V, W] = exactDifferences(P, [Q, R, S]);
  const a = dotB(U, U), b = dotB(U, V), c = dotB(U, W);
  const e = dotB(V, V), f = dotB(V, W), g = dotB(W, W);
  return a * (e * g - f * f) - b * (b * g - f * c) + c * (b * f - e * c) === 0n;
}
