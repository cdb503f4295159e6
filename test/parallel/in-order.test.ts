/**
 * The parallel 2D grid search in chain order (chains.ts, contacts.ts searchRanges2): threads claim
 * ranges of consecutive segments, each range's contacts come out sorted, and the calling thread
 * concatenates them (merging in the fold-backs) while the search runs. The result must be
 * chainContacts' bit for bit, whatever the thread count, the range width (boundaries inside
 * crowded cells), and wherever each range's contacts wait (published in a lease, or handed over at
 * the end when the lease is too small).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chainContacts, releaseChainMemory } from '../../src/index.js';
import { chainContactsParallel, closeParallelPool } from '../../src/parallel/index.js';
import { chainSearch } from '../../src/parallel/chains.js';
import { chainWork } from '../../src/parallel/chain-work.js';
import { allocGridPlan, rangeBounds } from '../../src/parallel/grid-plan.js';
import type { SharedBuild } from '../../src/chain/contacts.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';
import { expectSameContacts } from '../support/same-contacts.js';

afterAll(closeParallelPool);

/** A walk with every `every`-th vertex repeated (zero-length segments: compact indices differ from the input's). */
function withRepeats(P: Float64Array, every: number): Float64Array {
  const out: number[] = [];
  for (let k = 0; k < P.length / 2; k++) {
    out.push(P[2 * k], P[2 * k + 1]);
    if (k % every === every - 1) out.push(P[2 * k], P[2 * k + 1]);
  }
  return Float64Array.from(out);
}

describe('chainContactsParallel, 2D search in chain order', () => {
  it('issue 15: the 2D parallel search in chain order is chainContacts bit for bit (seeds 1540–1541; 1, 2, 3 threads; guided ranges from 16 times 97, 1000 and 16384 segments down, and fixed ranges of 1000; fold-backs, a ring, repeated vertices)', async () => {
    const range = chainSearch.range, spread = chainSearch.spread;
    try {
      for (let seed = 1540; seed < 1542; seed++) {
        const rng = makeRng(seed);
        const cases: [string, Float64Array, object][] = [
          ['random walk', randomWalk(20_000, 2, rng), {}],
          ['grid walk (fold-backs, crowded cells)', gridWalk(12_000, 2, rng), {}],
          ['grid walk ring', gridWalk(12_000, 2, rng), { closed: true }],
          ['random walk ring with repeated vertices', withRepeats(randomWalk(15_000, 2, rng), 37), { closed: true }],
        ];
        for (const [name, P, opts] of cases) {
          const one = chainContacts(P, { dim: 2, ...opts });
          for (const [width, guided] of [[97, 16], [1000, 16], [1000, 1], [1 << 14, 16]]) {
            chainSearch.range = width;
            chainSearch.spread = guided;
            for (const threads of [1, 2, 3]) {
              const label = `seed ${seed}, ${name}, ranges of ${width} (spread ${guided}), ${threads} threads`;
              expectSameContacts(one, await chainContactsParallel(P, { dim: 2, ...opts, threads }), label);
              if (threads > 1) expect(chainSearch.lastInOrder, `${label}: searched in chain order`).toBe(true);
            }
          }
        }
      }
    } finally {
      chainSearch.range = range;
      chainSearch.spread = spread;
    }
  }, 120_000);

  it('issue 15: guided ranges: rangeBounds cuts [0, m) into consecutive ranges of at most `most` and at least `least` segments (the last may be shorter), never longer than the one before, each 1/(2·threads) of what is left', () => {
    for (const [m, least, most, threads] of [[1_000_000, 4096, 65536, 2], [1_000_000, 4096, 65536, 3], [12_345, 97, 1552, 2], [5, 97, 1552, 2], [100_000, 1000, 1000, 2]]) {
      const b = rangeBounds(m, least, most, threads);
      const label = `m ${m}, ${least}…${most}, ${threads} threads`;
      expect(b[0], label).toBe(0);
      expect(b[b.length - 1], label).toBe(m);
      for (let r = 0; r + 1 < b.length; r++) {
        const size = b[r + 1] - b[r], left = m - b[r];
        expect(size, `${label}, range ${r}`).toBe(Math.min(left, Math.max(least, Math.min(most, Math.ceil(left / (2 * threads))))));
        if (r > 0) expect(size, `${label}, range ${r} not longer than the one before`).toBeLessThanOrEqual(b[r] - b[r - 1]);
      }
    }
    expect(Array.from(rangeBounds(0, 4096, 65536, 2)), 'no segment: one empty range').toEqual([0, 0]);
    // The 1e6-step walk on two threads: 12 ranges of 65,536, then shorter ones down to 4,096.
    const walk = rangeBounds(1_000_000, 4096, 65536, 2);
    expect(walk[12]).toBe(12 * 65536);
    expect(walk[13] - walk[12]).toBeLessThan(65536);
    expect(walk[walk.length - 2] - walk[walk.length - 3]).toBe(4096);
  });

  it('issue 15: in chain order, a worker whose lease is too small hands its later ranges over at the end, and a first call with no leases at all gives the same bits (seed 1542)', async () => {
    const rng = makeRng(1542);
    const small = gridWalk(15_000, 2, rng), large = gridWalk(60_000, 2, rng);
    const want = chainContacts(large, { dim: 2 });
    const range = chainSearch.range;
    try {
      chainSearch.range = 2000;
      releaseChainMemory(); // no leases: every worker range waits for the end
      expectSameContacts(want, await chainContactsParallel(large, { dim: 2, threads: 2 }), 'no leases');
      expect(chainSearch.lastInOrder).toBe(true);
      releaseChainMemory();
      await chainContactsParallel(small, { dim: 2, threads: 2 }); // leases for a quarter of the large chain's contacts
      expectSameContacts(want, await chainContactsParallel(large, { dim: 2, threads: 2 }), 'leases too small');
      expectSameContacts(want, await chainContactsParallel(large, { dim: 2, threads: 2 }), 'leases large enough');
    } finally {
      chainSearch.range = range;
    }
  }, 60_000);

  it('issue 15: a worker is never given a lease too small to record into (an empty share\'s 0-byte lease lost every pair the search then grew into)', () => {
    const grid = allocGridPlan(100, 4, (bytes) => new SharedArrayBuffer(bytes), 10);
    const job = { tau: 0, counter: new SharedArrayBuffer(4), want: 4, shift: 0, build: {} as SharedBuild, grid, slot: 1 };
    expect(chainWork({ ...job, lease: new SharedArrayBuffer(0) }, false).found).toBeUndefined();
    expect(chainWork({ ...job, lease: new SharedArrayBuffer(32 * 1023) }, false).found).toBeUndefined();
    const room = chainWork({ ...job, lease: new SharedArrayBuffer(32 * 4096) }, false).found;
    expect(room?.CI.length).toBe(4096);
    expect(chainWork({ ...job, lease: new SharedArrayBuffer(32 * 4096), slot: 0 }, true).found, 'the calling thread records into its own memory').toBeUndefined();
  });

  it('issue 15: the search by bands of columns with the merge (the path for grids without room) still gives the same bits (seed 1543)', async () => {
    const P = gridWalk(20_000, 2, makeRng(1543));
    const want = chainContacts(P, { dim: 2, closed: true });
    try {
      chainSearch.inOrder = false;
      expectSameContacts(want, await chainContactsParallel(P, { dim: 2, closed: true, threads: 2 }), 'by bands');
      expect(chainSearch.lastInOrder).toBe(false);
    } finally {
      chainSearch.inOrder = true;
    }
  }, 60_000);
});
