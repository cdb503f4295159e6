/**
 * Seeded families of test cases for closest-point queries, each aimed at one known failure mode
 * of closest-point codes (the list of issue 2): nearly parallel segments (cancellation in the
 * Gram determinant |u|²|v|² − (u·v)²), far-from-origin and tiny inputs (absolute epsilons),
 * huge length ratios, exact crossings, collinear overlaps, T-junctions an ulp away, zero-length
 * segments, touching endpoints, and lines/rays/points mixed.
 *
 * Every family is `(seed, count, options?) => Case[]`; the same arguments always give the same
 * cases. By default a family cycles through dimensions 2, 3, 4 and, where it makes sense, turns
 * some segments into lines or rays; `{ dims: [3], segmentsOnly: true }` gives 3-D
 * segment–segment pairs for the peers (points become zero-length segments, rays and lines become
 * the segment from their first point to their second / origin + direction).
 */
import { line, point, ray, segment } from '../../src/core/primitives.js';
import type { Primitive } from '../../src/core/types.js';
import { applyMatrix, makeRng, nextDown, nextUp, type Rng } from './rng.js';

/** One test case: a pair of primitives and a short description of how it was made. */
export interface Case {
  a: Primitive;
  b: Primitive;
  label?: string;
}

/** Options shared by every family. */
export interface FamilyOptions {
  /** Dimensions to cycle through (default [2, 3, 4]). */
  dims?: readonly number[];
  /** Only segment–segment pairs (for the peers, which only handle segments). Default false. */
  segmentsOnly?: boolean;
}

/** A family: deterministic in (seed, count, options). */
export type Family = (seed: number, count: number, options?: FamilyOptions) => Case[];

type Vec = number[];
type Spec =
  | { kind: 'point'; p: Vec }
  | { kind: 'segment' | 'line'; p: Vec; q: Vec }
  | { kind: 'ray'; p: Vec; dir: Vec };

const DEFAULT_DIMS = [2, 3, 4] as const;

// ------------------------------------------------------------------------------------------
// Small vector helpers (doubles, rounded: the cases only need to be valid inputs).

const add = (a: Vec, b: Vec): Vec => a.map((x, i) => x + b[i]);
const sub = (a: Vec, b: Vec): Vec => a.map((x, i) => x - b[i]);
const scale = (a: Vec, k: number): Vec => a.map((x) => x * k);
const zeros = (dim: number): Vec => new Array<number>(dim).fill(0);
const basis = (dim: number, i: number): Vec => zeros(dim).map((_, j) => (j === i ? 1 : 0));
const randVec = (rng: Rng, dim: number, lo: number, hi: number): Vec =>
  Array.from({ length: dim }, () => rng.uniform(lo, hi));
const randInt = (rng: Rng, dim: number, lo: number, hi: number): Vec =>
  Array.from({ length: dim }, () => rng.int(lo, hi));

/** A random orthogonal map of R^dim as a row-major matrix. */
function randomFrame(rng: Rng, dim: number): number[] {
  if (dim === 2) {
    const th = rng.uniform(0, 2 * Math.PI);
    return [Math.cos(th), -Math.sin(th), Math.sin(th), Math.cos(th)];
  }
  if (dim === 3) return rng.randomRotation3();
  return rng.randomOrthogonal(dim);
}

/** Moves one coordinate of v by one ulp (up or down), returning a new vector. */
function ulpOff(rng: Rng, v: Vec): Vec {
  const out = v.slice();
  const i = rng.int(0, v.length - 1);
  out[i] = rng.chance(0.5) ? nextUp(out[i]) : nextDown(out[i]);
  return out;
}

/** Turns a spec into a validated primitive; in segments-only mode everything becomes a segment. */
function build(s: Spec, segmentsOnly: boolean): Primitive {
  if (segmentsOnly) {
    if (s.kind === 'point') return segment(s.p, s.p);
    if (s.kind === 'ray') return segment(s.p, add(s.p, s.dir));
    return segment(s.p, s.q);
  }
  switch (s.kind) {
    case 'point': return point(s.p);
    case 'segment': return segment(s.p, s.q);
    case 'line': return line(s.p, s.q);
    default: return ray(s.p, s.dir);
  }
}

