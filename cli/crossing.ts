/**
 * The crossing point of two planar segments, correctly rounded, without BigInt in the common case.
 *
 * The exact point is a0 + (n / den)·u with u = a1 − a0, v = b1 − b0, w = b0 − a0,
 * den = u × v, n = w × v (Cramer's rule). Here it is evaluated in double-double arithmetic
 * (error-free transformations: Knuth's two-sum, Dekker's two-product, as in src/core/eft.ts) with
 * a rigorous bound on the error, and the result is accepted only when the whole error interval
 * rounds to the same double (Ziv's rounding test: A. Ziv, "Fast evaluation of elementary
 * mathematical functions with correctly rounded last bit", ACM TOMS 17(3), 1991). Otherwise
 * (nearly parallel segments, a point near a rounding midpoint, coordinates outside [2^-300, 2^300])
 * it answers false and the caller falls back to exact rational arithmetic, so the answer,
 * when given, is the exact point rounded once to nearest — bit for bit what the rational
 * evaluation gives.
 *
 * Error bounds (u = 2^-53; each bound used in the code is at least twice the one derived):
 * - a double-double product (ah + al)(bh + bl) with |al| ≤ u|ah|, |bl| ≤ u|bh| is within
 *   9u²|ah·bh| < 2^-100·|fl(ah·bh)| of the exact product;
 * - p − q of two such products is within 2^-99·(|p| + |q|);
 * - with ε_n, ε_d those bounds relative to |n|, |den| (their sum below 2^-12, checked), the
 *   double-double quotient t = n/den is within ε_n + ε_d + 2^-100 relative (to first order);
 * - m = t·u within (ε_n + ε_d + 2^-99)·|m|, and x = a0 + m within
 *   (2(ε_n + ε_d) + 2^-96)·|m| + 2^-103·|a0 + m|.
 */
import { productError } from '../src/core/eft.js';
import { ratToDouble, toScaledBigInts } from '../src/core/exact.js';
import { orient2Sign } from '../src/intersect/intersects.js';
import { classify2, CROSSING, NO_CONTACT, OVERLAP, T_JUNCTION, VERTEX_TOUCH } from '../src/chain/classify.js';

const LO = 2 ** -300;
const E99 = 2 ** -99;
const E96 = 2 ** -96;
const E103 = 2 ** -103;
const E12 = 2 ** -12;
const HI = 2 ** 300;

// Module scratch for the double-double helpers (not re-entrant, not exported): a typed array,
// so that storing a double does not box it (a module-level `let` holding a double would
// allocate a heap number on every store).
const R = new Float64Array(3);

/**
 * The differences u, v, w of crossingPoint2At as exact double-doubles (module scratch), at the
 * offsets UX, UY, VX, VY, WX, WY (high part, then low part): crossDD reads them by offset, so
 * that no double is passed (boxed) to a call that is not inlined.
 */
const DIFF = new Float64Array(12);
const UX = 0, UY = 2, VX = 4, VY = 6, WX = 8, WY = 10;

/** (ah + al)·(bh + bl) into R[0], R[1] (normalized); error below 2^-100·|ah·bh|. */
function mulDD(ah: number, al: number, bh: number, bl: number): void {
  const p = ah * bh;
  const lo = productError(ah, bh, p) + ah * bl + al * bh;
  const h = p + lo;
  R[0] = h;
  R[1] = lo - (h - p);
}

/**
 * a·b − c·d of the double-doubles at offsets a, b, c, d of DIFF into R[0], R[1], and a bound on
 * its absolute error into R[2].
 */
function crossDD(a: number, b: number, c: number, d: number): void {
  const D = DIFF;
  mulDD(D[a], D[a + 1], D[b], D[b + 1]);
  const ph = R[0], pl = R[1];
  mulDD(D[c], D[c + 1], D[d], D[d + 1]);
  const qh = R[0], ql = R[1];
  // two-sum of the leading parts (exact), then the low parts.
  const s = ph - qh;
  const bb = s - ph;
  const se = ph - (s - bb) + (-qh - bb);
  const lo = se + pl - ql;
  // two-sum again (s may be smaller than lo after cancellation).
  const h = s + lo;
  const cc = h - s;
  R[0] = h;
  R[1] = s - (h - cc) + (lo - cc);
  R[2] = E99 * (Math.abs(ph) + Math.abs(qh));
}

/** True when x is 0 or its magnitude lies in [2^-300, 2^300] (no overflow or underflow below). */
function inRange(x: number): boolean {
  const a = Math.abs(x);
  return a === 0 || (a >= LO && a <= HI);
}

