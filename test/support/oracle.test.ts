// Tests of the exact oracle itself (test/support/oracle.ts): hand-checked cases, conversions,
// and agreement with an independent floating-point brute force on random generic pairs.
import { describe, expect, it } from 'vitest';
import { line, point, ray, segment } from '../../src/core/primitives.js';
import type { Primitive } from '../../src/core/types.js';
import {
  errorVsExact, exactClosest, exactDistSqDoubles, exactPointPrimitiveDistSq, exactShares, rat, ratAdd, ratCmp,
  ratFromDouble, ratMul, ratNormalise, ratSqrtToNumber, ratSub, ratToNumber, sqrtDiff, type Rat,
} from './oracle.js';
import { FAMILIES, familySeed } from './families.js';
import { makeRng, nextDown, nextUp } from './rng.js';

const toNums = (v: readonly { num: bigint; den: bigint }[]): number[] => v.map(ratToNumber);
const dist2 = (a: Primitive, b: Primitive): number => ratToNumber(exactClosest(a, b).distSq);

describe('oracle: hand-checked cases', () => {
  it("Rhodes' example: A=(0,0,0)–(1,0,0), B=(1,0,1)–(1,1,1)", () => {
    const r = exactClosest(segment([0, 0, 0], [1, 0, 0]), segment([1, 0, 1], [1, 1, 1]));
    expect(ratToNumber(r.distSq)).toBe(1);
    expect(toNums(r.c)).toEqual([1, 0, 0]);
    expect(toNums(r.d)).toEqual([1, 0, 1]);
    expect(ratToNumber(r.s)).toBe(1);
    expect(ratToNumber(r.t)).toBe(0);
    expect(r.parallel).toBe(false);
  });

  it('points, crossing and parallel segments, lines, rays', () => {
    expect(dist2(point([0, 0]), point([3, 4]))).toBe(25);
    const x = exactClosest(segment([0, 0], [2, 2]), segment([0, 2], [2, 0]));
    expect(x.distSq.num).toBe(0n);
    expect(ratToNumber(x.s)).toBe(0.5);
    expect(ratToNumber(x.t)).toBe(0.5);
    expect(dist2(segment([0, 0], [1, 0]), segment([3, 1], [4, 1]))).toBe(5);
    const par = exactClosest(segment([0, 0], [1, 0]), segment([3, 1], [4, 1]));
    expect(par.parallel).toBe(true);
    expect(dist2(line([0, 0], [1, 0]), line([5, 2], [7, 2]))).toBe(4);
    expect(dist2(ray([0, 0], [1, 0]), ray([-1, 0], [-1, 0]))).toBe(1);
    expect(dist2(ray([0, 0], [1, 0]), ray([2, 0], [-1, 0]))).toBe(0); // facing, overlapping
    expect(dist2(ray([0, 0, 0], [1, 0, 0]), ray([-5, 1, 1], [0, 1, 0]))).toBe(27);
    expect(dist2(line([0, 0, 0], [1, 0, 0]), segment([2, 1, 1], [3, 1, -1]))).toBe(1);
    expect(dist2(line([0, 0, 0], [1, 0, 0]), ray([2, 1, 1], [0, 0, 1]))).toBe(2);
    expect(dist2(point([7, 7, 7]), line([0, 0, 0], [1, 1, 1]))).toBe(0);
    expect(dist2(segment([1, 1], [1, 1]), segment([0, 0], [2, 2]))).toBe(0); // zero-length on segment
    expect(dist2(segment([5, 1], [5, 1]), segment([0, 0], [2, 0]))).toBe(10);
    expect(dist2(point([2]), segment([5], [9]))).toBe(9); // 1-D
    // Skew lines: the x-axis and {(x, 1, 1 + x)}, the x-axis and {(0, 1, z)}: both at distance 1.
    expect(dist2(line([0, 0, 0], [1, 0, 0]), line([0, 1, 1], [1, 1, 2]))).toBe(1);
    expect(dist2(line([0, 0, 0], [1, 0, 0]), line([0, 1, 0], [0, 1, 1]))).toBe(1);
  });

  it('shares a point: exact T-junction and one ulp off', () => {
    const a = segment([0, 0], [1, 1]);
    expect(exactShares(a, point([0.5, 0.5]))).toBe(true);
    expect(exactShares(a, point([nextUp(0.5), 0.5]))).toBe(false);
    expect(exactShares(a, segment([0.25, 0.25], [0.25, 9]))).toBe(true);
    expect(exactShares(a, segment([0.25, nextDown(0.25)], [0.25, -9]))).toBe(false);
    // 0.1, 0.2, 0.3 are not collinear in doubles (0.1 + 0.2 ≠ 0.3 exactly).
    expect(exactShares(segment([0, 0], [0.1, 0.2]), point([0.3, 0.6]))).toBe(false);
    expect(exactShares(line([0, 0], [0.5, 0.25]), point([3, 1.5]))).toBe(true);
  });

  it('exactPointPrimitiveDistSq', () => {
    expect(ratToNumber(exactPointPrimitiveDistSq([1, 1], segment([0, 0], [2, 0])))).toBe(1);
    expect(ratToNumber(exactPointPrimitiveDistSq([1, 1], ray([3, 0], [1, 0])))).toBe(5);
    expect(ratToNumber(exactPointPrimitiveDistSq([1, 1], line([3, 0], [4, 0])))).toBe(1);
    expect(ratToNumber(exactPointPrimitiveDistSq([1, 1], point([1, 3])))).toBe(4);
    expect(exactPointPrimitiveDistSq([0.1, 0.2], segment([0, 0], [0.2, 0.4])).num).toBe(0n);
  });

  it('scale-free: 2^k scaling scales the exact squared distance by 4^k', () => {
    const rng = makeRng(7);
    for (let i = 0; i < 50; i++) {
      const v = (): number[] => [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)];
      const [p, q, r, s] = [v(), v(), v(), v()];
      const base = exactClosest(segment(p, q), segment(r, s)).distSq;
      for (const k of [-600, -40, 40, 600]) {
        const f = 2 ** k;
        const sc = (x: number[]): number[] => x.map((y) => y * f);
        const scaled = exactClosest(segment(sc(p), sc(q)), segment(sc(r), sc(s))).distSq;
        const expected = ratNormalise(k >= 0
          ? rat(base.num << BigInt(2 * k), base.den)
          : rat(base.num, base.den << BigInt(-2 * k)));
        expect(ratCmp(scaled, expected)).toBe(0);
      }
    }
  });
});