/** Sometimes (probability p) turns a nonzero segment spec into a line or a ray along it. */
function vary(rng: Rng, s: Spec, p: number): Spec {
  if (s.kind !== 'segment' || !rng.chance(p)) return s;
  if (s.p.every((x, i) => x === s.q[i])) return s;
  switch (rng.int(0, 2)) {
    case 0: return { kind: 'line', p: s.p, q: s.q };
    case 1: return { kind: 'ray', p: s.p, dir: sub(s.q, s.p) };
    default: return { kind: 'ray', p: s.q, dir: sub(s.p, s.q) };
  }
}

const seg = (p: Vec, q: Vec): Spec => ({ kind: 'segment', p, q });

/**
 * Runs a generator of segment-pair specs for `count` cases, cycling dimensions, optionally
 * re-kinding, swapping a and b at random. `kindChance` is the probability that each segment is
 * turned into a line or a ray (ignored when segmentsOnly).
 */
function runFamily(
  name: string,
  gen: (rng: Rng, dim: number, i: number) => { a: Spec; b: Spec; label: string },
  kindChance = 0.25,
): Family {
  return (seed, count, options = {}) => {
    const rng = makeRng(seed);
    const dims = options.dims ?? DEFAULT_DIMS;
    const segOnly = options.segmentsOnly ?? false;
    const out: Case[] = [];
    for (let i = 0; i < count; i++) {
      const dim = dims[i % dims.length];
      const g = gen(rng, dim, i);
      let a = segOnly ? g.a : vary(rng, g.a, kindChance);
      let b = segOnly ? g.b : vary(rng, g.b, kindChance);
      if (rng.chance(0.5)) [a, b] = [b, a];
      out.push({ a: build(a, segOnly), b: build(b, segOnly), label: `${name}#${i} ${dim}D ${g.label}` });
    }
    return out;
  };
}

// ------------------------------------------------------------------------------------------
// Generators.

/** Two nearly parallel segments with overlapping shadows and a zero or tiny gap, rotated. */
function nearlyParallelSpec(rng: Rng, dim: number, opts: { minLen: number; maxLen: number; maxGapRel: number }):
  { a: Spec; b: Spec; label: string } {
  const la = rng.logUniform(opts.minLen, opts.maxLen);
  const lb = la * rng.logUniform(0.1, 10);
  const angle = rng.logUniform(1e-15, 1e-1);
  const e1 = basis(dim, 0);
  const e2 = basis(dim, 1);
  const eGap = dim >= 3 ? basis(dim, 2) : e2;
  // Overlapping shadows: B's centre projects inside A's extent widened by B's half-length.
  const cb = rng.uniform(-0.45, 0.45) * (la + lb);
  const zeroGap = rng.chance(0.4);
  const gap = zeroGap ? 0 : rng.sign() * la * rng.logUniform(1e-16, opts.maxGapRel);
  const dirB = add(scale(e1, Math.cos(angle)), scale(e2, Math.sin(angle)));
  const centreB = add(scale(e1, cb), scale(eGap, gap));
  let a0 = scale(e1, -la / 2);
  let a1 = scale(e1, la / 2);
  let b0 = sub(centreB, scale(dirB, lb / 2));
  let b1 = add(centreB, scale(dirB, lb / 2));
  const R = randomFrame(rng, dim);
  const T = rng.chance(0.5) ? zeros(dim) : randVec(rng, dim, -la, la);
  [a0, a1, b0, b1] = [a0, a1, b0, b1].map((p) => add(applyMatrix(R, p), T));
  if (rng.chance(0.3)) [b0, b1] = [b1, b0];
  return {
    a: seg(a0, a1),
    b: seg(b0, b1),
    label: `angle=${angle.toExponential(1)} len=${la.toExponential(1)} gap=${zeroGap ? 0 : gap.toExponential(1)}`,
  };
}