/**
 * The crossing point of segments a0a1 and b0b1, written to out[0], out[1] and true, or false
 * when the fast evaluation cannot certify the correctly rounded point (the caller then computes
 * it exactly). Precondition: the segments cross properly (the four exact orientations are
 * nonzero, a0, a1 on opposite sides of b's line and b0, b1 on opposite sides of a's), so
 * den ≠ 0 and 0 < n/den < 1. Not re-entrant (module scratch).
 */
export function crossingPoint2(ax0: number, ay0: number, ax1: number, ay1: number, bx0: number, by0: number, bx1: number, by1: number, out: number[] | Float64Array): boolean {
  const P = PTS;
  P[0] = ax0;
  P[1] = ay0;
  P[2] = ax1;
  P[3] = ay1;
  P[4] = bx0;
  P[5] = by0;
  P[6] = bx1;
  P[7] = by1;
  return crossingPoint2At(P, 0, 2, P, 4, 6, out);
}

/** The eight coordinates of {@link crossingPoint2}'s call (module scratch). */
const PTS = new Float64Array(8);

/**
 * {@link crossingPoint2} for the segments whose points start at offsets a0, a1 of `da` and b0, b1
 * of `db` (two coordinates each; the arrays may be one): offsets rather than doubles, since a
 * call that is not inlined boxes every double argument (the GeoJSON writer calls this once per
 * crossing).
 */
export function crossingPoint2At(da: Float64Array, a0: number, a1: number, db: Float64Array, b0: number, b1: number, out: number[] | Float64Array): boolean {
  const ax0 = da[a0], ay0 = da[a0 + 1], ax1 = da[a1], ay1 = da[a1 + 1];
  const bx0 = db[b0], by0 = db[b0 + 1], bx1 = db[b1], by1 = db[b1 + 1];
  if (!(inRange(ax0) && inRange(ay0) && inRange(ax1) && inRange(ay1) && inRange(bx0) && inRange(by0) && inRange(bx1) && inRange(by1))) return false;
  // Differences as exact double-doubles (two-sum).
  let h = ax1 - ax0;
  let z = h - ax1;
  const uxh = h, uxl = ax1 - (h - z) + (-ax0 - z);
  h = ay1 - ay0;
  z = h - ay1;
  const uyh = h, uyl = ay1 - (h - z) + (-ay0 - z);
  h = bx1 - bx0;
  z = h - bx1;
  const vxh = h, vxl = bx1 - (h - z) + (-bx0 - z);
  h = by1 - by0;
  z = h - by1;
  const vyh = h, vyl = by1 - (h - z) + (-by0 - z);
  h = bx0 - ax0;
  z = h - bx0;
  const wxh = h, wxl = bx0 - (h - z) + (-ax0 - z);
  h = by0 - ay0;
  z = h - by0;
  const wyh = h, wyl = by0 - (h - z) + (-ay0 - z);
  // den = u × v and n = w × v, each with its error bound; rel bounds the relative error of n/den.
  const D = DIFF;
  D[UX] = uxh;
  D[UX + 1] = uxl;
  D[UY] = uyh;
  D[UY + 1] = uyl;
  D[VX] = vxh;
  D[VX + 1] = vxl;
  D[VY] = vyh;
  D[VY + 1] = vyl;
  D[WX] = wxh;
  D[WX + 1] = wxl;
  D[WY] = wyh;
  D[WY + 1] = wyl;
  crossDD(UX, VY, UY, VX);
  const dh = R[0], dl = R[1], eDen = R[2];
  crossDD(WX, VY, WY, VX);
  const nh = R[0], nl = R[1], eN = R[2];
  const rel = eDen / Math.abs(dh) + eN / Math.abs(nh);
  if (!(rel < E12)) return false; // too much cancellation (near-parallel segments): exact path
  // t = n / den in double-double: th = fl(nh/dh), then the remainder (nh − th·dh is exact by Sterbenz's lemma).
  const th = nh / dh;
  const q = th * dh;
  const tl = (nh - q - productError(th, dh, q) + nl - th * dl) / dh;
  // along's arguments and answer go through module scratch (no boxed doubles).
  const A = ALONG;
  A[3] = th;
  A[4] = tl;
  A[5] = rel;
  A[0] = ax0;
  A[1] = uxh;
  A[2] = uxl;
  if (!along()) return false;
  const x = A[6];
  A[0] = ay0;
  A[1] = uyh;
  A[2] = uyl;
  if (!along()) return false;
  out[0] = x;
  out[1] = A[6];
  return true;
}

/** along's a, uh, ul, th, tl, rel in [0, 6) and its answer in [6] (module scratch). */
const ALONG = new Float64Array(7);

/**
 * a + t·u correctly rounded (a a double, u and t double-doubles; t's relative error is below
 * rel + 2^-100, with rel the sum of n's and den's relative error bounds) into ALONG[6], from a,
 * uh, ul, th, tl, rel in ALONG[0, 6); false when not certain.
 */
