/**
 * Peers for moving spheres, written for comparison: the textbook quadratic in doubles (solve
 * |w + t·dv|² = R² with the usual formula; e.g. Ericson, Real-Time Collision Detection §5.5.8,
 * as most game code has it) and Rhodes' path test from the gem (do the two paths come within
 * r1 + r2?), in doubles as the gem computes it.
 */
import { segmentDistance } from '../../src/index.js';

/** The textbook first-contact time in [0, 1], or −1 for a miss. */
export function textbookSweep(p0: ArrayLike<number>, p1: ArrayLike<number>, r1: number, q0: ArrayLike<number>, q1: ArrayLike<number>, r2: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  for (let i = 0; i < p0.length; i++) {
    const w = p0[i] - q0[i];
    const dv = p1[i] - p0[i] - (q1[i] - q0[i]);
    a += dv * dv;
    b += 2 * w * dv;
    c += w * w;
  }
  const R = r1 + r2;
  c -= R * R;
  if (c <= 0) return 0;
  if (a === 0) return -1;
  const disc = b * b - 4 * a * c;
  if (disc < 0) return -1;
  const t = (-b - Math.sqrt(disc)) / (2 * a);
  return t >= 0 && t <= 1 ? t : -1;
}

/** The gem's test: the paths (segments p0p1, q0q1) come within r1 + r2. */
export function gemPathTest(p0: number[], p1: number[], r1: number, q0: number[], q1: number[], r2: number): boolean {
  return segmentDistance(p0, p1, q0, q1) <= r1 + r2;
}
