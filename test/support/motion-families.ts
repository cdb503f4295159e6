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
