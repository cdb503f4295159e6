/**
 * Where a two-thread planar search's wall clock goes (issue 15, the 2D walk at two threads): the
 * per-call timeline the probe bench/batch/parallel-timeline.bench.ts reads, and the grid plan's
 * first phase done with the shared boxes. References: the thread's own clock order, and boxSums
 * (the one-thread plan's pass) over each chunk.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chainContacts } from '../../src/index.js';
import { chainContactsParallel, closeParallelPool } from '../../src/parallel/index.js';
import { UNCHECKED_BAD, buildChunks, quickPrepare, searchShare } from '../../src/chain/contacts.js';
import type { SharedBuild } from '../../src/chain/contacts.js';
import { boxSums } from '../../src/chain/grid.js';
import { leafCount } from '../../src/chain/tree.js';
import { chainWork } from '../../src/parallel/chain-work.js';
import { allocGridPlan, planSums } from '../../src/parallel/grid-plan.js';
import { PER_RANGE, ROW, ROWS, STEP, timeline } from '../../src/parallel/timeline.js';
import { randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';
import { expectSameContacts } from '../support/same-contacts.js';

afterAll(closeParallelPool);

describe('the two-thread planar search, step by step', () => {
  it('issue 15 wall: a traced two-thread call stamps each thread’s steps in order, every range once by the thread that searched it, each copied after it ended, and gives the same contacts (200,000-step walk, seed 1550)', async () => {
    const P = randomWalk(200_000, 2, makeRng(1550));
    const want = chainContacts(P, { dim: 2 });
    try {
      timeline.on = true;
      const t0 = performance.timeOrigin + performance.now();
      const got = await chainContactsParallel(P, { dim: 2, threads: 2 });
      const t1 = performance.timeOrigin + performance.now();
      expectSameContacts(want, got, 'traced');
      const T = timeline.last!;
      expect(T).not.toBeNull();
      const steps = ['boxes0', 'boxes1', 'plan1', 'plan2', 'plan', 'grid', 'search', 'share'] as const;
      for (const slot of [0, 1]) {
        const at = steps.map((s) => T[ROW * slot + STEP[s]]);
        for (let k = 0; k < at.length; k++) {
          expect(Number.isFinite(at[k]), `thread ${slot}: ${steps[k]} stamped`).toBe(true);
          expect(at[k], `thread ${slot}: ${steps[k]} within the call`).toBeGreaterThanOrEqual(t0);
          expect(at[k], `thread ${slot}: ${steps[k]} within the call`).toBeLessThanOrEqual(t1);
          if (k > 0) expect(at[k], `thread ${slot}: ${steps[k]} after ${steps[k - 1]}`).toBeGreaterThanOrEqual(at[k - 1]);
        }
      }
      expect(T[STEP.replies]).toBeGreaterThanOrEqual(T[STEP.share]);
      expect(T[STEP.finish]).toBeGreaterThanOrEqual(T[STEP.replies]);
      expect(T[STEP.end]).toBeGreaterThanOrEqual(T[STEP.finish]);
      const ranges = (T.length - ROW * ROWS) / PER_RANGE;
      expect(ranges).toBeGreaterThan(1);
      for (let r = 0; r < ranges; r++) {
        const q = ROW * ROWS + PER_RANGE * r, slot = T[q + 2];
        expect([0, 1], `range ${r}: its thread`).toContain(slot);
        expect(T[q + 1], `range ${r} ends after it starts`).toBeGreaterThanOrEqual(T[q]);
        expect(T[q], `range ${r} starts once the thread's grid is built`).toBeGreaterThanOrEqual(T[ROW * slot + STEP.grid]);
        expect(T[q + 1], `range ${r} ends before the thread's claims ran out`).toBeLessThanOrEqual(T[ROW * slot + STEP.search]);
        expect(T[q + 3], `range ${r} copied after it ended`).toBeGreaterThanOrEqual(T[q + 1]);
      }
      timeline.on = false;
      await chainContactsParallel(P, { dim: 2, threads: 2 });
      expect(timeline.last, 'untraced: no timeline').toBeNull();
    } finally {
      timeline.on = false;
    }
  }, 30_000);

  it('issue 15 wall: the grid plan’s first phase, done with the shared boxes chunk by chunk (SharedBuild.sums), is boxSums over every chunk, bit for bit (100,000-step walk, seed 1551)', () => {
    const m = 100_000;
    const P = randomWalk(m, 2, makeRng(1551));
    const A = quickPrepare(P, { dim: 2 })!.A;
    const alloc = (bytes: number): SharedArrayBuffer => new SharedArrayBuffer(bytes);
    const build: SharedBuild = {
      segA: new Float64Array(alloc(32 * m)), leavesA: new Float64Array(alloc(32 * leafCount(m))), segB: null, leavesB: null,
      counter: new Int32Array(alloc(4 * (UNCHECKED_BAD + 1))), done: new Int32Array(alloc(4 * buildChunks(m))),
    };
    const grid = allocGridPlan(m, 64, alloc, 1024, 16 * 1024, 2);
    const sums = planSums(grid);
    build.sums = sums;
    // Poison the sums: every chunk's must be written by the box build.
    grid.part.fill(NaN);
    const work = chainWork({ tau: 0, counter: new SharedArrayBuffer(4), want: 128, shift: 10, build, grid, lease: null, slot: 0 }, true);
    work.share = (found) => found;
    // Only the box build may write the sums: the plan is the one-thread planGrid (no shared phases).
    delete work.plan;
    delete work.wholeGrid;
    searchShare(A, null, 0, work);
    const chunks = Math.ceil(m / sums.chunk);
    const out = new Float64Array(sums.stride);
    for (let c = 0; c < chunks; c++) {
      expect(sums.done[c], `chunk ${c} flagged done`).toBe(1);
      boxSums(build.segA, null, c * sums.chunk, Math.min(m, (c + 1) * sums.chunk), out, 0);
      for (let k = 0; k < 6; k++) expect(Object.is(grid.part[sums.stride * c + k], out[k]), `chunk ${c}, number ${k}: ${grid.part[sums.stride * c + k]} against ${out[k]}`).toBe(true);
    }
  });
});
