/**
 * Flat, non-allocating segment–segment kernels for bulk work: loop-free 2D and 3D versions
 * and an n-D one. Each reads one pair laid out as a0, a1, b0, b1 (dim numbers each) from
 * `data` at index k, writes s and t to out[o], out[o + 1] when `out` is given, and returns
 * the distance — with the same accuracy and the same exact `distance === 0` rule as
 * {@link closestFlat}, to which they hand over every pair their cheap path cannot vouch for
 * (nearly parallel, zero-length, touching or nearly touching, extreme magnitudes).
 * Not re-entrant (module-level scratch).
 */
import { EPS, SPLITTER } from './eft.js';
import { OUT_S, OUT_T, closestFlat } from './closest-kernel.js';
import { SEGMENT } from './exact.js';
import { SkewlineInputError } from './primitives.js';

const SCRATCH = new Float64Array(5 + 64);
let scratchN = SCRATCH;

/** sin²θ below which the 3D fast path defers to the accurate kernel (θ ≈ 2⁻²⁰ rad). */
const ACCURATE_BELOW = 2 ** -40;
/** Squared magnitudes outside [2⁻³⁰⁰, 2²⁰⁰] defer too (no overflow or underflow below). */
const TINY = 2 ** -300;
const HUGE = 2 ** 200;
/** (64u)²: a distance within 64u of the size of its terms may be zero; decide it exactly. */
const FILTER2 = (64 * EPS) ** 2;
/** Error bound factor for the 2D orientation-style certificates (≥ 4u; see closestSegSeg2). */
const CERT = 8 * EPS;

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

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
 *   factor 1/sinθ (Binet–Cauchy); below sin²θ = 2⁻⁴⁰, n is evaluated error-free (eft.ts);
 * - exactly parallel or zero-length pieces, extreme magnitudes and pairs within 64u of touching
 *   go to the generic kernel (exact arithmetic decides what must be decided).
 * Then clamp s, project onto b, clamp t, project back. The final projection is always right (at
 * the constrained optimum s is the best s for its t), so there is no case analysis and no
 * unpredictable branch, and s and t are consistent: an error in s* can only slide the pair
 * along the valley of the distance function, which changes the distance to second order.
 */
