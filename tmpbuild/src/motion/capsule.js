/**
 * A capsule translating over one step against a resting capsule: the first time they touch.
 *
 * Capsule A is the segment a0a1 with radius ra, translated by t·move at time t ∈ [0, 1]; B is the
 * segment b0b1 with radius rb. With w = a0 − b0, u = a1 − a0, v = b1 − b0 and R = ra + rb they
 * touch at t exactly when d(t) = min over s, s′ ∈ [0, 1] of |w + t·move + s·u − s′·v| ≤ R. d is
 * the distance from the point t·move to a fixed convex set (the parallelogram b − a), so it is
 * convex in t and the times of contact form one interval: the first contact is where t·move
 * enters the R-neighbourhood of that parallelogram, through one of its features — a vertex (an
 * endpoint of A against an endpoint of B, the sphere-sweep quadratic), an edge (an endpoint of
 * one against the other segment: a point entering a cylinder, again a quadratic) or, in 3D and
 * up, its face (the segments' lines coming within R: the distance to a plane, linear in t, whose
 * square is the quadratic). This is the standard decomposition of swept-volume tests (e.g.
 * Ericson, Real-Time Collision Detection, §5.5 "Intersection of moving objects").
 *
 * Floating point estimates the time from those features; the answer is then made exact: the
 * predicate "the capsules touch at the double t" is decided by a filtered segment distance and,
 * where the filter cannot decide, by exact BigInt arithmetic (motion/exact.ts). The returned
 * time is the first double at which they touch (a certified bracket prev(t) → no, t → yes),
 * found by exact bisection where the estimate is off; the hit/miss decision is the exact
 * minimum of the convex quadratic over the (t, s, s′) box.
 */
import { SkewlineInputError, toVector } from '../core/primitives.js';
import { SEGMENT } from '../core/exact.js';
import { OUT_DIST, OUT_S, OUT_T, closestInto } from '../closest/kernel.js';
import { capsuleHitExact, capsuleTouchesAt, exactCapsule } from './exact.js';
import { nextDown, nextUp } from './ulp.js';
const U = 2 ** -53;
function checkRadius(r, what) {
    if (typeof r !== 'number' || !Number.isFinite(r) || r < 0) {
        throw new SkewlineInputError(`${what} must be a finite number ≥ 0 (got ${String(r)})`);
    }
    return r;
}
let data = new Float64Array(16);
let out = new Float64Array(16);
function grow(dim) {
    if (data.length < 4 * dim)
        data = new Float64Array(4 * dim);
    if (out.length < 8 + dim)
        out = new Float64Array(8 + dim);
}
/**
 * Filtered "do they touch at t": 1 certainly yes, −1 certainly no, 0 undecided. The segments
 * are loaded in difference form relative to b0 (a_j − b0 + t·move), whose rounding moves A by
 * at most errA; the segment kernel's distance is within 8·u·S (16·u·S is used).
 */
function touchFloat(A0, A1, B0, B1, M, t, R) {
    const dim = A0.length;
    let errA = 0;
    let errB = 0;
    let la = 0;
    let lb = 0;
    let lw = 0;
    for (let i = 0; i < dim; i++) {
        const tm = t * M[i];
        const p = A0[i] - B0[i];
        const q = A1[i] - B0[i];
        const x0 = p + tm;
        const x1 = q + tm;
        const v = B1[i] - B0[i];
        data[i] = x0;
        data[dim + i] = x1;
        data[2 * dim + i] = 0;
        data[3 * dim + i] = v;
        errA += Math.abs(p) + Math.abs(q) + 2 * Math.abs(tm) + Math.abs(x0) + Math.abs(x1);
        errB += Math.abs(v);
        la += (x1 - x0) ** 2;
        lb += v * v;
        lw += x0 * x0;
    }
    closestInto(SEGMENT, SEGMENT, dim, data, 0, out);
    const d = out[OUT_DIST];
    const err = 2 * U * (errA + errB) + 16 * U * (Math.sqrt(la) + Math.sqrt(lb) + Math.sqrt(lw)) + 4 * U * (d + R);
    if (!(err < Infinity))
        return 0;
    if (d + err < R)
        return 1;
    if (d - err > R)
        return -1;
    return 0;
}
/** The smaller root in [0, 1] of A t² + 2B t + C when f decreases through it (C > 0, B < 0), else Infinity. */
function firstRoot(A, B, C) {
    if (!(B < 0))
        return Infinity;
    const D = B * B - A * C;
    if (!(D >= 0))
        return Infinity;
    const t = C / (Math.sqrt(D) - B);
    return t >= 0 && t <= 1 ? t : Infinity;
}
/**
 * The first-contact time in doubles from the features of the parallelogram b − a (see the
 * module comment), or Infinity when no feature reports a contact in [0, 1]. An estimate only.
 */
