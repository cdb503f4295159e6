// The n-D kernel (src/closest/kernel-nd.ts) at the extremes it is handed from every dimension:
// directions some 2¹⁰⁰⁰ times shorter than the offset (subnormal rays beside far-away data),
// where the scaled parameters overflow when scaled back, and exactly parallel n-D pairs (issue 19,
// the merge of h-nd and h-closest). Checked against the exact BigInt oracle; seeds in the names.
import { describe, expect, it } from 'vitest';
import { closestPoints } from '../../src/closest/closest.js';
import { line, point, ray, segment } from '../../src/core/primitives.js';
import type { ClosestResult, Primitive } from '../../src/core/types.js';
import { exactClosest } from '../support/oracle.js';
import { isFaithful } from '../support/faithful-families.js';
import { mulberry32 } from '../support/rng.js';

/** |q| > 2¹⁰²⁴: the exact parameter lies beyond the double range. */
function beyondRange(q: { num: bigint; den: bigint }): boolean {
  const n = q.num < 0n ? -q.num : q.num;
  return n >= q.den * 2n ** 1024n;
}

describe('issue 19: a direction some 2¹⁰⁰⁰ times shorter than the offset (kernel-nd)', () => {
  it('issue 19: segment([0], [1e300]) and ray([-1], [4.8e-322]) overlap: distance 0 at the middle (was NaN); t = Infinity, the exact t ≈ 1.04e621 rounded', () => {
    const a = segment([0], [1e300]);
    const b = ray([-1], [4.8e-322]);
    const r = closestPoints(a, b);
    expect([r.relation, r.distance, r.s, r.unique, r.parallel]).toEqual(['overlapping', 0, 0.5, false, true]);
    expect([r.c, r.d, r.p, r.vector]).toEqual([[5e299], [5e299], [5e299], [0]]);
    // The ray's parameter at the overlap's middle is (5e299 + 1)/4.8e-322: beyond the double
    // range, so it rounds to Infinity (documented on closestPoints); the points stay finite.
    expect(r.t).toBe(Infinity);
    expect(exactClosest(a, b).distSq.num).toBe(0n);
  });

  it('issue 19: a parameter of rounding size in the scaled units is not blown up to Infinity (5-D line and ray, exact t = 0)', () => {
    const a = line([2, 8, -1, 2, 3], [1, 16, -1, 3, -1e200]);
    const b = ray([-3, 1.7e308, 4.149515568880993e180, -1, 1.7e308], [1e-250, 1e-300, 2.2e-308, 1e-300, -1e-250]);
    const r = closestPoints(a, b);
    const ex = exactClosest(a, b);
    expect(ex.t.num).toBe(0n);
    expect(r.t).toBe(0); // was Infinity: τ = 2e-16 in units 2^1854 times larger
    expect(r.d).toEqual(Array.from(b.p0));
    expect(r.unique).toBe(true);
    expect(isFaithful(r.distance, ex.distSq)).toBe(true);
    for (const x of [r.s, ...r.c, ...r.vector]) expect(Number.isFinite(x)).toBe(true);
  });

  it('issue 19: 0·2^2091 is 0, not NaN (3D ray with a subnormal direction beside −1.7e308: t = 0 exactly)', () => {
    const a = ray([-1.7e308, 4, 4], [2, -1, -3]);
    const b = ray([3, 3, 3], [4.8e-322, 0, 0]);
    const r = closestPoints(a, b);
    const ex = exactClosest(a, b);
    expect(ex.t.num).toBe(0n);
    expect(r.t).toBe(0); // was NaN (the scale factor 2^1045·2^1046 was itself Infinity)
    expect(Number.isFinite(r.s)).toBe(true);
    expect(isFaithful(r.distance, ex.distSq)).toBe(true);
  });

  it('issue 19: subnormal and tiny directions beside far-away data, dims 1–6 (seed 1907): finite, faithful, exact decisions', () => {
    const rng = mulberry32(1907);
    const tiny = [4.8e-322, 5e-324, 1e-310, 2.2e-308, 1e-300, 1e-250];
    const huge = [1e300, 1.7e308, 1e250, 1e200, 2 ** 600, 8];
    const pick = (xs: number[]): number => xs[Math.floor(rng() * xs.length)] * (rng() < 0.5 ? -1 : 1);
    const coord = (): number => (rng() < 0.3 ? pick(huge) : Math.floor(rng() * 9) - 4);
    const kinds = ['segment', 'ray', 'line', 'point'] as const;
    let checked = 0;
    for (let i = 0; i < 250; i++) {
      const dim = 1 + Math.floor(rng() * 6);
      const make = (kind: string, tinyDir: boolean): Primitive => {
        const p = Array.from({ length: dim }, coord);
        const q = Array.from({ length: dim }, () => (tinyDir ? (rng() < 0.7 ? pick(tiny) : 0) : coord()));
        if (!q.some((x) => x !== 0)) q[0] = tiny[0];
        if (kind === 'segment') return segment(p, q);
        if (kind === 'ray') return ray(p, q);
        if (kind === 'line') return line(p, p.map((x, j) => x + q[j]));
        return point(p);
      };
      const ka = kinds[Math.floor(rng() * 4)];
      const kb = (['ray', 'line', 'ray'] as const)[Math.floor(rng() * 3)];
      let a: Primitive;
      let b: Primitive;
      try {
        a = make(ka, rng() < 0.3);
        b = make(kb, true);
      } catch {
        continue; // a line whose two points coincide after rounding
      }
      const label = `case ${i}: ${JSON.stringify([a, b], (_, v: unknown) => (v instanceof Float64Array ? Array.from(v) : v))}`;
      let r: ClosestResult;
      try {
        r = closestPoints(a, b);
      } catch (e) {
        expect((e as Error).message, label).toMatch(/exceeds the largest double|beyond the double range/);
        continue;
      }
      const ex = exactClosest(a, b);
      for (const x of [r.distance, r.s, r.t, ...r.c, ...r.d, ...r.vector]) expect(Number.isNaN(x), label).toBe(false);
      for (const x of [r.distance, ...r.c, ...r.d]) expect(Number.isFinite(x), label).toBe(true);
      expect(isFaithful(r.distance, ex.distSq), label).toBe(true);
      expect(r.relation === 'intersecting' || r.relation === 'overlapping', label).toBe(ex.distSq.num === 0n);
      // A unique nearest pair has finite parameters wherever the exact ones are doubles.
      if (r.unique && !beyondRange(ex.s)) expect(Number.isFinite(r.s), label).toBe(true);
      if (r.unique && !beyondRange(ex.t)) expect(Number.isFinite(r.t), label).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(150);
  });
});

describe('issue 19: exactly parallel n-D pairs keep the parallel policy (kernel-nd)', () => {
  it('issue 19: 3D parallel pairs padded to 6-D give the 3D answer: the middle of the overlap, not a Newton step off it (seed 1908)', () => {
    const rng = mulberry32(1908);
    const kinds = ['segment', 'ray', 'line'] as const;
    const v = (n: number): number[] => Array.from({ length: n }, () => rng() * 4 - 2);
    for (let i = 0; i < 300; i++) {
      const a0 = v(3);
      const u = v(3).map((x) => x / 2);
      const b0 = v(3);
      const f = [1, -1, 2, 0.5, -3][Math.floor(rng() * 5)];
      const ka = kinds[Math.floor(rng() * 3)];
      const kb = kinds[Math.floor(rng() * 3)];
      const build = (kind: string, p: number[], d: number[], pad: number): Primitive => {
        const P = [...p, ...Array<number>(pad).fill(0)];
        const D = [...d, ...Array<number>(pad).fill(0)];
        if (kind === 'ray') return ray(P, D);
        const Q = P.map((x, j) => x + D[j]);
        return kind === 'segment' ? segment(P, Q) : line(P, Q);
      };
      const bd = u.map((x) => x * f);
      const r3 = closestPoints(build(ka, a0, u, 0), build(kb, b0, bd, 0));
      const r6 = closestPoints(build(ka, a0, u, 3), build(kb, b0, bd, 3));
      const label = `case ${i} (${ka}, ${kb}, factor ${f})`;
      expect([r6.relation, r6.unique, r6.parallel], label).toEqual([r3.relation, r3.unique, r3.parallel]);
      // Two kernels, two roundings: the same pair to a few ulps of the parameters' scale.
      const tol = 1e-12 * (1 + Math.abs(r3.s) + Math.abs(r3.t));
      expect(Math.abs(r6.s - r3.s), `${label}: s ${r6.s} vs ${r3.s}`).toBeLessThanOrEqual(tol);
      expect(Math.abs(r6.t - r3.t), `${label}: t ${r6.t} vs ${r3.t}`).toBeLessThanOrEqual(tol);
      expect(r6.distance, label).toBe(r3.distance); // both faithful; in practice correctly rounded
    }
  });
});
