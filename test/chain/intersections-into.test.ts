/**
 * Caller-owned result buffers for chainIntersections (`options.into`, issue 16): the same bits as
 * without `into`, written into dirty arrays; growth when too small; far-end arrays of their own
 * or shared with x0, y0; bad `into` objects refused with a SkewlineInputError naming the field.
 */
import { describe, expect, it } from 'vitest';
import { chainIntersections, releaseChainMemory, SkewlineInputError } from '../../src/index.js';
import type { ChainIntersections, ChainIntersectionOptions } from '../../src/index.js';
import { holdInto, heldViews, releaseInto } from '../../src/chain/into.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';

/** The first `count` entries of b equal a's, bit for bit (a: a result without `into`). */
function sameIntersections(a: ChainIntersections, b: ChainIntersections, label: string): void {
  expect(b.count, label).toBe(a.count);
  const f = ['i', 'j', 'kind', 'contact', 'x0', 'y0', 'x1', 'y1'] as const;
  for (let k = 0; k < a.count; k++) {
    for (const name of f) {
      if (!Object.is(a[name][k], b[name][k])) throw new Error(`${label}: entry ${k}, ${name} is ${b[name][k]} instead of ${a[name][k]}`);
    }
  }
}

/** An `into` of n entries full of garbage; with `own`, far-end arrays of its own, else x1 = x0, y1 = y0. */
function dirty(n: number, own: boolean): ChainIntersections {
  const x0 = new Float64Array(n).fill(-3.5), y0 = new Float64Array(n).fill(NaN);
  return {
    count: 17, i: new Int32Array(n).fill(-7), j: new Int32Array(n).fill(-9),
    kind: new Uint8Array(n).fill(9), contact: new Uint8Array(n).fill(7),
    x0, y0, x1: own ? new Float64Array(n).fill(1e300) : x0, y1: own ? new Float64Array(n).fill(-0) : y0,
  };
}

/** The chain with every k-th vertex repeated (zero-length segments: compact indices ≠ input indices). */
function repeatVertices(P: Float64Array, k: number): Float64Array {
  const out: number[] = [];
  for (let v = 0; v < P.length / 2; v++) {
    for (let r = 0; r < (v % k === 5 ? 2 : 1); r++) out.push(P[2 * v], P[2 * v + 1]);
  }
  return Float64Array.from(out);
}

const W = randomWalk(20_000, 2, makeRng(1601)), G = gridWalk(8_000, 2, makeRng(1602));

/** The paths chainIntersections takes: grid in order, fold-backs and overlaps (sorted), mapped indices, against, a ring. */
const CASES: [string, Float64Array, ChainIntersectionOptions][] = [
  ['random walk (grid, in order; seed 1601)', W, {}],
  ['grid walk (fold-backs, overlaps; seed 1602)', G, {}],
  ['grid walk with repeated vertices (indices mapped)', repeatVertices(G, 97), {}],
  ['random walk against the grid walk', W.subarray(0, 6_000), { against: G }],
  ['grid walk closed', G, { closed: true }],
];