/** Uniform random segments in [−1, 1]^dim (a quarter become lines or rays). */
export const uniform: Family = runFamily('uniform', (rng, dim) => ({
  a: seg(randVec(rng, dim, -1, 1), randVec(rng, dim, -1, 1)),
  b: seg(randVec(rng, dim, -1, 1), randVec(rng, dim, -1, 1)),
  label: 'uniform',
}));

/**
 * Nearly parallel segments: angles log-uniform in 1e-15 … 1e-1, lengths 1e-3 … 1e6, gap 0 (40%)
 * or log-uniform 1e-16 … 1e-6 of the length, overlapping shadows, randomly rotated.
 */
export const nearlyParallel: Family = runFamily('nearlyParallel', (rng, dim) =>
  nearlyParallelSpec(rng, dim, { minLen: 1e-3, maxLen: 1e6, maxGapRel: 1e-6 }));

/** Generic and nearly parallel configurations of size 1e-3 … 10 translated 1e3, 1e6 or 1e9 away. */
export const farFromOrigin: Family = runFamily('farFromOrigin', (rng, dim) => {
  const far = rng.pick([1e3, 1e6, 1e9]);
  const O = scale(rng.unitVector(dim), far);
  let g: { a: Spec; b: Spec; label: string };
  if (rng.chance(0.5)) {
    const size = rng.logUniform(1e-3, 10);
    g = {
      a: seg(randVec(rng, dim, -size, size), randVec(rng, dim, -size, size)),
      b: seg(randVec(rng, dim, -size, size), randVec(rng, dim, -size, size)),
      label: `generic size=${size.toExponential(1)}`,
    };
  } else {
    g = nearlyParallelSpec(rng, dim, { minLen: 1e-3, maxLen: 10, maxGapRel: 1e-3 });
  }
  const move = (s: Spec): Spec => (s.kind === 'segment' ? seg(add(s.p, O), add(s.q, O)) : s);
  return { a: move(g.a), b: move(g.b), label: `offset=${far.toExponential(0)} ${g.label}` };
});

/** Segments 1e-15 … 1e-6 long, near each other or near a unit segment, around coordinates ~1 or ~0. */
export const tiny: Family = runFamily('tiny', (rng, dim) => {
  const len = rng.logUniform(1e-15, 1e-6);
  const centre = rng.chance(0.5) ? randVec(rng, dim, -1, 1) : randVec(rng, dim, -1e-9, 1e-9);
  const a0 = centre;
  const a1 = add(centre, scale(rng.unitVector(dim), len));
  if (rng.chance(0.6)) {
    // Both tiny, within a few lengths of each other.
    const lenB = len * rng.logUniform(0.1, 10);
    const b0 = add(centre, scale(rng.unitVector(dim), len * rng.uniform(0, 3)));
    const b1 = add(b0, scale(rng.unitVector(dim), lenB));
    return { a: seg(a0, a1), b: seg(b0, b1), label: `both tiny len=${len.toExponential(1)}` };
  }
  // A tiny one near (within 1e-6 of) an ordinary segment through the centre.
  const d = rng.unitVector(dim);
  const big0 = sub(centre, scale(d, rng.uniform(0.1, 1)));
  const big1 = add(centre, scale(d, rng.uniform(0.1, 1)));
  const off = scale(rng.unitVector(dim), rng.logUniform(1e-16, 1e-6));
  return { a: seg(add(a0, off), add(a1, off)), b: seg(big0, big1), label: `tiny near unit len=${len.toExponential(1)}` };
});

/** A long segment and a short one near it, length ratios log-uniform up to 1e12. */
export const hugeRatio: Family = runFamily('hugeRatio', (rng, dim) => {
  const L = rng.logUniform(1e-2, 1e3);
  const ratio = rng.logUniform(1e-12, 1);
  const a0 = randVec(rng, dim, -L, L);
  const a1 = add(a0, scale(rng.unitVector(dim), L));
  const at = add(a0, scale(sub(a1, a0), rng.uniform(-0.2, 1.2)));
  const l = L * ratio;
  const b0 = add(at, scale(rng.unitVector(dim), l * rng.logUniform(1e-3, 10)));
  const dirB = rng.chance(0.3) ? scale(sub(a1, a0), 1 / L) : rng.unitVector(dim); // sometimes parallel-ish
  const b1 = add(b0, scale(dirB, l));
  return { a: seg(a0, a1), b: seg(b0, b1), label: `ratio=${ratio.toExponential(1)}` };
});

