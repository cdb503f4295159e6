/**
 * The worker pool of skewline/parallel (Node.js only): a few persistent worker threads (spawning
 * one costs about as much as a million pairs), and jobs routed by id.
 *
 * The contract (after piscina's, Node's most used pool; no code taken from it):
 * - every job carries an id and its reply settles that job's promise only, so any number of
 *   calls may be in flight at once, from one thread or several;
 * - a worker runs its jobs one after another (its module scratch is never shared by two);
 * - a worker that dies (an uncaught error, `process.exit`, a terminate) rejects every job it
 *   held and leaves the pool; the next job starts a fresh one in its place;
 * - {@link closeParallelPool} rejects the jobs in flight with a clear error; the next call
 *   starts new workers.
 * Work is shared out by claiming items from a counter in shared memory, so a worker that starts
 * late (busy with another call's job) only takes fewer items: results never depend on who did what.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { SkewlineInputError } from '../core/primitives.js';
import type { PairShare } from '../chain/contacts.js';
import { parallelStats } from './stats.js';

/** What a worker is asked to do (see worker.ts); the pool adds `id`. */
export interface JobBase {
  kind: string;
  /** Report the worker's CPU time for this job (stats.ts). */
  cpu?: boolean;
  /** Test hook: 'exit' makes the worker exit on receipt, 'throw' throws outside the job's try. */
  fault?: 'exit' | 'throw';
}

/** A worker's answer to one job. */
export interface Reply {
  id: number;
  ok: boolean;
  name?: string;
  message?: string;
  share?: PairShare;
  /** For distance jobs: the first chunk that failed, with the message. */
  chunk?: number;
  /** When the worker started and ended the job (ms since the epoch, performance.timeOrigin + now). */
  t0: number;
  t1: number;
  /** The worker's thread id, and its CPU ms during the job (when the job asked for it: stats.ts). */
  thread?: number;
  cpu?: number;
}

interface Pending {
  resolve: (r: Reply) => void;
  reject: (e: Error) => void;
}

interface Slot {
  w: Worker;
  jobs: Map<number, Pending>;
  /** Why the worker ended when we ended it (closeParallelPool), to name in the rejections. */
  closing: string | null;
}

let slots: Slot[] = [];
let nextId = 1;

/** Test hook (not public): the fault the next posted job carries. */
export const poolTesting: { fault: JobBase['fault'] | null } = { fault: null };

function spawn(): Slot {
  const w = import.meta.url.endsWith('.ts')
    ? // Under a TypeScript runner (tests, benchmarks) the worker is TypeScript too: boot it
      // through tsx's loader (a worker's execArgv cannot carry --import in Node 20).
      new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); ` +
          `return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); });`,
        { eval: true },
      )
    : new Worker(new URL('./worker.js', import.meta.url));
  const slot: Slot = { w, jobs: new Map(), closing: null };
  w.unref(); // an idle pool never keeps the process alive
  w.on('message', (m: Reply) => {
    const p = slot.jobs.get(m.id);
    if (p === undefined) return;
    slot.jobs.delete(m.id);
    if (slot.jobs.size === 0) w.unref();
    p.resolve(m);
  });
  const fail = (why: string): void => {
    const k = slots.indexOf(slot);
    if (k >= 0) slots.splice(k, 1); // heal: the next job spawns a fresh worker
    const err = new Error(slot.closing ?? why);
    for (const p of slot.jobs.values()) p.reject(err);
    slot.jobs.clear();
  };
  w.on('error', (e: Error) => fail(`skewline/parallel: a worker thread failed (${e.message}); the call was abandoned`));
  w.on('exit', (code: number) => fail(`skewline/parallel: a worker thread exited (code ${code}) during the call`));
  return slot;
}

/**
 * The `count` least busy workers (spawned up to `count`). Workers are shared by every call in
 * flight; a busy one still gets the job and claims whatever is left when it gets to it.
 */
function pick(count: number): Slot[] {
  while (slots.length < count) slots.push(spawn());
  return slots.slice().sort((a, b) => a.jobs.size - b.jobs.size).slice(0, count);
}

/** Posts `job` to a worker; the promise settles with that job's reply only. */
export function post(slot: Slot, job: JobBase & Record<string, unknown>): Promise<Reply> {
  const id = nextId++;
  return new Promise<Reply>((resolve, reject) => {
    slot.jobs.set(id, { resolve, reject });
    slot.w.ref(); // keep the process alive while a job runs
    const fault = poolTesting.fault;
    poolTesting.fault = null;
    const msg: JobBase & Record<string, unknown> = { ...job, id };
    if (fault !== null && fault !== undefined) msg.fault = fault;
    if (parallelStats.measureCpu) msg.cpu = true;
    slot.w.postMessage(msg);
  });
}

/** Posts one job to each of `count` workers (see {@link pick}): `job`, or `job(k)` for the k-th. */
export function postAll(count: number, job: (JobBase & Record<string, unknown>) | ((k: number) => JobBase & Record<string, unknown>)): Promise<Reply>[] {
  return pick(count).map((s, k) => post(s, typeof job === 'function' ? job(k) : job));
}

/** A worker's failure as the caller sees it: input errors keep their class. */
export function replyError(r: Reply): Error {
  return r.name === 'SkewlineInputError' ? new SkewlineInputError(r.message ?? '') : new Error(r.message);
}

/** The most threads a parallel call uses: the machine's available parallelism. */
export function maxThreads(): number {
  return Math.max(1, os.availableParallelism());
}

/** How many worker threads the pool holds now (they are created on first use, up to {@link maxThreads} − 1). */
export function parallelPoolSize(): number {
  return slots.length;
}

/**
 * Ends the pool's worker threads. Calls in flight reject with an Error saying the pool was
 * closed; the next call starts new workers. Idle workers do not keep the process alive, so
 * closing is only needed to free their memory (each keeps its own working memory).
 */
export async function closeParallelPool(): Promise<void> {
  const old = slots;
  slots = [];
  for (const s of old) {
    s.closing = 'skewline/parallel: the pool was closed (closeParallelPool) while the call ran';
    // Settled now, not when the exit event comes: a reply already on its way must not win.
    const err = new Error(s.closing);
    for (const p of s.jobs.values()) p.reject(err);
    s.jobs.clear();
  }
  await Promise.all(old.map((s) => s.w.terminate()));
}

/**
 * Time on the calling thread while no worker ran, in ms: the call's span [t0, t1] less the
 * union of the workers' busy spans (all in ms since the epoch). Amdahl's serial part.
 */
export function serialMs(t0: number, t1: number, replies: readonly Reply[]): number {
  const spans = replies.map((r) => [Math.max(t0, r.t0), Math.min(t1, r.t1)] as const).filter(([a, b]) => b > a).sort((a, b) => a[0] - b[0]);
  let busy = 0, end = t0;
  for (const [a, b] of spans) {
    if (b <= end) continue;
    busy += b - Math.max(a, end);
    end = b;
  }
  return t1 - t0 - busy;
}

/** The clock shared by the threads: ms since the epoch. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}
