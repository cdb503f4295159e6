/**
 * Worker side of skewline/parallel: claims chunks of a pair batch ({@link segmentDistancesParallel})
 * or work items of a chain search ({@link chainContactsParallel}) from a counter in shared
 * memory, and answers each job by its id. Jobs run one after another in a worker, so its module
 * scratch (the chain search's, the batch's) serves one job at a time.
 */
import { parentPort, threadId } from 'node:worker_threads';
import { searchShare } from '../chain/contacts.js';
import type { SharedBuild } from '../chain/contacts.js';
import type { PreparedChain } from '../chain/input.js';
import { distanceChunks } from './distances-share.js';
import { mergeRanges } from './merge.js';
import { chainWork } from './chain-work.js';
import type { SharedGridPlan } from './grid-plan.js';
import { threadCpuMs } from './stats.js';
import type { MergeJob } from './merge.js';
import type { DistanceJob } from './distances-share.js';

/** A chain as shared memory: what the search needs of a PreparedChain. */
export interface SharedChain {
  P: SharedArrayBuffer;
  /** Where the vertices start in P (bytes) and how many numbers there are. */
  byteOffset: number;
  length: number;
  dim: number;
  m: number;
  /** False: nobody validated the vertices (the threads do while they build). */
  checked: boolean;
  partner: SharedArrayBuffer | null;
  dead: SharedArrayBuffer | null;
  start: SharedArrayBuffer;
}

/** A chain job: claim work items through `counter` until none are left. */
export interface ChainJob {
  kind: 'chain';
  A: SharedChain;
  B: SharedChain | null;
  tau: number;
  counter: SharedArrayBuffer;
  want: number;
  /** The merge's range width, log₂ (the same in every thread of the call: merge.ts). */
  shift: number;
  /** The boxes, built together (views of shared memory). */
  build: SharedBuild;
  /** The 2D grid's plan, built together (a planar chain at thickness 0), or null. */
  grid: SharedGridPlan | null;
  /** Memory this thread's share may use (when large enough: merge.ts, partitionShare), or null. */
  lease: SharedArrayBuffer | null;
  /** This thread's slot in a search in chain order (0: the calling thread; chains.ts). */
  slot: number;
  /** The call's timeline (timeline.ts), or null: not traced. */
  trace?: Float64Array | null;
}

/** The prepared chain a worker searches, over the caller's shared memory (no copy). */
export function chainOf(c: SharedChain): PreparedChain {
  return {
    P: new Float64Array(c.P, c.byteOffset, c.length),
    dim: c.dim,
    m: c.m,
    checked: c.checked,
    partner: c.partner === null ? null : new Int32Array(c.partner),
    dead: c.dead === null ? null : new Uint8Array(c.dead),
    start: new Int32Array(c.start),
    orig: new Int32Array(0),
    chain: new Int32Array(0),
    segments: new Int32Array(0),
  };
}

function now(): number {
  return performance.timeOrigin + performance.now();
}

type Message = (DistanceJob | ChainJob | MergeJob) & { id: number; fault?: 'exit' | 'throw'; cpu?: boolean };

parentPort?.on('message', (job: Message) => {
  if (job.fault === 'exit') process.exit(3); // test hook: a worker that dies mid-call
  if (job.fault === 'throw') throw new Error('injected fault'); // test hook: an uncaught error
  const t0 = now();
  const c0 = job.cpu === true ? threadCpuMs() : 0;
  // The reply's timing: the job's span, and with job.cpu this thread's CPU during it.
  const span = (): { t0: number; t1: number; thread?: number; cpu?: number } => (job.cpu === true ? { t0, t1: now(), thread: threadId, cpu: threadCpuMs() - c0 } : { t0, t1: now() });
  try {
    if (job.kind === 'chain') {
      const work = chainWork(job, false);
      work.mark?.('start');
      const share = searchShare(chainOf(job.A), job.B === null ? null : chainOf(job.B), job.tau, work);
      // (a share on SharedArrayBuffers, as the parallel merge needs, is shared, not moved)
      const transfer = [share.CI.buffer, share.CJ.buffer, share.distance.buffer, share.s.buffer, share.t.buffer].filter((b) => b instanceof ArrayBuffer);
      work.mark?.('share');
      parentPort?.postMessage({ id: job.id, ok: true, share, ...span() }, transfer);
      return;
    }
    if (job.kind === 'merge') {
      mergeRanges(job);
      parentPort?.postMessage({ id: job.id, ok: true, ...span() });
      return;
    }
    const failed = distanceChunks(job);
    if (failed === null) parentPort?.postMessage({ id: job.id, ok: true, ...span() });
    else parentPort?.postMessage({ id: job.id, ok: false, name: failed.error.name, message: failed.error.message, chunk: failed.chunk, ...span() });
  } catch (e) {
    const err = e as Error;
    parentPort?.postMessage({ id: job.id, ok: false, name: err.name, message: err.message, ...span() });
  }
});