function estimate(A0, A1, B0, B1, M, R) {
    const dim = A0.length;
    let best = Infinity;
    let mm = 0;
    for (let i = 0; i < dim; i++)
        mm += M[i] * M[i];
    // Vertices q = b_i − a_j: |t·m − q|² = R².
    for (const B of [B0, B1]) {
        for (const A of [A0, A1]) {
            let mq = 0;
            let qq = 0;
            for (let i = 0; i < dim; i++) {
                const q = B[i] - A[i];
                mq += M[i] * q;
                qq += q * q;
            }
            best = Math.min(best, firstRoot(mm, -mq, qq - R * R));
        }
    }
    // Edges: a vertex q and a direction e ∈ {v, −u}; point t·m against the line q + s·e, 0 ≤ s ≤ 1.
    // The edges: a0 and a1 against segment B (q = b0 − a_j, e = v); b0 and b1 against segment A
    // (q = b_i − a0, e = −u).
    for (let k = 0; k < 4; k++) {
        const Bq = k === 3 ? B1 : B0;
        const Aq = k === 1 ? A1 : A0;
        let ee = 0;
        let me = 0;
        let pe = 0;
        let pm = 0;
        let pp = 0;
        for (let i = 0; i < dim; i++) {
            const e = k < 2 ? B1[i] - B0[i] : A0[i] - A1[i];
            const p = Aq[i] - Bq[i]; // t·m − q = p + t·m
            ee += e * e;
            me += M[i] * e;
            pe += p * e;
            pm += p * M[i];
            pp += p * p;
        }
        if (!(ee > 0))
            continue;
        const A = ee * mm - me * me;
        const Bc = ee * pm - pe * me;
        const C = ee * pp - pe * pe - R * R * ee;
        const t = firstRoot(A, Bc, C);
        if (t < best) {
            const s = (pe + t * me) / ee;
            if (s >= 0 && s <= 1)
                best = t;
        }
    }
    if (dim >= 3) {
        // The face: q0 = b0 − a0, edges v and −u. Y(t) = t·m − q0 = p + t·m; its residual after
        // projecting on span(v, −u) is r0 + t·r1, and |r|² = R² is the quadratic.
        let vv = 0;
        let uu = 0;
        let uv = 0;
        for (let i = 0; i < dim; i++) {
            const u = A1[i] - A0[i];
            const v = B1[i] - B0[i];
            vv += v * v;
            uu += u * u;
            uv -= u * v; // e1·e2 with e1 = v, e2 = −u
        }
        const G = vv * uu - uv * uv;
        if (G > 0) {
            let py1 = 0;
            let py2 = 0;
            let my1 = 0;
            let my2 = 0;
            for (let i = 0; i < dim; i++) {
                const p = A0[i] - B0[i];
                const v = B1[i] - B0[i];
                const nu = A0[i] - A1[i];
                py1 += p * v;
                py2 += p * nu;
                my1 += M[i] * v;
                my2 += M[i] * nu;
            }
            // coefficients α, β of the projections of p and m on (v, −u)
            const ap = (uu * py1 - uv * py2) / G;
            const bp = (vv * py2 - uv * py1) / G;
            const am = (uu * my1 - uv * my2) / G;
            const bm = (vv * my2 - uv * my1) / G;
            let rr0 = 0;
            let rr1 = 0;
            let r01 = 0;
            for (let i = 0; i < dim; i++) {
                const v = B1[i] - B0[i];
                const nu = A0[i] - A1[i];
                const r0 = A0[i] - B0[i] - ap * v - bp * nu;
                const r1 = M[i] - am * v - bm * nu;
                rr0 += r0 * r0;
                rr1 += r1 * r1;
                r01 += r0 * r1;
            }
            const t = firstRoot(rr1, r01, rr0 - R * R);
            if (t < best) {
                const a = ap + t * am;
                const b = bp + t * bm;
                if (a >= 0 && a <= 1 && b >= 0 && b <= 1)
                    best = t;
            }
        }
    }
    return best;
}
/** Exact predicate with the float filter in front. */
function touches(A0, A1, B0, B1, M, R, ex, t) {
    const f = touchFloat(A0, A1, B0, B1, M, t, R);
    if (f !== 0)
        return f > 0;
    return capsuleTouchesAt(ex(), t);
}
/**
 * The first contact time of a capsule sweep on validated input, or −1 for no contact in
 * [0, 1]. See the module comment. Allocates only on the exact path.
 */
