/**
 * Flat, non-allocating segment–segment kernels for bulk work: loop-free 2D and 3D versions
 * and an n-D one. Each reads one pair laid out as a0, a1, b0, b1 (dim numbers each) from
 * `data` at index k, writes s and t to out[o], out[o + 1] when `out` is given, and returns
 * the distance — faithful (the exact distance rounded up or down, closest/faithful.ts) and with
 * the same exact `distance === 0` rule as {@link closestFlat}, to which they hand over every pair
 * their cheap path cannot vouch for (nearly parallel, zero-length, touching or nearly touching,
 * extreme magnitudes). A distance beyond the double range throws a RangeError naming the pair.
 * Not re-entrant (module-level scratch).
 */
import { EPS, SPLITTER } from '../core/eft.js';
import { OUT_S, OUT_T, closestFlat } from './kernel.js';
import { SEGMENT } from '../core/exact.js';
import { SkewlineInputError } from '../core/primitives.js';
import { FAITHFUL, faithfulSegSeg, faithfulSegSeg3 } from './faithful.js';

const SCRATCH = new Float64Array(5 + 64);
let scratchN = SCRATCH;

/** sin²θ below which the 3D kernel evaluates u×v error-free (θ ≈ 2⁻²⁵ rad); the plain minors' across-valley error u²·h/(2 sin²θ) stays below u·h/16 above it. */
const ACCURATE_BELOW = 2 ** -50;
/** Squared magnitudes outside [2⁻³⁰⁰, 2²⁰⁰] defer too (no overflow or underflow below). */
const TINY = 2 ** -300;
const HUGE = 2 ** 200;
/** (64u)²: a distance within 64u of the size of its terms may be zero; decide it exactly. */
const FILTER2 = (64 * EPS) ** 2;
/** Error bound factor for the 2D orientation-style certificates (≥ 4u; see closestSegSeg2). */
const CERT = 8 * EPS;

/**
 * The distance of the last closestSegSeg2/3 call. Their bodies (segSeg2, segSeg3) store it here
 * (written out at each return: a helper taking the double is not always inlined, and its
 * argument would be boxed) and return nothing, and the exported functions are two-line wrappers that V8 inlines into a
 * hot caller, so that the double never needs a heap box: a double returned from a function that
 * is not inlined is boxed, 16 bytes a call (issue 16: "allocates about 32 bytes a call").
 */
const RESULT = new Float64Array(1);
// Parameters are clamped to [0, 1] with Math.min/Math.max, which the optimiser turns into two
// instructions: a clamp helper was not always inlined in these long functions, and then every
// interior value it returned was boxed on the heap.


function fallback(dim: number, data: ArrayLike<number>, k: number, out: Float64Array | null, o: number): number {
  // Every pair with a NaN or an infinity fails the fast paths' checks and lands here, so
  // validating here costs the fast path nothing.
  for (let j = 0; j < 4 * dim; j++) {
    const x = data[k + j];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      const which = ['a0', 'a1', 'b0', 'b1'][Math.floor(j / dim)];
      throw new SkewlineInputError(`pair starting at index ${k}: ${which}[${j % dim}] is not finite (got ${String(x)})`);
    }
  }
  const dist = closestFlat(SEGMENT, SEGMENT, dim, data, k, scratchN);
  if (dist === Infinity) {
    throw new RangeError(`pair starting at index ${k}: the distance exceeds the largest double (1.8e308)`);
  }
  if (out !== null) {
    out[o] = scratchN[OUT_S];
    out[o + 1] = scratchN[OUT_T];
  }
  return dist;
}

/**
 * Segment–segment closest points in 3D (12 numbers per pair from index k).
 *
 * The unconstrained minimiser s* comes from one of two formulas, chosen by
 * sin²θ = D/(|u|²|v|²), D = |u|²|v|² − (u·v)²:
 * - sin²θ ≥ 1/16 (most random pairs): Ericson's dot-product form s* = (b·e − c·d)/D (Real-Time
 *   Collision Detection §5.1.9), whose cancellation costs at most a factor 1/sin²θ ≤ 16;
 * - sin²θ < 1/16: the cross-product form s* = n·(v×w)/|n|², n = u×v, whose minors lose only a
 *   factor 1/sinθ (Binet–Cauchy); below sin²θ = 2⁻⁵⁰, n is evaluated error-free (core/eft.ts);
 * - exactly parallel or zero-length pieces, extreme magnitudes and pairs within 64u of touching
 *   go to the generic kernel (exact arithmetic decides what must be decided).
 * Then clamp s, project onto b, clamp t, project back. The final projection is always right (at
 * the constrained optimum s is the best s for its t), so there is no case analysis and no
 * unpredictable branch, and s and t are consistent: an error in s* can only slide the pair
 * along the valley of the distance function, which changes the distance to second order.
 */