describe('chainIntersections with into', () => {
  it('issue 16 into: chainIntersections writes the same bits into a dirty, large enough into (x1 shared with x0 or its own), returns it and keeps its arrays (seeds 1601, 1602)', () => {
    let overlaps = 0;
    for (const [label, P, opts] of CASES) {
      const ref = chainIntersections(P, opts);
      expect(ref.count, label).toBeGreaterThan(0);
      const hasOverlap = ref.kind.subarray(0, ref.count).includes(2);
      if (hasOverlap) overlaps++;
      for (const own of [false, true]) {
        const into = dirty(ref.count + 50, own);
        const arrays = [into.i, into.j, into.kind, into.contact, into.x0, into.y0];
        const x1 = into.x1, y1 = into.y1;
        const got = chainIntersections(P, { ...opts, into });
        const l = `${label}, ${own ? 'own x1, y1' : 'x1 = x0'}`;
        expect(got, l).toBe(into);
        expect(arrays.every((a, k) => a === [got.i, got.j, got.kind, got.contact, got.x0, got.y0][k]), l).toBe(true);
        // Far ends: arrays of their own are kept; shared ones stay shared until a pair overlaps.
        if (own) expect(got.x1 === x1 && got.y1 === y1, l).toBe(true);
        else expect(got.x1 === got.x0 && got.y1 === got.y0, l).toBe(!hasOverlap);
        sameIntersections(ref, got, l);
      }
    }
    expect(overlaps).toBeGreaterThan(0); // the overlap path was taken
  });

  it('issue 16 into: a too-small into is grown (new arrays, in into too), reused by a smaller result, and a result without overlaps after one with them is right', () => {
    const refW = chainIntersections(W), refG = chainIntersections(G);
    for (const own of [false, true]) {
      const into = dirty(5, own);
      const old = into.i;
      const a = chainIntersections(G, { into });
      expect(a).toBe(into);
      expect(into.i).not.toBe(old);
      expect(into.i.length).toBeGreaterThanOrEqual(refG.count);
      expect(into.x1 !== into.x0).toBe(true); // the grid walk overlaps: far ends of their own
      sameIntersections(refG, a, `grid walk grown, own ${own}`);
      const grown = [into.i, into.j, into.kind, into.contact, into.x0, into.y0, into.x1, into.y1];
      const smaller = chainIntersections(W.subarray(0, 2_000), { into });
      sameIntersections(chainIntersections(W.subarray(0, 2_000)), smaller, `smaller walk after, own ${own}`);
      expect(smaller.count).toBeLessThan(refG.count);
      expect([into.i, into.j, into.kind, into.contact, into.x0, into.y0, into.x1, into.y1].every((v, k) => v === grown[k])).toBe(true);
      releaseChainMemory(); // drops the module's scratch (the share's distances too), not into's arrays
      const b = chainIntersections(W, { into });
      sameIntersections(refW, b, `random walk after a release, own ${own}`);
    }
  });

  it('issue 16 into: a bad into is a SkewlineInputError naming the field', () => {
    const P = G.subarray(0, 2_000);
    const bad = (into: unknown, re: RegExp, points: Float64Array = P): void => {
      expect(() => chainIntersections(points, { into: into as ChainIntersections })).toThrow(SkewlineInputError);
      expect(() => chainIntersections(points, { into: into as ChainIntersections })).toThrow(re);
    };
    bad(null, /options\.into must be a ChainIntersections/);
    bad([1, 2], /options\.into must be a ChainIntersections/);
    bad({ ...dirty(10, true), kind: new Int32Array(10) }, /options\.into\.kind must be a Uint8Array/);
    bad({ ...dirty(10, true), j: [1, 2] }, /options\.into\.j must be an Int32Array/);
    bad({ ...dirty(10, true), y1: new Float32Array(10) }, /options\.into\.y1 must be a Float64Array/);
    const d = dirty(10, false);
    bad({ ...d, y1: new Float64Array(10) }, /options\.into\.x1 and options\.into\.y1 must both be/);
    const buf = new Float64Array(20);
    bad({ ...dirty(10, true), x0: buf.subarray(0, 10), y0: buf.subarray(5, 15) }, /options\.into\.x0 and options\.into\.y0 share memory/);
    const i32 = new Int32Array(10);
    bad({ ...dirty(10, true), i: i32, j: i32 }, /options\.into\.i and options\.into\.j share memory/);
    const chain = Float64Array.from(P);
    bad({ ...dirty(10, true), x1: chain.subarray(0, 10) }, /options\.into\.x1 shares memory with the input chain/, chain);
    // In use by a chainContactsParallel call in flight (marked as such by holdInto).
    const busy = { count: 0, i: new Int32Array(4), j: new Int32Array(4), distance: new Float64Array(4), s: new Float64Array(4), t: new Float64Array(4) };
    holdInto(busy);
    try {
      bad({ ...dirty(10, true), y0: busy.t }, /options\.into\.y0 is in use by a chainContactsParallel call in flight/);
    } finally {
      releaseInto(heldViews(busy));
    }
    expect(chainIntersections(P, { into: { ...dirty(10, true) } }).count).toBe(chainIntersections(P).count);
    expect(() => chainIntersections(P, { into: dirty(10, true), intoo: 1 } as ChainIntersectionOptions)).toThrow(/intoo/);
  });
});
