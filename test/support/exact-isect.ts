/**
 * An exact intersection oracle, independent of src/: every double is converted to an exact
 * rational (BigInt numerator over a power of two), and the question "do A(s) = p + s·u and
 * B(t) = q + t·v share a point with s, t in their domains?" is answered by solving
 * s·u − t·v = q − p in rational arithmetic (normal equations + an exact residual check, or,
 * for parallel directions, an interval intersection). No orientation predicates are used, so
 * this shares no logic with the code under test.
 *
 * Also here: a seeded PRNG, nextUp/nextDown, and a check that a double is the nearest one to
 * an exact rational.
 */
import { mulberry32 } from './rng.js';

// ---------------------------------------------------------------------------------------------
// Rationals

/** num/den with den > 0. */
export interface Q {
  n: bigint;
  d: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
export function q(n: bigint, d: bigint = 1n): Q {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = gcd(n, d);
  return g > 1n ? { n: n / g, d: d / g } : { n, d };
}
export const ZERO: Q = { n: 0n, d: 1n };
export const ONE: Q = { n: 1n, d: 1n };
export const add = (a: Q, b: Q): Q => q(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a: Q, b: Q): Q => q(a.n * b.d - b.n * a.d, a.d * b.d);
export const mul = (a: Q, b: Q): Q => q(a.n * b.n, a.d * b.d);
export const div = (a: Q, b: Q): Q => q(a.n * b.d, a.d * b.n);
export const cmp = (a: Q, b: Q): number => {
  const x = a.n * b.d - b.n * a.d;
  return x > 0n ? 1 : x < 0n ? -1 : 0;
};
export const isZero = (a: Q): boolean => a.n === 0n;

/**
 * The exact value of a finite double. Written without bit tricks: doubling is exact, so
 * x·2^k becomes an integer for some k ≤ 1074 while staying below 2^53.
 */
export function fromDouble(x: number): Q {
  if (!Number.isFinite(x)) throw new Error(`fromDouble: ${x}`);
  let k = 0;
  let y = x;
  while (!Number.isInteger(y)) {
    y *= 2;
    k++;
  }
  return q(BigInt(y), 1n << BigInt(k));
}

export type QVec = Q[];
const vsub = (a: QVec, b: QVec): QVec => a.map((x, i) => sub(x, b[i]));
const vdot = (a: QVec, b: QVec): Q => a.reduce((s, x, i) => add(s, mul(x, b[i])), ZERO);
const vzero = (a: QVec): boolean => a.every(isZero);
const vaxpy = (p: QVec, s: Q, u: QVec): QVec => p.map((x, i) => add(x, mul(s, u[i])));

// ---------------------------------------------------------------------------------------------
// Intervals of parameters: [lo, hi], null = unbounded

export interface Interval {
  lo: Q | null;
  hi: Q | null;
}

function intersect(a: Interval, b: Interval): Interval | null {
  const lo = a.lo === null ? b.lo : b.lo === null ? a.lo : cmp(a.lo, b.lo) >= 0 ? a.lo : b.lo;
  const hi = a.hi === null ? b.hi : b.hi === null ? a.hi : cmp(a.hi, b.hi) <= 0 ? a.hi : b.hi;
  if (lo !== null && hi !== null && cmp(lo, hi) > 0) return null;
  return { lo, hi };
}
const contains = (I: Interval, x: Q): boolean =>
  (I.lo === null || cmp(I.lo, x) <= 0) && (I.hi === null || cmp(x, I.hi) <= 0);
/** { s0 + λ·t : t ∈ I }, λ ≠ 0. */
function affineImage(I: Interval, s0: Q, lam: Q): Interval {
  const f = (x: Q | null): Q | null => (x === null ? null : add(s0, mul(lam, x)));
  return lam.n > 0n ? { lo: f(I.lo), hi: f(I.hi) } : { lo: f(I.hi), hi: f(I.lo) };
}

// ---------------------------------------------------------------------------------------------
// Primitives

export type OKind = 'point' | 'segment' | 'ray' | 'line';
/** A primitive as plain numbers: for segment/line a second point, for a ray a direction. */
export interface OPrim {
  kind: OKind;
  p: number[];
  /** Second point (segment, line) or direction (ray); ignored for a point. */
  r: number[];
}

interface QPrim {
  p: QVec;
  u: QVec;
  dom: Interval;
}

function toQ(x: OPrim): QPrim {
  const p = x.p.map(fromDouble);
  if (x.kind === 'point') return { p, u: p.map(() => ZERO), dom: { lo: ZERO, hi: ZERO } };
  const r = x.r.map(fromDouble);
  const u = x.kind === 'ray' ? r : vsub(r, p);
  if (vzero(u)) return { p, u, dom: { lo: ZERO, hi: ZERO } }; // zero-length segment
  const dom: Interval =
    x.kind === 'segment' ? { lo: ZERO, hi: ONE } : x.kind === 'ray' ? { lo: ZERO, hi: null } : { lo: null, hi: null };
  return { p, u, dom };
}

/**
 * The exact common set of A and B in parameters: none, a single (s, t), or (parallel,
 * collinear) an s-interval on A with the affine map t = (s − s0)/λ.
 */
export type ExactIsect =
  | { kind: 'none' }
  | { kind: 'point'; s: Q; t: Q; X: QVec }
  | { kind: 'overlap'; s: Interval; tOf: (s: Q) => Q; lam: Q; X: (s: Q) => QVec };

/** Exact intersection of two primitives of the same dimension. */
export function exactIsect(A: OPrim, B: OPrim): ExactIsect {
  const a = toQ(A);
  const b = toQ(B);
  const w = vsub(b.p, a.p); // s·u − t·v = w
  const au = !vzero(a.u); // points and zero-length segments have u = 0
  const bv = !vzero(b.u);
  if (!au && !bv) return vzero(w) ? { kind: 'point', s: ZERO, t: ZERO, X: a.p } : { kind: 'none' };
  if (!au) {
    // p = q + t·v  ⇒  t = −(w·v)/(v·v), then check the residual.
    const tt = div(sub(ZERO, vdot(w, b.u)), vdot(b.u, b.u));
    if (!vzero(vsub(vaxpy(b.p, tt, b.u), a.p)) || !contains(b.dom, tt)) return { kind: 'none' };
    return { kind: 'point', s: ZERO, t: tt, X: a.p };
  }
  if (!bv) {
    const s = div(vdot(w, a.u), vdot(a.u, a.u));
    if (!vzero(vsub(vaxpy(a.p, s, a.u), b.p)) || !contains(a.dom, s)) return { kind: 'none' };
    return { kind: 'point', s, t: ZERO, X: b.p };
  }
  const uu = vdot(a.u, a.u), vv = vdot(b.u, b.u), uv = vdot(a.u, b.u);
  const uw = vdot(a.u, w), vw = vdot(b.u, w);
  const D = sub(mul(uu, vv), mul(uv, uv));
  if (!isZero(D)) {
    const s = div(sub(mul(uw, vv), mul(uv, vw)), D);
    const t = div(sub(mul(uv, uw), mul(uu, vw)), D);
    const X = vaxpy(a.p, s, a.u);
    if (!vzero(vsub(X, vaxpy(b.p, t, b.u)))) return { kind: 'none' }; // skew
    if (!contains(a.dom, s) || !contains(b.dom, t)) return { kind: 'none' };
    return { kind: 'point', s, t, X };
  }
  // Parallel: v = λ·u. Same line iff w ∥ u.
  const lam = div(uv, uu);
  const s0 = div(uw, uu);
  if (!vzero(vsub(w, a.u.map((x) => mul(s0, x))))) return { kind: 'none' };
  // s·u = w + t·v = (s0 + λ t)·u
  const I = intersect(a.dom, affineImage(b.dom, s0, lam));
  if (I === null) return { kind: 'none' };
  const tOf = (s: Q): Q => div(sub(s, s0), lam);
  const Xf = (s: Q): QVec => vaxpy(a.p, s, a.u);
  if (I.lo !== null && I.hi !== null && cmp(I.lo, I.hi) === 0) return { kind: 'point', s: I.lo, t: tOf(I.lo), X: Xf(I.lo) };
  return { kind: 'overlap', s: I, tOf, lam, X: Xf };
}

/** True iff the two primitives share a point (exact). */
export function exactShares(A: OPrim, B: OPrim): boolean {
  return exactIsect(A, B).kind !== 'none';
}

// ---------------------------------------------------------------------------------------------
// Doubles

const F = new Float64Array(1);
const I64 = new BigInt64Array(F.buffer);

/** The next double above x (x finite). */
export function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  F[0] = x;
  I64[0] += x > 0 ? 1n : -1n;
  return F[0];
}
/** The next double below x (x finite). */
export function nextDown(x: number): number {
  return -nextUp(-x);
}