function segSeg3(data: ArrayLike<number>, k: number, out: Float64Array | null, o: number): void {
  const a0x = data[k];
  const a0y = data[k + 1];
  const a0z = data[k + 2];
  const b0x = data[k + 6];
  const b0y = data[k + 7];
  const b0z = data[k + 8];
  const ux = data[k + 3] - a0x;
  const uy = data[k + 4] - a0y;
  const uz = data[k + 5] - a0z;
  const vx = data[k + 9] - b0x;
  const vy = data[k + 10] - b0y;
  const vz = data[k + 11] - b0z;
  const aa = ux * ux + uy * uy + uz * uz;
  const cc = vx * vx + vy * vy + vz * vz;
  const b = ux * vx + uy * vy + uz * vz;
  const ac = aa * cc;
  const D = ac - b * b;
  if (!(D >= 0.0625 * ac)) {
    // Shallow angles, sin²θ < 1/16 (written out here: as a separate function V8 would not
    // inline it, and the call, the re-read pair and the boxed result cost 10% near parallel).
    // s* = n·(v×w)/|n|² with n = u×v (Binet–Cauchy), whose minors lose only a factor 1/sinθ;
    // below sin²θ = 2⁻⁵⁰, n is evaluated error-free.
    const wx = a0x - b0x;
    const wy = a0y - b0y;
    const wz = a0z - b0z;
    // Reciprocals first: independent of the rest, they pipeline instead of lengthening the chain.
    const iA = 1 / aa;
    const iC = 1 / cc;
    let nx: number;
    let ny: number;
    let nz: number;
    // ac − b² is off by a few u·ac, far below 2⁻⁴⁰·ac: good enough to choose the tier.
    if (ac - b * b >= ACCURATE_BELOW * ac) {
      nx = uy * vz - uz * vy;
      ny = uz * vx - ux * vz;
      nz = ux * vy - uy * vx;
    } else {
      // Within 2⁻²⁵ rad of parallel the plain minors have no correct digits left. Use
      // u×v = u×(v − μu) for any μ: with μ = (u·v)/|u|² and each μ·u_i split error-free
      // (Dekker), v′ = v − μu is accurate to a few ulps of itself and nearly orthogonal to u,
      // so the plain cross product u×v′ loses nothing. (v×w may stay plain: its error u·|v||w|
      // slides the pair along the valley only.)
      const mu = b * iA;
      let c = SPLITTER * mu;
      const mh = c - (c - mu);
      const ml = mu - mh;
      c = SPLITTER * ux;
      const uxh = c - (c - ux);
      const uxl = ux - uxh;
      c = SPLITTER * uy;
      const uyh = c - (c - uy);
      const uyl = uy - uyh;
      c = SPLITTER * uz;
      const uzh = c - (c - uz);
      const uzl = uz - uzh;
      const px = mu * ux;
      const py = mu * uy;
      const pz = mu * uz;
      // μ·u_i = p + (ml·ul − (((p − mh·uh) − ml·uh) − mh·ul)) exactly (Dekker).
      const qx = vx - px - (ml * uxl - (px - mh * uxh - ml * uxh - mh * uxl));
      const qy = vy - py - (ml * uyl - (py - mh * uyh - ml * uyh - mh * uyl));
      const qz = vz - pz - (ml * uzl - (pz - mh * uzh - ml * uzh - mh * uzl));
      nx = uy * qz - uz * qy;
      ny = uz * qx - ux * qz;
      nz = ux * qy - uy * qx;
    }
    const D = nx * nx + ny * ny + nz * nz;
    if (!(D > 0)) {
      RESULT[0] = fallback(3, data, k, out, o); // parallel, or a zero-length piece
      return;
    }
    const d = ux * wx + uy * wy + uz * wz;
    const e = vx * wx + vy * wy + vz * wz;
    let s = Math.min(1, Math.max(0, ((ny * vz - nz * vy) * wx + (nz * vx - nx * vz) * wy + (nx * vy - ny * vx) * wz) / D));
    const t = Math.min(1, Math.max(0, (e + b * s) * iC));
    s = Math.min(1, Math.max(0, (b * t - d) * iA));
    // The residual at (s, t), then one test for the exact hand-over (a distance within 64u of
    // the size of its terms, which |w|² + |u|² + |v|² bounds), magnitudes that could over- or
    // underflow, and NaN. (Written out in both tiers: a shared helper taking 15 doubles would
    // not be inlined, and V8 would box every argument.)
    const rx = wx + s * ux - t * vx;
    const ry = wy + s * uy - t * vy;
    const rz = wz + s * uz - t * vz;
    const dist2 = rx * rx + ry * ry + rz * rz;
    const size2 = wx * wx + wy * wy + wz * wz + aa + cc;
    if (!(dist2 > FILTER2 * size2 && size2 < HUGE && ac > TINY)) {
      RESULT[0] = fallback(3, data, k, out, o);
      return;
    }
    FAITHFUL[0] = s;
    FAITHFUL[1] = t;
    if (!faithfulSegSeg3(data, k)) {
      RESULT[0] = fallback(3, data, k, out, o);
      return;
    }
    if (out !== null) {
      out[o] = s;
      out[o + 1] = t;
    }
    RESULT[0] = FAITHFUL[2];
    return;
  }
  const wx = a0x - b0x;
  const wy = a0y - b0y;
  const wz = a0z - b0z;
  const d = ux * wx + uy * wy + uz * wz;
  const e = vx * wx + vy * wy + vz * wz;
  // One division gives all three reciprocals (1/D, 1/a, 1/c); the final check keeps a·c·D
  // within range.
  const q = 1 / (ac * D);
  const iA = cc * D * q;
  const iC = aa * D * q;
  let s = Math.min(1, Math.max(0, (b * e - cc * d) * ac * q));
  const t = Math.min(1, Math.max(0, (e + b * s) * iC));
  s = Math.min(1, Math.max(0, (b * t - d) * iA));
  // The residual at (s, t), then one test for the exact hand-over (a distance within 64u of
  // the size of its terms, which |w|² + |u|² + |v|² bounds), magnitudes that could over- or
  // underflow, and NaN. (Written out in both tiers: a shared helper taking 15 doubles would
  // not be inlined, and V8 would box every argument.)
  const rx = wx + s * ux - t * vx;
  const ry = wy + s * uy - t * vy;
  const rz = wz + s * uz - t * vz;
  const dist2 = rx * rx + ry * ry + rz * rz;
  const size2 = wx * wx + wy * wy + wz * wz + aa + cc;
  if (!(dist2 > FILTER2 * size2 && size2 < HUGE && ac > TINY)) {
    RESULT[0] = fallback(3, data, k, out, o);
    return;
  }
  FAITHFUL[0] = s;
  FAITHFUL[1] = t;
  if (!faithfulSegSeg3(data, k)) {
    RESULT[0] = fallback(3, data, k, out, o);
    return;
  }
  if (out !== null) {
    out[o] = s;
    out[o + 1] = t;
  }
  RESULT[0] = FAITHFUL[2];
  return;
}

