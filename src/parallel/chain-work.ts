/**
 * One thread's work in a parallel chain search, alike for the calling thread and the workers
 * (kept out of worker.ts, whose import starts listening for jobs).
 */
import type { ParallelWork } from '../chain/contacts.js';
import { sharedGridPlan, sharedWholeGrid } from './grid-plan.js';
import { PUBLISHED, arraysOn, copyShare, leaseArrays, partitionShare } from './merge.js';
import type { ChainJob } from './worker.js';
import { marks } from './timeline.js';

/** The least room for pairs that a lease must give to be recorded into. */
const MIN_FOUND = 1024;

/**
 * The search's work for one thread: items claimed from the job's counter, the boxes and the 2D
 * grid's plan built together in shared memory, and the share — the pairs found, partitioned
 * by range of first segments for the merge (merge.ts) — laid on the leased memory when it fits. `folds`: this thread also reports the fold-backs (exactly one thread does).
 */
export function chainWork(job: Pick<ChainJob, 'tau' | 'counter' | 'want' | 'shift' | 'build' | 'grid' | 'lease' | 'slot' | 'trace'>, folds: boolean): ParallelWork {
  const { grid, lease, shift } = job, zero = job.tau === 0;
  const work: ParallelWork = {
    counter: new Int32Array(job.counter), want: job.want, folds, build: job.build, slot: job.slot,
    share: (found, m) => partitionShare(found, m, zero, lease, shift),
  };
  const table = grid?.whole?.table ?? null;
  if (table !== null && job.slot > 0) {
    // A worker searching in chain order records its pairs straight into its lease, and publishes
    // each range there as it finishes it (the calling thread copies it into the result while the
    // search runs: merge.ts, RangeGather). Once the lease runs out, the search grows into memory
    // of its own, and the ranges from there on are handed over at the end with the share — then
    // its found pairs as found (the table says where each range is).
    // (The search grows its arrays by doubling: it must be given room for a few pairs at least.)
    if (lease !== null && lease.byteLength >= 32 * MIN_FOUND) work.found = leaseArrays(lease);
    let full = work.found === undefined;
    work.onRange = (r, found) => {
      if (full || found.CI.buffer !== lease) {
        full = true;
        return;
      }
      Atomics.store(table, 4 * r + 3, PUBLISHED);
    };
    work.share = (found, m) => {
      // (Pairs recorded on the lease are never partitioned onto it.)
      if (work.ranged !== true) return partitionShare(found, m, zero, found.CI.buffer === lease ? null : lease, shift);
      return full ? copyShare(found, zero, null) : { ...arraysOn(lease, 0), off: new Int32Array(0) };
    };
  }
  if (job.trace !== undefined && job.trace !== null) Object.assign(work, marks(job.trace, job.slot));
  if (grid !== null) {
    work.plan = (seg, m, dead, bands) => sharedGridPlan(grid, seg, m, dead, bands, work.mark);
    work.wholeGrid = (plan) => sharedWholeGrid(grid, plan);
  }
  return work;
}
