/**
 * The certified crossing point of two 2D segments in doubles: the fast path of the crossing
 * points (points.ts), also run by the 2D contact search itself (contacts.ts, narrow2) when
 * `chainIntersections` asks for the points, so that a pair's coordinates are read once.
 *
 * The point a0 + s·u, with s = (w×v)/(u×v) from 2×2 determinants of rounded differences, is
 * evaluated with a rigorous bound on its error and accepted when every value within that bound
 * rounds to the same double (so it is the correctly rounded one). Error bounds: Shewchuk (1997),
 * "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates", §4.3
 * (ccwerrboundA for a 2×2 determinant of rounded differences), and the standard model
 * fl(a ∘ b) = (a ∘ b)(1 + δ), |δ| ≤ 2⁻⁵³ (Higham, "Accuracy and Stability of Numerical
 * Algorithms", §2.2). Two-Sum (Knuth) is exact.
 */
import { EPS as EPS_ } from '../core/eft.js';

// A local copy of the imported binding read in the hot loop (a loader that compiles ESM to
// getters makes each read of an imported binding a call).
const EPS = EPS_;

/** Shewchuk's ccwerrboundA: a 2×2 determinant of rounded differences is within ERR2·(|l| + |r|). */
const ERR2 = (3 + 16 * EPS) * EPS;

/**
 * A Shewchuk-style absolute term for products that land in the subnormal range (each may be off
 * by 2⁻¹⁰⁷⁵ in absolute terms): it keeps the double bounds valid there and sends results below
 * about 1e-300 to the slower paths. A property of the number format, not a geometric tolerance.
 */
export const UNF = 2 ** -1000;
const abs = Math.abs;

/**
 * base + p rounded to the nearest double when that is decided: the true value is base + p + e
 * with |e| ≤ err. Two-Sum splits base + p = h + l exactly; the answer is h when every offset in
 * [l − err, l + err] rounds back to h (added to h it gives h), which the offsets l ± e2 with
 * e2 ≥ err·(1 + 2⁻⁶)… cover even after their own rounding. NaN when not decided.
 */
export function decide(base: number, p: number, err: number): number {
  const h = base + p;
  const bv = h - base;
  const l = (base - (h - bv)) + (p - bv);
  // fl(l ± e2) is at least |l| + err away from l's side of 0 as needed: e2 − err ≥ ε(|l| + e2).
  const e2 = 1.01 * err + 2 * EPS * abs(l);
  return h + (l + e2) === h && h + (l - e2) === h && h - h === 0 ? h : NaN;
}

/** {@link crossCore}'s answer: the segments certainly share no point. */
export const APART = -2;
/** {@link crossCore}'s answer: the doubles decide neither a proper crossing nor that they are apart. */
export const UNDECIDED = -1;
/** {@link crossCore}'s answer: a proper crossing for certain, but a coordinate of its point is not decided (NaN in out). */
export const CROSS_OPEN = 0;
/** {@link crossCore}'s answer: a proper crossing for certain, its point correctly rounded in out. */
export const CROSS_POINT = 1;

/**
 * The fused fast path of one pair, segment a0a1 at A[ia … ia + 3] and b0b1 at B[ib … ib + 3]:
 * den = u × v, s·den = w × v and t·den = w × u (u = a1 − a0,
 * v = b1 − b0, w = b0 − a0) in doubles with Shewchuk's error bound.
 * - If they certify s < 0, s > 1, t < 0 or t > 1 (with the sign of den certain): {@link APART}.
 * - If they certify 0 < s < 1 and 0 < t < 1 — a proper crossing — the crossing point is
 *   X = e + (num/den)·u for the end e of segment a nearer to it (a0 + s·u or a1 − (1 − s)·u,
 *   the smaller offset, since the error bound is relative to it; also choosing between the
 *   ends of b decided about 1.4 % more points on a random walk, but its unpredictable branch
 *   cost more than those points' next stage), each coordinate rounded by {@link decide}: {@link CROSS_POINT} when both are decided (to
 *   out[0], out[1]), {@link CROSS_OPEN} when one is not (it is NaN in out).
 * - Otherwise (touching, collinear, nearly so, or out of the double range): {@link UNDECIDED},
 *   nothing written.
 * Inputs: eight finite doubles; overflowing or underflowing intermediates make the bounds fail
 * (Infinity, NaN or the UNF floor), never lie.
 */
