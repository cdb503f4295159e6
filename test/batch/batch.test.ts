import { describe, expect, it } from 'vitest';
import { SkewlineInputError, closestPoints, segment, segmentClosestBatch, segmentDistances, segmentIntersectsBatch } from '../../src/index.js';
import { FAMILIES } from '../support/families.js';
import { exactClosest, ratIsZero, errorVsExact, scaleS, U } from '../support/oracle.js';
import type { Primitive } from '../../src/core/types.js';

/** Segment pairs of one dimension from the oracle families, flattened. */
function familyPairs(dim: number, seed: number, count: number): { data: Float64Array; cases: { a: Primitive; b: Primitive }[] } {
  const cases = FAMILIES.flatMap((f, i) =>
    f.make(seed + i, count, { dims: [dim], segmentsOnly: true }).filter((c) => c.a.kind === 'segment' && c.b.kind === 'segment'),
  );
  const data = new Float64Array(cases.length * 4 * dim);
  cases.forEach((c, i) => {
    data.set(c.a.p0, 4 * dim * i);
    data.set(c.a.p1, 4 * dim * i + dim);
    data.set(c.b.p0, 4 * dim * i + 2 * dim);
    data.set(c.b.p1, 4 * dim * i + 3 * dim);
  });
  return { data, cases };
}

describe('batch kernels against the exact oracle', () => {
  for (const dim of [2, 3, 4]) {
    it(`segmentDistances, segmentClosestBatch and segmentIntersectsBatch in ${dim}D (seed 4242)`, () => {
      const { data, cases } = familyPairs(dim, 4242, 60);
      expect(cases.length).toBeGreaterThan(300);
      const dist = segmentDistances(data, dim);
      const st = segmentClosestBatch(data, dim);
      const hit = segmentIntersectsBatch(data, dim);
      cases.forEach(({ a, b }, i) => {
        const ex = exactClosest(a, b);
        const S = scaleS(a, b);
        const where = `seed 4242, ${dim}D, pair ${i}: ${JSON.stringify([...a.p0, ...a.p1, ...b.p0, ...b.p1])}`;
        expect(errorVsExact(dist[i], ex.distSq), where).toBeLessThanOrEqual(8 * U * S);
        expect(dist[i] === 0, where).toBe(ratIsZero(ex.distSq));
        expect(hit[i] === 1, where).toBe(ratIsZero(ex.distSq));
        expect(st[3 * i + 2], where).toBe(dist[i]);
        // the parameters rebuild points whose distance is the reported one, to the bound
        const c = Array.from(a.p0, (x, j) => x + st[3 * i] * (a.p1[j] - x));
        const d = Array.from(b.p0, (x, j) => x + st[3 * i + 1] * (b.p1[j] - x));
        const cd = Math.hypot(...c.map((x, j) => x - d[j]));
        const M = Math.max(...[...a.p0, ...a.p1, ...b.p0, ...b.p1].map(Math.abs));
        expect(Math.abs(cd - dist[i]), where).toBeLessThanOrEqual(8 * U * S + 16 * U * M);
      });
    });
  }

  it('agrees with closestPoints on every pair, and fills a given output', () => {
    const { data, cases } = familyPairs(3, 99, 40);
    const out = new Float64Array(cases.length);
    expect(segmentDistances(data, 3, out)).toBe(out);
    cases.forEach(({ a, b }, i) => {
      const r = closestPoints(segment(a.p0, a.p1), segment(b.p0, b.p1));
      expect(out[i] === 0).toBe(r.distance === 0);
      expect(Math.abs(out[i] - r.distance)).toBeLessThanOrEqual(16 * U * scaleS(a, b));
    });
  });
});

describe('batch input errors', () => {
  it('rejects a layout that is not a multiple of 4·dim', () => {
    expect(() => segmentDistances(new Float64Array(11), 3)).toThrow(/not a multiple of 4·dim = 12/);
  });
  it('rejects a bad dim and a non-Float64Array', () => {
    expect(() => segmentDistances(new Float64Array(12), 0)).toThrow(/dim must be a positive integer/);
    expect(() => segmentDistances([1, 2, 3] as unknown as Float64Array, 3)).toThrow(/must be a Float64Array/);
  });
  it('rejects a short output', () => {
    expect(() => segmentDistances(new Float64Array(24), 3, new Float64Array(1))).toThrow(SkewlineInputError);
    expect(() => segmentClosestBatch(new Float64Array(24), 3, new Float64Array(5))).toThrow(/length ≥ 6/);
  });
  for (const dim of [2, 3, 5]) {
    it(`names the pair and coordinate of a NaN or infinity (${dim}D)`, () => {
      const data = new Float64Array(3 * 4 * dim).map((_, i) => i % 7);
      data[4 * dim + 2 * dim + 1] = NaN; // pair 1, b0[1]
      expect(() => segmentDistances(data, dim)).toThrow(/b0\[1\] is not finite/);
      data[4 * dim + 2 * dim + 1] = 0;
      data[8 * dim] = Infinity;
      expect(() => segmentClosestBatch(data, dim)).toThrow(/a0\[0\] is not finite/);
      expect(() => segmentIntersectsBatch(data, dim)).toThrow(/pair 2: coordinate 0 is not finite/);
    });
  }
});
