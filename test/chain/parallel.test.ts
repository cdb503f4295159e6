/**
 * chainContactsParallel gives chainContacts' result bit for bit (same pairs, same order, same
 * distances and parameters), whatever the thread count, for self and two-chain searches, rings
 * and degenerate grids; and rejects the same bad input.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { SkewlineInputError, chainContacts } from '../../src/index.js';
import { chainContactsParallel, closeParallelPool } from '../../src/parallel/index.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';
import { expectSameContacts } from '../support/same-contacts.js';

afterAll(closeParallelPool);

describe('chainContactsParallel', () => {
  it('is chainContacts bit for bit (seeds 1100–1101; 1, 2 and 3 threads)', async () => {
    for (let seed = 1100; seed < 1102; seed++) {
      const rng = makeRng(seed);
      const cases: [Float64Array, number, object][] = [
        [randomWalk(8000, 3, rng), 3, { thickness: 0.2 }],
        [randomWalk(8000, 2, rng), 2, {}],
        [gridWalk(5000, 2, rng), 2, { closed: true }],
        [gridWalk(5000, 3, rng), 3, { thickness: 1 }],
        [randomWalk(2000, 4, rng), 4, { thickness: 0.5 }],
      ];
      for (const [P, dim, opts] of cases) {
        const one = chainContacts(P, { dim, ...opts });
        for (const threads of [1, 2, 3]) expectSameContacts(one, await chainContactsParallel(P, { dim, ...opts, threads }), `seed ${seed}, ${dim}D, ${threads} threads`);
      }
      const A = randomWalk(5000, 2, rng), B = randomWalk(5000, 2, rng);
      expectSameContacts(chainContacts(A, { dim: 2, against: B }), await chainContactsParallel(A, { dim: 2, against: B }), `seed ${seed} against`);
    }
  }, 120_000);
  it('issue 15: the threads’ merge maps compact to input indices (repeated vertices, a ring; seed 1505)', async () => {
    const W = randomWalk(70_000, 2, makeRng(1505));
    // Every 97th vertex repeated: zero-length segments dropped, compact ≠ input indices.
    const withRepeats: number[] = [];
    for (let v = 0; v < W.length / 2; v++) {
      withRepeats.push(W[2 * v], W[2 * v + 1]);
      if (v % 97 === 0) withRepeats.push(W[2 * v], W[2 * v + 1]);
    }
    const R = Float64Array.from(withRepeats);
    for (const opts of [{ dim: 2 }, { dim: 2, closed: true }, { dim: 2, thickness: 0.05 }]) {
      const one = chainContacts(R, opts);
      expect(one.count).toBeGreaterThan(1 << 16); // enough for the merge to be shared out
      expectSameContacts(one, await chainContactsParallel(R, { ...opts, threads: 2 }), `repeats ${JSON.stringify(opts)}`);
    }
  }, 60_000);
  it('issue 15: a bad coordinate deep in a large flat chain (validated by the threads while they build) is named as chainContacts names it (seed 1506)', async () => {
    const W = randomWalk(80_000, 3, makeRng(1506));
    W[3 * 61_234 + 1] = Infinity;
    expect(() => chainContacts(W, { dim: 3, thickness: 0.2 })).toThrow(/vertex 61234 coordinate 1/);
    await expect(chainContactsParallel(W, { dim: 3, thickness: 0.2, threads: 2 })).rejects.toThrow(/vertex 61234 coordinate 1/);
    await expect(chainContactsParallel(W, { dim: 3, thickness: 0.2, threads: 2 })).rejects.toThrow(SkewlineInputError);
  });
  it('rejects bad input as chainContacts does', async () => {
    await expect(chainContactsParallel([[0, 0], [1, NaN]])).rejects.toThrow(/points\[1\]\[1\]/);
    await expect(chainContactsParallel([[0, 0], [1, 1]], { threads: 0 })).rejects.toThrow(SkewlineInputError);
    expect((await chainContactsParallel([[0, 0], [2, 0], [1, 0]])).count).toBe(1);
  });
});