export function crossCore(A: Float64Array, ia: number, B: Float64Array, ib: number, out: Float64Array): number {
  // Arrays and offsets, not eight doubles: a call V8 does not inline boxes each double argument.
  const ax0 = A[ia], ay0 = A[ia + 1], ax1 = A[ia + 2], ay1 = A[ia + 3];
  const bx0 = B[ib], by0 = B[ib + 1], bx1 = B[ib + 2], by1 = B[ib + 3];
  const ux = ax1 - ax0, uy = ay1 - ay0, vx = bx1 - bx0, vy = by1 - by0, wx = bx0 - ax0, wy = by0 - ay0;
  let l = ux * vy, r = uy * vx;
  const den = l - r, eden = ERR2 * (abs(l) + abs(r)) + UNF;
  l = wx * vy;
  r = wy * vx;
  const sd = l - r, es = ERR2 * (abs(l) + abs(r)) + UNF; // s·den
  l = wx * uy;
  r = wy * ux;
  const td = l - r, et = ERR2 * (abs(l) + abs(r)) + UNF; // t·den
  const an = abs(den);
  // The sign of den as ±1 (−1 for 0), so that s·|den| = sd·sg exactly, without a branch: den's
  // sign is a coin toss on most data, and so is the outcome of each comparison below, so they
  // are combined without short-circuits and the pair costs one unpredictable branch, not four.
  const sg = 2 * +(den > 0) - 1;
  const sn = sd * sg, tn = td * sg; // s·|den|, t·|den|
  // 0 < s < 1 and 0 < t < 1 for certain (the subtraction an − sn rounds by at most ε·an).
  const cross = +(sn > es) & +(tn > et) & +(an - sn > eden + es + EPS * an) & +(an - tn > eden + et + EPS * an);
  if (cross === 0) {
    // Apart for certain: den's sign is certain (|den| > its bound), and s·|den| or t·|den| is
    // below 0 or above |den| by more than both bounds (fl(sn − an) > 0 is exact in sign, and
    // 2ε·|sn| covers its rounding).
    const out1 = +(sn < -es) | +(tn < -et) | +(sn - an > eden + es + 2 * EPS * abs(sn)) | +(tn - an > eden + et + 2 * EPS * abs(tn));
    return (+(an > eden) & out1) === 1 ? APART : UNDECIDED;
  }
  // The nearer end of segment a: a0 + s·u (k = 0), or a1 − (1 − s)·u (k = 1) with
  // 1 − s = (den − s·den)/den; chosen without a branch (another coin toss): the end is read at
  // offset 2k, num = sd − k·den and e = es or the far end's bound are exact selections.
  const k = +(sn > an - sn);
  const dx = ux, dy = uy;
  const ex = A[ia + 2 * k], ey = A[ia + 2 * k + 1];
  const num = sd - k * den;
  const eFar = (es + eden) * (1 + 2 * EPS) + EPS * abs(num);
  const e = es * (1 - k) + eFar * k; // NaN if eFar overflowed (then CROSS_OPEN below: never a wrong point)
  const anum = abs(num);
  if (!(e < anum * 2 ** -10 && eden < an * 2 ** -10)) {
    out[0] = out[1] = NaN;
    return CROSS_OPEN;
  }
  // c = num/den as num·(1/|den|) (two roundings). |c̃ − c| ≤ |c|·(e/|num| + eden/|den| + 2ε)(1 + 2⁻⁸)
  // when both ratios are ≤ 2⁻¹⁰, that is (e + eden·|c| + 2ε·|num|)/|den| with the margin; the
  // product c̃·d̃ adds 2ε|c·d| (d̃ a rounded difference, the product rounded). One division.
  const inv = 1 / an;
  const c = num * sg * inv;
  const base = (e + eden * abs(c) * 1.01 + 2 * EPS * anum) * inv * 1.03;
  const px = c * dx, py = c * dy;
  const x = decide(ex, px, base * abs(dx) + 2.1 * EPS * abs(px) + UNF);
  const y = decide(ey, py, base * abs(dy) + 2.1 * EPS * abs(py) + UNF);
  out[0] = x;
  out[1] = y;
  return x === x && y === y ? CROSS_POINT : CROSS_OPEN;
}
