/**
 * segmentDistancesParallel: a pair batch measured by the calling thread and worker threads
 * together, chunk by chunk from a shared counter.
 */
import { pairCount, segmentDistances } from '../batch/batch.js';
import { checkOptions } from '../core/options.js';
import { SkewlineInputError, describeValue } from '../core/primitives.js';
import { CHUNK, distanceChunks } from './distances-share.js';
import type { DistanceJob } from './distances-share.js';
import { now, postAll, replyError, serialMs } from './pool.js';
import type { Reply } from './pool.js';
import { threadCount } from './threads.js';
import { cpuSplit, parallelStats, threadCpuMs } from './stats.js';

/** Options of the parallel functions. */
export interface ParallelOptions {
  /**
   * Threads to use, the calling thread included: an integer ≥ 1. A request above the machine's
   * available parallelism (`os.availableParallelism()`) is reduced to it; 0, negatives,
   * fractions, NaN and ±∞ are errors. Absent: chosen from the
   * job's size, so that a small job runs on the calling thread alone and a parallel call is not
   * slower than one thread.
   */
  threads?: number;
}

/** Options of {@link segmentDistancesParallel}. */
export interface DistancesParallelOptions extends ParallelOptions {
  /**
   * Where the distances go (as segmentDistances' `out`): a Float64Array of length ≥ the number of
   * pairs, returned. On a SharedArrayBuffer (`new Float64Array(new SharedArrayBuffer(8 * n))`)
   * the threads write into it in place: a batch repeated into the same `out` touches no fresh
   * memory (fresh memory costs a page fault per 4 KiB, some 5% of a 3D batch). An ordinary
   * array is filled by one copy on the calling thread at the end.
   */
  out?: Float64Array;
}

const KEYS = ['threads', 'out'] as const;

/** Pairs per thread below which another thread does not pay for its round trip. */
const MIN_PAIRS = 4 * CHUNK;

/**
 * `segmentDistances` (from 'skewline') over several threads: the same layout and bit for bit
 * the same results, under any number of calls in flight. The calling thread measures chunks of
 * pairs alongside `threads − 1` workers (it is busy until the batch is done; the promise then
 * settles). Pairs in an array from {@link allocSharedPairs} (any SharedArrayBuffer) are read in
 * place; an ordinary array is first copied into shared memory — a serial pass on the calling
 * thread that costs about a third of the work, so use shared input for large batches.
 * A batch too small to share (about 65,536 pairs a thread) runs on the calling thread alone.
 * Each thread writes its chunks straight into the output; with `options.out` on a
 * SharedArrayBuffer that is the caller's array, reused call after call. Node.js only.
 * @returns a promise of one distance per pair: `options.out` when given; else a Float64Array
 * over a SharedArrayBuffer when workers took part, an ordinary one otherwise.
 * @throws (rejects with) SkewlineInputError as segmentDistances does (naming the first bad
 * pair's index in the whole batch), for an unknown option, a bad `threads` or an `out` that is
 * not a Float64Array of length ≥ the number of pairs; an Error if the
 * pool is closed or a worker dies during the call (the next call starts fresh workers).
 */
export async function segmentDistancesParallel(pairs: Float64Array, dim: number, options?: DistancesParallelOptions): Promise<Float64Array> {
  checkOptions(options, KEYS, 'segmentDistancesParallel');
  const n = pairCount(pairs, dim, 'segmentDistancesParallel');
  const given = options?.out;
  if (given !== undefined && (!(given instanceof Float64Array) || given.length < n)) {
    throw new SkewlineInputError(`segmentDistancesParallel: options.out must be a Float64Array of length ≥ ${n} (got ${describeValue(given)})`);
  }
  const threads = threadCount(options?.threads, n, MIN_PAIRS, 'segmentDistancesParallel');
  const t0 = now();
  const measure = parallelStats.measureCpu;
  const c0 = measure ? threadCpuMs() : 0;
  if (threads === 1) {
    const out = segmentDistances(pairs, dim, given);
    const t1 = now();
    const c = measure ? threadCpuMs() - c0 : NaN;
    parallelStats.set(1, t1 - t0, t1 - t0, measure ? { threadMs: [c], serialMs: c } : null);
    return out;
  }
  let input = pairs;
  if (!(pairs.buffer instanceof SharedArrayBuffer)) {
    input = new Float64Array(new SharedArrayBuffer(pairs.byteLength));
    input.set(pairs);
  }
  const job: DistanceJob = {
    kind: 'distances', input: input.buffer as SharedArrayBuffer, byteOffset: input.byteOffset, length: input.length,
    dim, n, counter: new SharedArrayBuffer(4),
    ...(given?.buffer instanceof SharedArrayBuffer ? { output: given.buffer, outOffset: given.byteOffset } : { output: new SharedArrayBuffer(8 * n), outOffset: 0 }),
  };
  const pending = postAll(threads - 1, { ...job });
  const s0 = measure ? threadCpuMs() : 0;
  const mine = distanceChunks(job);
  const ownMs = measure ? threadCpuMs() - s0 : 0;
  const replies = await Promise.all(pending);
  const t1 = now();
  parallelStats.set(threads, t1 - t0, serialMs(t0, t1, replies), measure ? cpuSplit(threadCpuMs() - c0, ownMs, replies) : null);
  // The first failing chunk is the one the serial function would have reported.
  let worst: { chunk: number; error: Error } | null = mine;
  for (const r of replies) {
    if (!r.ok && (worst === null || (r.chunk ?? -1) < worst.chunk)) worst = { chunk: r.chunk ?? -1, error: replyError(r) };
  }
  if (worst !== null) throw worst.error;
  const result = new Float64Array(job.output, job.outOffset, n);
  if (given === undefined) return result;
  if (given.buffer !== job.output) given.set(result);
  return given;
}

export type { Reply };