function along(): boolean {
  const A = ALONG;
  const a = A[0], uh = A[1], ul = A[2], th = A[3], tl = A[4], rel = A[5];
  if (uh === 0) {
    A[6] = a === 0 ? 0 : a; // exactly a (and +0, as the rational evaluation gives)
    return true;
  }
  mulDD(th, tl, uh, ul);
  const mh = R[0], ml = R[1];
  const s = a + mh;
  const bb = s - a;
  const se = a - (s - bb) + (mh - bb);
  const lo = se + ml;
  const xh = s + lo;
  const xl = lo - (xh - s);
  const err = (2 * rel + E96) * Math.abs(mh) + E103 * Math.abs(s);
  // The exact x lies within err of xh + xl; xh is its rounding when that interval stays strictly
  // inside the half-gaps to xh's neighbours: ulp(xh) away from zero, and toward zero the same or
  // half of it when xh is a power of two.
  BITS[0] = xh;
  const hi = WORDS[1];
  const e = (hi >>> 20) & 0x7ff;
  // Zero or subnormal, or so small that half an ulp is subnormal: left to the exact path.
  if (e < 54) return false;
  // half = 2^(e − 1076), half an ulp of xh, built from its bits.
  HALF_WORDS[1] = (e - 53) << 20;
  const half = HALF_BITS[0];
  const toZero = (hi & 0xfffff) === 0 && WORDS[0] === 0 ? half / 2 : half;
  const away = xh > 0 ? xl : -xl;
  A[6] = xh;
  return away + err < half && err - away < toZero;
}

// The bits of a double (little-endian words: [low, high]).
const BITS = new Float64Array(1);
const WORDS = new Uint32Array(BITS.buffer);
const HALF_BITS = new Float64Array(1);
const HALF_WORDS = new Uint32Array(HALF_BITS.buffer);

/**
 * The correctly rounded crossing point of two segments that cross properly (the precondition
 * of {@link crossingPoint2}) into out[0], out[1]: the double-double evaluation where its rounding
 * test certifies it, else exact rational arithmetic (BigInt).
 */
function crossingInto(da: Float64Array, a0: number, a1: number, db: Float64Array, b0: number, b1: number, out: number[] | Float64Array): void {
  if (crossingPoint2At(da, a0, a1, db, b0, b1, out)) return;
  const ax0 = da[a0], ay0 = da[a0 + 1], ax1 = da[a1], ay1 = da[a1 + 1];
  const bx0 = db[b0], by0 = db[b0 + 1], bx1 = db[b1], by1 = db[b1 + 1];
  const { ints, exp } = toScaledBigInts([ax0, ay0, ax1, ay1, bx0, by0, bx1, by1]);
  const [A0x, A0y, A1x, A1y, B0x, B0y, B1x, B1y] = ints;
  const ux = A1x - A0x, uy = A1y - A0y, vx = B1x - B0x, vy = B1y - B0y, wx = B0x - A0x, wy = B0y - A0y;
  const den = ux * vy - uy * vx;
  const n1 = wx * vy - wy * vx;
  out[0] = ratToDouble(A0x * den + n1 * ux, den, exp);
  out[1] = ratToDouble(A0y * den + n1 * uy, den, exp);
}

/**
 * After {@link meet2}: the meeting point in [0], [1] when it returned a code other than
 * NO_CONTACT and OVERLAP; for OVERLAP the shared piece's start in [0], [1] and end in [2], [3]
 * (module scratch, not re-entrant).
 */
export const MEET2 = new Float64Array(4);

/** {@link collinearMeet}'s answer (module scratch). */
const MEET4 = new Float64Array(4);

/** Lexicographic comparison of two points of the plane (−1, 0, 1), as intersection2D orders them. */
function lexCmp(px: number, py: number, qx: number, qy: number): number {
  if (px !== qx) return px < qx ? -1 : 1;
  if (py !== qy) return py < qy ? -1 : 1;
  return 0;
}

/**
 * The common part of four collinear points' segments a0a1 and b0b1, exactly as intersection2D
 * gives it (src/intersect/segment-2d.ts, collinearCase: on a common line the lexicographic order
 * is the line's order), without its parameters (exact rationals, which allocate): 0 none; 1 one
 * point, in MEET4[0], [1]; 2 a piece, from MEET4[0], [1] to MEET4[2], [3] in a's direction.
 */