describe('oracle: conversions', () => {
  it('ratToNumber is correctly rounded (round trips, ties to even, subnormals, overflow)', () => {
    const rng = makeRng(11);
    for (let i = 0; i < 2000; i++) {
      const x = rng.uniform(-1, 1) * 2 ** rng.int(-1070, 1020);
      expect(ratToNumber(ratFromDouble(x))).toBe(x);
    }
    expect(ratToNumber(rat(1n, 3n))).toBe(1 / 3);
    expect(ratToNumber(rat(2n, 3n))).toBe(2 / 3);
    expect(ratToNumber(rat(-22n, 7n))).toBe(-22 / 7);
    expect(ratToNumber(rat(2n ** 53n + 1n))).toBe(2 ** 53); // tie → even
    expect(ratToNumber(rat(2n ** 53n + 3n))).toBe(2 ** 53 + 4); // tie → even
    expect(ratToNumber(rat(1n, 2n ** 1075n))).toBe(0); // half the smallest subnormal → 0
    expect(ratToNumber(rat(3n, 2n ** 1076n))).toBe(Number.MIN_VALUE);
    expect(ratToNumber(rat(3n, 2n ** 1075n))).toBe(2 * Number.MIN_VALUE); // 1.5 → 2 (even)
    expect(ratToNumber(rat(2n ** 1024n))).toBe(Infinity);
    expect(ratToNumber(rat(10n ** 400n, 10n ** 399n))).toBe(10);
    expect(ratToNumber(rat(1n, 10n))).toBe(0.1);
  });

  it('ratSqrtToNumber agrees with Math.sqrt (correctly rounded) on doubles', () => {
    const rng = makeRng(12);
    for (let i = 0; i < 2000; i++) {
      const x = rng.uniform(0, 1) * 2 ** rng.int(-1070, 1020);
      expect(ratSqrtToNumber(ratFromDouble(x))).toBe(Math.sqrt(x));
    }
    expect(ratSqrtToNumber(rat(2n))).toBe(Math.SQRT2);
    expect(ratSqrtToNumber(rat(1n, 4n))).toBe(0.5);
    expect(ratSqrtToNumber(rat(10n ** 620n))).toBe(Infinity);
    expect(ratSqrtToNumber(rat(10n ** 600n))).toBe(1e300);
  });

  it('sqrtDiff / errorVsExact measure tiny differences accurately', () => {
    const e = errorVsExact(Math.SQRT2, rat(2n));
    expect(e).toBeGreaterThan(0);
    expect(e).toBeLessThan(2 ** -53 * 1.5);
    expect(errorVsExact(3, rat(9n))).toBe(0);
    // 1 + 2^-52 vs exact 1: error is exactly 2^-52.
    expect(errorVsExact(1 + 2 ** -52, rat(1n))).toBe(2 ** -52);
    expect(sqrtDiff(rat(4n), rat(9n))).toBe(1);
    expect(ratToNumber(exactDistSqDoubles([0.1, 0], [0.3, 0]))).toBeCloseTo(0.04, 15);
    expect(exactDistSqDoubles([1e300, 0], [-1e300, 0]).num > 0n).toBe(true);
    expect(ratSqrtToNumber(exactDistSqDoubles([1e300], [-1e300]))).toBe(2e300);
    expect(ratSqrtToNumber(exactDistSqDoubles([5e-324], [0]))).toBe(5e-324);
  });
});