/**
 * Segment–segment closest points in 3D (12 numbers per pair from index k): the method of
 * segSeg3 above. Writes s and t to out[o], out[o + 1] when `out` is given and returns the
 * distance. Allocates nothing when called from optimised code (the body returns the distance
 * through RESULT). Not re-entrant.
 * @throws SkewlineInputError naming the coordinate when the pair holds a NaN or an infinity.
 */
export function closestSegSeg3(data: ArrayLike<number>, k: number, out: Float64Array | null, o: number): number {
  segSeg3(data, k, out, o);
  return RESULT[0];
}


/**
 * The distance closestSegSeg3 returns for the pair at k, given the parameters its fast path
 * found there (as the WebAssembly kernel of src/batch gives them, for the pairs whose distance
 * it did not certify itself): bit for bit the same. s = NaN (the fast path hands over) runs the
 * whole kernel.
 */
export function distanceFromParams3(data: ArrayLike<number>, k: number, s: number, t: number): number {
  if (s !== s) return closestSegSeg3(data, k, null, 0);
  FAITHFUL[0] = s;
  FAITHFUL[1] = t;
  return faithfulSegSeg3(data, k) ? FAITHFUL[2] : fallback(3, data, k, null, 0);
}

/**
 * Segment–segment closest points in 2D (8 numbers per pair from index k).
 *
 * In the plane, non-parallel segments whose lines cross inside both segments meet. The fast
 * path certifies such a crossing when s* = (v×w)/(u×v) and t* = (u×w)/(u×v) are inside (0, 1)
 * by more than a bound on the rounding of the 2×2 determinants (including the rounding of the
 * differences u, v, w: 8u·Σ|products|, after Shewchuk's orient2d error analysis); it returns 0
 * with the rounded parameters. Otherwise the nearest pair lies on an edge of the parameter
 * square: clamp and project (Ericson §5.1.9), with the same exact hand-over as the 3D kernel.
 */
