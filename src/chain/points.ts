/**
 * Where planar chains meet, for GIS users: the crossing and touching points of a chain's
 * self-intersections (or of two chains), and its collinear overlaps as pieces, each contact
 * classified exactly (crossing, vertex touch, T-junction, overlap).
 *
 * A crossing point is the exact rational intersection rounded once to the nearest double. It
 * is found at the speed of the search by a certified filter that the 2D contact search itself
 * runs on each pair while the pair's coordinates are loaded (cross-point.ts, crossCore; the
 * orientation determinants that decide the crossing also give the point): the point
 * a0 + s·(a1 − a0), with s = (w×v)/(u×v) from two 2×2 determinants, is evaluated first in
 * doubles, then if need be with exact differences and products (still doubles), then in
 * double-double, each time with a rigorous bound on its error; the result is accepted when
 * every value within that bound rounds to the same double (so it is the correctly rounded
 * one), and only when neither evaluation can decide the rounding is it done in exact BigInt
 * arithmetic. Error bounds: Shewchuk (1997), "Adaptive Precision Floating-Point Arithmetic and
 * Fast Robust Geometric Predicates", §4.3 (ccwerrboundA for a 2×2 determinant of rounded
 * differences) and the standard model fl(a ∘ b) = (a ∘ b)(1 + δ), |δ| ≤ 2⁻⁵³ (Higham, "Accuracy
 * and Stability of Numerical Algorithms", §2.2 and §4.2 for recursive summation); Two-Sum and
 * Dekker's product (src/core/eft.ts) are exact.
 */
import { SkewlineInputError } from '../core/primitives.js';
import { checkOptions } from '../core/options.js';
import { EPS as EPS_, productError as productError_ } from '../core/eft.js';
import { ratToDouble, toScaledBigInts } from '../core/exact.js';
import { intersection2D } from '../intersect/segment-2d.js';
import { UNF as UNF_, crossCore as crossCore_, decide as decide_ } from './cross-point.js';
import { contactPairs } from './contacts.js';
import { checkIntersectionsInto, intersectionsShare } from './into.js';
import type { ChainOptions } from './contacts.js';
import type { ChainPoints } from './input.js';
import { CROSSING as CROSSING_, OVERLAP as OVERLAP_, TOUCH as TOUCH_, classify2 } from './classify.js';

// Local copies of imported bindings read in the hot loop: a module loader that compiles ESM to
// getters (tsx, bundlers) makes each read of an imported binding a call.
const EPS = EPS_;
const productError = productError_;
const CROSSING = CROSSING_;
const OVERLAP = OVERLAP_;
const TOUCH = TOUCH_;
const UNF = UNF_;
const crossCore = crossCore_;
const decide = decide_;

/** Kind codes of {@link ChainIntersections.kind}: one common point. */
export const POINT_CONTACT = 1;
/** Kind code of a collinear overlap (a shared piece of positive length). */
export const OVERLAP_CONTACT = 2;

/**
 * The intersections of a planar chain, one per pair of segments that share a point (the pairs of
 * `chainContacts` with thickness 0, in the same order).
 */
export interface ChainIntersections {
  /** Number of pairs that share a point. */
  count: number;
  /** First segment of each pair (as in `chainContacts`). */
  i: Int32Array;
  /** Second segment. */
  j: Int32Array;
  /** {@link POINT_CONTACT} (one common point) or {@link OVERLAP_CONTACT} (a shared piece). */
  kind: Uint8Array;
  /**
   * The exact contact kind of each pair: `CROSSING` (one point, interior to both),
   * `VERTEX_TOUCH` (an endpoint of both), `T_JUNCTION` (an endpoint of one on the interior of
   * the other) or `OVERLAP` (a shared piece) — codes 1 to 4, names in `CONTACT_KIND_NAMES`.
   */
  contact: Uint8Array;
  /** x of the common point, or of the end of the shared piece nearer segment i's first vertex. */
  x0: Float64Array;
  /** y of that point. */
  y0: Float64Array;
  /**
   * x of the same point again, or of the other end of the shared piece. When no pair overlaps,
   * this is the same array as x0 (and y1 the same as y0): copy before writing to either. (With
   * `options.into` whose x1, y1 are arrays of their own, they stay so: see its doc.)
   */
  x1: Float64Array;
  /** y of that point (the same array as y0 when no pair overlaps). */
  y1: Float64Array;
}

