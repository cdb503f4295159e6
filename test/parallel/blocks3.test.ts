/**
 * chainContactsParallel on one 3D chain through the block grid (issue 15, the two-thread floor
 * after the one-thread 3D search moved to the block grid): the block boxes built together, the
 * grid's cells and the blocks claimed as work items. Reference: chainContacts on one thread
 * (itself checked against the exact reference in test/chain), bit for bit.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chainContacts } from '../../src/index.js';
import { chainContactsParallel, closeParallelPool } from '../../src/parallel/index.js';
import { searchMode } from '../../src/chain/contacts.js';
import { blockGrid3, blockPairList, blockPairs3, blockPairsIn3 } from '../../src/chain/blocks3.js';
import { leafCount, segmentBoxes, segmentLeafBoxes3 } from '../../src/chain/tree.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';
import { expectSameContacts } from '../support/same-contacts.js';

afterAll(closeParallelPool);

/** A chain stretched along all three axes (the grid would be too sparse): steps near (1, 1, 1). */
function diagonal(m: number, seed: number): Float64Array {
  const rng = makeRng(seed);
  const P = new Float64Array(3 * (m + 1));
  for (let k = 3; k < P.length; k++) P[k] = P[k - 3] + 1 + 0.5 * rng.next();
  return P;
}

/** A chain crowded into a unit cube (the grid would be too crowded): uniform random vertices. */
function clump(m: number, seed: number): Float64Array {
  const rng = makeRng(seed);
  const P = new Float64Array(3 * (m + 1));
  for (let k = 0; k < P.length; k++) P[k] = rng.next();
  return P;
}

describe('chainContactsParallel on one 3D chain (block grid)', () => {
  it('issue 15: 3D chains that take the block grid, and ones where it steps aside, give chainContacts’ contacts bit for bit at 1, 2 and 3 threads (seeds 1521–1526)', async () => {
    const ring = randomWalk(10_000, 3, makeRng(1524));
    ring.set(ring.subarray(0, 3), ring.length - 3); // first vertex = last: a ring
    // Three build chunks of 32768 segments, with a fold-back at the turn across the first boundary.
    const folded = gridWalk(70_000, 3, makeRng(1522));
    const shift = [0, 1, 2].map((k) => folded[3 * 32_767 + k] - folded[3 * 32_769 + k]);
    for (let v = 32_769; v <= 70_000; v++) for (let k = 0; k < 3; k++) folded[3 * v + k] += shift[k]; // vertex 32769 = vertex 32767
    const cases: { name: string; P: Float64Array; tau: number; mode: 'blocks' | 'tree' }[] = [
      { name: 'random walk, seed 1521', P: randomWalk(30_000, 3, makeRng(1521)), tau: 0.2, mode: 'blocks' },
      { name: 'grid walk (fold-backs, touching collinear segments; one across build chunks), seed 1522, thickness 0', P: folded, tau: 0, mode: 'blocks' },
      { name: 'grid walk, seed 1523, thickness 0.5', P: gridWalk(20_000, 3, makeRng(1523)), tau: 0.5, mode: 'blocks' },
      { name: 'ring from a random walk (its last vertex is its first), seed 1524', P: ring, tau: 0.3, mode: 'tree' },
      { name: 'diagonal (grid too sparse), seed 1525', P: diagonal(10_000, 1525), tau: 0.7, mode: 'tree' },
      { name: 'clump in a unit cube (grid too crowded), seed 1526', P: clump(3_000, 1526), tau: 0.01, mode: 'tree' },
    ];
    for (const c of cases) {
      const one = chainContacts(c.P, { dim: 3, thickness: c.tau });
      expect(searchMode.last, c.name).toBe(c.mode);
      for (const threads of [1, 2, 3]) {
        const par = await chainContactsParallel(c.P, { dim: 3, thickness: c.tau, threads });
        if (threads > 1) expect(searchMode.last, `${c.name}, ${threads} threads`).toBe(c.mode);
        expectSameContacts(one, par, `${c.name}, ${threads} threads`);
      }
    }
  });

  it('issue 15: a bad vertex or a repeated one found by the threads while they build the block boxes: the same error, or the same contacts (seed 1527)', async () => {
    const P = randomWalk(40_000, 3, makeRng(1527));
    const rep = P.slice();
    rep.set(rep.subarray(3 * 25_000, 3 * 25_001), 3 * 25_001); // vertex 25001 = vertex 25000
    expectSameContacts(chainContacts(rep, { dim: 3, thickness: 0.2 }), await chainContactsParallel(rep, { dim: 3, thickness: 0.2, threads: 2 }), 'repeated vertex');
    const bad = P.slice();
    bad[3 * 33_333 + 1] = NaN;
    let message = '';
    try {
      chainContacts(bad, { dim: 3, thickness: 0.2 });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).not.toBe('');
    await expect(chainContactsParallel(bad, { dim: 3, thickness: 0.2, threads: 2 })).rejects.toThrow(message);
  });

  it('issue 15: the block pairs of consecutive ranges of cells, one after another, are blockPairs3’s list (seed 1528)', () => {
    const m = 20_000;
    const P = randomWalk(m, 3, makeRng(1528));
    const leaves = new Float64Array(6 * leafCount(m));
    segmentLeafBoxes3(P, m, segmentBoxes(P, 3, m, null), leaves);
    const n = blockPairs3(leaves, leafCount(m), 0.25);
    expect(n).toBeGreaterThan(0);
    const whole = Array.from(blockPairList().subarray(0, 2 * n));
    const cells = blockGrid3(leaves, leafCount(m), 0.25);
    const rng = makeRng(1528);
    const cuts = [0, cells];
    for (let k = 0; k < 7; k++) cuts.push(Math.floor(rng.next() * cells));
    cuts.sort((a, b) => a - b);
    const parts: number[] = [];
    for (let k = 0; k + 1 < cuts.length; k++) {
      const np = blockPairsIn3(cuts[k], cuts[k + 1], leaves, 0.25);
      parts.push(...blockPairList().subarray(0, 2 * np));
    }
    expect(parts).toEqual(whole);
  });
});
