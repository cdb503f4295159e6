/**
 * Baseline broad phase for chain contacts: a uniform-grid spatial hash (Teschner et al.,
 * "Optimized Spatial Hashing for Collision Detection of Deformable Objects", 2003), written as
 * well as we could, with the same exact narrow phase as skewline so that only the broad phases
 * are compared.
 *
 * Each segment goes to the cell of its midpoint; the cell size is the longest segment plus the
 * thickness, so two segments in contact have midpoints at most one cell apart on every axis.
 * Cells are hashed into a table of 2·m buckets (counting sort, no per-cell allocation); each
 * segment is then tested against the segments after it in its own cell and in the 3^dim − 1
 * neighbouring cells (buckets deduplicated), box first, then exactly.
 */
import { pairWithin } from '../../src/chain/narrow.js';

/** Number of non-adjacent pairs of the open chain P (m segments) within tau. */
export function gridChainContacts(P: Float64Array, dim: number, m: number, tau: number): number {
  if (dim !== 2 && dim !== 3) throw new Error('grid baseline: 2D and 3D only');
  let maxLen2 = 0;
  const lo = new Float64Array(dim).fill(Infinity);
  for (let c = 0; c < m; c++) {
    let l2 = 0;
    for (let k = 0; k < dim; k++) {
      const d = P[(c + 1) * dim + k] - P[c * dim + k];
      l2 += d * d;
      if (P[c * dim + k] < lo[k]) lo[k] = P[c * dim + k];
    }
    if (l2 > maxLen2) maxLen2 = l2;
  }
  const h = Math.sqrt(maxLen2) * (1 + 1e-9) + tau * (1 + 1e-9);
  let T = 1;
  while (T < 2 * m) T *= 2;
  const mask = T - 1;
  const cell = new Int32Array(m * dim);
  const bucketOf = new Int32Array(m);
  const start = new Int32Array(T + 1);
  for (let c = 0; c < m; c++) {
    let hash = 0;
    for (let k = 0; k < dim; k++) {
      const mid = 0.5 * (P[c * dim + k] + P[(c + 1) * dim + k]);
      const ix = Math.floor((mid - lo[k]) / h);
      cell[c * dim + k] = ix;
      hash ^= Math.imul(ix, PRIMES[k]);
    }
    const b = hash & mask;
    bucketOf[c] = b;
    start[b + 1]++;
  }
  for (let b = 0; b < T; b++) start[b + 1] += start[b];
  const items = new Int32Array(m);
  const fill = start.slice(0, T);
  for (let c = 0; c < m; c++) items[fill[bucketOf[c]]++] = c;
  const Q = new Float64Array(4 * dim);
  const seen = new Int32Array(27);
  let count = 0;
  const n3 = dim === 3 ? 3 : 1;
  for (let i = 0; i < m; i++) {
    let nseen = 0;
    const cx = cell[i * dim], cy = cell[i * dim + 1], cz = dim === 3 ? cell[i * dim + 2] : 0;
    for (let dz = 0; dz < n3; dz++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          let hash = Math.imul(cx + dx, PRIMES[0]) ^ Math.imul(cy + dy, PRIMES[1]);
          if (dim === 3) hash ^= Math.imul(cz + dz - 1, PRIMES[2]);
          const b = hash & mask;
          let dup = false;
          for (let q = 0; q < nseen; q++) if (seen[q] === b) dup = true;
          if (dup) continue;
          seen[nseen++] = b;
          for (let p = start[b]; p < start[b + 1]; p++) {
            const j = items[p];
            if (j < i + 2) continue;
            // box test, then the exact narrow phase
            let near = true;
            for (let k = 0; k < dim && near; k++) {
              const a0 = P[i * dim + k], a1 = P[(i + 1) * dim + k];
              const b0 = P[j * dim + k], b1 = P[(j + 1) * dim + k];
              if (Math.min(b0, b1) - Math.max(a0, a1) > tau || Math.min(a0, a1) - Math.max(b0, b1) > tau) near = false;
            }
            if (!near) continue;
            for (let k = 0; k < 2 * dim; k++) {
              Q[k] = P[i * dim + k];
              Q[2 * dim + k] = P[j * dim + k];
            }
            if (pairWithin(Q, dim, tau)) count++;
          }
        }
      }
    }
  }
  return count;
}

const PRIMES = [73856093, 19349663, 83492791];