function segSeg2(data: ArrayLike<number>, k: number, out: Float64Array | null, o: number): void {
  const a0x = data[k];
  const a0y = data[k + 1];
  const b0x = data[k + 4];
  const b0y = data[k + 5];
  const ux = data[k + 2] - a0x;
  const uy = data[k + 3] - a0y;
  const vx = data[k + 6] - b0x;
  const vy = data[k + 7] - b0y;
  const wx = a0x - b0x;
  const wy = a0y - b0y;
  const aa = ux * ux + uy * uy;
  const cc = vx * vx + vy * vy;
  const ww = wx * wx + wy * wy;
  if (!(aa > TINY && cc > TINY && aa < HUGE && cc < HUGE && ww < HUGE)) {
    RESULT[0] = fallback(2, data, k, out, o);
    return;
  }
  const p1 = ux * vy;
  const p2 = uy * vx;
  const n = p1 - p2; // u×v
  const q1 = vx * wy;
  const q2 = vy * wx;
  const sN = q1 - q2; // v×w: s* = sN/n
  const r1 = ux * wy;
  const r2 = uy * wx;
  const tN = r1 - r2; // u×w: t* = tN/n
  const en = CERT * (Math.abs(p1) + Math.abs(p2));
  const es = CERT * (Math.abs(q1) + Math.abs(q2));
  const et = CERT * (Math.abs(r1) + Math.abs(r2));
  const an = Math.abs(n);
  if (an > en) {
    const sg = n > 0 ? 1 : -1;
    const ss = sg * sN;
    const ts = sg * tN;
    // 0 < s* < 1 and 0 < t* < 1, each side certified against its error bound.
    if (ss > es && an - ss > en + es + EPS * an && ts > et && an - ts > en + et + EPS * an) {
      if (out !== null) {
        // t from s (not from its own determinant): for a shallow crossing, independent
        // roundings would slide the two points apart along the pieces.
        const sc = ss / an;
        out[o] = sc;
        out[o + 1] = Math.min(1, Math.max(0, (vx * wx + vy * wy + (ux * vx + uy * vy) * sc) / cc));
      }
      RESULT[0] = 0;
      return;
    }
  }
  const b = ux * vx + uy * vy;
  const e = vx * wx + vy * wy;
  let s: number;
  if (an > en) {
    s = (n > 0 ? sN : -sN) / an;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
  } else {
    RESULT[0] = fallback(2, data, k, out, o); // nearly parallel
    return;
  }
  let t = (e + b * s) / cc;
  if (t < 0 || t > 1) {
    t = t < 0 ? 0 : 1;
    const d = ux * wx + uy * wy;
    s = (b * t - d) / aa;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
  }
  let sp = s;
  let tp = t;
  let ia = k;
  let ib = k + 4;
  if (s > 0.5) {
    ia = k + 2;
    sp = s - 1;
  }
  if (t > 0.5) {
    ib = k + 6;
    tp = t - 1;
  }
  const bx = data[ia] - data[ib];
  const by = data[ia + 1] - data[ib + 1];
  const rx = bx + sp * ux - tp * vx;
  const ry = by + sp * uy - tp * vy;
  const dist2 = rx * rx + ry * ry;
  // w, u and v are what the parameters were computed from; they set the error scale.
  const size2 = ww + aa + cc + bx * bx + by * by;
  if (dist2 <= FILTER2 * size2) {
    RESULT[0] = fallback(2, data, k, out, o);
    return;
  }
  FAITHFUL[0] = s;
  FAITHFUL[1] = t;
  if (!faithfulSegSeg(2, data, k)) {
    RESULT[0] = fallback(2, data, k, out, o);
    return;
  }
  if (out !== null) {
    out[o] = s;
    out[o + 1] = t;
  }
  RESULT[0] = FAITHFUL[2];
  return;
}

