/**
 * The passes that run once a search in chunks of a few thousand items (issue 15: so that V8
 * compiles them from their entry instead of on the fly, where a stale compile sent each call's
 * loop to the interpreter): the fold-back pass (contacts.ts, FOLD_CHUNK = 4096 turns) and the
 * partition of a thread's share (merge.ts, PART_CHUNK = 8192 pairs). The chunks' seams must
 * lose and repeat nothing. Reference: the fold-backs counted exactly on integer coordinates
 * (cross product 0, dot product < 0), and partitionShare against a plain stable sort by range.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chainContacts } from '../../src/index.js';
import { chainContactsParallel, closeParallelPool } from '../../src/parallel/index.js';
import { partitionShare, rangeCount } from '../../src/parallel/merge.js';
import { makeRng } from '../support/rng.js';

afterAll(closeParallelPool);

/**
 * An integer walk of m steps (each coordinate −1, 0 or 1, not all 0) that doubles back on
 * itself at random turns and at every turn within 2 of a multiple of 4096, in `dim` dimensions.
 */
function foldingWalk(m: number, dim: number, seed: number): Float64Array {
  const rnd = makeRng(seed);
  const P = new Float64Array((m + 1) * dim);
  const step = new Float64Array(dim);
  for (let c = 0; c < m; c++) {
    const near = c > 0 && ((c + 2) % 4096 <= 4);
    if (near || (c > 0 && rnd.next() < 0.05)) {
      for (let k = 0; k < dim; k++) step[k] = -step[k];
    } else {
      do for (let k = 0; k < dim; k++) step[k] = Math.floor(rnd.next() * 3) - 1;
      while (step.every((x) => x === 0));
    }
    for (let k = 0; k < dim; k++) P[(c + 1) * dim + k] = P[c * dim + k] + step[k];
  }
  return P;
}

/** The turns c whose segments c and c + 1 fold back (collinear, opposite directions), exactly. */
function foldTurns(P: Float64Array, dim: number): number[] {
  const m = P.length / dim - 1, out: number[] = [];
  for (let c = 0; c + 1 < m; c++) {
    let dot = 0, parallel = true;
    for (let a = 0; a < dim; a++) {
      const ua = P[(c + 1) * dim + a] - P[c * dim + a], va = P[(c + 2) * dim + a] - P[(c + 1) * dim + a];
      dot += ua * va;
      for (let b = a + 1; b < dim; b++) {
        const ub = P[(c + 1) * dim + b] - P[c * dim + b], vb = P[(c + 2) * dim + b] - P[(c + 1) * dim + b];
        if (ua * vb - ub * va !== 0) parallel = false;
      }
    }
    if (parallel && dot < 0) out.push(c);
  }
  return out;
}

describe('issue 15: the once-a-search passes run in chunks, seams included', () => {
  for (const dim of [2, 3]) {
    it(`issue 15: fold-backs in chunks of 4096 turns: chainContacts and chainContactsParallel (2 threads) list exactly the folding turns of a 12,300-step ${dim}D walk that folds at every chunk seam (seed ${40 + dim})`, async () => {
      const P = foldingWalk(12_300, dim, 40 + dim);
      const want = foldTurns(P, dim);
      expect(want).toEqual(expect.arrayContaining([4094, 4095, 4096, 8190, 8191, 8192, 12286, 12287, 12288]));
      const adjacent = (r: { count: number; i: Int32Array; j: Int32Array }): number[] => {
        const out: number[] = [];
        for (let k = 0; k < r.count; k++) if (r.j[k] === r.i[k] + 1) out.push(r.i[k]);
        return out;
      };
      // Open, and closed (3D: a ring takes the hierarchy's path, with its own fold-back pass, not the block grid's).
      for (const closed of [false, true]) {
        expect(adjacent(chainContacts(P, { dim, closed })), `closed: ${closed}`).toEqual(want);
        expect(adjacent(await chainContactsParallel(P, { dim, closed, threads: 2 })), `closed: ${closed}, 2 threads`).toEqual(want);
      }
    });
  }

  it('issue 15: partitionShare in chunks of 8192 pairs equals a stable sort by range of i, for 20,001 pairs (seed 47)', () => {
    const rnd = makeRng(47);
    const n = 20_001, m = 5000, shift = 6;
    const found = { CI: new Int32Array(n), CJ: new Int32Array(n), distance: new Float64Array(n), s: new Float64Array(n), t: new Float64Array(n) };
    for (let k = 0; k < n; k++) {
      found.CI[k] = Math.floor(rnd.next() * m);
      found.CJ[k] = k;
      found.distance[k] = rnd.next();
      found.s[k] = rnd.next();
      found.t[k] = rnd.next();
    }
    const share = partitionShare(found, m, false, null, shift);
    const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => (found.CI[a] >> shift) - (found.CI[b] >> shift) || a - b);
    expect(Array.from(share.CJ)).toEqual(order);
    expect(Array.from(share.CI)).toEqual(order.map((k) => found.CI[k]));
    expect(Array.from(share.distance)).toEqual(order.map((k) => found.distance[k]));
    expect(Array.from(share.s)).toEqual(order.map((k) => found.s[k]));
    expect(Array.from(share.t)).toEqual(order.map((k) => found.t[k]));
    const R = rangeCount(m, shift);
    for (let r = 0; r < R; r++) expect(share.off[r + 1] - share.off[r]).toBe(order.filter((k) => found.CI[k] >> shift === r).length);
  });
});
