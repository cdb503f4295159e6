/**
 * Caller-owned result buffers (`into`, issue 15): chainContacts and chainContactsParallel write
 * into the caller's arrays the same bits they return without `into`, grow them only when too
 * small, and refuse an `into` that is bad or in use by a call in flight.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chainContacts, SkewlineInputError } from '../../src/index.js';
import type { ChainContacts, ChainContactsOptions } from '../../src/index.js';
import { chainContactsParallel, closeParallelPool } from '../../src/parallel/index.js';
import { poolTesting } from '../../src/parallel/pool.js';
import { chainSearch } from '../../src/parallel/chains.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';
import { expectSameContacts } from '../support/same-contacts.js';

afterAll(closeParallelPool);

/** The first `count` entries of b equal a's, bit for bit (a: a result without `into`). */

/** An `into` of n entries full of garbage (NaN distances, wrong indices), as a previous call might leave it. */
function dirty(n: number): ChainContacts {
  const c: ChainContacts = { count: 0, i: new Int32Array(n).fill(-7), j: new Int32Array(n).fill(-9), distance: new Float64Array(n).fill(NaN), s: new Float64Array(n).fill(-1), t: new Float64Array(n).fill(2) };
  return c;
}

const W2 = randomWalk(30_000, 2, makeRng(1511)), W3 = randomWalk(30_000, 3, makeRng(1512));
const G2 = gridWalk(20_000, 2, makeRng(1513)), G3 = gridWalk(20_000, 3, makeRng(1514));
const T2 = { dim: 2 }, T3 = { dim: 3, thickness: 0.2 };

/** The option sets the one-thread search takes different paths for (grid in order, block grid, hierarchy, against, closed with dropped vertices). */
const CASES: [string, Float64Array, ChainContactsOptions][] = [
  ['2D random walk, τ 0 (grid, in order)', W2, T2],
  ['2D random walk, τ 0.05 (hierarchy)', W2, { dim: 2, thickness: 0.05 }],
  ['3D random walk, τ 0.2 (block grid)', W3, T3],
  ['3D random walk closed, τ 0.1 (fold-backs, a ring)', W3, { dim: 3, thickness: 0.1, closed: true }],
  ['2D grid walk, τ 0 (fold-backs, overlaps)', G2, T2],
  ['3D grid walk, τ 0.3 closed', G3, { dim: 3, thickness: 0.3, closed: true }],
  ['2D walk against a grid walk, τ 0', W2.subarray(0, 10_000), { dim: 2, against: G2 }],
  ['2D grid walk with repeated vertices (indices mapped)', repeatVertices(G2, 2, 97), T2],
];

/** The chain with every k-th vertex repeated (zero-length segments: compact indices ≠ input indices). */
function repeatVertices(P: Float64Array, dim: number, k: number): Float64Array {
  const n = P.length / dim, out: number[] = [];
  for (let v = 0; v < n; v++) {
    for (let r = 0; r < (v % k === 5 ? 2 : 1); r++) for (let c = 0; c < dim; c++) out.push(P[v * dim + c]);
  }
  return Float64Array.from(out);
}