/**
 * Segment–segment closest points in 2D (8 numbers per pair from index k): the method of
 * segSeg2 above. Writes s and t to out[o], out[o + 1] when `out` is given and returns the
 * distance (exactly 0 for segments that meet). Allocates nothing when called from optimised
 * code (the body returns the distance through RESULT). Not re-entrant.
 * @throws SkewlineInputError naming the coordinate when the pair holds a NaN or an infinity.
 */
export function closestSegSeg2(data: ArrayLike<number>, k: number, out: Float64Array | null, o: number): number {
  segSeg2(data, k, out, o);
  return RESULT[0];
}

/**
 * The certified part of {@link closestSegSeg2} as a three-way test, for the chain search: do the
 * 2D segments A[ia … ia + 3] (a0, a1) and B[ib … ib + 3] (b0, b1) cross?
 * @returns 1 when they certainly cross at interior points of both (then s and t go to out[0],
 *   out[1], bit for bit what closestSegSeg2 gives); 0 when they certainly share no point (the
 *   lines meet outside one of them); −1 when the doubles cannot tell (nearly parallel, touching
 *   or nearly touching, extreme magnitudes): decide those exactly.
 *
 * Why 0 is safe: with n = u×v certified nonzero, the lines meet at s* = (v×w)/n, t* = (u×w)/n
 * and the segments share a point only if both lie in [0, 1]. A certificate that s* < 0 or
 * s* > 1 (or the same of t*) is the same error bound as the crossing certificate, with a
 * 2u·max margin for the rounding of the comparison's difference.
 */
export function crossing2(A: Float64Array, ia: number, B: Float64Array, ib: number, out: Float64Array): number {
  const a0x = A[ia];
  const a0y = A[ia + 1];
  const b0x = B[ib];
  const b0y = B[ib + 1];
  const ux = A[ia + 2] - a0x;
  const uy = A[ia + 3] - a0y;
  const vx = B[ib + 2] - b0x;
  const vy = B[ib + 3] - b0y;
  const wx = a0x - b0x;
  const wy = a0y - b0y;
  const aa = ux * ux + uy * uy;
  const cc = vx * vx + vy * vy;
  const ww = wx * wx + wy * wy;
  if (!(aa > TINY && cc > TINY && aa < HUGE && cc < HUGE && ww < HUGE)) return -1;
  const p1 = ux * vy;
  const p2 = uy * vx;
  const n = p1 - p2;
  const q1 = vx * wy;
  const q2 = vy * wx;
  const sN = q1 - q2;
  const r1 = ux * wy;
  const r2 = uy * wx;
  const tN = r1 - r2;
  const en = CERT * (Math.abs(p1) + Math.abs(p2));
  const es = CERT * (Math.abs(q1) + Math.abs(q2));
  const et = CERT * (Math.abs(r1) + Math.abs(r2));
  const an = Math.abs(n);
  if (!(an > en)) return -1;
  const ss = n > 0 ? sN : -sN;
  const ts = n > 0 ? tN : -tN;
  // Certainly apart: s* < 0, s* > 1, t* < 0 or t* > 1.
  if (ss < -es || ts < -et || ss - an > en + es + 2 * EPS * ss || ts - an > en + et + 2 * EPS * ts) return 0;
  if (ss > es && an - ss > en + es + EPS * an && ts > et && an - ts > en + et + EPS * an) {
    const sc = ss / an;
    out[0] = sc;
    out[1] = Math.min(1, Math.max(0, (vx * wx + vy * wy + (ux * vx + uy * vy) * sc) / cc));
    return 1;
  }
  return -1;
}

