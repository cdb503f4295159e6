/**
 * Baseline broad phase for chain contacts: a uniform-grid spatial hash (Teschner et al.,
 * "Optimized Spatial Hashing for Collision Detection of Deformable Objects", 2003), written as
 * well as we could, with the same exact narrow phase as skewline so that only the broad phases
 * are compared.
 *
 * Each segment goes to the cell of its midpoint; the cell size is the longest segment plus the
 * thickness, so two segments in contact have midpoints at most one cell apart on every axis.
 * Cells are hashed into a table of 2·m buckets (counting sort, no per-cell allocation), and
 * segments are visited bucket by bucket so that consecutive ones share their cell's neighbour
 * list. Each segment meets the later segments of its own cell and all segments of the 13
 * (3D; 4 in 2D) "forward" neighbour cells, so every pair of cells is visited once; a bucket's
 * segments from other cells (hash collisions) are skipped by their cell coordinates. Segment
 * boxes are computed once. Box test first, then the exact narrow phase.
 */
import { pairWithin } from '../../src/chain/narrow.js';

const PRIMES = [73856093, 19349663, 83492791];

/** Forward half of the 3^dim − 1 neighbour offsets (lexicographically positive). */
function forwardOffsets(dim: number): number[][] {
  const out: number[][] = [];
  const rec = (prefix: number[]): void => {
    if (prefix.length === dim) {
      const first = prefix.find((x) => x !== 0);
      if (first !== undefined && first > 0) out.push(prefix);
      return;
    }
    for (const d of [-1, 0, 1]) rec([...prefix, d]);
  };
  rec([]);
  return out;
}

/** Number of non-adjacent pairs of the open chain P (m segments, 2D or 3D) within tau. */
export function gridChainContacts(P: Float64Array, dim: number, m: number, tau: number): number {
  if (dim !== 2 && dim !== 3) throw new Error('grid baseline: 2D and 3D only');
  const d2 = 2 * dim;
  const box = new Float64Array(m * d2);
  let maxLen2 = 0;
  const lo = new Float64Array(dim).fill(Infinity);
  for (let c = 0; c < m; c++) {
    let l2 = 0;
    for (let k = 0; k < dim; k++) {
      const a = P[c * dim + k], b = P[(c + 1) * dim + k];
      box[c * d2 + k] = Math.min(a, b);
      box[c * d2 + dim + k] = Math.max(a, b);
      l2 += (b - a) * (b - a);
      if (a < lo[k]) lo[k] = a;
    }
    if (l2 > maxLen2) maxLen2 = l2;
  }
  const h = (Math.sqrt(maxLen2) + tau) * (1 + 1e-9);
  let T = 1;
  while (T < 2 * m) T *= 2;
  const mask = T - 1;
  const cell = new Int32Array(m * 3);
  const bucketOf = new Int32Array(m);
  const start = new Int32Array(T + 1);
  const hashOf = (x: number, y: number, z: number): number => (Math.imul(x, PRIMES[0]) ^ Math.imul(y, PRIMES[1]) ^ Math.imul(z, PRIMES[2])) & mask;
  for (let c = 0; c < m; c++) {
    for (let k = 0; k < 3; k++) {
      cell[3 * c + k] = k < dim ? Math.floor((0.5 * (P[c * dim + k] + P[(c + 1) * dim + k]) - lo[k]) / h) : 0;
    }
    const b = hashOf(cell[3 * c], cell[3 * c + 1], cell[3 * c + 2]);
    bucketOf[c] = b;
    start[b + 1]++;
  }
  for (let b = 0; b < T; b++) start[b + 1] += start[b];
  const items = new Int32Array(m);
  const fill = start.slice(0, T);
  for (let c = 0; c < m; c++) items[fill[bucketOf[c]]++] = c;

  const offsets = forwardOffsets(dim).map((o) => [o[0], o[1], o[2] ?? 0]);
  const nb = new Int32Array(offsets.length); // neighbour buckets of the current cell
  const Q = new Float64Array(4 * dim);
  let count = 0;
  let px = NaN, py = NaN, pz = NaN;
  const test = (i: number, j: number): void => {
    if (j - i < 2 && i - j < 2) return; // adjacent or the same
    const oi = i * d2, oj = j * d2;
    for (let k = 0; k < dim; k++) {
      if (box[oj + k] - box[oi + dim + k] > tau || box[oi + k] - box[oj + dim + k] > tau) return;
    }
    for (let k = 0; k < 2 * dim; k++) {
      Q[k] = P[i * dim + k];
      Q[2 * dim + k] = P[j * dim + k];
    }
    if (pairWithin(Q, dim, tau)) count++;
  };
  for (let p = 0; p < m; p++) {
    const i = items[p];
    const cx = cell[3 * i], cy = cell[3 * i + 1], cz = cell[3 * i + 2];
    if (cx !== px || cy !== py || cz !== pz) {
      for (let q = 0; q < offsets.length; q++) nb[q] = hashOf(cx + offsets[q][0], cy + offsets[q][1], cz + offsets[q][2]);
      px = cx;
      py = cy;
      pz = cz;
    }
    // Own cell: the later segments of the same cell (by position in the bucket order).
    const own = bucketOf[i];
    for (let r = p + 1; r < start[own + 1]; r++) {
      const j = items[r];
      if (cell[3 * j] === cx && cell[3 * j + 1] === cy && cell[3 * j + 2] === cz) test(i, j);
    }
    for (let q = 0; q < offsets.length; q++) {
      const b = nb[q];
      const tx = cx + offsets[q][0], ty = cy + offsets[q][1], tz = cz + offsets[q][2];
      for (let r = start[b]; r < start[b + 1]; r++) {
        const j = items[r];
        if (cell[3 * j] === tx && cell[3 * j + 1] === ty && cell[3 * j + 2] === tz) test(i, j);
      }
    }
  }
  return count;
}
