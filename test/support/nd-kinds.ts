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