/**
 * s and t of two 2D segments of positive length, A[ia … ia + 3] and B[ib … ib + 3], already known
 * to share a point, when that can be had exactly and cheaply: all eight coordinates integers of
 * magnitude ≤ 2²⁴ (pixel and grid data, where touching vertices, T-junctions and collinear
 * overlaps abound). Then every difference, product, dot product and 2×2 determinant below is
 * exact in doubles, and one division rounds each parameter: for the pairs crossing2 leaves
 * undecided (touching, overlapping) the same doubles closestSegSeg2 gets from exact rational
 * arithmetic, far faster. (For a certified proper crossing closestSegSeg2 projects t from s,
 * which can differ from this t in the last bit: take crossing2's numbers there.)
 * - not parallel: the common point, s* = (v×w)/(u×v), t* = (u×w)/(u×v);
 * - parallel (so collinear): the middle of the shared piece, in a's parameters
 *   (lo + hi)/2 of the overlap [max(0, min(p₀, p₁)), min(1, max(p₀, p₁))] with p the
 *   parameters of b's ends along a, and likewise in b's.
 * @returns true with s, t in out[0], out[1]; false (nothing written) when the coordinates are
 *   not such integers.
 */
export function touchingParams2(A: Float64Array, ia: number, B: Float64Array, ib: number, out: Float64Array): boolean {
  if (!smallIntegers2(A, ia, B, ib)) return false;
  const a0x = A[ia], a0y = A[ia + 1], a1x = A[ia + 2], a1y = A[ia + 3];
  const b0x = B[ib], b0y = B[ib + 1], b1x = B[ib + 2], b1y = B[ib + 3];
  const ux = a1x - a0x, uy = a1y - a0y, vx = b1x - b0x, vy = b1y - b0y, wx = a0x - b0x, wy = a0y - b0y;
  const n = ux * vy - uy * vx;
  if (n !== 0) {
    out[0] = (vx * wy - vy * wx) / n + 0; // + 0: no −0
    out[1] = (ux * wy - uy * wx) / n + 0;
    return true;
  }
  const uu = ux * ux + uy * uy, vv = vx * vx + vy * vy;
  const p0 = -(wx * ux + wy * uy), p1 = (b1x - a0x) * ux + (b1y - a0y) * uy; // b0, b1 along a, times |u|²
  const q0 = wx * vx + wy * vy, q1 = (a1x - b0x) * vx + (a1y - b0y) * vy; // a0, a1 along b, times |v|²
  out[0] = (Math.max(0, Math.min(p0, p1)) + Math.min(uu, Math.max(p0, p1))) / (2 * uu) + 0;
  out[1] = (Math.max(0, Math.min(q0, q1)) + Math.min(vv, Math.max(q0, q1))) / (2 * vv) + 0;
  return true;
}

/**
 * Are the eight coordinates of the 2D segments A[ia … ia + 3], B[ib … ib + 3] integers of
 * magnitude ≤ 2²⁴? Then differences are ≤ 2²⁵, products ≤ 2⁵⁰ and sums of a few ≤ 2⁵³: all exact
 * in doubles.
 */
export function smallIntegers2(A: Float64Array, ia: number, B: Float64Array, ib: number): boolean {
  return smallInt(A[ia]) && smallInt(A[ia + 1]) && smallInt(A[ia + 2]) && smallInt(A[ia + 3]) &&
    smallInt(B[ib]) && smallInt(B[ib + 1]) && smallInt(B[ib + 2]) && smallInt(B[ib + 3]);
}

function smallInt(x: number): boolean {
  return Math.abs(x) <= 16777216 && Math.floor(x) === x;
}

/**
 * Segment–segment closest points in any dimension (4·dim numbers per pair from index k);
 * the generic kernel with its full accuracy.
 */
export function closestSegSegN(data: ArrayLike<number>, k: number, dim: number, out: Float64Array | null, o: number): number {
  if (scratchN.length < 5 + dim) scratchN = new Float64Array(5 + dim);
  return fallback(dim, data, k, out, o);
}