export function capsuleSweepTime(A0, A1, ra, M, B0, B1, rb) {
    const dim = A0.length;
    grow(dim);
    const R = ra + rb;
    let exact;
    const ex = () => (exact ??= exactCapsule(A0, A1, ra, M, B0, B1, rb));
    const at = (t) => touches(A0, A1, B0, B1, M, R, ex, t);
    if (at(0))
        return 0;
    let hi = estimate(A0, A1, B0, B1, M, R);
    if (hi === Infinity || !at(hi)) {
        // Search upwards from the estimate a little, then decide exactly.
        let found = false;
        if (hi !== Infinity) {
            let t = hi;
            for (let step = 1; step <= 1 << 20 && t < 1; step *= 4) {
                t = Math.min(1, t + step * ulp(t));
                if (at(t)) {
                    hi = t;
                    found = true;
                    break;
                }
            }
        }
        if (!found) {
            const h = capsuleHitExact(ex());
            if (!h.hit)
                return -1;
            hi = -1;
            for (const t of [h.tMin, nextUp(h.tMin), nextDown(h.tMin)]) {
                if (t > 0 && t <= 1 && at(t)) {
                    hi = t;
                    break;
                }
            }
            if (hi < 0)
                return h.tMin; // a grazing touch at one instant strictly between two doubles
        }
    }
    // hi touches; find lo < hi that does not (lo = 0 always qualifies), close to hi.
    let lo = 0;
    for (let step = 1; step <= 1 << 20; step *= 8) {
        const t = hi - step * ulp(hi);
        if (!(t > 0))
            break;
        if (!at(t)) {
            lo = t;
            break;
        }
        hi = t;
    }
    // Bisection over the doubles in (lo, hi]: lo does not touch, hi does, and by convexity the
    // first contact lies between them.
    while (true) {
        const next = nextUp(lo);
        if (next >= hi)
            return hi;
        const mid = midDouble(lo, hi);
        if (at(mid))
            hi = mid;
        else
            lo = mid;
    }
}
/** A double strictly between lo and hi (0 ≤ lo < hi, not adjacent), halving the count of doubles between them. */
function midDouble(lo, hi) {
    bufF[0] = lo;
    const a = bufI[0];
    bufF[0] = hi;
    const b = bufI[0];
    bufI[0] = (a + b) / 2n;
    return bufF[0];
}
const bufF = new Float64Array(1);
const bufI = new BigInt64Array(bufF.buffer);
function ulp(x) {
    return nextUp(x) - x;
}
/**
 * The first time t ∈ [0, 1] at which capsule A (segment a0a1, radius ra) translated by t·move
 * touches the resting capsule B (segment b0b1, radius rb), in any dimension ≥ 2 (1 works too).
 * A sphere is a capsule of zero length (a0 = a1). Whether they touch at all is decided exactly,
 * and `time` is the first double at which the exact capsules touch (see {@link CapsuleHit}),
 * so it is within one ulp of the exact first-contact time.
 *
 * Edge cases: capsules touching or overlapping at the start give `time: 0`; touching at
 * exactly ra + rb is a hit; `move` of zero hits only if they touch at the start; radii 0 make
 * segments (then the hit is an exact segment crossing, `normal` zeros at the crossing).
 * Not re-entrant (module-level scratch). Allocates its result; the exact path allocates BigInts.
 * @throws SkewlineInputError on missing or non-finite points, different dimensions, or a radius
 * that is negative or not finite.
 */
export function capsuleSweep(a0, a1, ra, move, b0, b1, rb) {
    const v = [toVector(a0, 'capsuleSweep: a0'), toVector(a1, 'capsuleSweep: a1'), toVector(move, 'capsuleSweep: move'), toVector(b0, 'capsuleSweep: b0'), toVector(b1, 'capsuleSweep: b1')];
    for (let k = 1; k < 5; k++) {
        if (v[k].length !== v[0].length)
            throw new SkewlineInputError(`capsuleSweep: points of different dimensions (${v[0].length} and ${v[k].length})`);
    }
    checkRadius(ra, 'capsuleSweep: ra');
    checkRadius(rb, 'capsuleSweep: rb');
    const [A0, A1, M, B0, B1] = v;
    const dim = A0.length;
    const time = capsuleSweepTime(A0, A1, ra, M, B0, B1, rb);
    if (time < 0)
        return { hit: false, time: 1, point: new Array(dim).fill(0), normal: new Array(dim).fill(0) };
    // The nearest points at `time`, in difference form relative to b0.
    grow(dim);
    for (let i = 0; i < dim; i++) {
        const tm = time * M[i];
        data[i] = A0[i] - B0[i] + tm;
        data[dim + i] = A1[i] - B0[i] + tm;
        data[2 * dim + i] = 0;
        data[3 * dim + i] = B1[i] - B0[i];
    }
    closestInto(SEGMENT, SEGMENT, dim, data, 0, out);
    const s = out[OUT_S];
    const sp = out[OUT_T];
    const d = out[OUT_DIST];
    const R = ra + rb;
    const f = R > 0 ? ra / R : 0;
    const point = [];
    const normal = [];
    for (let i = 0; i < dim; i++) {
        const c = A0[i] + time * M[i] + s * (A1[i] - A0[i]);
        const dd = B0[i] + sp * (B1[i] - B0[i]);
        point.push(c + f * (dd - c));
        normal.push(d > 0 ? (dd - c) / d : 0);
    }
    return { hit: true, time, point, normal };
}
