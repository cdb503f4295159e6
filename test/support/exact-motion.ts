/**
 * The exact oracle for moving spheres, independent of src/motion: the squared gap
 * f(t) = |(p0 − q0) + t·((p1 − p0) − (q1 − q0))|² − (r1 + r2)² with rational coefficients
 * from the input doubles (test/support/oracle.ts's exact rationals), its minimum over [0, 1]
 * (hit or miss, exactly), its sign at any double, and the first contact time located between
 * two consecutive doubles by bisection.
 */
import { type Rat, ratAdd, ratCmp, ratFromDouble, ratMul, ratSub, ratToNumber, rat } from './oracle.js';

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
    for (let k = -2; k <= 2; k++) if (f(step(tmax, k)) <= 0) return step(tmax, k);
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