/** Options of {@link chainIntersections}: those of `chainContacts`, thickness 0 only, and `into`. */
export type ChainIntersectionOptions = Omit<ChainOptions, 'thickness'> & {
  thickness?: 0;
  /**
   * Caller-owned result buffers (a previous result, handed back): the intersections go into
   * `into`'s arrays instead of fresh ones (no fresh memory to fault in, nothing to collect), and
   * `into` itself is returned, its `count` set: entries [0, count) are bit for bit those of a
   * call without `into`; entries past `count` are unspecified. Arrays shorter than `count` are
   * replaced (in `into` too) by fresh ones a little longer, which the next call reuses. `x1` and
   * `y1` may be the arrays `x0` and `y0` (as a result without overlaps has them): they stay so
   * while no pair overlaps, and get arrays of their own when one does; arrays of their own are
   * kept and filled (with the copies of x0, y0 where no pair overlaps). The arrays may not
   * otherwise share memory with each other or with the input chains, nor be in use by a
   * `chainContactsParallel` call in flight. If a call throws, `into`'s contents are unspecified.
   */
  into?: ChainIntersections;
};

const ACCEPTED = ['dim', 'closed', 'against', 'againstClosed', 'thickness', 'into'] as const;

/**
 * How the crossing points of the last {@link chainIntersections} calls were rounded: certified in
 * doubles, in double-double, or in exact BigInt arithmetic (counts of points; add up over calls;
 * reset them by assigning 0). For the benchmark.
 */
export const pointStats = { double: 0, doubleDouble: 0, exact: 0 };

// ---------------------------------------------------------------------------------------------
// The certified crossing point

/**
 * Magnitudes of nonzero coordinates for the double and double-double paths. Every double of
 * magnitude ≥ 2⁻⁴⁰⁰ is a multiple of 2⁻⁴⁵², so every nonzero difference of two such inputs, every
 * Two-Diff tail and every Dekker half is ≥ 2⁻⁴⁵² and their products ≥ 2⁻⁹⁰⁴: nothing below
 * underflows, and nothing overflows under 2⁴⁰⁰. Outside this range the exact path decides.
 */
const LO = 2 ** -400;
const HI = 2 ** 400;
/** A parameter below this takes the exact path (so that s·u cannot underflow). */
const S_MIN = 2 ** -500;
/** An absolute floor added to the double-double bounds (absorbs any subnormal rounding). */
const FLOOR = 2 ** -1000;

function inRange(x: number): boolean {
  const a = Math.abs(x);
  return a === 0 || (a >= LO && a <= HI);
}

/** The Two-Diff tail: a − b = d + tail exactly, d = fl(a − b). */
function tail(a: number, b: number, d: number): number {
  const bv = a - d;
  return (a - (d + bv)) + (bv - b);
}

// Double-double 2×2 determinant result: value DD[0] + DD[1], |error| ≤ DD[2].
const DD = new Float64Array(3);
/** ddDet's operands (ah, al, bh, bl, ch, cl, dh, dl) and ddCoord's (q1, q2, es, then a, uh, ul per coordinate). */
const DDIN = new Float64Array(8);
const DDC = new Float64Array(9);

/**
 * (ah + al)(bh + bl) − (ch + cl)(dh + dl) in double-double, the operands in X (DDIN): the leading products exactly (Dekker)
 * and their difference exactly (Two-Sum); the nine small terms (the products' tails and the six
 * cross products) summed in doubles, their error bounded by 10ε times the sum of their
 * magnitudes (one rounding per product plus recursive summation of nine terms, Higham §4.2).
 */