export function closestSegSeg3(data: ArrayLike<number>, k: number, out: Float64Array | null, o: number): number {
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
  const wx = a0x - b0x;
  const wy = a0y - b0y;
  const wz = a0z - b0z;
  const aa = ux * ux + uy * uy + uz * uz;
  const cc = vx * vx + vy * vy + vz * vz;
  const b = ux * vx + uy * vy + uz * vz;
  const d = ux * wx + uy * wy + uz * wz;
  const e = vx * wx + vy * wy + vz * wz;
  const ac = aa * cc;
  let D = ac - b * b;
  let sStar: number;
  let iA: number;
  let iC: number;
  if (D >= 0.0625 * ac) {
    // One division gives all three reciprocals (1/D, 1/a, 1/c); the final check keeps a·c·D
    // within range.
    const q = 1 / (ac * D);
    sStar = (b * e - cc * d) * ac * q;
    iA = cc * D * q;
    iC = aa * D * q;
  } else {
    let nx = uy * vz - uz * vy;
    let ny = uz * vx - ux * vz;
    let nz = ux * vy - uy * vx;
    D = nx * nx + ny * ny + nz * nz;
    if (!(D > ACCURATE_BELOW * ac)) {
      // Within 2⁻²⁰ rad of parallel: n = u×v error-free (its plain minors have no correct
      // digits left); v×w may stay plain, its error u·|v||w| moves the pair only along the valley.
      // Dekker-split each coordinate once; each product's error is then exact from the halves.
      let c = SPLITTER * ux;
      const uxh = c - (c - ux);
      const uxl = ux - uxh;
      c = SPLITTER * uy;
      const uyh = c - (c - uy);
      const uyl = uy - uyh;
      c = SPLITTER * uz;
      const uzh = c - (c - uz);
      const uzl = uz - uzh;
      c = SPLITTER * vx;
      const vxh = c - (c - vx);
      const vxl = vx - vxh;
      c = SPLITTER * vy;
      const vyh = c - (c - vy);
      const vyl = vy - vyh;
      c = SPLITTER * vz;
      const vzh = c - (c - vz);
      const vzl = vz - vzh;
      const p1 = uy * vz;
      const p2 = uz * vy;
      const p3 = uz * vx;
      const p4 = ux * vz;
      const p5 = ux * vy;
      const p6 = uy * vx;
      // x·y = p + (xl·yl − (((p − xh·yh) − xl·yh) − xh·yl)) exactly (Dekker).
      const e1 = uyl * vzl - (p1 - uyh * vzh - uyl * vzh - uyh * vzl);
      const e2 = uzl * vyl - (p2 - uzh * vyh - uzl * vyh - uzh * vyl);
      const e3 = uzl * vxl - (p3 - uzh * vxh - uzl * vxh - uzh * vxl);
      const e4 = uxl * vzl - (p4 - uxh * vzh - uxl * vzh - uxh * vzl);
      const e5 = uxl * vyl - (p5 - uxh * vyh - uxl * vyh - uxh * vyl);
      const e6 = uyl * vxl - (p6 - uyh * vxh - uyl * vxh - uyh * vxl);
      nx = p1 - p2 + (e1 - e2);
      ny = p3 - p4 + (e3 - e4);
      nz = p5 - p6 + (e5 - e6);
      D = nx * nx + ny * ny + nz * nz;
      if (!(D > 0)) return fallback(3, data, k, out, o);
    }
    sStar = ((ny * vz - nz * vy) * wx + (nz * vx - nx * vz) * wy + (nx * vy - ny * vx) * wz) / D;
    iA = 1 / aa;
    iC = 1 / cc;
  }
  let s = clamp01(sStar);
  const t = clamp01((e + b * s) * iC);
  s = clamp01((b * t - d) * iA);
  const rx = wx + s * ux - t * vx;
  const ry = wy + s * uy - t * vy;
  const rz = wz + s * uz - t * vz;
  const dist2 = rx * rx + ry * ry + rz * rz;
  // One test covers the exact hand-over (distance within 64u of the size of the terms, which
  // |w|² + |u|² + |v|² bounds), magnitudes that could over- or underflow, and NaN.
  const size2 = wx * wx + wy * wy + wz * wz + aa + cc;
  if (!(dist2 > FILTER2 * size2 && size2 < HUGE && ac > TINY)) return fallback(3, data, k, out, o);
  if (out !== null) {
    out[o] = s;
    out[o + 1] = t;
  }
  return Math.sqrt(dist2);
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
export function closestSegSeg2(data: ArrayLike<number>, k: number, out: Float64Array | null, o: number): number {
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
  if (!(aa > TINY && cc > TINY && aa < HUGE && cc < HUGE && ww < HUGE)) return fallback(2, data, k, out, o);
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
        out[o + 1] = clamp01((vx * wx + vy * wy + (ux * vx + uy * vy) * sc) / cc);
      }
      return 0;
    }
  }
  const b = ux * vx + uy * vy;
  const e = vx * wx + vy * wy;
  let s: number;
  if (an > en) {
    s = (n > 0 ? sN : -sN) / an;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
  } else {
    return fallback(2, data, k, out, o); // nearly parallel
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
  if (dist2 <= FILTER2 * size2) return fallback(2, data, k, out, o);
  if (out !== null) {
    out[o] = s;
    out[o + 1] = t;
  }
  return Math.sqrt(dist2);
}

/**
 * Segment–segment closest points in any dimension (4·dim numbers per pair from index k);
 * the generic kernel with its full accuracy.
 */
export function closestSegSegN(data: ArrayLike<number>, k: number, dim: number, out: Float64Array | null, o: number): number {
  if (scratchN.length < 5 + dim) scratchN = new Float64Array(5 + dim);
  return fallback(dim, data, k, out, o);
}
