/**
 * The exact oracle for moving spheres, independent of src/motion: the squared gap
 * f(t) = |(p0 − q0) + t·((p1 − p0) − (q1 − q0))|² − (r1 + r2)² with rational coefficients
 * from the input doubles (test/support/oracle.ts's exact rationals), its minimum over [0, 1]
 * (hit or miss, exactly), its sign at any double, and the first contact time located between
 * two consecutive doubles by bisection.
 */
import { type Rat, ratAdd, ratCmp, ratDiv, ratFromDouble, ratMul, ratSub, ratToNumber, rat } from './oracle.js';

/** f's coefficients: f(t) = A t² + 2B t + C. */
export interface Quad {
  A: Rat;
  B: Rat;
  C: Rat;
}

export function quad(p0: number[], p1: number[], r1: number, q0: number[], q1: number[], r2: number): Quad {
  let A = rat(0n);
  let B = rat(0n);
  let C = rat(0n);
  for (let i = 0; i < p0.length; i++) {
    const w = ratSub(ratFromDouble(p0[i]), ratFromDouble(q0[i]));
    const dv = ratSub(ratSub(ratFromDouble(p1[i]), ratFromDouble(p0[i])), ratSub(ratFromDouble(q1[i]), ratFromDouble(q0[i])));
    A = ratAdd(A, ratMul(dv, dv));
    B = ratAdd(B, ratMul(w, dv));
    C = ratAdd(C, ratMul(w, w));
  }
  const R = ratAdd(ratFromDouble(r1), ratFromDouble(r2));
  return { A, B, C: ratSub(C, ratMul(R, R)) };
}

/** f(t) exactly at a rational t. */
export function evalQuad(q: Quad, t: Rat): Rat {
  return ratAdd(ratAdd(ratMul(q.A, ratMul(t, t)), ratMul(rat(2n), ratMul(q.B, t))), q.C);
}

const ZERO = rat(0n);
const ONE = rat(1n);

/** Does f reach ≤ 0 on [0, 1]? (Minimum of a convex quadratic at −B/A clamped.) */
export function oracleHit(q: Quad): boolean {
  if (ratCmp(q.C, ZERO) <= 0) return true;
  let tm: Rat;
  if (q.A.num === 0n) return false;
  tm = rat(-q.B.num * q.A.den, q.B.den * q.A.num);
  if (ratCmp(tm, ZERO) < 0) tm = ZERO;
  if (ratCmp(tm, ONE) > 0) tm = ONE;
  return ratCmp(evalQuad(q, tm), ZERO) <= 0;
}

const buf = new Float64Array(1);
const bits = new BigInt64Array(buf.buffer);
function step(x: number, k: number): number {
  buf[0] = x;
  bits[0] += BigInt(k);
  return buf[0];
}

/** The first double τ ∈ [0, 1] with f(τ) ≤ 0, for a hit (bisection over the doubles in [0, t_min]). */
export function oracleFirstDouble(q: Quad): number {
  if (ratCmp(q.C, ZERO) <= 0) return 0;
  // f decreases on [0, t_min]; the first double with f ≤ 0 lies there (or the contact is
  // between two doubles: then the double nearest the minimum).
  let tmax = 1;
  if (q.A.num !== 0n) {
    const tm = ratToNumber(rat(-q.B.num * q.A.den, q.B.den * q.A.num));
    if (tm < 1) tmax = Math.min(1, step(tm, 1));
  }
  const f = (t: number) => ratCmp(evalQuad(q, ratFromDouble(t)), ZERO);
  if (f(tmax) > 0) {
    for (let k = -2; k <= 2; k++) {
      const c = step(tmax, k);
      if (c >= 0 && c <= 1 && f(c) <= 0) return c; // (a step below 0 from a tiny tmax is no double in [0, 1])
    }
    return tmax; // contact strictly between doubles
  }
  let lo = 0;
  let hi = tmax;
  if (!(tmax > 0)) return tmax;
  buf[0] = lo;
  let a = bits[0];
  buf[0] = hi;
  let b = bits[0];
  while (b - a > 1n) {
    const m = (a + b) >> 1n;
    bits[0] = m;
    if (f(buf[0]) > 0) a = m;
    else b = m;
  }
  bits[0] = b;
  hi = buf[0];
  lo = hi;
  return lo;
}

/** How many doubles lie between x and y (ulps apart), both ≥ 0. */
export function ulpsApart(x: number, y: number): number {
  buf[0] = x;
  const a = bits[0];
  buf[0] = y;
  const b = bits[0];
  return Number(a > b ? a - b : b - a);
}

// ---------------------------------------------------------------------------------------------
// Capsules: A = segment a0a1 (radius ra) translated by t·move, B = segment b0b1 (radius rb).
// They touch at t iff min over s, s' ∈ [0, 1] of |a0 + s(a1 − a0) + t·move − b0 − s'(b1 − b0)|²
// ≤ (ra + rb)². The oracle minimises the convex quadratic over the box by brute force: for every
// face of the box (each variable at 0, at 1, or free) it solves the face's normal equations by
// Gaussian elimination over the rationals and keeps the best feasible point.

