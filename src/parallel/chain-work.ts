/**
 * One thread's work in a parallel chain search, alike for the calling thread and the workers
 * (kept out of worker.ts, whose import starts listening for jobs).
 */
import type { ParallelWork } from '../chain/contacts.js';
import { sharedGridPlan, sharedWholeGrid } from './grid-plan.js';
import { PUBLISHED, arraysOn, copyShare, leaseArrays, partitionShare } from './merge.js';
import type { ChainJob } from './worker.js';

/**
 * The search's work for one thread: items claimed from the job's counter, the boxes and the 2D
 * grid's plan built together in shared memory, and the share — the pairs found, partitioned
 * by range of first segments for the merge (merge.ts) — laid on the leased memory when it fits. `folds`: this thread also reports the fold-backs (exactly one thread does).
 */
export function chainWork(job: Pick<ChainJob, 'tau' | 'counter' | 'want' | 'shift' | 'build' | 'grid' | 'lease' | 'slot'>, folds: boolean): ParallelWork {
  const { grid, lease, shift } = job, zero = job.tau === 0;
  const work: ParallelWork = {
    counter: new Int32Array(job.counter), want: job.want, folds, build: job.build, slot: job.slot,
    share: (found, m) => partitionShare(found, m, zero, lease, shift),
  };
  const table = grid?.whole?.table ?? null;
  if (table !== null && job.slot > 0) {
    // A worker searching in chain order publishes each range into its lease as it finishes it
    // (the calling thread copies it into the result while the search runs: merge.ts, RangeGather);
    // once the lease is full, its later ranges go with its share, which is then its found pairs
    // as found (the table says where each range is).
    const pub = lease === null ? null : leaseArrays(lease);
    let at = 0, full = pub === null;
    work.onRange = (r, found, f0, n) => {
      if (full || at + n > pub!.CI.length) {
        full = true;
        return;
      }
      pub!.CI.set(found.CI.subarray(f0, f0 + n), at);
      pub!.CJ.set(found.CJ.subarray(f0, f0 + n), at);
      if (!zero) pub!.distance.set(found.distance.subarray(f0, f0 + n), at);
      pub!.s.set(found.s.subarray(f0, f0 + n), at);
      pub!.t.set(found.t.subarray(f0, f0 + n), at);
      table[4 * r + 1] = at;
      at += n;
      Atomics.store(table, 4 * r + 3, PUBLISHED);
    };
    work.share = (found, m) => (work.ranged !== true ? partitionShare(found, m, zero, lease, shift) : full ? copyShare(found, zero, null) : { ...arraysOn(lease, 0), off: new Int32Array(0) });
  }
  if (grid !== null) {
    work.plan = (seg, m, dead, bands) => sharedGridPlan(grid, seg, m, dead, bands);
    work.wholeGrid = (plan) => sharedWholeGrid(grid, plan);
  }
  return work;
}