/** Random integer vector not parallel to u (and nonzero). */
function nonParallelInt(rng: Rng, u: Vec, lo: number, hi: number): Vec {
  while (true) {
    const v = randInt(rng, u.length, lo, hi);
    // Parallel iff all 2×2 minors vanish (exact: small integers).
    let par = true;
    for (let i = 0; i < u.length && par; i++) {
      for (let j = i + 1; j < u.length; j++) if (u[i] * v[j] - u[j] * v[i] !== 0) { par = false; break; }
    }
    if (!par) return v;
  }
}

const nonzeroInt = (rng: Rng, dim: number, lo: number, hi: number): Vec => {
  while (true) {
    const v = randInt(rng, dim, lo, hi);
    if (v.some((x) => x !== 0)) return v;
  }
};

/** Multiplies every coordinate by 2^k (exact while in range). */
const pow2Scale = (v: Vec, k: number): Vec => v.map((x) => x * 2 ** k);

/**
 * Segments that cross exactly: X = integer point, A = X + [−i, j]·u, B = X + [−k, l]·v with
 * integer u, v (not parallel) and i, j, k, l ≥ 0 (0 puts the crossing at an endpoint), all
 * scaled by 2^m (m ∈ −60 … 60) so that some inputs are dyadic fractions.
 */
export const exactCrossing: Family = runFamily('exactCrossing', (rng, dim) => {
  const X = randInt(rng, dim, -(2 ** 20), 2 ** 20);
  const u = nonzeroInt(rng, dim, -1000, 1000);
  const v = nonParallelInt(rng, u, -1000, 1000);
  const [i, j, k, l] = [rng.int(0, 1000), rng.int(1, 1000), rng.int(0, 1000), rng.int(1, 1000)];
  const m = rng.int(-60, 60);
  const s = (p: Vec): Vec => pow2Scale(p, m);
  return {
    a: seg(s(sub(X, scale(u, i))), s(add(X, scale(u, j)))),
    b: seg(s(sub(X, scale(v, k))), s(add(X, scale(v, l)))),
    label: `crossing at params ${i}/${i + j}, ${k}/${k + l}, scale 2^${m}`,
  };
}, 0.3);

/**
 * Collinear segments on P + λ·d (integers, scaled by 2^m): overlapping, contained, identical,
 * touching end to end, or apart along the line, in either orientation; a quarter are rotated
 * (so rounding makes them nearly collinear instead).
 */
export const collinear: Family = runFamily('collinear', (rng, dim) => {
  const P = randInt(rng, dim, -(2 ** 20), 2 ** 20);
  const d = nonzeroInt(rng, dim, -100, 100);
  const s0 = rng.int(-20, 20);
  const s1 = s0 + rng.int(1, 20);
  const mode = rng.pick(['overlap', 'contained', 'identical', 'touching', 'apart'] as const);
  let t0: number;
  let t1: number;
  switch (mode) {
    case 'overlap': t0 = rng.int(s0 + 1, s1); t1 = s1 + rng.int(1, 10); break;
    case 'contained': t0 = rng.int(s0, s1 - 1); t1 = rng.int(t0 + 1, s1); break;
    case 'identical': t0 = s0; t1 = s1; break;
    case 'touching': t0 = s1; t1 = s1 + rng.int(1, 10); break;
    default: t0 = s1 + rng.int(1, 10); t1 = t0 + rng.int(1, 10);
  }
  const m = rng.int(-40, 40);
  const at = (lam: number): Vec => pow2Scale(add(P, scale(d, lam)), m);
  let a0 = at(s0);
  let a1 = at(s1);
  let b0 = at(t0);
  let b1 = at(t1);
  if (rng.chance(0.5)) [b0, b1] = [b1, b0];
  if (rng.chance(0.3)) [a0, a1] = [a1, a0];
  let label = `${mode} scale 2^${m}`;
  if (rng.chance(0.25)) {
    const R = randomFrame(rng, dim);
    [a0, a1, b0, b1] = [a0, a1, b0, b1].map((p) => applyMatrix(R, p));
    label += ' rotated (nearly collinear)';
  }
  return { a: seg(a0, a1), b: seg(b0, b1), label };
}, 0.3);