describe('chainContacts with into', () => {
  it('issue 15 into: chainContacts writes the same bits into a dirty, large enough into, returns it and keeps its arrays (seeds 1511–1514)', () => {
    for (const [label, P, opts] of CASES) {
      const ref = chainContacts(P, opts);
      expect(ref.count, label).toBeGreaterThan(0);
      const into = dirty(ref.count + 100);
      const arrays = [into.i, into.j, into.distance, into.s, into.t];
      const got = chainContacts(P, { ...opts, into });
      expect(got, label).toBe(into);
      expect(arrays.every((a, k) => a === [got.i, got.j, got.distance, got.s, got.t][k]), label).toBe(true);
      expectSameContacts(ref, got, label);
    }
  });

  it('issue 15 into: a too-small into is grown (new arrays, in into too), a smaller result reuses them and sets count', () => {
    const ref2 = chainContacts(W2, T2), ref3 = chainContacts(W3, T3);
    const into = dirty(10);
    const old = into.i;
    const a = chainContacts(W2, { ...T2, into });
    expect(a).toBe(into);
    expect(into.i).not.toBe(old);
    expect(into.i.length).toBeGreaterThanOrEqual(ref2.count);
    expectSameContacts(ref2, a, '2D grown');
    const kept = into.s;
    into.distance.fill(NaN); // entries past count are unspecified; a thickness-0 call still zeroes its own
    const small = chainContacts(W2.subarray(0, 2 * 5000), { ...T2, into });
    expect(small.s).toBe(kept);
    expectSameContacts(chainContacts(W2.subarray(0, 2 * 5000), T2), small, 'smaller');
    if (ref3.count <= into.i.length) {
      expectSameContacts(ref3, chainContacts(W3, { ...T3, into }), '3D in the same into');
      expect(into.s).toBe(kept);
    }
  });

  it('issue 15 into: a bad into is a SkewlineInputError naming what is wrong', () => {
    const ok = dirty(8);
    const bad: [unknown, RegExp][] = [
      [null, /options\.into must be a ChainContacts object/],
      [[1, 2], /options\.into must be a ChainContacts object/],
      [{ ...ok, i: new Float64Array(8) }, /options\.into\.i must be an Int32Array/],
      [{ ...ok, distance: new Float32Array(8) }, /options\.into\.distance must be a Float64Array/],
      [{ ...ok, t: undefined }, /options\.into\.t must be a Float64Array/],
      [{ ...ok, t: ok.s }, /options\.into\.s and options\.into\.t share memory/],
      [{ ...ok, t: new Float64Array(ok.s.buffer, 8, 4) }, /options\.into\.s and options\.into\.t share memory/],
      [{ ...ok, s: W2 }, /options\.into\.s shares memory with the input chain/],
    ];
    for (const [into, msg] of bad) {
      expect(() => chainContacts(W2, { ...T2, into: into as ChainContacts })).toThrow(SkewlineInputError);
      expect(() => chainContacts(W2, { ...T2, into: into as ChainContacts })).toThrow(msg);
    }
    expect(() => chainContacts(W2.subarray(0, 200), { dim: 2, against: G2, into: { ...ok, distance: new Float64Array(G2.buffer, 0, 8) } })).toThrow(/shares memory with the input chain/);
    // chainCollisions has no into.
    expect(() => chainContacts(W2, { ...T2, into: ok, intoo: 1 } as object)).toThrow(/unknown option "intoo".*into/);
  });
});

