/**
 * Exact arithmetic for moving spheres: the squared gap of two points moving linearly over a
 * step, f(t) = |w + t·dv|² − R² = A·t² + 2B·t + C, with w = p0 − q0, dv = (p1 − p0) − (q1 − q0)
 * and R = r1 + r2, formed from the input doubles without rounding (every double is m·2^e, so
 * one power-of-two scale turns all of them into integers).
 */
import { ratToNumber, toScaledBigInts } from '../core/exact.js';
/** A, B, C of f(t) exactly, from p0, p1, q0, q1 (dim numbers each) and the radii. */
export function exactGap(p0, p1, q0, q1, r1, r2) {
    const dim = p0.length;
    const xs = [];
    for (const v of [p0, p1, q0, q1])
        for (let i = 0; i < dim; i++)
            xs.push(v[i]);
    xs.push(r1, r2);
    const { ints, exp } = toScaledBigInts(xs);
    let A = 0n;
    let B = 0n;
    let C = 0n;
    for (let i = 0; i < dim; i++) {
        const w = ints[i] - ints[2 * dim + i];
        const dv = ints[dim + i] - ints[i] - (ints[3 * dim + i] - ints[2 * dim + i]);
        A += dv * dv;
        B += w * dv;
        C += w * w;
    }
    const R = ints[4 * dim] + ints[4 * dim + 1];
    return { A, B, C: C - R * R, exp };
}
/** A double t ∈ [0, 1] as an exact fraction num / 2^k (k ≥ 0). */
function dyadic(t) {
    if (t === 0)
        return { num: 0n, k: 0n };
    let k = 0;
    let x = t;
    while (!Number.isInteger(x)) {
        x *= 2;
        k++;
    }
    return { num: BigInt(x), k: BigInt(k) };
}
/** The exact sign of f(t) = A t² + 2B t + C at a double t ∈ [0, 1]. */
export function gapSign(g, t) {
    const { num, k } = dyadic(t);
    const one = 1n << k;
    const v = g.A * num * num + 2n * g.B * num * one + g.C * one * one;
    return v > 0n ? 1 : v < 0n ? -1 : 0;
}
const sgn = (x) => (x > 0n ? 1 : x < 0n ? -1 : 0);
/**
 * The exact decision: does f reach ≤ 0 somewhere on [0, 1]? Returns -1 for never, 0 when it
 * already holds at t = 0, and 1 when the first contact is inside (0, 1].
 */
export function exactHit(g) {
    if (g.C <= 0n)
        return 0;
    if (g.A === 0n || g.B >= 0n)
        return -1; // f constant, or growing from t = 0 on
    if (g.A + g.B <= 0n)
        return g.A + 2n * g.B + g.C <= 0n ? 1 : -1; // minimum at t ≥ 1: look at f(1)
    return sgn(g.B * g.B - g.A * g.C) >= 0 ? 1 : -1; // minimum inside: the discriminant
}
/**
 * The first double t in (lo, hi] with f(t) ≤ 0, given f(lo) > 0 and f(hi) ≤ 0 and f decreasing
 * on [lo, hi]: bisection over the doubles, each step an exact sign test. The exact root lies in
 * (prev(t), t], so t is within one ulp of it.
 */
export function firstContact(g, lo, hi) {
    const view = new DataView(new ArrayBuffer(16));
    const bits = (x) => {
        view.setFloat64(0, x);
        return view.getBigUint64(0);
    };
    const fromBits = (b) => {
        view.setBigUint64(8, b);
        return view.getFloat64(8);
    };
    // For non-negative doubles the bit patterns are ordered like the values.
    let a = bits(lo);
    let b = bits(hi);
    while (b - a > 1n) {
        const m = (a + b) >> 1n;
        if (gapSign(g, fromBits(m)) > 0)
            a = m;
        else
            b = m;
    }
    return fromBits(b);
}
function det(m) {
    const n = m.length;
    if (n === 1)
        return m[0][0];
    if (n === 2)
        return m[0][0] * m[1][1] - m[0][1] * m[1][0];
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
        m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
        m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]));
}
/**
 * The exact minimum of the convex quadratic |c + Σ xᵢ·gᵢ|² over the unit box (k = gs.length ≤ 3
 * integer vectors), by enumerating the box's 3^k faces: on each face (every xᵢ fixed at 0 or 1,
 * or free) the minimiser over the face's affine hull solves the normal equations (Cramer's
 * rule); faces where they are singular are skipped, which is safe because a convex quadratic
 * that is flat along some direction of a face takes its minimum over that face on the face's
 * boundary as well. The smallest value among the feasible face minimisers is the box minimum.
 * With `bound` given it stops at the first face whose value is ≤ bound.num / bound.den.
 */