function ddDet(X: Float64Array): void {
  const ah = X[0], al = X[1], bh = X[2], bl = X[3], ch = X[4], cl = X[5], dh = X[6], dl = X[7];
  const p = ah * bh, pe = productError(ah, bh, p);
  const q = ch * dh, qe = productError(ch, dh, q);
  const s = p - q;
  const bv = s - p;
  const se = (p - (s - bv)) + (-q - bv);
  const t1 = ah * bl, t2 = al * bh, t3 = al * bl, t4 = ch * dl, t5 = cl * dh, t6 = cl * dl;
  const r = se + pe - qe + t1 + t2 + t3 - t4 - t5 - t6;
  const h = s + r;
  const bv2 = h - s;
  DD[0] = h;
  DD[1] = (s - (h - bv2)) + (r - bv2);
  const abs = Math.abs;
  DD[2] = 10 * EPS * (abs(se) + abs(pe) + abs(qe) + abs(t1) + abs(t2) + abs(t3) + abs(t4) + abs(t5) + abs(t6)) + FLOOR;
}

const abs = Math.abs;
/** The eight coordinates of {@link fastCross}'s pair, for crossCore. */
const SEG8 = new Float64Array(8);

/**
 * The fast path of one contact in doubles ({@link crossCore}, cross-point.ts): if the doubles
 * certify a proper crossing, its point rounded once, where the error bound decides it.
 * @returns −1 when the doubles do not certify a proper crossing (nothing written); 1 when they
 *   do and both coordinates are decided (to out[0], out[1]); 0 when they do but a coordinate is
 *   not decided (it is NaN in out).
 */
export function fastCross(
  ax0: number, ay0: number, ax1: number, ay1: number,
  bx0: number, by0: number, bx1: number, by1: number,
  out: Float64Array,
): number {
  const S = SEG8;
  S[0] = ax0; S[1] = ay0; S[2] = ax1; S[3] = ay1; S[4] = bx0; S[5] = by0; S[6] = bx1; S[7] = by1;
  const f = crossCore(S, 0, S, 4, out);
  return f < 0 ? -1 : f;
}

/**
 * The crossing point of two 2D segments known to cross properly (one common point, interior to
 * both; so u × v ≠ 0), each coordinate the exact value rounded once to the nearest double:
 * to out[0], out[1]. Tries doubles, then double-double, then exact arithmetic. Not re-entrant.
 */
export function crossingPoint2(
  ax0: number, ay0: number, ax1: number, ay1: number,
  bx0: number, by0: number, bx1: number, by1: number,
  out: Float64Array,
): void {
  const f = fastCross(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1, out); // fills SEG8
  if (f === 1) {
    pointStats.double++;
    return;
  }
  if (f === -1) out[0] = out[1] = NaN;
  finishPoint(SEG8, out);
}

/**
 * Fills the NaN coordinates of out for the pair S[0 … 7] (a0, a1, b0, b1): double-double where it
 * decides, exact arithmetic otherwise. (The pair comes in an array: a call with eight doubles
 * would box each one.)
 */
function finishPoint(S: Float64Array, out: Float64Array): void {
  const ax0 = S[0], ay0 = S[1], ax1 = S[2], ay1 = S[3], bx0 = S[4], by0 = S[5], bx1 = S[6], by1 = S[7];
  let x = out[0], y = out[1];
  const safe = inRange(ax0) && inRange(ay0) && inRange(ax1) && inRange(ay1) && inRange(bx0) && inRange(by0) && inRange(bx1) && inRange(by1);
  if (safe) {
    if (exactDiffPoint(S)) {
      if (x !== x) x = DDP[0];
      if (y !== y) y = DDP[1];
      if (x === x && y === y) {
        pointStats.double++;
        out[0] = x;
        out[1] = y;
        return;
      }
    }
    ddPoint(S);
    if (x !== x) x = DDP[0];
    if (y !== y) y = DDP[1];
    if (x === x && y === y) {
      pointStats.doubleDouble++;
      out[0] = x;
      out[1] = y;
      return;
    }
  }
  pointStats.exact++;
  exactPoint(S);
  out[0] = x === x ? x : EXP[0];
  out[1] = y === y ? y : EXP[1];
}