function collinearMeet(ax0: number, ay0: number, ax1: number, ay1: number, bx0: number, by0: number, bx1: number, by1: number): number {
  const aDir = lexCmp(ax0, ay0, ax1, ay1);
  const bDir = lexCmp(bx0, by0, bx1, by1);
  const alx = aDir <= 0 ? ax0 : ax1, aly = aDir <= 0 ? ay0 : ay1;
  const ahx = aDir <= 0 ? ax1 : ax0, ahy = aDir <= 0 ? ay1 : ay0;
  const blx = bDir <= 0 ? bx0 : bx1, bly = bDir <= 0 ? by0 : by1;
  const bhx = bDir <= 0 ? bx1 : bx0, bhy = bDir <= 0 ? by1 : by0;
  if (lexCmp(ahx, ahy, blx, bly) < 0 || lexCmp(bhx, bhy, alx, aly) < 0) return 0;
  const loFromA = lexCmp(alx, aly, blx, bly) >= 0;
  const lox = loFromA ? alx : blx, loy = loFromA ? aly : bly;
  const hiFromA = lexCmp(ahx, ahy, bhx, bhy) <= 0;
  const hix = hiFromA ? ahx : bhx, hiy = hiFromA ? ahy : bhy;
  if (lox === hix && loy === hiy) {
    MEET4[0] = lox;
    MEET4[1] = loy;
    return 1;
  }
  MEET4[0] = aDir < 0 ? lox : hix;
  MEET4[1] = aDir < 0 ? loy : hiy;
  MEET4[2] = aDir < 0 ? hix : lox;
  MEET4[3] = aDir < 0 ? hiy : loy;
  return 2;
}

/**
 * The contact kind of planar segments a0a1 and b0b1 (offsets of their points' first coordinates
 * in `da` and `db`, which may be one array; a code of src/chain/classify.ts, exactly
 * what classify2 answers) and, for one common point, that point exactly as {@link meeting} gives
 * it, into {@link MEET2} — from one evaluation of the four orientation signs, without allocating
 * (both classify2 and meeting would evaluate them). Collinear segments (all four signs zero, rare
 * outside grids) are left to classify2 and meeting themselves; OVERLAP leaves MEET2 alone (the
 * caller asks {@link meeting} for the piece). Not re-entrant (module scratch).
 */
export function meet2(da: Float64Array, a0: number, a1: number, db: Float64Array, b0: number, b1: number): number {
  // Offsets rather than eight doubles: a call that is not inlined would box each double argument.
  const ax0 = da[a0], ay0 = da[a0 + 1], ax1 = da[a1], ay1 = da[a1 + 1];
  const bx0 = db[b0], by0 = db[b0 + 1], bx1 = db[b1], by1 = db[b1 + 1];
  const d3 = orient2Sign(ax0, ay0, ax1, ay1, bx0, by0);
  const d4 = orient2Sign(ax0, ay0, ax1, ay1, bx1, by1);
  if (d3 === d4 && d3 !== 0) return NO_CONTACT;
  const d1 = orient2Sign(bx0, by0, bx1, by1, ax0, ay0);
  const d2 = orient2Sign(bx0, by0, bx1, by1, ax1, ay1);
  if (d1 === d2 && d1 !== 0) return NO_CONTACT;
  if (d1 !== 0 && d2 !== 0 && d3 !== 0 && d4 !== 0) {
    crossingInto(da, a0, a1, db, b0, b1, MEET2);
    return CROSSING;
  }
  if (d1 === 0 && d2 === 0 && d3 === 0 && d4 === 0) {
    const code = classify2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
    if (code === NO_CONTACT) return code;
    const m = collinearMeet(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
    if (m !== (code === OVERLAP ? 2 : 1)) return classifyMismatch();
    MEET2[0] = MEET4[0];
    MEET2[1] = MEET4[1];
    MEET2[2] = MEET4[2];
    MEET2[3] = MEET4[3];
    return code;
  }
  // classify2's kind: its point is the first endpoint with a zero sign in the order a0, a1, b0, b1.
  const px = d1 === 0 ? ax0 : d2 === 0 ? ax1 : d3 === 0 ? bx0 : bx1;
  const py = d1 === 0 ? ay0 : d2 === 0 ? ay1 : d3 === 0 ? by0 : by1;
  const endA = (px === ax0 && py === ay0) || (px === ax1 && py === ay1);
  const endB = (px === bx0 && py === by0) || (px === bx1 && py === by1);
  // meeting's point: the first in the order b0, b1, a0, a1.
  MEET2[0] = d3 === 0 ? bx0 : d4 === 0 ? bx1 : d1 === 0 ? ax0 : ax1;
  MEET2[1] = d3 === 0 ? by0 : d4 === 0 ? by1 : d1 === 0 ? ay0 : ay1;
  return endA && endB ? VERTEX_TOUCH : T_JUNCTION;
}

/** classify2 and the collinear meeting disagree: a bug, never an input's fault. */
function classifyMismatch(): never {
  throw new Error('internal error: classify2 and the collinear meeting disagree');
}
