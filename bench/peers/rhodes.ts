/**
 * Peer: the method of Graham Rhodes, "Fast, Robust Intersection of 3D Line Segments" (Game
 * Programming Gems 2, §2.3), written from the gem's text for accuracy and speed comparisons.
 *
 * - Nearest points of the infinite lines from the 2×2 normal equations (eqs. 2.3.9–2.3.17):
 *   L11 = La·La, L22 = Lb·Lb, L12 = −La·Lb, rA = La·AB, rB = −Lb·AB,
 *   t = (L11·rB − L12·rA) / (L11·L22 − L12²), s = (rA − L12·t) / L11 (Gaussian elimination).
 * - Its two tolerance checks, with the gem's tolerance e (we use the text's suggested 1e-6):
 *   a segment is degenerate when L11 < e² (then C = A1 and D is A1 projected onto B, eq. 2.3.22);
 *   the segments are parallel when |L11·L22 − L12²| < e (the companion code's test).
 * - Finite segments ("Dealing with Finite Line Segments"): if one parameter is outside [0, 1],
 *   clamp it and project that point onto the other segment; if both are, clamp s, project onto
 *   B (clamped), then project that point back onto A (clamped).
 * - Parallel segments: project B's endpoints onto A's line; if both fall before A1 (after A2),
 *   C = A1 (A2) and D is the nearer end of B; otherwise C is the middle of the overlap and D
 *   its projection onto B.
 * The distance is |D − C| from the rounded points, as the gem's C→D vector.
 */

/** The gem's suggested tolerance ("a value for e such as 10^-6"). */
export const RHODES_EPSILON = 1e-6;

let dim = 3;
let A1 = new Float64Array(3), A2 = new Float64Array(3), B1 = new Float64Array(3), B2 = new Float64Array(3);
let LA = new Float64Array(3), LB = new Float64Array(3), AB = new Float64Array(3);
let C = new Float64Array(3), D = new Float64Array(3), TMP = new Float64Array(3);

function ensure(n: number): void {
  if (n === dim) return;
  dim = n;
  [A1, A2, B1, B2, LA, LB, AB, C, D, TMP] = Array.from({ length: 10 }, () => new Float64Array(n));
}

function dot(x: Float64Array, y: Float64Array): number {
  let s = 0;
  for (let i = 0; i < dim; i++) s += x[i] * y[i];
  return s;
}

/**
 * Nearest point to X on P + λ·L (λ clamped to [0, 1] unless `infinite`), written to `out`;
 * returns λ. A line shorter than the tolerance is its first point (the gem's special case #1).
 */
function nearestOnSegment(P: Float64Array, L: Float64Array, X: Float64Array, out: Float64Array,
  eps2: number, infinite: boolean): number {
  const LL = dot(L, L);
  if (LL < eps2) {
    out.set(P);
    return 0;
  }
  let num = 0;
  for (let i = 0; i < dim; i++) num += (X[i] - P[i]) * L[i];
  let lam = num / LL;
  if (!infinite) lam = lam < 0 ? 0 : lam > 1 ? 1 : lam;
  for (let i = 0; i < dim; i++) out[i] = P[i] + lam * L[i];
  return lam;
}

const outside = (x: number): boolean => x < 0 || x > 1;