// Error of the last det2e, set by it. A typed-array slot, not a module `let`: V8 boxes every
// double written to a module variable (a fresh heap number each time: two per call here, which
// was most of chainIntersections' young-generation garbage).
const DET_ERR = new Float64Array(1);

/**
 * a·b − c·d with both products exact (Dekker): (p − q) + (pe − qe) rounded three times, so its
 * error is at most 1.01·ε(|p − q| + |pe − qe| + |result|) (DET_ERR). Inputs in the safe range.
 */
function det2e(a: number, b: number, c: number, d: number): number {
  const p = a * b, q = c * d;
  const h = p - q, t = productError(a, b, p) - productError(c, d, q);
  const v = h + t;
  DET_ERR[0] = 1.01 * EPS * (abs(h) + abs(t) + abs(v)) + UNF;
  return v;
}

/**
 * The second try in doubles, for the points {@link fastCross} leaves undecided: when the six
 * differences of the inputs are exact (checked with Two-Diff; so in map and walk data, where
 * nearby coordinates share their binade, Sterbenz's lemma), den = u × v and s·den = w × v are
 * evaluated with exact products (det2e), several times more accurately than with rounded ones,
 * and X = a0 + s·u or a1 − (1 − s)·u is decided as in fastCross. Writes DDP (NaN where
 * undecided); false when the differences are not exact (nothing tried).
 */
function exactDiffPoint(S: Float64Array): boolean {
  const ax0 = S[0], ay0 = S[1], ax1 = S[2], ay1 = S[3], bx0 = S[4], by0 = S[5], bx1 = S[6], by1 = S[7];
  const ux = ax1 - ax0, uy = ay1 - ay0, vx = bx1 - bx0, vy = by1 - by0, wx = bx0 - ax0, wy = by0 - ay0;
  if (tail(ax1, ax0, ux) !== 0 || tail(ay1, ay0, uy) !== 0 || tail(bx1, bx0, vx) !== 0 || tail(by1, by0, vy) !== 0 || tail(bx0, ax0, wx) !== 0 || tail(by0, ay0, wy) !== 0) return false;
  DDP[0] = DDP[1] = NaN;
  const den = det2e(ux, vy, uy, vx), eden = DET_ERR[0];
  const sd = det2e(wx, vy, wy, vx), esd = DET_ERR[0];
  const an = abs(den);
  // a0 + s·u when s ≤ 1/2, else a1 − (1 − s)·u = a1 + ((s·den − den)/den)·u.
  const near0 = abs(sd) <= 0.5 * an;
  const num = near0 ? sd : sd - den;
  const e = near0 ? esd : (esd + eden) * (1 + 2 * EPS) + EPS * abs(num);
  const anum = abs(num);
  if (!(e < anum * 2 ** -10 && eden < an * 2 ** -10)) return true;
  const c = num / den;
  // |c̃ − c| ≤ |c|(e/|num| + eden/|den| + ε)(1 + 2⁻⁸); u is exact, so c̃·u adds one rounding.
  const rc = abs(c) * (e / anum + eden / an + EPS) * 1.01;
  const px = c * ux, py = c * uy;
  DDP[0] = decide(near0 ? ax0 : ax1, px, (rc * abs(ux) + EPS * abs(px)) * 1.01 + UNF);
  DDP[1] = decide(near0 ? ay0 : ay1, py, (rc * abs(uy) + EPS * abs(py)) * 1.01 + UNF);
  return true;
}

// Double-double results (NaN where not decided).
const DDP = new Float64Array(2);

