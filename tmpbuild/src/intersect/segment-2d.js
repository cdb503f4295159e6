/**
 * The intersection of two segments in the plane, as in the tutorial "Intersection of Line Segments" (solve
 * P1 + t1·v1 = P2 + t2·v2 by Cramer's rule) — but with exact decisions, the collinear and
 * zero-length cases handled, and parameters and points rounded once from the exact rational
 * solution.
 */
import { orient2Sign } from './intersects.js';
import { ratToDouble, toScaledBigInts } from '../core/exact.js';
import { SkewlineInputError, toVector } from '../core/primitives.js';
// ---------------------------------------------------------------------------------------------
// Validation
function vec2(v, name) {
    const a = toVector(v, `segmentIntersection2D: ${name}`);
    if (a.length !== 2) {
        throw new SkewlineInputError(`segmentIntersection2D: ${name} must be a 2D point, got ${a.length} coordinates`);
    }
    return a;
}
// ---------------------------------------------------------------------------------------------
// Helpers for the collinear case
function lexCmp(px, py, qx, qy) {
    if (px !== qx)
        return px < qx ? -1 : 1;
    if (py !== qy)
        return py < qy ? -1 : 1;
    return 0;
}
/** Shewchuk's Two-Diff roundoff: x − y = d + tail exactly (d = fl(x − y)). */
function diffTail(x, y, d) {
    const bv = x - d;
    const av = d + bv;
    return (x - av) + (bv - y);
}
/**
 * Parameter of P on the nondegenerate segment p0p1, P known to be on its line:
 * (P − p0)_k / (p1 − p0)_k on an axis where p1 ≠ p0, correctly rounded.
 */
function paramOn(px, py, x0, y0, x1, y1) {
    if (px === x0 && py === y0)
        return 0;
    if (px === x1 && py === y1)
        return 1;
    // The axis of larger extent (either would do: the ratio is the same exact rational).
    const useX = Math.abs(x1 - x0) >= Math.abs(y1 - y0);
    const p = useX ? px : py, a = useX ? x0 : y0, b = useX ? x1 : y1;
    const n = p - a, d = b - a;
    // If both differences are exact, one IEEE division is the correctly rounded quotient.
    if (diffTail(p, a, n) === 0 && diffTail(b, a, d) === 0 && Number.isFinite(n) && Number.isFinite(d))
        return n / d;
    const { ints } = toScaledBigInts([p, a, b]);
    return ratToDouble(ints[0] - ints[1], ints[2] - ints[1], 0);
}
// ---------------------------------------------------------------------------------------------
/**
 * Intersection of the segments a0a1 and b0b1 in the plane (the tutorial's
 * `segmentIntersection2D`, done exactly).
 *
 * Parameters: a point of a is a0 + t1·(a1 − a0), of b is b0 + t2·(b1 − b0), t ∈ [0, 1].
 * The kind (none / point / overlap) is decided exactly from the input doubles (orientation
 * signs with an adaptive exact fallback, then exact coordinate comparisons on a common line).
 * A crossing's t1, t2 and point are the exact rational solution of Cramer's rule rounded once
 * to the nearest double (so exactly representable answers come out exactly: the tutorial's
 * (4,7)–(16,3) and (1,1)–(17,5) give t1 = t2 = 0.75 and the point (13, 4)). Overlap ends and
 * touching points are input endpoints, returned exactly.
 *
 * Edge cases: touching at an endpoint (T-junction, shared endpoint, collinear end-to-end)
 * is a `point`; collinear segments that do not meet are `none`; reversing a segment maps its
 * parameters t → 1 − t (up to rounding of the value) and keeps the kind; a zero-length segment
 * is a point, its parameter is 0, and two coincident zero-length segments give a `point`.
 * @throws SkewlineInputError naming the argument (a0, a1, b0 or b1) if it is missing, not
 * two numbers, or holds NaN/±Infinity.
 */
