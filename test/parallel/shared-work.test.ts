/**
 * The work the threads of a parallel chain search share (issue 15's two-thread floors): the 2D
 * grid's plan built once in shared memory, the contacts partitioned by range of first segments
 * and sorted once in the merge, the share memory reused from call to call, segmentDistancesParallel
 * writing into the caller's output, and the per-thread CPU split the scaling bench reports.
 * References: planGrid (one thread's plan), chainContacts and segmentDistances (one thread).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chainContacts, segmentDistances, SkewlineInputError } from '../../src/index.js';
import { chainContactsParallel, closeParallelPool, segmentDistancesParallel } from '../../src/parallel/index.js';
import { planGrid } from '../../src/chain/grid.js';
import type { GridPlan } from '../../src/chain/grid.js';
import { segmentBoxes } from '../../src/chain/tree.js';
import type { PairShare } from '../../src/chain/contacts.js';
import { allocGridPlan, sharedGridPlan } from '../../src/parallel/grid-plan.js';
import { mergeGather, mergeOffsets, mergeRanges, partitionShare, rangeShift } from '../../src/parallel/merge.js';
import type { MergeJob } from '../../src/parallel/merge.js';
import { parallelStats } from '../../src/parallel/stats.js';
import { uniformPairs3 } from '../support/families.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';
import { expectSameContacts } from '../support/same-contacts.js';

afterAll(closeParallelPool);

function samePlan(a: GridPlan, b: GridPlan, label: string): void {
  expect([b.nx, b.ny, b.bands], label).toEqual([a.nx, a.ny, a.bands]);
  expect(Array.from(b.bandCols), label).toEqual(Array.from(a.bandCols));
  expect(Array.from(b.segStart!), label).toEqual(Array.from(a.segStart!));
  for (const key of ['cx', 'cy', 'ex', 'ey', 'segs'] as const) {
    const x = a[key]!, y = b[key]!;
    expect(y.length, `${label} ${key}`).toBe(x.length);
    for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) throw new Error(`${label}: ${key}[${k}] = ${y[k]} instead of ${x[k]}`);
  }
}

const fresh = (bytes: number): SharedArrayBuffer => new SharedArrayBuffer(bytes);

describe('work shared by the threads of a parallel search', () => {
  it('issue 15: the 2D grid plan built in shared memory is planGrid’s, whether one thread builds it, a late thread finds it done, or a thread must build the chunks a dead one claimed (seeds 1510–1512)', () => {
    for (let seed = 1510; seed <= 1512; seed++) {
      const rng = makeRng(seed);
      const m = 40_000 + 997 * (seed - 1510);
      const P = seed === 1512 ? gridWalk(m, 2, rng) : randomWalk(m, 2, rng);
      const seg = segmentBoxes(P, 2, m, null);
      const ref = planGrid(seg, m, null, 16);
      expect(ref, `seed ${seed}`).not.toBeNull();
      const copy = (p: GridPlan): GridPlan => ({ ...p, cx: p.cx.slice(), cy: p.cy.slice(), ex: p.ex.slice(), ey: p.ey.slice(), segs: p.segs!.slice(), segStart: p.segStart!.slice() });
      const want = copy(ref!);
      const S = allocGridPlan(m, 64, fresh);
      samePlan(want, sharedGridPlan(S, seg, m, null, 16)!, `seed ${seed}, one thread`);
      samePlan(want, sharedGridPlan(S, seg, m, null, 16)!, `seed ${seed}, a late thread`);
      // Every chunk of every phase claimed by a thread that never built it: the next builds all.
      const D = allocGridPlan(m, 64, fresh);
      D.ctl.fill(1 << 20);
      samePlan(want, sharedGridPlan(D, seg, m, null, 16)!, `seed ${seed}, claims of a dead thread`);
    }
  });

  it('issue 15: shares partitioned by range of i and merged are chainContacts’ result, bit for bit, for 1, 3 and 5 threads with the contacts dealt at random (seeds 1513–1514)', () => {
    for (let seed = 1513; seed <= 1514; seed++) {
      const rng = makeRng(seed);
      for (const [P, dim, tau] of [[randomWalk(20_000, 2, rng), 2, 0], [randomWalk(12_000, 3, rng), 3, 0.3]] as const) {
        const ref = chainContacts(P, { dim, thickness: tau });
        const m = P.length / dim - 1;
        for (const threads of [1, 3, 5]) {
          // Deal the contacts to the threads in a random order (as a search finds them).
          const order = Array.from({ length: ref.count }, (_, k) => k);
          for (let k = order.length - 1; k > 0; k--) {
            const q = Math.floor(rng.next() * (k + 1));
            [order[k], order[q]] = [order[q], order[k]];
          }
          const dealt: number[][] = Array.from({ length: threads }, () => []);
          for (const k of order) dealt[Math.floor(rng.next() * threads)].push(k);
          const shares = dealt.map((ks) => {
            const found: PairShare = {
              CI: Int32Array.from(ks, (k) => ref.i[k]), CJ: Int32Array.from(ks, (k) => ref.j[k]),
              distance: Float64Array.from(ks, (k) => ref.distance[k]), s: Float64Array.from(ks, (k) => ref.s[k]), t: Float64Array.from(ks, (k) => ref.t[k]),
            };
            return partitionShare(found, m, tau === 0, null);
          });
          const at = mergeOffsets(shares, m);
          const out = { CI: new Int32Array(ref.count), CJ: new Int32Array(ref.count), distance: new Float64Array(ref.count), s: new Float64Array(ref.count), t: new Float64Array(ref.count) };
          const job: MergeJob = { kind: 'merge', shares, m, shift: rangeShift(m), at, counter: new SharedArrayBuffer(4), out, done: null, zero: tau === 0, oa: null, ob: null };
          mergeRanges(job);
          expectSameContacts(ref, { count: at[at.length - 1], i: out.CI, j: out.CJ, distance: out.distance, s: out.s, t: out.t }, `seed ${seed}, ${dim}D, ${threads} threads`);
        }
      }
    }
  });

  it('issue 15: the merge sorts each range with two passes over its counters: long runs of one i (over 32 partners) and short ones, in (i, j) order with their numbers, range after range on the same scratch, at thickness 0 and above (seeds 1540–1541)', () => {
    for (let seed = 1540; seed <= 1541; seed++) {
      const rng = makeRng(seed);
      const m = 5_000;
      // Unique pairs (i, j): most i with a few partners, some with 33 to 300 (a crowded spot).
      const seen = new Set<number>();
      const pairs: [number, number][] = [];
      for (let k = 0; k < 12_000; k++) {
        const i = Math.floor(rng.next() * m);
        const many = rng.next() < 0.02 ? 33 + Math.floor(rng.next() * 268) : 1;
        for (let q = 0; q < many; q++) {
          const j = Math.floor(rng.next() * m);
          if (!seen.has(i * m + j)) { seen.add(i * m + j); pairs.push([i, j]); }
        }
      }
      const n = pairs.length;
      const num = (i: number, j: number, w: number): number => Math.sin(i * 7 + j * 13 + w); // a pair's numbers, known from (i, j)
      for (const zero of [false, true]) {
        // Two shares dealt at random (pairs in random order), the shift giving ranges both narrower and wider than a long run's spread.
        for (const shift of [rangeShift(m), rangeShift(m, 3), 4]) {
          const dealt: [number, number][][] = [[], []];
          for (const p of [...pairs].sort(() => rng.next() - 0.5)) dealt[rng.next() < 0.5 ? 0 : 1].push(p);
          const shares = dealt.map((ps) => partitionShare({
            CI: Int32Array.from(ps, ([i]) => i), CJ: Int32Array.from(ps, ([, j]) => j),
            distance: Float64Array.from(ps, ([i, j]) => num(i, j, 1)), s: Float64Array.from(ps, ([i, j]) => num(i, j, 2)), t: Float64Array.from(ps, ([i, j]) => num(i, j, 3)),
          }, m, zero, null, shift));
          const at = mergeOffsets(shares, m, shift);
          const out = { CI: new Int32Array(n), CJ: new Int32Array(n), distance: new Float64Array(n), s: new Float64Array(n), t: new Float64Array(n) };
          mergeRanges({ kind: 'merge', shares, m, shift, at, counter: new SharedArrayBuffer(4), out, done: null, zero, oa: null, ob: null });
          const ref = [...pairs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          const label = `seed ${seed}, zero ${zero}, shift ${shift}`;
          expect(at[at.length - 1], label).toBe(n);
          for (let k = 0; k < n; k++) {
            const [i, j] = ref[k];
            if (out.CI[k] !== i || out.CJ[k] !== j || out.distance[k] !== (zero ? 0 : num(i, j, 1)) || out.s[k] !== num(i, j, 2) || out.t[k] !== num(i, j, 3)) {
              throw new Error(`${label}: pair ${k} is ${out.CI[k]},${out.CJ[k]} (d ${out.distance[k]}, s ${out.s[k]}) instead of ${i},${j}`);
            }
          }
        }
      }
    }
  });

  it('issue 15: the calling thread gathers the merge into memory of its own: ranges the workers finished are copied, unfinished ones sorted again, unclaimed ones claimed — chainContacts’ result bit for bit, with ranges of any width (seeds 1530–1532)', () => {
    for (let seed = 1530; seed <= 1532; seed++) {
      const rng = makeRng(seed);
      for (const [P, dim, tau] of [[randomWalk(20_000, 2, rng), 2, 0], [randomWalk(12_000, 3, rng), 3, 0.3]] as const) {
        const ref = chainContacts(P, { dim, thickness: tau });
        const m = P.length / dim - 1, n = ref.count;
        const order = Array.from({ length: n }, (_, k) => k).sort(() => rng.next() - 0.5);
        const dealt: number[][] = [[], []];
        for (const k of order) dealt[rng.next() < 0.5 ? 0 : 1].push(k);
        for (const shift of [rangeShift(m), rangeShift(m, 7), rangeShift(m, 64)]) {
          const shares = dealt.map((ks) => partitionShare({
            CI: Int32Array.from(ks, (k) => ref.i[k]), CJ: Int32Array.from(ks, (k) => ref.j[k]),
            distance: Float64Array.from(ks, (k) => ref.distance[k]), s: Float64Array.from(ks, (k) => ref.s[k]), t: Float64Array.from(ks, (k) => ref.t[k]),
          }, m, tau === 0, null, shift));
          const at = mergeOffsets(shares, m, shift), ranges = at.length - 1;
          const arrays = (shared: boolean): PairShare => {
            const f = (b: number): ArrayBuffer | SharedArrayBuffer => (shared ? new SharedArrayBuffer(b) : new ArrayBuffer(b));
            return { CI: new Int32Array(f(4 * n)), CJ: new Int32Array(f(4 * n)), distance: new Float64Array(f(8 * n)), s: new Float64Array(f(8 * n)), t: new Float64Array(f(8 * n)) };
          };
          // A worker's merge of every range into the shared copy; then all but the finished ones poisoned.
          const staging = arrays(true);
          mergeRanges({ kind: 'merge', shares, m, shift, at, counter: new SharedArrayBuffer(4), out: staging, done: null, zero: tau === 0, oa: null, ob: null });
          // Workers claimed ranges < claimed; of those, each finished with probability 1/2 (the rest: still on it, or dead).
          for (const claimed of [0, ranges >> 1, ranges]) {
            const done = new Int32Array(new SharedArrayBuffer(4 * ranges));
            const out = arrays(true);
            out.CI.set(staging.CI); out.CJ.set(staging.CJ); out.distance.set(staging.distance); out.s.set(staging.s); out.t.set(staging.t);
            for (let r = 0; r < ranges; r++) {
              if (r < claimed && rng.next() < 0.5) done[r] = 1;
              else for (let k = at[r]; k < at[r + 1]; k++) { out.CI[k] = -1; out.CJ[k] = -1; out.distance[k] = NaN; out.s[k] = NaN; out.t[k] = NaN; }
            }
            const counter = new SharedArrayBuffer(4);
            new Int32Array(counter)[0] = claimed;
            // The result's memory is left uninitialised (chains.ts): poisoned here, so a slot the gather skips fails.
            const result = arrays(false);
            result.CI.fill(-1); result.CJ.fill(-1); result.s.fill(NaN); result.t.fill(NaN);
            if (tau !== 0) result.distance.fill(NaN);
            mergeGather({ kind: 'merge', shares, m, shift, at, counter, out, done, zero: tau === 0, oa: null, ob: null }, result);
            expectSameContacts(ref, { count: n, i: result.CI, j: result.CJ, distance: result.distance, s: result.s, t: result.t }, `seed ${seed}, ${dim}D, ${claimed} of ${ranges} ranges claimed (shift ${shift})`);
          }
        }
      }
    }
  });

  it('issue 15: a parallel search’s result is on ordinary ArrayBuffers, one per array, with over 65,536 contacts merged by two threads (seed 1533)', async () => {
    const W = randomWalk(60_000, 2, makeRng(1533));
    const ref = chainContacts(W, { dim: 2 });
    expect(ref.count).toBeGreaterThan(1 << 16);
    for (let k = 0; k < 3; k++) {
      const got = await chainContactsParallel(W, { dim: 2, threads: 2 });
      expectSameContacts(ref, got, `call ${k}`);
      const arrays = [got.i, got.j, got.distance, got.s, got.t];
      for (const a of arrays) expect(a.buffer).toBeInstanceOf(ArrayBuffer);
      expect(new Set(arrays.map((a) => a.buffer)).size).toBe(5);
    }
  }, 60_000);

  it('issue 15: share memory handed back to the pool is never given to two threads at once (a SharedArrayBuffer that crossed threads is another object over the same memory; seeds 1515–1516)', async () => {
    const W2 = randomWalk(70_000, 2, makeRng(1515)), W3 = randomWalk(60_000, 3, makeRng(1516));
    const r2 = chainContacts(W2, { dim: 2 }), r3 = chainContacts(W3, { dim: 3, thickness: 0.2 });
    for (let k = 0; k < 5; k++) {
      expectSameContacts(r2, await chainContactsParallel(W2, { dim: 2, threads: 2 }), `2D walk, call ${k}`);
      expectSameContacts(r3, await chainContactsParallel(W3, { dim: 3, thickness: 0.2, threads: 2 }), `3D walk, call ${k}`);
    }
    const [a, b, c] = await Promise.all([
      chainContactsParallel(W2, { dim: 2, threads: 2 }), chainContactsParallel(W3, { dim: 3, thickness: 0.2, threads: 2 }), chainContactsParallel(W2, { dim: 2, threads: 2 }),
    ]);
    expectSameContacts(r2, a, '2D walk, together 1');
    expectSameContacts(r3, b, '3D walk, together');
    expectSameContacts(r2, c, '2D walk, together 2');
  }, 60_000);

  it('issue 15: segmentDistancesParallel writes into options.out — in place when it is shared, by one copy when not — and rejects a bad out (seed 1517)', async () => {
    const n = 150_000;
    const pairs = Float64Array.from(uniformPairs3(n, 1517));
    const ref = segmentDistances(pairs, 3);
    const shared = new Float64Array(new SharedArrayBuffer(8 * (n + 3)), 8, n + 2);
    const plain = new Float64Array(n);
    for (const out of [shared, plain]) {
      for (const threads of [1, 2]) {
        out.fill(-1);
        const got = await segmentDistancesParallel(pairs, 3, { threads, out });
        expect(got).toBe(out);
        for (let k = 0; k < n; k++) if (!Object.is(got[k], ref[k])) throw new Error(`${threads} threads: distance ${k} = ${got[k]} instead of ${ref[k]}`);
      }
    }
    await expect(segmentDistancesParallel(pairs, 3, { out: new Float64Array(n - 1) })).rejects.toThrow(/options.out must be a Float64Array of length ≥ 150000/);
    await expect(segmentDistancesParallel(pairs, 3, { out: new Float32Array(n) as unknown as Float64Array })).rejects.toThrow(SkewlineInputError);
  }, 60_000);

  it('issue 15: with measureCpu, a parallel call reports each thread’s CPU time and the calling thread’s serial part (Linux)', async () => {
    const W = randomWalk(60_000, 2, makeRng(1518));
    parallelStats.measureCpu = true;
    try {
      await chainContactsParallel(W, { dim: 2, threads: 2 });
    } finally {
      parallelStats.measureCpu = false;
    }
    const cpu = parallelStats.cpu;
    if (process.platform !== 'linux') return; // the clock is /proc/thread-self/schedstat
    expect(cpu).not.toBeNull();
    expect(cpu!.threadMs.length).toBe(2); // the calling thread and its one worker
    for (const ms of cpu!.threadMs) expect(ms).toBeGreaterThanOrEqual(0);
    expect(cpu!.threadMs[0]).toBeGreaterThan(0);
    expect(cpu!.serialMs).toBeLessThanOrEqual(cpu!.threadMs[0]);
    await chainContactsParallel(W, { dim: 2, threads: 2 });
    expect(parallelStats.cpu).toBeNull(); // off again
  }, 30_000);
});