/**
 * The double-double evaluation: the six differences exactly (Two-Diff), den = u×v and
 * num = w×v by {@link ddDet}, s = num/den as q1 + q2 (q1 = num/den in doubles, q2 from the
 * remainder num − q1·den, whose leading part is exact by Sterbenz's lemma), then
 * X = a0 + (q1 + q2)·u with the leading product exact. The bound on s:
 * |s − (q1 + q2)| ≤ (e_num + |s|·e_den + |ρ|(|den_l|/|den_h| + ε) + e_ρ)/|den_h|, with margins.
 */
function ddPoint(S: Float64Array): void {
  const ax0 = S[0], ay0 = S[1], ax1 = S[2], ay1 = S[3], bx0 = S[4], by0 = S[5], bx1 = S[6], by1 = S[7];
  DDP[0] = DDP[1] = NaN;
  const uxh = ax1 - ax0, uxl = tail(ax1, ax0, uxh);
  const uyh = ay1 - ay0, uyl = tail(ay1, ay0, uyh);
  const vxh = bx1 - bx0, vxl = tail(bx1, bx0, vxh);
  const vyh = by1 - by0, vyl = tail(by1, by0, vyh);
  const wxh = bx0 - ax0, wxl = tail(bx0, ax0, wxh);
  const wyh = by0 - ay0, wyl = tail(by0, ay0, wyh);
  const X = DDIN; // the operands go through scratch: a call with doubles would box each one
  X[0] = uxh; X[1] = uxl; X[2] = vyh; X[3] = vyl; X[4] = uyh; X[5] = uyl; X[6] = vxh; X[7] = vxl;
  ddDet(X);
  const Dh = DD[0], Dl = DD[1], eD = DD[2];
  X[0] = wxh; X[1] = wxl; X[4] = wyh; X[5] = wyl;
  ddDet(X);
  const Nh = DD[0], Nl = DD[1], eN = DD[2];
  const aD = Math.abs(Dh);
  if (!(eD < aD * 2 ** -10 && eN < Math.abs(Nh) * 2 ** -10)) return;
  const q1 = Nh / Dh;
  if (!(Math.abs(q1) >= S_MIN)) return;
  const pr = q1 * Dh, pre = productError(q1, Dh, pr);
  const t = q1 * Dl;
  const nd = Nh - pr; // exact (Sterbenz: pr is within a factor 2 of Nh, same sign)
  const rho = nd - pre + Nl - t;
  const eRho = 5 * EPS * (Math.abs(nd) + Math.abs(pre) + Math.abs(Nl) + Math.abs(t));
  const q2 = rho / Dh;
  const es = ((eN + 1.01 * Math.abs(q1) * eD + Math.abs(rho) * (Math.abs(Dl) / aD + EPS) + eRho) / aD) * 1.02 + FLOOR;
  const C = DDC;
  C[0] = q1; C[1] = q2; C[2] = es;
  C[3] = ax0; C[4] = uxh; C[5] = uxl;
  C[6] = ay0; C[7] = uyh; C[8] = uyl;
  ddCoord(0);
  ddCoord(1);
}

/**
 * Coordinate k of the point, a + (q1 + q2)(uh + ul) with the operands in DDC, decided to the
 * nearest double when |s − (q1 + q2)| ≤ es, else NaN: to DDP[k].
 */
function ddCoord(k: number): void {
  const C = DDC, o = 3 + 3 * k;
  const q1 = C[0], q2 = C[1], es = C[2], a = C[o], uh = C[o + 1], ul = C[o + 2];
  const m1 = q1 * uh, m2 = productError(q1, uh, m1);
  const h0 = a + m1;
  const bv = h0 - a;
  const l0 = (a - (h0 - bv)) + (m1 - bv);
  const c1 = q1 * ul, c2 = q2 * uh, c3 = q2 * ul;
  const rest = l0 + m2 + c1 + c2 + c3;
  const abs = Math.abs;
  const err = es * (abs(uh) + abs(ul)) * 1.01 + 6 * EPS * (abs(l0) + abs(m2) + abs(c1) + abs(c2) + abs(c3)) + FLOOR;
  DDP[k] = decide(h0, rest, err);
}

