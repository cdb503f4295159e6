/**
 * Seeded families of moving-sphere queries for the oracle tests and the benchmarks: each case is
 * p0, p1, r1, q0, q1, r2.
 */
import { mulberry32 } from './rng.js';

export interface SweepCase {
  p0: number[];
  p1: number[];
  r1: number;
  q0: number[];
  q1: number[];
  r2: number;
}

type Family = (rng: () => number, dim: number) => SweepCase;

const vec = (rng: () => number, dim: number, s = 1) => Array.from({ length: dim }, () => (rng() * 2 - 1) * s);
const add = (a: number[], b: number[], k = 1) => a.map((x, i) => x + k * b[i]);

/** The families the issue names. */
export const SWEEP_FAMILIES: Record<string, Family> = {
  random: (rng, dim) => {
    const p0 = vec(rng, dim), q0 = vec(rng, dim);
    return { p0, p1: add(p0, vec(rng, dim, 2)), r1: 0.05 + 0.3 * rng(), q0, q1: add(q0, vec(rng, dim, 2)), r2: 0.05 + 0.3 * rng() };
  },
  grazing: (rng, dim) => {
    // q passes p's path at a distance equal (in doubles) to r1 + r2, at the same time.
    const p0 = vec(rng, dim);
    const v = vec(rng, dim, 2);
    const q0 = vec(rng, dim);
    const q1 = add(q0, vec(rng, dim, 2));
    // the closest approach distance of the two motions, in doubles, split into the radii
    const w0 = p0.map((x, i) => x - q0[i]);
    const dv = v.map((x, i) => x - (q1[i] - q0[i]));
    const a = dv.reduce((s, x) => s + x * x, 0);
    const t = Math.min(1, Math.max(0, -w0.reduce((s, x, i) => s + x * dv[i], 0) / a));
    const d = Math.sqrt(w0.reduce((s, x, i) => s + (x + t * dv[i]) ** 2, 0));
    const r1 = d * rng();
    return { p0, p1: add(p0, v), r1, q0, q1, r2: d - r1 };
  },
  tinyFast: (rng, dim) => {
    // radius 1e-6, speed 1e3 per second over a 1/60 s step, aimed to pass within a few radii
    const speed = 1e3 / 60;
    const p0 = vec(rng, dim);
    const vp = vec(rng, dim, speed);
    const vq = vec(rng, dim, speed);
    const tc = rng();
    const X = add(add(p0, vp, tc), vec(rng, dim, 3e-6));
    const q0 = add(X, vq, -tc);
    return { p0, p1: add(p0, vp), r1: 1e-6, q0, q1: add(q0, vq), r2: 1e-6 * (1 + rng()) };
  },
  farFromOrigin: (rng, dim) => {
    const o = vec(rng, dim, 1e8);
    const p0 = add(o, vec(rng, dim)), q0 = add(o, vec(rng, dim));
    return { p0, p1: add(p0, vec(rng, dim, 2)), r1: 0.1 + 0.3 * rng(), q0, q1: add(q0, vec(rng, dim, 2)), r2: 0.1 + 0.3 * rng() };
  },
  sameVelocity: (rng, dim) => {
    const p0 = vec(rng, dim), q0 = vec(rng, dim);
    const v = vec(rng, dim, 1e3);
    const dv = vec(rng, dim, 1e-9);
    return { p0, p1: add(p0, v), r1: 0.2 + 0.3 * rng(), q0, q1: add(add(q0, v), dv), r2: 0.2 + 0.3 * rng() };
  },
  touchingAtStart: (rng, dim) => {
    const p0 = vec(rng, dim);
    const dir = vec(rng, dim);
    const len = Math.hypot(...dir);
    const r1 = 0.2, r2 = 0.3;
    const q0 = add(p0, dir, (r1 + r2) / len);
    return { p0, p1: add(p0, vec(rng, dim)), r1, q0, q1: add(q0, vec(rng, dim)), r2 };
  },
  separating: (rng, dim) => {
    const p0 = vec(rng, dim), q0 = vec(rng, dim);
    const away = q0.map((x, i) => x - p0[i]);
    return { p0, p1: add(p0, away, -rng()), r1: 0.05, q0, q1: add(q0, away, rng()), r2: 0.05 };
  },
};

