/**
 * Shared helpers of the n-D tests: the four primitive kinds, their kernel codes, a primitive of a
 * kind from two points (a ray points from p towards q), and the faithful-rounding check.
 */
import { LINE, POINT, RAY, SEGMENT } from '../../src/core/exact.js';
import { line, point, ray, segment } from '../../src/core/primitives.js';
import type { Primitive } from '../../src/core/types.js';
import { nextDown, nextUp } from './rng.js';

export const KINDS = ['point', 'segment', 'ray', 'line'] as const;
export type Kind = (typeof KINDS)[number];
/** The kernels' code of each kind (core/exact.ts). */
export const CODE = { point: POINT, segment: SEGMENT, ray: RAY, line: LINE };

/** A primitive of `kind` through p (and q): a point at p, a segment p→q, a ray from p towards q, a line through both. */
export function make(kind: Kind, p: number[], q: number[]): Primitive {
  if (kind === 'point') return point(p);
  if (kind === 'segment') return segment(p, q);
  if (kind === 'ray') return ray(p, q.map((x, i) => x - p[i]));
  return line(p, q);
}

/** x is `exact` rounded up or down (a faithful rounding). */
export const faithful = (x: number, exact: number): boolean => x === exact || x === nextUp(exact) || x === nextDown(exact);

/**
 * Case k of the n-D families (`rng` seeded by the caller): kinds KINDS[k % 4] and KINDS[(k >> 2) % 4];
 * family (k >> 4) % 5: unit coordinates, far from the origin (offset 1e6), tiny (2⁻⁹⁰) and huge
 * (2⁹⁰) scales, and near misses (b passes 1e-6 from a point of a: the residual must be accurate
 * far below the terms' size).
 */
export function ndCase(rng: () => number, dim: number, k: number): { a: Primitive; b: Primitive; ka: Kind; kb: Kind; family: number } {
  const ka = KINDS[k % 4];
  const kb = KINDS[(k >> 2) % 4];
  const family = (k >> 4) % 5;
  const scale = family === 2 ? 2 ** -90 : family === 3 ? 2 ** 90 : 1;
  const off = family === 1 ? 1e6 : 0;
  const v = (): number[] => Array.from({ length: dim }, () => (rng() * 2 - 1 + off) * scale);
  const a = make(ka, v(), v());
  let b: Primitive;
  if (family === 4) {
    const x = v();
    const y = v();
    const at = 0.3 + 0.4 * rng();
    const m = Array.from(a.p0, (p, i) => p + at * a.dir[i] + 1e-6 * x[i]);
    b = make(kb, m.map((p, i) => p - 0.5 * y[i]), m.map((p, i) => p + 0.5 * y[i]));
  } else b = make(kb, v(), v());
  return { a, b, ka, kb, family };
}