// Exact results.
const EXP = new Float64Array(2);

/** The crossing point in exact rational arithmetic (Cramer's rule on the scaled integers), rounded once. */
function exactPoint(S: Float64Array): void {
  const ax0 = S[0], ay0 = S[1], ax1 = S[2], ay1 = S[3], bx0 = S[4], by0 = S[5], bx1 = S[6], by1 = S[7];
  const { ints: z, exp } = toScaledBigInts([ax0, ay0, ax1, ay1, bx0, by0, bx1, by1]);
  const [A0x, A0y, A1x, A1y, B0x, B0y, B1x, B1y] = z;
  const ux = A1x - A0x, uy = A1y - A0y, vx = B1x - B0x, vy = B1y - B0y, wx = B0x - A0x, wy = B0y - A0y;
  const den = ux * vy - uy * vx;
  const num = wx * vy - wy * vx;
  EXP[0] = ratToDouble(A0x * den + num * ux, den, exp);
  EXP[1] = ratToDouble(A0y * den + num * uy, den, exp);
}

// ---------------------------------------------------------------------------------------------

const PT = new Float64Array(2);

/**
 * Every point where a 2D chain meets itself (or, with `options.against`, another chain): proper
 * crossings, touching vertices, T-junctions, and collinear overlaps as pieces — the pairs that
 * `chainContacts` reports with thickness 0, same order, same rules (adjacent segments only
 * when they fold back; zero-length segments dropped; rings). Each pair's contact kind is
 * decided exactly (`contact`: CROSSING, VERTEX_TOUCH, T_JUNCTION, OVERLAP).
 *
 * A crossing point is the exact rational intersection rounded once to the nearest double (a
 * certified double or double-double evaluation decides nearly all of them; exact arithmetic
 * the rest); touching points and the ends of a shared piece are input vertices, returned
 * exactly. Cost: `chainContacts`' search plus a few tens of nanoseconds per contact (the
 * points are computed inside the search; measured 1.11–1.17× the time of `chainContacts` on a
 * random walk of 1e6 segments). With `options.into` the result goes into the caller's arrays
 * (see {@link ChainIntersectionOptions.into}) and `into` is returned. Not re-entrant (module scratch).
 * @throws SkewlineInputError for an unknown option, if the chain is not 2D or
 * `options.thickness` is not 0, for an `into` that is not a ChainIntersections of typed arrays
 * (or whose arrays share memory with each other, the input, or a parallel call in flight), and
 * for the input errors of `chainContacts`.
 */