/** n cases of a family, seeded. */
export function sweepCases(name: string, n: number, seed: number, dim = 3): SweepCase[] {
  const rng = mulberry32(seed);
  const f = SWEEP_FAMILIES[name];
  return Array.from({ length: n }, () => f(rng, dim));
}

// ---------------------------------------------------------------------------------------------
// Capsule sweeps: capsule A (a0a1, ra) translating by `move` against resting capsule B (b0b1, rb).

import type { CapsuleCase } from './exact-motion.js';
import { boxMinR } from './exact-motion.js';
import { ratFromDouble, ratSqrtToNumber, ratSub } from './oracle.js';

type CapsuleFamily = (rng: () => number, dim: number) => CapsuleCase;

/** The exact minimum over the step of the two segments' distance, rounded: a knife-edge R. */
function minDistance(c: CapsuleCase): number {
  const F = (v: number[]) => v.map(ratFromDouble);
  const a0 = F(c.a0), a1 = F(c.a1), b0 = F(c.b0), b1 = F(c.b1);
  const w = a0.map((x, i) => ratSub(x, b0[i]));
  const u = a1.map((x, i) => ratSub(x, a0[i]));
  const nv = b0.map((x, i) => ratSub(x, b1[i]));
  return ratSqrtToNumber(boxMinR(w, [F(c.move), u, nv]).value);
}

const randomCapsule: CapsuleFamily = (rng, dim) => {
  const a0 = vec(rng, dim), b0 = vec(rng, dim);
  return { a0, a1: add(a0, vec(rng, dim, 0.6)), ra: 0.02 + 0.2 * rng(), move: vec(rng, dim, 2), b0, b1: add(b0, vec(rng, dim, 0.6)), rb: 0.02 + 0.2 * rng() };
};

/** The capsule families the tests and benchmarks use. */
export const CAPSULE_FAMILIES: Record<string, CapsuleFamily> = {
  random: randomCapsule,
  grazing: (rng, dim) => {
    const c = randomCapsule(rng, dim);
    const d = minDistance(c);
    const ra = d * rng();
    return { ...c, ra, rb: d - ra };
  },
  parallel: (rng, dim) => {
    const a0 = vec(rng, dim), b0 = vec(rng, dim);
    const dir = vec(rng, dim, 0.6);
    const c = { a0, a1: add(a0, dir), ra: 0.1, move: rng() < 0.5 ? vec(rng, dim, 2) : dir.map((x) => x * (rng() * 4 - 2)), b0, b1: add(b0, dir, rng() * 2 - 1), rb: 0.1 };
    if (rng() < 0.5) return c;
    const d = minDistance(c);
    return { ...c, ra: d / 2, rb: d - d / 2 };
  },
  zeroLength: (rng, dim) => {
    const c = randomCapsule(rng, dim);
    const k = Math.floor(rng() * 3);
    return { ...c, a1: k !== 1 ? [...c.a0] : c.a1, b1: k !== 0 ? [...c.b0] : c.b1 };
  },
  farFromOrigin: (rng, dim) => {
    const o = vec(rng, dim, 1e8);
    const c = randomCapsule(rng, dim);
    const s = (v: number[]) => add(o, v);
    return { ...c, a0: s(c.a0), a1: s(c.a1), b0: s(c.b0), b1: s(c.b1) };
  },
};

/** n capsule cases of a family, seeded. */
export function capsuleCases(name: string, n: number, seed: number, dim = 3): CapsuleCase[] {
  const rng = mulberry32(seed);
  const f = CAPSULE_FAMILIES[name];
  return Array.from({ length: n }, () => f(rng, dim));
}
