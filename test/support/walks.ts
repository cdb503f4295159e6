/**
 * Seeded chains for the chain tests and benchmarks: freely jointed random walks (unit steps in
 * uniformly random directions), smooth walks (the direction turns a little each step), and
 * integer-grid walks (unit steps along the axes: fold-backs, overlaps, T-junctions and touching
 * vertices galore). Each returns n + 1 vertices (n segments) as a flat Float64Array.
 */
import type { Rng } from './rng.js';

/** Freely jointed chain: n unit steps in uniformly random directions, from the origin. */
export function randomWalk(n: number, dim: number, rng: Rng, step = 1): Float64Array {
  const P = new Float64Array((n + 1) * dim);
  for (let i = 1; i <= n; i++) {
    const u = rng.unitVector(dim);
    for (let k = 0; k < dim; k++) P[i * dim + k] = P[(i - 1) * dim + k] + step * u[k];
  }
  return P;
}

/** Smooth walk: unit steps whose direction turns by a small random amount (≈ `turn` radians) each step. */
export function smoothWalk(n: number, dim: number, rng: Rng, turn = 0.15): Float64Array {
  const P = new Float64Array((n + 1) * dim);
  let u = rng.unitVector(dim);
  for (let i = 1; i <= n; i++) {
    const w = rng.unitVector(dim);
    let len = 0;
    for (let k = 0; k < dim; k++) {
      u[k] += turn * w[k];
      len += u[k] * u[k];
    }
    len = Math.sqrt(len);
    u = u.map((x) => x / len);
    for (let k = 0; k < dim; k++) P[i * dim + k] = P[(i - 1) * dim + k] + u[k];
  }
  return P;
}

/** Integer-grid walk: each step moves ±1 along a random axis (exact coordinates, heavy degeneracy). */
export function gridWalk(n: number, dim: number, rng: Rng): Float64Array {
  const P = new Float64Array((n + 1) * dim);
  for (let i = 1; i <= n; i++) {
    for (let k = 0; k < dim; k++) P[i * dim + k] = P[(i - 1) * dim + k];
    P[i * dim + rng.int(0, dim - 1)] += rng.sign();
  }
  return P;
}