describe('chainContactsParallel with into', () => {
  it('issue 15 into: chainContactsParallel (2 and 3 threads) writes chainContacts’ bits into a dirty into and keeps its arrays, call after call', async () => {
    for (const [label, P, opts] of CASES) {
      const ref = chainContacts(P, opts);
      const into = dirty(ref.count + 1);
      const s = into.s;
      for (const threads of [2, 3, 2]) {
        into.distance.fill(NaN);
        into.i.fill(-1);
        const got = await chainContactsParallel(P, { ...opts, threads, into });
        expect(got, label).toBe(into);
        expect(got.s, label).toBe(s);
        expectSameContacts(ref, got, `${label}, ${threads} threads`);
      }
    }
  });

  it('issue 15 into: the planar search in chain order and by bands + merge both write into the caller’s arrays (seeds 1511, 1513)', async () => {
    for (const inOrder of [true, false]) {
      chainSearch.inOrder = inOrder;
      try {
        for (const [label, P] of [['random walk', W2], ['grid walk', G2]] as const) {
          const ref = chainContacts(P, T2);
          for (const size of [ref.count, 3]) {
            const into = dirty(size);
            const s = into.s;
            const got = await chainContactsParallel(P, { ...T2, threads: 2, into });
            expect(chainSearch.lastInOrder, label).toBe(inOrder);
            expect(got).toBe(into);
            expect(into.s === s, `${label}: arrays kept when large enough`).toBe(size >= ref.count);
            expectSameContacts(ref, got, `${label}, ${inOrder ? 'in chain order' : 'by bands'}, into of ${size}`);
          }
        }
      } finally {
        chainSearch.inOrder = true;
      }
    }
  });

  it('issue 15 into: chainContactsParallel grows a too-small into, and threads 1 takes into too', async () => {
    const ref = chainContacts(W2, T2);
    const into = dirty(1);
    expectSameContacts(ref, await chainContactsParallel(W2, { ...T2, threads: 2, into }), 'grown');
    expect(into.count).toBe(ref.count);
    expect(into.i.length).toBeGreaterThanOrEqual(ref.count);
    const one = dirty(ref.count);
    expect(await chainContactsParallel(W2, { ...T2, threads: 1, into: one })).toBe(one);
    expectSameContacts(ref, one, 'threads 1');
  });

  it('issue 15 into: calls in flight with their own into each get their own contacts; the same into in flight twice is refused, and free once settled', async () => {
    const r2 = chainContacts(W2, T2), r3 = chainContacts(W3, T3);
    const a = dirty(r2.count), b = dirty(r3.count);
    const [p, q] = await Promise.all([chainContactsParallel(W2, { ...T2, threads: 2, into: a }), chainContactsParallel(W3, { ...T3, threads: 2, into: b })]);
    expect(p).toBe(a);
    expect(q).toBe(b);
    expectSameContacts(r2, p, '2D, own into');
    expectSameContacts(r3, q, '3D, own into');
    const first = chainContactsParallel(W2, { ...T2, threads: 2, into: a });
    // The same into, or another object over the same arrays, while the first is in flight.
    await expect(chainContactsParallel(W3, { ...T3, threads: 2, into: a })).rejects.toThrow(/in use by a chainContactsParallel call in flight/);
    await expect(chainContactsParallel(W3, { ...T3, threads: 2, into: { ...b, s: a.s } })).rejects.toThrow(SkewlineInputError);
    expect(() => chainContacts(W3, { ...T3, into: a })).toThrow(/options\.into\.i is in use by a chainContactsParallel call in flight/);
    // Another into on the calling thread meanwhile (module scratch shared with the call's own part): its own contacts.
    expectSameContacts(r3, chainContacts(W3, { ...T3, into: b }), 'chainContacts into b while a is in flight');
    expectSameContacts(r2, await first, 'the first call, undisturbed');
    expectSameContacts(r3, await chainContactsParallel(W3, { ...T3, threads: 2, into: a }), 'into free once settled');
    expectSameContacts(r3, chainContacts(W3, { ...T3, into: a }), 'chainContacts with it too');
  });

  it('issue 15 into: a call that fails (pool closed mid-call, a worker that dies) leaves its into free for the next call', async () => {
    const ref = chainContacts(W2, T2);
    const into = dirty(ref.count);
    const p = chainContactsParallel(W2, { ...T2, threads: 2, into });
    const check = expect(p).rejects.toThrow(/pool was closed/);
    await closeParallelPool();
    await check;
    expectSameContacts(ref, await chainContactsParallel(W2, { ...T2, threads: 2, into }), 'after close');
    poolTesting.fault = 'exit';
    await expect(chainContactsParallel(W2, { ...T2, threads: 2, into })).rejects.toThrow(/worker thread (exited|failed)/);
    expectSameContacts(ref, await chainContactsParallel(W2, { ...T2, threads: 2, into }), 'after a dead worker');
  });

  it('issue 15 into: chainContactsParallel checks into as chainContacts does', async () => {
    await expect(chainContactsParallel(W2, { ...T2, threads: 2, into: { count: 0 } as unknown as ChainContacts })).rejects.toThrow(/chainContactsParallel: options\.into\.i must be an Int32Array/);
    await expect(chainContactsParallel(W2, { ...T2, threads: 2, into: { ...dirty(4), j: new Int32Array(W2.buffer, 0, 4) } })).rejects.toThrow(/options\.into\.j shares memory with the input chain/);
  });
});