export interface CapsuleCase {
  a0: number[];
  a1: number[];
  ra: number;
  move: number[];
  b0: number[];
  b1: number[];
  rb: number;
}

const R0 = rat(0n);
const R1 = rat(1n);

function dotR(a: Rat[], b: Rat[]): Rat {
  let s = R0;
  for (let i = 0; i < a.length; i++) s = ratAdd(s, ratMul(a[i], b[i]));
  return s;
}

/** Solves the square system M x = y over the rationals; null when singular. */
function solveR(M: Rat[][], y: Rat[]): Rat[] | null {
  const n = y.length;
  const A = M.map((row, i) => [...row, y[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    while (p < n && A[p][c].num === 0n) p++;
    if (p === n) return null;
    [A[c], A[p]] = [A[p], A[c]];
    for (let r = 0; r < n; r++) {
      if (r === c || A[r][c].num === 0n) continue;
      const f = ratDiv(A[r][c], A[c][c]);
      for (let k = c; k <= n; k++) A[r][k] = ratSub(A[r][k], ratMul(f, A[c][k]));
    }
  }
  return A.map((row, i) => ratDiv(row[n], row[i]));
}

/** min over x ∈ [0,1]^k of |c + Σ xᵢ gᵢ|², with a minimiser. */
export function boxMinR(c: Rat[], gs: Rat[][]): { value: Rat; x: Rat[] } {
  const k = gs.length;
  let best: { value: Rat; x: Rat[] } | null = null;
  const assign = (i: number, fixed: (Rat | null)[]): void => {
    if (i < k) {
      for (const v of [R0, R1, null]) assign(i + 1, [...fixed, v]);
      return;
    }
    const free = fixed.flatMap((v, j) => (v === null ? [j] : []));
    const base: Rat[] = c.map((ci, d) => fixed.reduce<Rat>((s, v, j) => (v === null ? s : ratAdd(s, ratMul(v, gs[j][d]))), ci));
    const x = fixed.map((v) => v ?? R0);
    if (free.length > 0) {
      const M = free.map((a) => free.map((b) => dotR(gs[a], gs[b])));
      const y = free.map((a) => ratSub(R0, dotR(gs[a], base)));
      const sol = solveR(M, y);
      if (sol === null) return;
      for (const s of sol) if (ratCmp(s, R0) < 0 || ratCmp(s, R1) > 0) return;
      free.forEach((j, f) => (x[j] = sol[f]));
    }
    const r = c.map((ci, d) => x.reduce((s, xj, j) => ratAdd(s, ratMul(xj, gs[j][d])), ci));
    const value = dotR(r, r);
    if (best === null || ratCmp(value, best.value) < 0) best = { value, x };
  };
  assign(0, []);
  return best!;
}

function capsuleParts(c: CapsuleCase) {
  const F = (v: number[]) => v.map(ratFromDouble);
  const a0 = F(c.a0), a1 = F(c.a1), b0 = F(c.b0), b1 = F(c.b1), m = F(c.move);
  const w = a0.map((x, i) => ratSub(x, b0[i]));
  const u = a1.map((x, i) => ratSub(x, a0[i]));
  const nv = b0.map((x, i) => ratSub(x, b1[i]));
  const R = ratAdd(ratFromDouble(c.ra), ratFromDouble(c.rb));
  return { w, u, nv, m, R2: ratMul(R, R) };
}

/** Do the capsules touch at the rational time t? */
export function capsuleTouchR(c: CapsuleCase, t: Rat): boolean {
  const { w, u, nv, m, R2 } = capsuleParts(c);
  const base = w.map((x, i) => ratAdd(x, ratMul(t, m[i])));
  return ratCmp(boxMinR(base, [u, nv]).value, R2) <= 0;
}

/** The exact decision and the first double τ ∈ [0, 1] at which the capsules touch (the double nearest a grazing instant). */
export function capsuleOracle(c: CapsuleCase): { hit: boolean; first: number } {
  const { w, u, nv, m, R2 } = capsuleParts(c);
  const all = boxMinR(w, [m, u, nv]);
  if (ratCmp(all.value, R2) > 0) return { hit: false, first: 1 };
  const f = (t: number) => capsuleTouchR(c, ratFromDouble(t));
  if (f(0)) return { hit: true, first: 0 };
  const tm = ratToNumber(all.x[0]);
  let hi = -1;
  for (const t of [tm, step(tm, 1), step(tm, -1)]) if (t > 0 && t <= 1 && f(t)) { hi = t; break; }
  if (hi < 0) return { hit: true, first: tm };
  buf[0] = 0;
  let a = bits[0];
  buf[0] = hi;
  let b = bits[0];
  while (b - a > 1n) {
    const mid = (a + b) >> 1n;
    bits[0] = mid;
    if (f(buf[0])) b = mid;
    else a = mid;
  }
  bits[0] = b;
  return { hit: true, first: buf[0] };
}