/**
 * T-junctions: B's endpoint exactly at A(s) for a dyadic s = k/2^q (integer inputs scaled by
 * 2^m, so A(s) is exact), or one ulp off that point (nextUp / nextDown of one coordinate).
 */
export const tJunction: Family = runFamily('tJunction', (rng, dim) => {
  const a0 = randInt(rng, dim, -(2 ** 20), 2 ** 20);
  const a1 = randInt(rng, dim, -(2 ** 20), 2 ** 20);
  const q = rng.int(0, 10);
  const k = rng.int(0, 2 ** q);
  const s = k / 2 ** q;
  const m = rng.int(-40, 40);
  const foot = pow2Scale(add(a0, scale(sub(a1, a0), s)), m); // exact: integers·dyadic, < 2^53
  const other = pow2Scale(randInt(rng, dim, -(2 ** 20), 2 ** 20), m);
  const off = rng.chance(0.5);
  const b0 = off ? ulpOff(rng, foot) : foot;
  const b: Spec = rng.chance(0.5) ? seg(b0, other) : seg(other, b0);
  return {
    a: seg(pow2Scale(a0, m), pow2Scale(a1, m)),
    b,
    label: `foot at s=${k}/2^${q}${off ? ' one ulp off' : ' exact'} scale 2^${m}`,
  };
}, 0.25);

/** One or both segments of zero length: on the other segment (exactly), near it, or anywhere. */
export const zeroLength: Family = runFamily('zeroLength', (rng, dim) => {
  const mode = rng.pick(['both-same', 'both-apart', 'on', 'near', 'random'] as const);
  const m = rng.int(-30, 30);
  const P = pow2Scale(randInt(rng, dim, -(2 ** 20), 2 ** 20), m);
  if (mode === 'both-same') return { a: seg(P, P), b: seg(P.slice(), P.slice()), label: mode };
  if (mode === 'both-apart') {
    const Q = rng.chance(0.5) ? ulpOff(rng, P) : add(P, randVec(rng, dim, -1, 1));
    return { a: seg(P, P), b: seg(Q, Q), label: mode };
  }
  const a0 = randInt(rng, dim, -(2 ** 20), 2 ** 20);
  const a1 = randInt(rng, dim, -(2 ** 20), 2 ** 20);
  if (mode === 'random') {
    const R = randVec(rng, dim, -(2 ** 20), 2 ** 20);
    return { a: seg(pow2Scale(a0, m), pow2Scale(a1, m)), b: seg(pow2Scale(R, m), pow2Scale(R, m)), label: mode };
  }
  const q = rng.int(0, 8);
  const s = rng.int(0, 2 ** q) / 2 ** q;
  let foot = pow2Scale(add(a0, scale(sub(a1, a0), s)), m);
  if (mode === 'near') foot = ulpOff(rng, foot);
  return { a: seg(pow2Scale(a0, m), pow2Scale(a1, m)), b: seg(foot, foot.slice()), label: `${mode} s=${s}` };
}, 0.25);

/**
 * Segments sharing an endpoint (the same doubles): at a random angle, nearly collinear
 * continuing, folding back over each other, or with the shared endpoint moved one ulp.
 */