/** Independent double-precision brute force: golden-section search over s of dist(A(s), B). */
function bruteDist(a: Primitive, b: Primitive): number {
  const range = (p: Primitive): [number, number] =>
    p.kind === 'point' ? [0, 0] : p.kind === 'segment' ? [0, 1] : p.kind === 'ray' ? [0, 1e3] : [-1e3, 1e3];
  const at = (p: Primitive, s: number): number[] => Array.from(p.p0, (x, i) => x + s * p.dir[i]);
  const toPrim = (p: number[], q: Primitive): number => {
    const [lo, hi] = range(q);
    let vv = 0;
    let pv = 0;
    for (let i = 0; i < p.length; i++) {
      vv += q.dir[i] * q.dir[i];
      pv += (p[i] - q.p0[i]) * q.dir[i];
    }
    const t = vv === 0 ? 0 : Math.min(hi, Math.max(lo, pv / vv));
    const x = at(q, t);
    return Math.hypot(...p.map((y, i) => y - x[i]));
  };
  let [lo, hi] = range(a);
  const g = (Math.sqrt(5) - 1) / 2;
  for (let k = 0; k < 200 && hi - lo > 0; k++) {
    const m1 = hi - g * (hi - lo);
    const m2 = lo + g * (hi - lo);
    if (toPrim(at(a, m1), b) < toPrim(at(a, m2), b)) hi = m2;
    else lo = m1;
  }
  return Math.min(toPrim(at(a, (lo + hi) / 2), b), toPrim(at(a, range(a)[0]), b), toPrim(at(a, range(a)[1]), b));
}

describe('oracle vs brute force (seed 2024)', () => {
  it('random generic pairs of every kind in 2D, 3D, 4D agree to 1e-9', () => {
    const rng = makeRng(2024);
    const kinds = ['point', 'segment', 'line', 'ray'] as const;
    const make = (kind: (typeof kinds)[number], dim: number): Primitive => {
      const v = (): number[] => Array.from({ length: dim }, () => rng.uniform(-2, 2));
      switch (kind) {
        case 'point': return point(v());
        case 'segment': return segment(v(), v());
        case 'line': return line(v(), v());
        default: return ray(v(), v());
      }
    };
    for (let i = 0; i < 600; i++) {
      const dim = 2 + (i % 3);
      const a = make(rng.pick(kinds), dim);
      const b = make(rng.pick(kinds), dim);
      const exact = Math.sqrt(ratToNumber(exactClosest(a, b).distSq));
      const swapped = Math.sqrt(ratToNumber(exactClosest(b, a).distSq));
      expect(swapped).toBe(exact);
      const brute = bruteDist(a, b);
      expect(brute).toBeGreaterThanOrEqual(exact - 1e-12);
      expect(Math.abs(brute - exact)).toBeLessThan(1e-9);
      // The returned c, d really are on a and b and realise the distance.
      const r = exactClosest(a, b);
      const c = toNums(r.c);
      const d = toNums(r.d);
      expect(Math.sqrt(ratToNumber(exactPointPrimitiveDistSq(c, a)))).toBeLessThan(1e-12);
      expect(Math.sqrt(ratToNumber(exactPointPrimitiveDistSq(d, b)))).toBeLessThan(1e-12);
      expect(Math.abs(Math.hypot(...c.map((x, j) => x - d[j])) - exact)).toBeLessThan(1e-12);
    }
  });
});