/** Runs the gem's method on the scratch A1, A2, B1, B2; leaves C and D; returns |D − C|. */
function solve(eps: number): number {
  const eps2 = eps * eps;
  for (let i = 0; i < dim; i++) {
    LA[i] = A2[i] - A1[i];
    LB[i] = B2[i] - B1[i];
    AB[i] = B1[i] - A1[i];
  }
  const L11 = dot(LA, LA);
  const L22 = dot(LB, LB);
  if (L11 < eps2) {
    C.set(A1);
    nearestOnSegment(B1, LB, A1, D, eps2, false);
  } else if (L22 < eps2) {
    D.set(B1);
    nearestOnSegment(A1, LA, B1, C, eps2, false);
  } else {
    const L12 = -dot(LA, LB);
    const det = L11 * L22 - L12 * L12;
    if (Math.abs(det) < eps) {
      // Parallel: where do B's endpoints fall along A's line?
      const s0 = nearestOnSegment(A1, LA, B1, TMP, eps2, true);
      const s1 = nearestOnSegment(A1, LA, B2, TMP, eps2, true);
      if (s0 < 0 && s1 < 0) {
        C.set(A1);
        D.set(s0 < s1 ? B2 : B1);
      } else if (s0 > 1 && s1 > 1) {
        C.set(A2);
        D.set(s0 < s1 ? B1 : B2);
      } else {
        const c0 = s0 < 0 ? 0 : s0 > 1 ? 1 : s0;
        const c1 = s1 < 0 ? 0 : s1 > 1 ? 1 : s1;
        const mid = 0.5 * (c0 + c1);
        for (let i = 0; i < dim; i++) C[i] = A1[i] + mid * LA[i];
        nearestOnSegment(B1, LB, C, D, eps2, false);
      }
    } else {
      const rA = dot(LA, AB);
      const rB = -dot(LB, AB);
      const t = (L11 * rB - L12 * rA) / det; // eq. 2.3.16
      const s = (rA - L12 * t) / L11; // eq. 2.3.17
      if (outside(s) && outside(t)) {
        const sc = s < 0 ? 0 : 1;
        for (let i = 0; i < dim; i++) TMP[i] = A1[i] + sc * LA[i];
        nearestOnSegment(B1, LB, TMP, D, eps2, false);
        nearestOnSegment(A1, LA, D, C, eps2, false);
      } else if (outside(s)) {
        const sc = s < 0 ? 0 : 1;
        for (let i = 0; i < dim; i++) C[i] = A1[i] + sc * LA[i];
        nearestOnSegment(B1, LB, C, D, eps2, false);
      } else if (outside(t)) {
        const tc = t < 0 ? 0 : 1;
        for (let i = 0; i < dim; i++) D[i] = B1[i] + tc * LB[i];
        nearestOnSegment(A1, LA, D, C, eps2, false);
      } else {
        for (let i = 0; i < dim; i++) {
          C[i] = A1[i] + s * LA[i];
          D[i] = B1[i] + t * LB[i];
        }
      }
    }
  }
  let dd = 0;
  for (let i = 0; i < dim; i++) dd += (D[i] - C[i]) ** 2;
  return Math.sqrt(dd);
}

/**
 * Distance between the 3-D segments data[k..k+5] (A1, A2) and data[k+6..k+11] (B1, B2) by the
 * gem's method. Not re-entrant (module scratch).
 */
export function rhodes3(data: Float64Array, k: number): number {
  ensure(3);
  for (let i = 0; i < 3; i++) {
    A1[i] = data[k + i];
    A2[i] = data[k + 3 + i];
    B1[i] = data[k + 6 + i];
    B2[i] = data[k + 9 + i];
  }
  return solve(RHODES_EPSILON);
}

/**
 * The gem's method in any dimension on plain arrays; returns C, D, P = (C + D)/2 and |D − C|.
 * Allocates its result. Not re-entrant (module scratch).
 */
export function rhodesN(a1: ArrayLike<number>, a2: ArrayLike<number>, b1: ArrayLike<number>, b2: ArrayLike<number>,
  eps = RHODES_EPSILON): { c: number[]; d: number[]; p: number[]; distance: number } {
  ensure(a1.length);
  A1.set(Array.from(a1));
  A2.set(Array.from(a2));
  B1.set(Array.from(b1));
  B2.set(Array.from(b2));
  const distance = solve(eps);
  const c = Array.from(C);
  const d = Array.from(D);
  return { c, d, p: c.map((x, i) => 0.5 * (x + d[i])), distance };
}
