/**
 * Batch distances on several cores (Node.js only): worker threads over SharedArrayBuffer, in a
 * small persistent pool (spawning a worker costs about as much as a million pairs).
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { pairCount } from '../batch/batch.js';
import { SkewlineInputError } from '../core/primitives.js';
import type { ChainJob, Job, SharedChain } from './worker.js';
import { mergeShares, prepareShares, searchShare } from '../chain/contacts.js';
import type { ChainContacts, ChainOptions, PairShare } from '../chain/contacts.js';
import type { ChainPoints, PreparedChain } from '../chain/input.js';

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

interface Reply {
  ok: boolean;
  name?: string;
  message?: string;
  share?: PairShare;
}

function run(w: Worker, job: Job | ChainJob): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Reply): void => {
      w.off('error', onError);
      w.unref();
      if (m.ok) resolve(m);
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
  const jobs: Promise<Reply>[] = [];
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

function threadCount(options: ParallelOptions, what: string): number {
  const cap = maxThreads();
  const asked = options.threads ?? cap;
  if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1) {
    throw new SkewlineInputError(`${what}: threads must be a positive integer (got ${String(asked)})`);
  }
  return Math.min(asked, cap);
}

function share(C: PreparedChain): SharedChain {
  const copy = <T extends Float64Array | Int32Array | Uint8Array>(a: T): SharedArrayBuffer => {
    const buf = new SharedArrayBuffer(a.byteLength);
    new Uint8Array(buf).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    return buf;
  };
  return {
    P: copy(C.P),
    dim: C.dim,
    m: C.m,
    partner: C.partner === null ? null : copy(C.partner),
    dead: C.dead === null ? null : copy(C.dead),
    start: copy(C.start),
  };
}

/**
 * `chainContacts` (from 'skewline') with the search split over worker threads: the same
 * options, and the same result — the same pairs in the same order with bitwise the same
 * distances and parameters (every pair is found by exactly one thread and measured by the same
 * kernel). The chain is copied once into shared memory; `threads − 1` workers and the calling
 * thread each build the hierarchy and claim work items (independent node pairs of the dual
 * traversal; for a crowded planar chain at thickness 0, bands of grid columns, each built by the
 * thread that claims it) from a shared counter, so a crowded part of the chain leaves no thread
 * idle. Each thread sorts its own contacts; the calling thread merges them. It is busy with its
 * share until the search ends. Worth it from about 10⁵ segments; below that, call
 * chainContacts. Node.js only.
 * @throws (rejects with) SkewlineInputError as chainContacts does, or for a bad `threads`.
 */
export async function chainContactsParallel(points: ChainPoints, options: ChainOptions & ParallelOptions = {}): Promise<ChainContacts> {
  const threads = threadCount(options, 'chainContactsParallel');
  const { A, B, tau } = prepareShares(points, options);
  const sa = share(A);
  const sb = B === null ? null : share(B);
  const counter = new SharedArrayBuffer(4);
  const want = 64 * threads;
  // threads − 1 workers, and this thread as the last searcher: it builds its own hierarchy while
  // the workers build theirs, then claims work items from the same counter.
  const pending = Array.from({ length: threads - 1 }, (_, i) => run(worker(i), { kind: 'chain', A: sa, B: sb, tau, counter, want }));
  const mine = searchShare(A, B, tau, { counter: new Int32Array(counter), want, folds: true });
  const replies = await Promise.all(pending);
  return mergeShares(A, B, [mine, ...replies.map((r) => r.share!)], tau === 0);
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
