/**
 * skewline/parallel under concurrency (issue 15): results identical to one thread, bit for bit,
 * with calls in flight together, interleaved with the single-thread functions that share module
 * scratch, from a worker thread, with the pool closed mid-call, and with a worker that dies.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { chainContacts, segmentDistances, SkewlineInputError } from '../../src/index.js';
import type { ChainContacts } from '../../src/index.js';
import {
  allocSharedChain, allocSharedPairs, chainContactsParallel, closeParallelPool, maxThreads, parallelPoolSize, segmentDistancesParallel,
} from '../../src/parallel/index.js';
import { poolTesting } from '../../src/parallel/pool.js';
import { randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';
import { expectSameContacts } from '../support/same-contacts.js';

afterAll(closeParallelPool);

/** n 3D pairs of unit segments along x, the second `gap` away in y (every distance exactly gap), shifted along z by the index. */
function gapPairs(n: number, gap: number): Float64Array {
  const P = new Float64Array(12 * n);
  for (let i = 0; i < n; i++) {
    const o = 12 * i, z = i % 1000;
    P.set([0, 0, z, 1, 0, z, 0.5, gap, z, 1.5, gap, z], o);
  }
  return P;
}

function sameBits(a: Float64Array, b: Float64Array, label: string): void {
  expect(b.length, label).toBe(a.length);
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) throw new Error(`${label}: element ${k}: ${b[k]} instead of ${a[k]}`);
}

const N = 150_000; // enough pairs for every core of a small machine (65,536 a thread)
const A = gapPairs(N, 1), B = gapPairs(N, 2);
const W3 = randomWalk(60_000, 3, makeRng(1501)), W2 = randomWalk(60_000, 2, makeRng(1502));
const T3 = { dim: 3, thickness: 0.2 }, T2 = { dim: 2 };

describe('skewline/parallel under concurrency', () => {
  it('issue 15: Promise.all of two segmentDistancesParallel calls (every distance 1 or 2) returns each its own distances, and later calls too', async () => {
    const [a, b] = await Promise.all([segmentDistancesParallel(A, 3, { threads: 3 }), segmentDistancesParallel(B, 3, { threads: 3 })]);
    sameBits(segmentDistances(A, 3), a, 'A');
    sameBits(segmentDistances(B, 3), b, 'B');
    expect(b[N - 1]).toBe(2);
    const again = await segmentDistancesParallel(B, 3, { threads: 2 });
    sameBits(b, again, 'B later');
  });

  it('issue 15: two chainContactsParallel calls at once return chainContacts’ contacts, and a later call too (seeds 1501, 1502)', async () => {
    const [p, q] = await Promise.all([chainContactsParallel(W3, { ...T3, threads: 2 }), chainContactsParallel(W2, { ...T2, threads: 2 })]);
    expectSameContacts(chainContacts(W3, T3), p, '3D walk, seed 1501');
    expectSameContacts(chainContacts(W2, T2), q, '2D walk, seed 1502');
    expectSameContacts(chainContacts(W2, T2), await chainContactsParallel(W2, { ...T2, threads: 2 }), '2D walk later');
  });

  it('issue 15: many calls of both kinds in flight, interleaved with chainContacts and segmentDistances on the calling thread (seed 1503)', async () => {
    const W = randomWalk(60_000, 3, makeRng(1503));
    const calls = [
      chainContactsParallel(W3, { ...T3, threads: 2 }), segmentDistancesParallel(A, 3, { threads: 2 }),
      chainContactsParallel(W, { ...T3, threads: 2 }), segmentDistancesParallel(B, 3, { threads: 2 }),
      chainContactsParallel(W2, { ...T2, threads: 2 }),
    ];
    // The single-thread functions between the calls, on their module scratch, while workers run.
    const single = chainContacts(W, T3);
    const dB = segmentDistances(B, 3);
    const [c3, dA, cW, dB2, c2] = await Promise.all(calls);
    expectSameContacts(chainContacts(W3, T3), c3 as ChainContacts, 'W3');
    expectSameContacts(single, cW as ChainContacts, 'W');
    expectSameContacts(chainContacts(W2, T2), c2 as ChainContacts, 'W2');
    sameBits(segmentDistances(A, 3), dA as Float64Array, 'A');
    sameBits(dB, dB2 as Float64Array, 'B');
  });

  it('issue 15: calls from a worker thread while the main thread calls too (seed 1504)', async () => {
    const src = new URL('../../src/parallel/index.ts', import.meta.url).href;
    const code = `
      const { parentPort } = await import('node:worker_threads');
      const m = await import(${JSON.stringify(src)});
      const { randomWalk } = await import(${JSON.stringify(new URL('../support/walks.ts', import.meta.url).href)});
      const { makeRng } = await import(${JSON.stringify(new URL('../support/rng.ts', import.meta.url).href)});
      const W = randomWalk(60000, 3, makeRng(1504));
      const c = await m.chainContactsParallel(W, { dim: 3, thickness: 0.2, threads: 2 });
      await m.closeParallelPool();
      parentPort.postMessage({ count: c.count, i: c.i, j: c.j, d: c.distance });`;
    const w = new Worker(
      `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((t) => { t.register(); return import('data:text/javascript,' + encodeURIComponent(${JSON.stringify(code)})); });`,
      { eval: true },
    );
    const fromWorker = new Promise<{ count: number; i: Int32Array; j: Int32Array; d: Float64Array }>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
    const mine = await chainContactsParallel(W3, { ...T3, threads: 2 });
    const r = await fromWorker;
    await w.terminate();
    expectSameContacts(chainContacts(W3, T3), mine, 'main thread');
    const ref = chainContacts(randomWalk(60_000, 3, makeRng(1504)), T3);
    expect(r.count).toBe(ref.count);
    sameBits(ref.distance, r.d, 'worker thread distances');
    expect(Array.from(r.j)).toEqual(Array.from(ref.j));
  });

  it('issue 15: closing the pool mid-call rejects that call clearly, and the next call works', async () => {
    const p = segmentDistancesParallel(A, 3, { threads: 2 });
    const q = chainContactsParallel(W3, { ...T3, threads: 2 });
    const checks = [expect(p).rejects.toThrow(/pool was closed/), expect(q).rejects.toThrow(/pool was closed/)];
    await closeParallelPool();
    await Promise.all(checks);
    sameBits(segmentDistances(A, 3), await segmentDistancesParallel(A, 3, { threads: 2 }), 'after close');
    expectSameContacts(chainContacts(W3, T3), await chainContactsParallel(W3, { ...T3, threads: 2 }), 'chain after close');
  });

  it('issue 15: a worker that dies (exits, or throws outside a job) rejects the call, and the pool heals', async () => {
    for (const fault of ['exit', 'throw'] as const) {
      poolTesting.fault = fault;
      await expect(segmentDistancesParallel(A, 3, { threads: 2 })).rejects.toThrow(/worker thread (exited|failed)/);
      sameBits(segmentDistances(B, 3), await segmentDistancesParallel(B, 3, { threads: 2 }), `after ${fault}`);
      poolTesting.fault = fault;
      await expect(chainContactsParallel(W2, { ...T2, threads: 2 })).rejects.toThrow(/worker thread (exited|failed)/);
      expectSameContacts(chainContacts(W2, T2), await chainContactsParallel(W2, { ...T2, threads: 2 }), `chain after ${fault}`);
      expect(parallelPoolSize()).toBeLessThanOrEqual(maxThreads());
    }
  });
});