export function chainIntersections(points: ChainPoints, options: ChainIntersectionOptions = {}): ChainIntersections {
  checkOptions(options, ACCEPTED, 'chainIntersections');
  if (options.thickness !== undefined && options.thickness !== 0) {
    throw new SkewlineInputError('chainIntersections: intersection points need thickness 0 (use chainContacts for a thickness)');
  }
  const into = options.into === undefined ? null : checkIntersectionsInto(options.into, 'chainIntersections', [points, options.against]);
  // A flat array without dim is read as x, y pairs (this query is 2D only).
  const flat = ArrayBuffer.isView(points) || typeof (points as ArrayLike<unknown>)[0] === 'number';
  const dim = options.dim ?? (flat ? 2 : undefined);
  const { into: _, ...rest } = options;
  // The search computes the certified crossing points as it finds the pairs (contacts.ts,
  // narrow2); the pairs it leaves with NaN (touches, overlaps, undecided points) are finished here.
  const { A, B, CI, CJ, X, Y, decided } = contactPairs(
    points, dim === undefined ? { ...rest, thickness: 0 } : { ...rest, dim, thickness: 0 }, finishPoint,
    into === null ? null : (m: number) => intersectionsShare(into, m),
  );
  if (A.dim !== 2 || X === null || Y === null) throw new SkewlineInputError(`chainIntersections: the chain must be 2D (got ${A.dim} coordinates per vertex)`);
  const n = into === null ? CI.length : into.count;
  // The sorted arrays are fresh (or into's): CI, CJ become the result's i and j (input indices), X and Y its x0, y0.
  const I = CI, J = CJ;
  const kind = into === null ? new Uint8Array(n).fill(POINT_CONTACT) : into.kind.fill(POINT_CONTACT, 0, n);
  const contact = into === null ? new Uint8Array(n).fill(CROSSING) : into.contact.fill(CROSSING, 0, n);
  const x0 = X, y0 = Y;
  // The far ends of shared pieces: the same arrays as x0, y0 until the first overlap needs its own.
  let x1 = x0, y1 = y0;
  const PA = A.P, PB = B.P, out = PT;
  for (let k = 0; k < n; k++) {
    if (x0[k] === x0[k]) continue; // a proper crossing, its point decided in the search
    const a = 2 * CI[k], b = 2 * CJ[k];
    const ax0 = PA[a], ay0 = PA[a + 1], ax1 = PA[a + 2], ay1 = PA[a + 3];
    const bx0 = PB[b], by0 = PB[b + 1], bx1 = PB[b + 2], by1 = PB[b + 3];
    const f = crossCore(PA, a, PB, b, out); // APART and UNDECIDED (< 0): classify exactly
    let c = CROSSING;
    if (f === 1) pointStats.double++;
    else if (f === 0) {
      const S = SEG8;
      S[0] = ax0; S[1] = ay0; S[2] = ax1; S[3] = ay1; S[4] = bx0; S[5] = by0; S[6] = bx1; S[7] = by1;
      finishPoint(S, out);
    } else {
      // A touch, an overlap or an undecided pair (never APART: the search found a common point).
      c = classify2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
      if (c === CROSSING) crossingPoint2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1, out);
    }
    contact[k] = c;
    if (c === CROSSING) {
      x0[k] = x1[k] = out[0];
      y0[k] = y1[k] = out[1];
    } else if (c === OVERLAP) {
      const r = intersection2D(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
      if (r.kind !== 'overlap') throw new Error(`chainIntersections: internal disagreement on segments ${A.orig[CI[k]]} and ${B.orig[CJ[k]]}`);
      kind[k] = OVERLAP_CONTACT;
      if (x1 === x0) {
        if (into === null) {
          x1 = x0.slice();
          y1 = y0.slice();
        } else {
          // into's own far-end arrays (as long as x0: intersectionsShare), or new ones.
          x1 = into.x1 !== x0 ? into.x1 : new Float64Array(x0.length);
          y1 = into.y1 !== y0 ? into.y1 : new Float64Array(y0.length);
          x1.set(x0.subarray(0, n));
          y1.set(y0.subarray(0, n));
        }
      }
      [x0[k], y0[k]] = r.start;
      [x1[k], y1[k]] = r.end;
    } else if (c !== 0) {
      x0[k] = x1[k] = TOUCH[0];
      y0[k] = y1[k] = TOUCH[1];
    } else {
      // Unreachable: the contact search decided these pairs share a point exactly.
      throw new Error(`chainIntersections: internal disagreement on segments ${A.orig[CI[k]]} and ${B.orig[CJ[k]]}`);
    }
  }
  pointStats.double += decided; // finishPoint counted the points it decided in the search
  // Input indices (in place), unless the compact ones are the input's already.
  const oa = A.orig, ob = B.orig;
  if (!(A.identity === true && B.identity === true)) {
    for (let k = 0; k < n; k++) {
      I[k] = oa[I[k]];
      J[k] = ob[J[k]];
    }
  }
  if (into === null) return { count: n, i: I, j: J, kind, contact, x0, y0, x1, y1 };
  // into's arrays hold the result (intersectionsShare put i, j, x0, y0 there); its far ends:
  if (x1 === x0 && into.x1 !== x0) {
    into.x1.set(x0.subarray(0, n));
    into.y1.set(y0.subarray(0, n));
  } else {
    into.x1 = x1;
    into.y1 = y1;
  }
  return into;
}
