/**
 * Peer: a port of Dan Sunday's dist3D_Segment_to_Segment ("Distance between Lines, Segments
 * and Points", geomalgorithms.com, §"Distance between Segments and Rays"), written from its
 * description, for accuracy and speed comparisons only. It keeps the original absolute
 * SMALL_NUM = 1e-8: the segments count as parallel when D = a·c − b² < SMALL_NUM (a quantity
 * with units of length⁴), and parameters with |numerator| < SMALL_NUM snap to 0.
 *
 * Notation (Sunday): u = S1.P1 − S1.P0, v = S2.P1 − S2.P0, w = S1.P0 − S2.P0,
 * a = u·u, b = u·v, c = v·v, d = u·w, e = v·w; s = sN/sD, t = tN/tD on the edges of the
 * parameter square; distance |w + sc·u − tc·v|.
 */

/** Sunday's absolute tolerance. */
export const SUNDAY_SMALL_NUM = 1e-8;

const SC = new Float64Array(2);

/** Parameters (sc, tc) into SC from the five dot products. Not re-entrant (module scratch). */
function params(a: number, b: number, c: number, d: number, e: number): void {
  const D = a * c - b * b;
  let sN: number, sD = D, tN: number, tD = D;
  if (D < SUNDAY_SMALL_NUM) {
    // Almost parallel: force s = 0 and take t from the projection of S1.P0.
    sN = 0;
    sD = 1;
    tN = e;
    tD = c;
  } else {
    sN = b * e - c * d;
    tN = a * e - b * d;
    if (sN < 0) {
      sN = 0;
      tN = e;
      tD = c;
    } else if (sN > sD) {
      sN = sD;
      tN = e + b;
      tD = c;
    }
  }
  if (tN < 0) {
    tN = 0;
    if (-d < 0) sN = 0;
    else if (-d > a) sN = sD;
    else {
      sN = -d;
      sD = a;
    }
  } else if (tN > tD) {
    tN = tD;
    if (-d + b < 0) sN = 0;
    else if (-d + b > a) sN = sD;
    else {
      sN = -d + b;
      sD = a;
    }
  }
  SC[0] = Math.abs(sN) < SUNDAY_SMALL_NUM ? 0 : sN / sD;
  SC[1] = Math.abs(tN) < SUNDAY_SMALL_NUM ? 0 : tN / tD;
}

/**
 * Distance between the 3-D segments data[k..k+5] and data[k+6..k+11].
 * Not re-entrant (module scratch).
 */
export function sunday3(data: Float64Array, k: number): number {
  const ux = data[k + 3] - data[k], uy = data[k + 4] - data[k + 1], uz = data[k + 5] - data[k + 2];
  const vx = data[k + 9] - data[k + 6], vy = data[k + 10] - data[k + 7], vz = data[k + 11] - data[k + 8];
  const wx = data[k] - data[k + 6], wy = data[k + 1] - data[k + 7], wz = data[k + 2] - data[k + 8];
  params(
    ux * ux + uy * uy + uz * uz,
    ux * vx + uy * vy + uz * vz,
    vx * vx + vy * vy + vz * vz,
    ux * wx + uy * wy + uz * wz,
    vx * wx + vy * wy + vz * wz,
  );
  const sc = SC[0], tc = SC[1];
  const x = wx + sc * ux - tc * vx;
  const y = wy + sc * uy - tc * vy;
  const z = wz + sc * uz - tc * vz;
  return Math.sqrt(x * x + y * y + z * z);
}

/**
 * The same routine in any dimension: segments a0–a1 and b0–b1; returns parameters, the two
 * points (rounded from the parameters) and the distance |w + sc·u − tc·v|.
 * Allocates its result. Not re-entrant (module scratch).
 */
export function sundayN(a0: ArrayLike<number>, a1: ArrayLike<number>, b0: ArrayLike<number>, b1: ArrayLike<number>):
  { s: number; t: number; c: number[]; d: number[]; distance: number } {
  const n = a0.length;
  let a = 0, b = 0, c = 0, d = 0, e = 0;
  for (let i = 0; i < n; i++) {
    const u = a1[i] - a0[i], v = b1[i] - b0[i], w = a0[i] - b0[i];
    a += u * u; b += u * v; c += v * v; d += u * w; e += v * w;
  }
  params(a, b, c, d, e);
  const s = SC[0], t = SC[1];
  const C: number[] = [], D: number[] = [];
  let dd = 0;
  for (let i = 0; i < n; i++) {
    const u = a1[i] - a0[i], v = b1[i] - b0[i], w = a0[i] - b0[i];
    C.push(a0[i] + s * u);
    D.push(b0[i] + t * v);
    dd += (w + s * u - t * v) ** 2;
  }
  return { s, t, c: C, d: D, distance: Math.sqrt(dd) };
}