export const endpointsTouching: Family = runFamily('endpointsTouching', (rng, dim) => {
  const size = rng.logUniform(1e-3, 1e3);
  const a0 = randVec(rng, dim, -size, size);
  const a1 = randVec(rng, dim, -size, size);
  const shared = rng.chance(0.5) ? a0 : a1;
  const mode = rng.pick(['angle', 'continuing', 'folded', 'ulp-off'] as const);
  let other: Vec;
  const dA = sub(a1, a0);
  if (mode === 'continuing') other = add(shared, scale(shared === a1 ? dA : scale(dA, -1), rng.uniform(0.1, 2)));
  else if (mode === 'folded') other = add(shared, scale(shared === a1 ? scale(dA, -1) : dA, rng.uniform(0.1, 2)));
  else other = randVec(rng, dim, -size, size);
  const start = mode === 'ulp-off' ? ulpOff(rng, shared) : shared.slice();
  const b = rng.chance(0.5) ? seg(start, other) : seg(other, start);
  return { a: seg(a0, a1), b, label: mode };
}, 0.2);

/** Lines, rays, points and segments mixed: random, exactly parallel, touching exactly, collinear rays. */
export const mixedKinds: Family = (seed, count, options = {}) => {
  const rng = makeRng(seed);
  const dims = options.dims ?? DEFAULT_DIMS;
  const segOnly = options.segmentsOnly ?? false;
  const kinds = ['point', 'segment', 'line', 'ray'] as const;
  const out: Case[] = [];
  const randomSpec = (kind: (typeof kinds)[number], dim: number, P: Vec, d: Vec, Q: Vec): Spec => {
    switch (kind) {
      case 'point': return { kind: 'point', p: P };
      case 'segment': return seg(P, Q);
      case 'line': return { kind: 'line', p: P, q: add(P, d) };
      default: return { kind: 'ray', p: P, dir: d };
    }
  };
  for (let i = 0; i < count; i++) {
    const dim = dims[i % dims.length];
    const mode = rng.pick(['random', 'parallel', 'through', 'collinear'] as const);
    const ka = rng.pick(kinds);
    const kb = rng.pick(kinds);
    const m = rng.int(-30, 30);
    const I = (lo: number, hi: number): Vec => pow2Scale(randInt(rng, dim, lo, hi), m);
    let a: Spec;
    let b: Spec;
    if (mode === 'random') {
      const v = (): Vec => randVec(rng, dim, -1, 1);
      a = randomSpec(ka, dim, v(), nonzeroDir(rng, dim), v());
      b = randomSpec(kb, dim, v(), nonzeroDir(rng, dim), v());
    } else if (mode === 'parallel') {
      // Exactly parallel directions: v = ±2^j·u; the second primitive's base is random.
      const u = pow2Scale(nonzeroInt(rng, dim, -50, 50), m);
      const v = scale(u, rng.sign() * 2 ** rng.int(-3, 3));
      const P = I(-1000, 1000);
      const Q = I(-1000, 1000);
      a = randomSpec(ka === 'point' ? 'line' : ka, dim, P, u, add(P, u));
      b = randomSpec(kb === 'point' ? 'ray' : kb, dim, Q, v, add(Q, v));
    } else if (mode === 'through') {
      // b's base point lies exactly on a (dyadic parameter within a's domain), or one ulp off.
      const P = I(-(2 ** 20), 2 ** 20);
      const u = pow2Scale(nonzeroInt(rng, dim, -1000, 1000), m);
      a = randomSpec(ka, dim, P, u, add(P, u));
      const lam = ka === 'point' ? 0 : ka === 'segment' ? rng.int(0, 8) / 8 : rng.int(0, 64) / 8;
      let foot = add(P, scale(u, lam));
      if (rng.chance(0.4)) foot = ulpOff(rng, foot);
      const w = pow2Scale(nonzeroInt(rng, dim, -1000, 1000), m);
      b = randomSpec(kb, dim, foot, w, add(foot, w));
    } else {
      // Collinear: both along the same integer line, in either direction.
      const P = I(-1000, 1000);
      const u = pow2Scale(nonzeroInt(rng, dim, -20, 20), m);
      const Q = add(P, scale(u, rng.int(-5, 5)));
      const v = scale(u, rng.sign());
      a = randomSpec(ka, dim, P, u, add(P, scale(u, rng.int(1, 4))));
      b = randomSpec(kb, dim, Q, v, add(Q, scale(v, rng.int(1, 4))));
    }
    if (rng.chance(0.5)) [a, b] = [b, a];
    out.push({ a: build(a, segOnly), b: build(b, segOnly), label: `mixedKinds#${i} ${dim}D ${mode} ${a.kind}-${b.kind}` });
  }
  return out;
};

