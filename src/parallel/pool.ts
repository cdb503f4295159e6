/**
 * Batch distances on several cores (Node.js only): worker threads over SharedArrayBuffer, in a
 * small persistent pool (spawning a worker costs about as much as a million pairs).
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { pairCount } from '../batch/batch.js';
import { SkewlineInputError } from '../core/primitives.js';
import type { Job } from './worker.js';

const pool: Worker[] = [];

function worker(i: number): Worker {
  while (pool.length <= i) {
    const w = import.meta.url.endsWith('.ts')
      ? // Under a TypeScript runner (tests, benchmarks) the worker is TypeScript too: boot it
        // through tsx's loader (a worker's execArgv cannot carry --import in Node 20).
        new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); ` +
            `return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); });`,
          { eval: true },
        )
      : new Worker(new URL('./worker.js', import.meta.url));
    w.unref(); // an idle pool never keeps the process alive
    pool.push(w);
  }
  return pool[i];
}

function run(w: Worker, job: Job): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { ok: boolean; name?: string; message?: string }): void => {
      w.off('error', onError);
      w.unref();
      if (m.ok) resolve();
      else reject(m.name === 'SkewlineInputError' ? new SkewlineInputError(m.message ?? '') : new Error(m.message));
    };
    const onError = (e: Error): void => {
      w.off('message', onMessage);
      reject(e);
    };
    w.ref(); // keep the process alive while a job runs
    w.once('message', onMessage);
    w.once('error', onError);
    w.postMessage(job);
  });
}

/** Options of {@link segmentDistancesParallel}. */
export interface ParallelOptions {
  /**
   * Worker threads to use: an integer ≥ 1, default and cap the machine's available parallelism
   * (`os.availableParallelism()`; more threads than cores only add memory and switching). A
   * larger request is reduced to the cap; 0, negatives, fractions and NaN are errors.
   */
  threads?: number;
}

/**
 * `segmentDistances` (from 'skewline') split over worker threads: same layout, same results. The pairs are
 * read in place when `pairs` is a view of a SharedArrayBuffer; otherwise they are copied into
 * one first (a pass over the data). Pays off for large batches; for a few thousand pairs call
 * segmentDistances directly. Node.js only.
 * @returns a promise of a Float64Array over a SharedArrayBuffer, one distance per pair.
 * @throws (rejects with) SkewlineInputError as segmentDistances, naming the pair's index
 * within its worker's range.
 */
export async function segmentDistancesParallel(pairs: Float64Array, dim: number, options: ParallelOptions = {}): Promise<Float64Array> {
  const n = pairCount(pairs, dim, 'segmentDistancesParallel');
  const cap = maxThreads();
  const asked = options.threads ?? cap;
  if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1) {
    throw new SkewlineInputError(`segmentDistancesParallel: threads must be a positive integer (got ${String(asked)})`);
  }
  const threads = Math.min(asked, cap);
  let input = pairs;
  if (!(pairs.buffer instanceof SharedArrayBuffer)) {
    input = new Float64Array(new SharedArrayBuffer(pairs.byteLength));
    input.set(pairs);
  }
  const output = new SharedArrayBuffer(8 * n);
  const per = Math.ceil(n / threads);
  const jobs: Promise<void>[] = [];
  for (let i = 0, start = 0; start < n; i++, start += per) {
    jobs.push(
      run(worker(i), {
        input: input.buffer as SharedArrayBuffer,
        byteOffset: input.byteOffset,
        length: input.length,
        dim,
        start,
        end: Math.min(n, start + per),
        output,
      }),
    );
  }
  await Promise.all(jobs);
  return new Float64Array(output);
}

/** The most worker threads segmentDistancesParallel uses: the machine's available parallelism. */
export function maxThreads(): number {
  return Math.max(1, os.availableParallelism());
}

/** How many worker threads the pool holds now (they are created on first use, up to {@link maxThreads}). */
export function parallelPoolSize(): number {
  return pool.length;
}

/** Ends the pool's worker threads (they are idle and do not keep the process alive anyway). */
export async function closeParallelPool(): Promise<void> {
  await Promise.all(pool.splice(0).map((w) => w.terminate()));
}
