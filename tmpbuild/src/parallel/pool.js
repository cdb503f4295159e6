/**
 * Batch distances on several cores (Node.js only): worker threads over SharedArrayBuffer, in a
 * small persistent pool (spawning a worker costs about as much as a million pairs).
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { pairCount } from '../batch/batch.js';
import { SkewlineInputError } from '../core/primitives.js';
import { mergeShares, prepareShares } from '../chain/contacts.js';
const pool = [];
function worker(i) {
    while (pool.length <= i) {
        const w = import.meta.url.endsWith('.ts')
            ? // Under a TypeScript runner (tests, benchmarks) the worker is TypeScript too: boot it
                // through tsx's loader (a worker's execArgv cannot carry --import in Node 20).
                new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); ` +
                    `return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); });`, { eval: true })
            : new Worker(new URL('./worker.js', import.meta.url));
        w.unref(); // an idle pool never keeps the process alive
        pool.push(w);
    }
    return pool[i];
}
function run(w, job) {
    return new Promise((resolve, reject) => {
        const onMessage = (m) => {
            w.off('error', onError);
            w.unref();
            if (m.ok)
                resolve(m);
            else
                reject(m.name === 'SkewlineInputError' ? new SkewlineInputError(m.message ?? '') : new Error(m.message));
        };
        const onError = (e) => {
            w.off('message', onMessage);
            reject(e);
        };
        w.ref(); // keep the process alive while a job runs
        w.once('message', onMessage);
        w.once('error', onError);
        w.postMessage(job);
    });
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
export async function segmentDistancesParallel(pairs, dim, options = {}) {
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
    const jobs = [];
    for (let i = 0, start = 0; start < n; i++, start += per) {
        jobs.push(run(worker(i), {
            input: input.buffer,
            byteOffset: input.byteOffset,
            length: input.length,
            dim,
            start,
            end: Math.min(n, start + per),
            output,
        }));
    }
    await Promise.all(jobs);
    return new Float64Array(output);
}
function threadCount(options, what) {
    const cap = maxThreads();
    const asked = options.threads ?? cap;
    if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1) {
        throw new SkewlineInputError(`${what}: threads must be a positive integer (got ${String(asked)})`);
    }
    return Math.min(asked, cap);
}
function share(C) {
    const copy = (a) => {
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
 * kernel). The chain is copied once into shared memory; each thread builds the hierarchy and
 * claims work items (independent node pairs of the dual traversal) from a shared counter, so
 * a crowded part of the chain does not leave the other threads idle. Worth it from about
 * 10⁵ segments; below that, call chainContacts. Node.js only.
 * @throws (rejects with) SkewlineInputError as chainContacts does, or for a bad `threads`.
 */
export async function chainContactsParallel(points, options = {}) {
    const threads = threadCount(options, 'chainContactsParallel');
    const { A, B, tau, folds } = prepareShares(points, options);
    const sa = share(A);
    const sb = B === null ? null : share(B);
    const counter = new SharedArrayBuffer(4);
    const want = 64 * threads;
    const replies = await Promise.all(Array.from({ length: threads }, (_, i) => run(worker(i), { kind: 'chain', A: sa, B: sb, tau, counter, want })));
    return mergeShares(A, B, [folds, ...replies.map((r) => r.share)]);
}
/** The most worker threads segmentDistancesParallel uses: the machine's available parallelism. */
export function maxThreads() {
    return Math.max(1, os.availableParallelism());
}
/** How many worker threads the pool holds now (they are created on first use, up to {@link maxThreads}). */
export function parallelPoolSize() {
    return pool.length;
}
/** Ends the pool's worker threads (they are idle and do not keep the process alive anyway). */
export async function closeParallelPool() {
    await Promise.all(pool.splice(0).map((w) => w.terminate()));
}