function nonzeroDir(rng: Rng, dim: number): Vec {
  return scale(rng.unitVector(dim), rng.logUniform(0.1, 10));
}

/** Every family by name, in the order the accuracy report prints them. */
export const FAMILIES: readonly { name: string; make: Family }[] = [
  { name: 'uniform', make: uniform },
  { name: 'nearlyParallel', make: nearlyParallel },
  { name: 'farFromOrigin', make: farFromOrigin },
  { name: 'tiny', make: tiny },
  { name: 'hugeRatio', make: hugeRatio },
  { name: 'exactCrossing', make: exactCrossing },
  { name: 'collinear', make: collinear },
  { name: 'tJunction', make: tJunction },
  { name: 'zeroLength', make: zeroLength },
  { name: 'endpointsTouching', make: endpointsTouching },
  { name: 'mixedKinds', make: mixedKinds },
];

// ------------------------------------------------------------------------------------------
// Flat benchmark data: 12 numbers per 3-D segment pair (a0, a1, b0, b1).

/** n uniformly random 3-D segment pairs in [−1, 1]³ as one Float64Array (12 numbers per pair). */
export function uniformPairs3(n: number, seed: number): Float64Array {
  const rng = makeRng(seed);
  const out = new Float64Array(12 * n);
  for (let i = 0; i < out.length; i++) out[i] = rng.uniform(-1, 1);
  return out;
}

/**
 * n nearly parallel 3-D segment pairs (12 numbers per pair): lengths 0.5 … 2, angles
 * log-uniform 1e-15 … 1e-1, overlapping shadows, a gap log-uniform 1e-12 … 1e-2 of the length
 * (never exactly touching), randomly rotated about a random centre in [−1, 1]³.
 */
export function nearlyParallelPairs3(n: number, seed: number): Float64Array {
  const rng = makeRng(seed);
  const out = new Float64Array(12 * n);
  for (let k = 0; k < n; k++) {
    const la = rng.uniform(0.5, 2);
    const lb = rng.uniform(0.5, 2);
    const angle = rng.logUniform(1e-15, 1e-1);
    const gap = la * rng.logUniform(1e-12, 1e-2);
    const cb = rng.uniform(-0.4, 0.4) * (la + lb);
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    const local = [
      -la / 2, 0, 0,
      la / 2, 0, 0,
      cb - (c * lb) / 2, -(s * lb) / 2, gap,
      cb + (c * lb) / 2, (s * lb) / 2, gap,
    ];
    const R = rng.randomRotation3();
    const T = [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)];
    for (let p = 0; p < 4; p++) {
      const v = applyMatrix(R, local.slice(3 * p, 3 * p + 3));
      for (let j = 0; j < 3; j++) out[12 * k + 3 * p + j] = v[j] + T[j];
    }
  }
  return out;
}

/** The seed a family gets from a run's base seed (each family its own stream; replay with both). */
export function familySeed(baseSeed: number, familyIndex: number): number {
  return baseSeed + 7919 * familyIndex;
}

/** Packs 3-D segment–segment cases into the flat layout (12 numbers per pair) for the kernels and peers. */
export function flatten3(cases: readonly Case[]): Float64Array {
  const out = new Float64Array(12 * cases.length);
  cases.forEach((c, i) => {
    for (const [j, p] of [c.a.p0, c.a.p1, c.b.p0, c.b.p1].entries()) {
      if (p.length !== 3 || c.a.kind !== 'segment' || c.b.kind !== 'segment') {
        throw new RangeError('flatten3: only 3-D segment pairs');
      }
      out.set(p, 12 * i + 3 * j);
    }
  });
  return out;
}