export function exactBoxMin(c, gs, bound) {
    const k = gs.length;
    const dim = c.length;
    const G = gs.map((a) => gs.map((b) => dotB(a, b)));
    const h = gs.map((a) => dotB(a, c));
    let best = null;
    let faces = 1;
    for (let i = 0; i < k; i++)
        faces *= 3;
    for (let code = 0; code < faces; code++) {
        const state = [];
        for (let i = 0, x = code; i < k; i++, x = Math.floor(x / 3))
            state.push(x % 3);
        const free = [];
        for (let i = 0; i < k; i++)
            if (state[i] === 2)
                free.push(i);
        let den = 1n;
        const xs = state.map((s) => (s === 1 ? 1n : 0n));
        if (free.length > 0) {
            // Normal equations on the free coordinates: G_FF·x_F = −(h_F + Σ_fixed G_Fj·x_j).
            const rhs = free.map((i) => {
                let r = -h[i];
                for (let j = 0; j < k; j++)
                    if (state[j] === 1)
                        r -= G[i][j];
                return r;
            });
            const M = free.map((i) => free.map((j) => G[i][j]));
            let D = det(M);
            if (D === 0n)
                continue;
            const nums = free.map((_, col) => det(M.map((row, r) => row.map((v, cc) => (cc === col ? rhs[r] : v)))));
            if (D < 0n) {
                D = -D;
                for (let i = 0; i < nums.length; i++)
                    nums[i] = -nums[i];
            }
            let feasible = true;
            for (const n of nums)
                if (n < 0n || n > D)
                    feasible = false;
            if (!feasible)
                continue;
            den = D;
            for (let i = 0; i < k; i++)
                xs[i] = state[i] === 1 ? D : 0n;
            free.forEach((i, f) => (xs[i] = nums[f]));
        }
        let num = 0n;
        for (let d = 0; d < dim; d++) {
            let r = den * c[d];
            for (let i = 0; i < k; i++)
                r += xs[i] * gs[i][d];
            num += r * r;
        }
        const cand = { num, den: den * den, xs, xden: den };
        if (best === null || cand.num * best.den < best.num * cand.den)
            best = cand;
        if (bound !== undefined && cand.num * bound.den <= bound.num * cand.den)
            return cand;
    }
    // The vertex faces (no free coordinate) always exist, so best is set.
    return best;
}
function dotB(a, b) {
    let s = 0n;
    for (let i = 0; i < a.length; i++)
        s += a[i] * b[i];
    return s;
}
/** The exact integer form of a capsule sweep (see {@link ExactCapsule}). */
export function exactCapsule(a0, a1, ra, move, b0, b1, rb) {
    const dim = a0.length;
    const xs = [];
    for (const v of [a0, a1, b0, b1, move])
        for (let i = 0; i < dim; i++)
            xs.push(v[i]);
    xs.push(ra, rb);
    const { ints } = toScaledBigInts(xs);
    const W = [];
    const M = [];
    const U = [];
    const V = [];
    for (let i = 0; i < dim; i++) {
        W.push(ints[i] - ints[2 * dim + i]);
        U.push(ints[dim + i] - ints[i]);
        V.push(ints[3 * dim + i] - ints[2 * dim + i]);
        M.push(ints[4 * dim + i]);
    }
    return { W, M, U, V, R: ints[5 * dim] + ints[5 * dim + 1] };
}
/** Do the capsules touch at some t ∈ [0, 1]? Exact; also returns a minimising time (rounded to a double). */
export function capsuleHitExact(e) {
    const m = exactBoxMin(e.W, [e.M, e.U, e.V.map((x) => -x)]);
    const hit = m.num <= e.R * e.R * m.den;
    return { hit, tMin: ratToNumber(m.xs[0], m.xden) };
}
/** Whether the capsules touch at the double t ∈ [0, 1]: exactly. */
export function capsuleTouchesAt(e, t) {
    const { num, k } = dyadic(t);
    const one = 1n << k;
    const c = e.W.map((w, i) => w * one + num * e.M[i]);
    const u = e.U.map((x) => x * one);
    const v = e.V.map((x) => -x * one);
    const R2 = e.R * e.R * one * one;
    const m = exactBoxMin(c, [u, v], { num: R2, den: 1n });
    return m.num <= R2 * m.den;
}
