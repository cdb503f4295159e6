/**
 * One thread's work in a parallel chain search, alike for the calling thread and the workers
 * (kept out of worker.ts, whose import starts listening for jobs).
 */
import type { ParallelWork } from '../chain/contacts.js';
import { sharedGridPlan, sharedWholeGrid } from './grid-plan.js';
import { copyShare, partitionShare } from './merge.js';
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
    // A search in chain order hands over its pairs as found (its ranges' table says where); else partitioned for the merge.
    share: (found, m) => (work.ranged === true ? copyShare(found, zero, lease) : partitionShare(found, m, zero, lease, shift)),
  };
  if (grid !== null) {
    work.plan = (seg, m, dead, bands) => sharedGridPlan(grid, seg, m, dead, bands);
    work.wholeGrid = (plan) => sharedWholeGrid(grid, plan);
  }
  return work;
}