/**
 * Certifies the oracle's answer on every family independently of how it was found: at the
 * returned (s, t), computed exactly, f(s, t) = |w + s·u − t·v|² equals the reported minimum,
 * (s, t) lies in the domain, and the KKT conditions of the convex problem hold exactly
 * (∂f/∂s = 2u·r is 0 inside the domain, ≥ 0 at a lower bound, ≤ 0 at an upper bound; same for t
 * with ∂f/∂t = −2v·r) — which proves it is the global minimum.
 */
// The same family seeds as test/accuracy.test.ts (base 20240611), and more cases, so every
// expectation the accuracy test checks against is certified.
describe('oracle: KKT certificate on every family (accuracy-test seeds)', () => {
  const dirOf = (p: Primitive): number[][] =>
    p.kind === 'ray' ? [Array.from(p.p0), Array.from(p.dir), []] : [Array.from(p.p0), [], Array.from(p.p1)];
  const lo = (p: Primitive): number | null => (p.kind === 'line' ? null : 0);
  const hi = (p: Primitive): number | null => (p.kind === 'point' ? 0 : p.kind === 'segment' ? 1 : null);
  FAMILIES.forEach(({ name, make }, fi) => {
    const seed = familySeed(20240611, fi);
    it(`${name} seed=${seed} (all kinds) and seed=${seed + 2} (segments only)`, () => {
      for (const { a, b } of [...make(seed, 300), ...make(seed + 2, 300, { segmentsOnly: true })]) {
        const r = exactClosest(a, b);
        const vec = (p: Primitive): { base: Rat[]; dir: Rat[] } => {
          const [p0, dir, p1] = dirOf(p);
          const base = p0.map(ratFromDouble);
          if (p.kind === 'point') return { base, dir: base.map(() => rat(0n)) };
          if (p.kind === 'ray') return { base, dir: dir.map(ratFromDouble) };
          return { base, dir: p1.map((x, i) => ratSub(ratFromDouble(x), base[i])) };
        };
        const A = vec(a);
        const B = vec(b);
        const res = A.base.map((x, i) => ratSub(ratAdd(ratSub(x, B.base[i]), ratMul(r.s, A.dir[i])), ratMul(r.t, B.dir[i])));
        let f = rat(0n);
        let gs = rat(0n);
        let gt = rat(0n);
        for (let i = 0; i < res.length; i++) {
          f = ratAdd(f, ratMul(res[i], res[i]));
          gs = ratAdd(gs, ratMul(A.dir[i], res[i]));
          gt = ratSub(gt, ratMul(B.dir[i], res[i]));
        }
        expect(ratCmp(f, r.distSq)).toBe(0);
        const kkt = (x: Rat, g: Rat, l: number | null, h: number | null): boolean => {
          const atLo = l !== null && ratCmp(x, rat(BigInt(l))) === 0;
          const atHi = h !== null && ratCmp(x, rat(BigInt(h))) === 0;
          if (l !== null && ratCmp(x, rat(BigInt(l))) < 0) return false;
          if (h !== null && ratCmp(x, rat(BigInt(h))) > 0) return false;
          const sg = g.num === 0n ? 0 : g.num > 0n ? 1 : -1;
          if (atLo && atHi) return true;
          if (atLo) return sg >= 0;
          if (atHi) return sg <= 0;
          return sg === 0;
        };
        expect(kkt(r.s, gs, lo(a), hi(a))).toBe(true);
        expect(kkt(r.t, gt, lo(b), hi(b))).toBe(true);
      }
    });
  });
});