export function segmentIntersection2D(a0, a1, b0, b1) {
    const A0 = vec2(a0, 'a0'), A1 = vec2(a1, 'a1'), B0 = vec2(b0, 'b0'), B1 = vec2(b1, 'b1');
    return intersection2D(A0[0], A0[1], A1[0], A1[1], B0[0], B0[1], B1[0], B1[1]);
}
/** {@link segmentIntersection2D} on eight finite numbers (not validated); for chain code. */
export function intersection2D(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1) {
    const d3 = orient2Sign(ax0, ay0, ax1, ay1, bx0, by0);
    const d4 = orient2Sign(ax0, ay0, ax1, ay1, bx1, by1);
    if (d3 === d4 && d3 !== 0)
        return { kind: 'none' };
    const d1 = orient2Sign(bx0, by0, bx1, by1, ax0, ay0);
    const d2 = orient2Sign(bx0, by0, bx1, by1, ax1, ay1);
    if (d1 === d2 && d1 !== 0)
        return { kind: 'none' };
    if (d1 !== 0 || d2 !== 0 || d3 !== 0 || d4 !== 0)
        return crossing(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
    return collinearCase(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1);
}
/**
 * A single crossing point, not all four points collinear. Both segments then have positive
 * length and are not parallel, so D = v1 × v2 ≠ 0 and (tutorial's Cramer's rule, with
 * w = b0 − a0) t1 = (w × v2)/D, t2 = (w × v1)/D, I = a0 + t1·v1, all exact rationals.
 */
function crossing(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1) {
    const { ints: z, exp } = toScaledBigInts([ax0, ay0, ax1, ay1, bx0, by0, bx1, by1]);
    const [A0x, A0y, A1x, A1y, B0x, B0y, B1x, B1y] = z;
    const ux = A1x - A0x, uy = A1y - A0y;
    const vx = B1x - B0x, vy = B1y - B0y;
    const wx = B0x - A0x, wy = B0y - A0y;
    const den = ux * vy - uy * vx;
    const n1 = wx * vy - wy * vx;
    const n2 = wx * uy - wy * ux;
    const t1 = ratToDouble(n1, den, 0);
    const t2 = ratToDouble(n2, den, 0);
    // I = a0 + (n1/den)·u; in units of 2^exp the numerators are integers.
    const x = ratToDouble(A0x * den + n1 * ux, den, exp);
    const y = ratToDouble(A0y * den + n1 * uy, den, exp);
    return { kind: 'point', point: [x, y], t1, t2 };
}
function collinearCase(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1) {
    const aDir = lexCmp(ax0, ay0, ax1, ay1); // −1: a0 < a1, 0: zero length, 1: a0 > a1
    const bDir = lexCmp(bx0, by0, bx1, by1);
    // Lexicographic extents (on a common line the lexicographic order is the line's order).
    const alx = aDir <= 0 ? ax0 : ax1, aly = aDir <= 0 ? ay0 : ay1;
    const ahx = aDir <= 0 ? ax1 : ax0, ahy = aDir <= 0 ? ay1 : ay0;
    const blx = bDir <= 0 ? bx0 : bx1, bly = bDir <= 0 ? by0 : by1;
    const bhx = bDir <= 0 ? bx1 : bx0, bhy = bDir <= 0 ? by1 : by0;
    if (lexCmp(ahx, ahy, blx, bly) < 0 || lexCmp(bhx, bhy, alx, aly) < 0)
        return { kind: 'none' };
    // Common piece [lo, hi].
    const loFromA = lexCmp(alx, aly, blx, bly) >= 0;
    const lox = loFromA ? alx : blx, loy = loFromA ? aly : bly;
    const hiFromA = lexCmp(ahx, ahy, bhx, bhy) <= 0;
    const hix = hiFromA ? ahx : bhx, hiy = hiFromA ? ahy : bhy;
    const ta = (px, py) => (aDir === 0 ? 0 : paramOn(px, py, ax0, ay0, ax1, ay1));
    const tb = (px, py) => (bDir === 0 ? 0 : paramOn(px, py, bx0, by0, bx1, by1));
    if (lox === hix && loy === hiy) {
        return { kind: 'point', point: [lox, loy], t1: ta(lox, loy), t2: tb(lox, loy) };
    }
    // Positive length: both segments are nondegenerate. Order the ends along a.
    const sx = aDir < 0 ? lox : hix, sy = aDir < 0 ? loy : hiy;
    const ex = aDir < 0 ? hix : lox, ey = aDir < 0 ? hiy : loy;
    const ts = tb(sx, sy), te = tb(ex, ey);
    return {
        kind: 'overlap',
        start: [sx, sy],
        end: [ex, ey],
        t1: [ta(sx, sy), ta(ex, ey)],
        t2: ts <= te ? [ts, te] : [te, ts],
        sameDirection: aDir === bDir,
    };
}