describe('skewline/parallel input and options', () => {
  it('issue 15: shared input (allocSharedPairs, allocSharedChain) is read in place with the same bits', async () => {
    const S = allocSharedPairs(N, 3);
    S.set(B);
    expect(S.buffer).toBeInstanceOf(SharedArrayBuffer);
    sameBits(segmentDistances(B, 3), await segmentDistancesParallel(S, 3, { threads: 2 }), 'shared pairs');
    const C = allocSharedChain(W3.length / 3, 3);
    C.set(W3);
    expectSameContacts(chainContacts(W3, T3), await chainContactsParallel(C, { ...T3, threads: 2 }), 'shared chain');
    expect(() => allocSharedPairs(-1, 3)).toThrow(SkewlineInputError);
    expect(() => allocSharedPairs(2.5, 3)).toThrow(/n must be an integer/);
    expect(() => allocSharedChain(10, 1)).toThrow(/dim must be an integer ≥ 2/);
  });

  it('issue 15: threads 0, NaN, 2.5, −1, ∞, "2" are errors; 64 is capped at the cores; unknown options are errors', async () => {
    for (const bad of [0, NaN, 2.5, -1, Infinity, '2' as unknown as number]) {
      await expect(segmentDistancesParallel(A, 3, { threads: bad })).rejects.toThrow(/options\.threads must be a positive integer/);
      await expect(chainContactsParallel(W2, { ...T2, threads: bad })).rejects.toThrow(/options\.threads must be a positive integer/);
    }
    sameBits(segmentDistances(A, 3), await segmentDistancesParallel(A, 3, { threads: 64 }), '64 threads');
    expect(parallelPoolSize()).toBeLessThan(maxThreads());
    await expect(segmentDistancesParallel(A, 3, { thread: 2 } as object)).rejects.toThrow(/unknown option "thread"/);
    await expect(chainContactsParallel(W2, { ...T2, thicknes: 1 } as object)).rejects.toThrow(/unknown option "thicknes"/);
  });

  it('issue 15: a bad pair deep in a parallel batch is named by its index in the whole batch', async () => {
    const bad = B.slice();
    const pair = N - 5;
    bad[12 * pair + 7] = NaN;
    const serial = (() => { try { segmentDistances(bad, 3); return ''; } catch (e) { return (e as Error).message; } })();
    expect(serial).toMatch(new RegExp(`index ${12 * pair}`));
    await expect(segmentDistancesParallel(bad, 3, { threads: 2 })).rejects.toThrow(new RegExp(`index ${12 * pair}\\b`));
    await expect(segmentDistancesParallel(bad, 3, { threads: 2 })).rejects.toThrow(SkewlineInputError);
  });

  it('issue 15: without threads, small jobs run on the calling thread alone; threads 1 always does', async () => {
    await closeParallelPool();
    sameBits(segmentDistances(A, 3), await segmentDistancesParallel(A, 3, { threads: 1 }), 'threads 1');
    expectSameContacts(chainContacts(W3, T3), await chainContactsParallel(W3, { ...T3, threads: 1 }), 'chain, threads 1');
    const small = gapPairs(1000, 1);
    sameBits(segmentDistances(small, 3), await segmentDistancesParallel(small, 3), 'small batch');
    expectSameContacts(chainContacts(W2.subarray(0, 2000), T2), await chainContactsParallel(W2.subarray(0, 2000), T2), 'small chain');
    expect(parallelPoolSize()).toBe(0);
  });
});