/** Is the double r a nearest double to the exact x (ties either way)? */
export function isNearest(r: number, x: Q): boolean {
  const e = (y: number): Q => {
    const d = sub(fromDouble(y), x);
    return d.n < 0n ? q(-d.n, d.d) : d;
  };
  const er = e(r);
  return cmp(er, e(nextUp(r))) <= 0 && cmp(er, e(nextDown(r))) <= 0;
}

/** Seeded PRNG (mulberry32): deterministic, so a failing seed replays. */
export const rng = mulberry32;

// ---------------------------------------------------------------------------------------------
// Seeded families of near-degenerate pairs

/** A test pair and how it was made. */
export interface Pair {
  a: OPrim;
  b: OPrim;
  label: string;
}

type R = () => number;
const int = (r: R, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const seg = (p: number[], r: number[]): OPrim => ({ kind: 'segment', p, r });

/** The 2D family names. */
export const FAMILIES_2D = [
  'grid', 'gridCollinear', 'dyadicCross', 'tJunction', 'tJunctionUlp', 'nearlyParallel', 'far', 'zeroLength',
] as const;
export type Family2D = (typeof FAMILIES_2D)[number];

function dyadic(r: R, maxInt: number, maxShift: number): number {
  return int(r, -maxInt, maxInt) / 2 ** int(r, 0, maxShift);
}

/** One 2D segment pair [a0, a1, b0, b1] of the given family. */
function make2(fam: Family2D, r: R): number[][] {
  switch (fam) {
    case 'grid': {
      const g = (): number[] => [int(r, 0, 4), int(r, 0, 4)];
      return [g(), g(), g(), g()];
    }
    case 'gridCollinear': {
      const P = [int(r, -3, 3), int(r, -3, 3)];
      let d = [int(r, -2, 2), int(r, -2, 2)];
      if (d[0] === 0 && d[1] === 0) d = [1, 0];
      const at = (k: number): number[] => [P[0] + k * d[0], P[1] + k * d[1]];
      return [at(int(r, -3, 3)), at(int(r, -3, 3)), at(int(r, -3, 3)), at(int(r, -3, 3))];
    }
    case 'dyadicCross': {
      const X = [dyadic(r, 1000, 10), dyadic(r, 1000, 10)];
      const line = (): number[][] => {
        const u = [dyadic(r, 50, 6), dyadic(r, 50, 6)];
        const al = pick(r, [0, 0.25, 0.5, 1, 3, -0.5]);
        const be = pick(r, [0, 0.125, 1, 2, -0.25]);
        return [[X[0] - al * u[0], X[1] - al * u[1]], [X[0] + be * u[0], X[1] + be * u[1]]];
      };
      const [a0, a1] = line();
      const [b0, b1] = line();
      return [a0, a1, b0, b1];
    }
    case 'tJunction':
    case 'tJunctionUlp': {
      const a0 = [int(r, -1000, 1000), int(r, -1000, 1000)];
      const a1 = [int(r, -1000, 1000), int(r, -1000, 1000)];
      const m = int(r, 0, 8);
      const f = int(r, 0, 2 ** m) / 2 ** m;
      const b0 = [a0[0] + f * (a1[0] - a0[0]), a0[1] + f * (a1[1] - a0[1])];
      if (fam === 'tJunctionUlp') {
        const c = int(r, 0, 1);
        b0[c] = r() < 0.5 ? nextUp(b0[c]) : nextDown(b0[c]);
      }
      const b1 = [int(r, -1000, 1000), int(r, -1000, 1000)];
      return r() < 0.5 ? [a0, a1, b0, b1] : [b1, b0, a1, a0];
    }
    case 'nearlyParallel': {
      const th = r() * 2 * Math.PI;
      const de = (r() < 0.5 ? -1 : 1) * 10 ** -int(r, 1, 15);
      const L = 10 ** int(r, -3, 6);
      const c = [r() * 2 - 1, r() * 2 - 1];
      const a0 = [c[0] - L * Math.cos(th), c[1] - L * Math.sin(th)];
      const a1 = [c[0] + L * Math.cos(th), c[1] + L * Math.sin(th)];
      // b crosses a near a point of a (rounded), with a tiny or zero perpendicular gap.
      const tau = r();
      const x = [a0[0] + tau * (a1[0] - a0[0]), a0[1] + tau * (a1[1] - a0[1])];
      const gap = r() < 0.4 ? 0 : (r() - 0.5) * L * 10 ** -int(r, 8, 17);
      x[0] += -Math.sin(th) * gap;
      x[1] += Math.cos(th) * gap;
      const M = L * (0.1 + r());
      const f = r();
      const b0 = [x[0] - f * M * Math.cos(th + de), x[1] - f * M * Math.sin(th + de)];
      const b1 = [x[0] + (1 - f) * M * Math.cos(th + de), x[1] + (1 - f) * M * Math.sin(th + de)];
      return [a0, a1, b0, b1];
    }
    case 'far': {
      const base = make2(pick(r, ['grid', 'gridCollinear', 'dyadicCross', 'tJunction', 'tJunctionUlp'] as const), r);
      const off = [pick(r, [1e9, -1e9, 2 ** 30]), pick(r, [1e9, 3e9, -1e9])];
      return base.map((p) => [p[0] + off[0], p[1] + off[1]]);
    }
    case 'zeroLength': {
      const [a0, a1, b0] = make2(pick(r, ['grid', 'tJunction', 'gridCollinear'] as const), r);
      const k = int(r, 0, 2);
      if (k === 0) return [b0, b0, a0, a1]; // a zero-length segment, often exactly on the other
      if (k === 1) return [a0, a1, b0, b0];
      return [a0, a0, r() < 0.5 ? a0 : b0, r() < 0.5 ? a0 : b0];
    }
  }
}

/** `count` seeded 2D segment pairs of family `fam`. */
export function family2D(fam: Family2D, seed: number, count: number): Pair[] {
  const r = rng(seed);
  const out: Pair[] = [];
  for (let i = 0; i < count; i++) {
    const [a0, a1, b0, b1] = make2(fam, r);
    out.push({ a: seg(a0, a1), b: seg(b0, b1), label: `${fam}#${i}` });
  }
  return out;
}

/** Families in 3D: each 2D family embedded in a plane, plus genuinely 3D ones. */
export const FAMILIES_3D = [...FAMILIES_2D, 'grid3', 'collinear3'] as const;
export type Family3D = (typeof FAMILIES_3D)[number];

/**
 * `count` seeded 3D segment pairs. 2D families are embedded by (x, y) ↦ (x, y, c0 + c1·x + c2·y)
 * with small integers c (exact for the integer and dyadic families; for the others c1 = c2 = 0)
 * and a random permutation of the axes, so every projection axis gets exercised.
 */
export function family3D(fam: Family3D, seed: number, count: number): Pair[] {
  const r = rng(seed);
  const out: Pair[] = [];
  for (let i = 0; i < count; i++) {
    let pts: number[][];
    if (fam === 'grid3') {
      const g = (): number[] => [int(r, 0, 3), int(r, 0, 3), int(r, 0, 3)];
      pts = [g(), g(), g(), g()];
    } else if (fam === 'collinear3') {
      const P = [int(r, -3, 3), int(r, -3, 3), int(r, -3, 3)];
      let d = [int(r, -2, 2), int(r, -2, 2), int(r, -2, 2)];
      if (d.every((x) => x === 0)) d = [0, 0, 1];
      const at = (k: number): number[] => P.map((x, j) => x + k * d[j]);
      pts = [at(int(r, -3, 3)), at(int(r, -3, 3)), at(int(r, -3, 3)), at(int(r, -3, 3))];
    } else {
      const p2 = make2(fam, r);
      const exact = fam !== 'nearlyParallel';
      const c0 = int(r, -5, 5), c1 = exact ? int(r, -2, 2) : 0, c2 = exact ? int(r, -2, 2) : 0;
      const perm = pick(r, [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]);
      pts = p2.map((p) => {
        const v = [p[0], p[1], c0 + c1 * p[0] + c2 * p[1]];
        return [v[perm[0]], v[perm[1]], v[perm[2]]];
      });
    }
    out.push({ a: seg(pts[0], pts[1]), b: seg(pts[2], pts[3]), label: `${fam}#${i}` });
  }
  return out;
}

/** Mixed kinds (points, segments, rays, lines) on small integer grids, in dimension `dim`. */
export function familyMixed(seed: number, count: number, dim: 2 | 3): Pair[] {
  const r = rng(seed);
  const g = (): number[] => Array.from({ length: dim }, () => int(r, -2, 2));
  const prim = (): OPrim => {
    const kind = pick(r, ['point', 'segment', 'ray', 'line'] as const);
    const p = g();
    let q2 = g();
    if ((kind === 'ray' || kind === 'line') && (kind === 'ray' ? q2.every((x) => x === 0) : q2.every((x, i) => x === p[i]))) {
      q2 = p.map((x, i) => (i === 0 ? x + 1 : x));
      if (kind === 'ray') q2 = p.map((_, i) => (i === 0 ? 1 : 0));
    }
    return { kind, p, r: kind === 'point' ? p : q2 };
  };
  const out: Pair[] = [];
  for (let i = 0; i < count; i++) out.push({ a: prim(), b: prim(), label: `mixed${dim}#${i}` });
  return out;
}
