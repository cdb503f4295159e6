/**
 * Peer: a port of Christer Ericson's ClosestPtSegmentSegment (Real-Time Collision Detection,
 * Morgan Kaufmann 2005, §5.1.9), written from the book's description, for accuracy and speed
 * comparisons only. It keeps the book's absolute EPSILON on squared lengths (a segment with
 * |d|² ≤ EPSILON is treated as a point) and its exact `denom !== 0` parallel test, so it shows
 * the flaws skewline avoids: no protection against cancellation in denom = a·e − b² for nearly
 * parallel segments, and an epsilon with units.
 *
 * The book leaves EPSILON to the reader; we use 1e-6 (a typical single-precision-era value).
 * three.js `Line3.distanceSqToLine3` is the same algorithm with EPSILON = 1e-16.
 */

/** The absolute tolerance on squared segment length used by the port. */
export const ERICSON_EPSILON = 1e-6;

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

/**
 * The book's parameter logic from the five dot products: a = d1·d1, e = d2·d2, f = d2·r,
 * c = d1·r, b = d1·d2 (d1 = q1 − p1, d2 = q2 − p2, r = p1 − p2). Writes s, t into ST.
 * Not re-entrant (module scratch).
 */
const ST = new Float64Array(2);
function params(a: number, b: number, c: number, e: number, f: number, eps: number): void {
  let s: number;
  let t: number;
  if (a <= eps && e <= eps) {
    s = 0;
    t = 0;
  } else if (a <= eps) {
    s = 0;
    t = clamp01(f / e);
  } else if (e <= eps) {
    t = 0;
    s = clamp01(-c / a);
  } else {
    const denom = a * e - b * b;
    s = denom !== 0 ? clamp01((b * f - c * e) / denom) : 0;
    t = (b * s + f) / e;
    if (t < 0) {
      t = 0;
      s = clamp01(-c / a);
    } else if (t > 1) {
      t = 1;
      s = clamp01((b - c) / a);
    }
  }
  ST[0] = s;
  ST[1] = t;
}

/**
 * Distance between the 3-D segments data[k..k+5] (p1, q1) and data[k+6..k+11] (p2, q2).
 * Not re-entrant (module scratch).
 */
export function ericson3(data: Float64Array, k: number): number {
  const p1x = data[k], p1y = data[k + 1], p1z = data[k + 2];
  const d1x = data[k + 3] - p1x, d1y = data[k + 4] - p1y, d1z = data[k + 5] - p1z;
  const p2x = data[k + 6], p2y = data[k + 7], p2z = data[k + 8];
  const d2x = data[k + 9] - p2x, d2y = data[k + 10] - p2y, d2z = data[k + 11] - p2z;
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  params(
    d1x * d1x + d1y * d1y + d1z * d1z,
    d1x * d2x + d1y * d2y + d1z * d2z,
    d1x * rx + d1y * ry + d1z * rz,
    d2x * d2x + d2y * d2y + d2z * d2z,
    d2x * rx + d2y * ry + d2z * rz,
    ERICSON_EPSILON,
  );
  const s = ST[0], t = ST[1];
  // As in the book: C1 = p1 + d1·s, C2 = p2 + d2·t, then |C1 − C2|.
  const x = p1x + d1x * s - (p2x + d2x * t);
  const y = p1y + d1y * s - (p2y + d2y * t);
  const z = p1z + d1z * s - (p2z + d2z * t);
  return Math.sqrt(x * x + y * y + z * z);
}

/** Result of {@link ericsonN}. */
export interface PeerResult {
  s: number;
  t: number;
  c: number[];
  d: number[];
  distance: number;
}

/**
 * The same routine in any dimension on plain arrays: segments p1–q1 and p2–q2.
 * Allocates its result. Not re-entrant (module scratch).
 */
export function ericsonN(p1: ArrayLike<number>, q1: ArrayLike<number>, p2: ArrayLike<number>, q2: ArrayLike<number>,
  eps = ERICSON_EPSILON): PeerResult {
  const n = p1.length;
  let a = 0, b = 0, c = 0, e = 0, f = 0;
  for (let i = 0; i < n; i++) {
    const d1 = q1[i] - p1[i], d2 = q2[i] - p2[i], r = p1[i] - p2[i];
    a += d1 * d1; b += d1 * d2; c += d1 * r; e += d2 * d2; f += d2 * r;
  }
  params(a, b, c, e, f, eps);
  const s = ST[0], t = ST[1];
  const C: number[] = [], D: number[] = [];
  let dd = 0;
  for (let i = 0; i < n; i++) {
    C.push(p1[i] + (q1[i] - p1[i]) * s);
    D.push(p2[i] + (q2[i] - p2[i]) * t);
    dd += (C[i] - D[i]) ** 2;
  }
  return { s, t, c: C, d: D, distance: Math.sqrt(dd) };
}
