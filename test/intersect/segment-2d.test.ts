/**
 * segmentIntersection2D against the exact BigInt oracle (test/support/exact-isect.ts): the kind
 * (none / point / overlap) must match exactly, reported parameters and crossing points must be
 * the doubles nearest to the exact rationals, overlap ends and touching points exact. Seeds are
 * in the test names.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkewlineInputError } from '../../src/core/primitives.js';
import { segmentIntersection2D, type SegmentIntersection2D } from '../../src/intersect/segment-2d.js';
import { ratToDouble } from '../../src/core/exact.js';
import {
  cmp, exactIsect, family2D, FAMILIES_2D, fromDouble, isNearest, nextUp, type OPrim, type Pair, type Q,
} from '../support/exact-isect.js';

const LONG = process.env.SKEWLINE_LONG === '1';
const N = LONG ? 20_000 : 1_500;

const eq = (x: number, y: Q): boolean => cmp(fromDouble(x), y) === 0;

/** Empty string if `got` is the exact answer for the pair (rounded to nearest), else why not. */
function judge(a: OPrim, b: OPrim, got: SegmentIntersection2D): string {
  const ex = exactIsect(a, b);
  if (ex.kind !== got.kind) return `kind ${got.kind}, exact ${ex.kind}`;
  if (ex.kind === 'point' && got.kind === 'point') {
    if (!isNearest(got.t1, ex.s)) return `t1 ${got.t1} not nearest`;
    if (!isNearest(got.t2, ex.t)) return `t2 ${got.t2} not nearest`;
    if (!isNearest(got.point[0], ex.X[0]) || !isNearest(got.point[1], ex.X[1])) return `point ${got.point} not nearest`;
  }
  if (ex.kind === 'overlap' && got.kind === 'overlap') {
    const { lo, hi } = ex.s;
    if (lo === null || hi === null) return 'unbounded overlap?';
    if (!isNearest(got.t1[0], lo) || !isNearest(got.t1[1], hi)) return `t1 ${got.t1}`;
    const S = ex.X(lo), E = ex.X(hi);
    if (!eq(got.start[0], S[0]) || !eq(got.start[1], S[1]) || !eq(got.end[0], E[0]) || !eq(got.end[1], E[1])) {
      return `ends ${got.start} ${got.end}`;
    }
    const [u, v] = [ex.tOf(lo), ex.tOf(hi)];
    const [tlo, thi] = cmp(u, v) <= 0 ? [u, v] : [v, u];
    if (!isNearest(got.t2[0], tlo) || !isNearest(got.t2[1], thi)) return `t2 ${got.t2}`;
    if (got.sameDirection !== ex.lam.n > 0n) return 'sameDirection';
  }
  return '';
}

const run = (p: Pair): SegmentIntersection2D => segmentIntersection2D(p.a.p, p.a.r, p.b.p, p.b.r);

function seedOf(name: string, base: number): number {
  let h = base >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

describe("the tutorial's example (document 004)", () => {
  it('P1=(4,7), v1=(12,−4), P2=(1,1), v2=(16,4): t1 = t2 = 3/4 and I = (13, 4) exactly', () => {
    expect(segmentIntersection2D([4, 7], [16, 3], [1, 1], [17, 5])).toEqual({ kind: 'point', point: [13, 4], t1: 0.75, t2: 0.75 });
    expect(segmentIntersection2D([1, 1], [17, 5], [4, 7], [16, 3])).toEqual({ kind: 'point', point: [13, 4], t1: 0.75, t2: 0.75 });
    expect(segmentIntersection2D([16, 3], [4, 7], [1, 1], [17, 5])).toEqual({ kind: 'point', point: [13, 4], t1: 0.25, t2: 0.75 });
  });
});

describe('segmentIntersection2D vs the exact oracle', () => {
  for (const fam of FAMILIES_2D) {
    const seed = seedOf(fam, 5150);
    it(`${fam} (seed ${seed}, ${N} pairs): kinds, parameters and points exact`, () => {
      const bad: string[] = [];
      const kinds = { none: 0, point: 0, overlap: 0 };
      for (const p of family2D(fam, seed, N)) {
        const got = run(p);
        kinds[got.kind]++;
        const why = judge(p.a, p.b, got);
        if (why) bad.push(`${p.label} a=${p.a.p}→${p.a.r} b=${p.b.p}→${p.b.r}: ${why}`);
      }
      expect(bad.slice(0, 10), `seed ${seed}: ${bad.length} mismatches`).toEqual([]);
      expect(kinds.point).toBeGreaterThan(0);
    });
  }
});

describe('named cases', () => {
  it('collinear cases: overlap, touching end to end, disjoint, contained, reversed', () => {
    expect(segmentIntersection2D([0, 0], [4, 0], [2, 0], [6, 0])).toEqual({
      kind: 'overlap', start: [2, 0], end: [4, 0], t1: [0.5, 1], t2: [0, 0.5], sameDirection: true,
    });
    expect(segmentIntersection2D([0, 0], [4, 0], [6, 0], [2, 0])).toEqual({
      kind: 'overlap', start: [2, 0], end: [4, 0], t1: [0.5, 1], t2: [0.5, 1], sameDirection: false,
    });
    expect(segmentIntersection2D([4, 4], [0, 0], [1, 1], [3, 3])).toEqual({
      kind: 'overlap', start: [3, 3], end: [1, 1], t1: [0.25, 0.75], t2: [0, 1], sameDirection: false,
    });
    expect(segmentIntersection2D([0, 0], [4, 0], [4, 0], [6, 0])).toEqual({ kind: 'point', point: [4, 0], t1: 1, t2: 0 });
    expect(segmentIntersection2D([0, 0], [1, 0], [2, 0], [3, 0])).toEqual({ kind: 'none' }); // collinear, disjoint
  });
  it('shared endpoints and T-junctions are points', () => {
    expect(segmentIntersection2D([0, 0], [1, 1], [1, 1], [2, 0])).toEqual({ kind: 'point', point: [1, 1], t1: 1, t2: 0 });
    expect(segmentIntersection2D([0, 0], [4, 0], [1, 0], [1, 5])).toEqual({ kind: 'point', point: [1, 0], t1: 0.25, t2: 0 });
    expect(segmentIntersection2D([0, 0], [4, 0], [1, nextUp(0)], [1, 5]).kind).toBe('none'); // an ulp above
  });
  it('zero-length segments', () => {
    expect(segmentIntersection2D([1, 1], [1, 1], [0, 0], [4, 4])).toEqual({ kind: 'point', point: [1, 1], t1: 0, t2: 0.25 });
    expect(segmentIntersection2D([0, 0], [4, 4], [1, 1], [1, 1])).toEqual({ kind: 'point', point: [1, 1], t1: 0.25, t2: 0 });
    expect(segmentIntersection2D([1, 1], [1, 1], [1, 1], [1, 1])).toEqual({ kind: 'point', point: [1, 1], t1: 0, t2: 0 });
    expect(segmentIntersection2D([1, 1], [1, 1], [1, 2], [1, 2])).toEqual({ kind: 'none' });
    expect(segmentIntersection2D([1, 2], [1, 2], [0, 0], [4, 4])).toEqual({ kind: 'none' });
  });
  it('parameters that are not dyadic are rounded once (1/3)', () => {
    const r = segmentIntersection2D([0, 0], [3, 0], [1, -1], [1, 1]);
    expect(r).toEqual({ kind: 'point', point: [1, 0], t1: 1 / 3, t2: 0.5 });
  });
  it('far from the origin: the crossing is the nearest double', () => {
    const o = 1e9;
    const r = segmentIntersection2D([o, o], [o + 3, o + 1], [o, o + 1], [o + 3, o]);
    expect(r).toEqual({ kind: 'point', point: [o + 1.5, o + 0.5], t1: 0.5, t2: 0.5 });
  });
});

describe('input validation', () => {
  it('names the argument', () => {
    expect(() => segmentIntersection2D([0, 0, 0], [1, 1], [0, 1], [1, 0])).toThrow(/a0 must be a 2D point/);
    expect(() => segmentIntersection2D([0, 0], [1, NaN], [0, 1], [1, 0])).toThrow(/a1\[1\] is not finite/);
    expect(() => segmentIntersection2D([0, 0], [1, 1], [0, Infinity], [1, 0])).toThrow(/b0\[1\]/);
    expect(() => segmentIntersection2D([0, 0], [1, 1], [0, 1], undefined as unknown as number[])).toThrow(/b1 is missing/);
    expect(() => segmentIntersection2D([0, 0], [1, 1], [0, 1], ['1', 0] as unknown as number[])).toThrow(SkewlineInputError);
  });
});

describe('ratToDouble', () => {
  it('agrees with IEEE division on integers, and rounds subnormals once', () => {
    const r = (seed: number) => () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const g = r(12345);
    for (let i = 0; i < 5000; i++) {
      const n = Math.floor((g() - 0.5) * 2 ** 53), d = Math.floor(g() * 2 ** 40) + 1;
      expect(ratToDouble(BigInt(n), BigInt(d), 0)).toBe(n / d);
    }
    expect(ratToDouble(3n, 2n, -1074)).toBe(2 * 2 ** -1074); // 1.5 ulp → tie to even
    expect(ratToDouble(5n, 2n, -1074)).toBe(2 * 2 ** -1074); // 2.5 ulp → tie to even
    expect(ratToDouble(7n, 2n, -1074)).toBe(4 * 2 ** -1074);
    expect(ratToDouble(1n, 3n, -1074)).toBe(0);
    expect(ratToDouble(-1n, 1n, 1023)).toBe(-(2 ** 1023));
  });
});

describe('invariants (fast-check)', () => {
  const params = { seed: 777, numRuns: LONG ? 20_000 : 1_000 };
  const c = fc.integer({ min: -6, max: 6 });
  const p = fc.tuple(c, c);
  it(`swap, reversal, scaling by 2^k and translation keep kind and point; results match the oracle (seed ${params.seed})`, () => {
    fc.assert(
      fc.property(fc.tuple(p, p, p, p), fc.integer({ min: -50, max: 50 }), fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), ([a0, a1, b0, b1], k, tr) => {
        const A = [...a0], B = [...a1], C = [...b0], D = [...b1];
        const r = segmentIntersection2D(A, B, C, D);
        if (judge({ kind: 'segment', p: A, r: B }, { kind: 'segment', p: C, r: D }, r) !== '') return false;
        const s = segmentIntersection2D(C, D, A, B);
        const rev = segmentIntersection2D(B, A, C, D);
        const sc = (q: number[]): number[] => q.map((x) => x * 2 ** k);
        const mv = (q: number[]): number[] => [q[0] + tr, q[1] - tr];
        const scaled = segmentIntersection2D(sc(A), sc(B), sc(C), sc(D));
        const moved = segmentIntersection2D(mv(A), mv(B), mv(C), mv(D));
        if (s.kind !== r.kind || rev.kind !== r.kind || scaled.kind !== r.kind || moved.kind !== r.kind) return false;
        if (r.kind === 'point' && s.kind === 'point' && rev.kind === 'point' && scaled.kind === 'point' && moved.kind === 'point') {
          const same = (u: number[], v: number[]): boolean => u[0] === v[0] && u[1] === v[1];
          return same(s.point, r.point) && s.t1 === r.t2 && s.t2 === r.t1 && same(rev.point, r.point) &&
            same(scaled.point, sc(r.point)) && scaled.t1 === r.t1 && scaled.t2 === r.t2 &&
            // translation changes where the point rounds, not the exact parameters
            moved.t1 === r.t1 && moved.t2 === r.t2;
        }
        if (r.kind === 'overlap' && s.kind === 'overlap' && scaled.kind === 'overlap') {
          return s.t1[0] === r.t2[0] && s.t1[1] === r.t2[1] && s.sameDirection === r.sameDirection &&
            scaled.t1[0] === r.t1[0] && scaled.t1[1] === r.t1[1];
        }
        return true;
      }),
      params,
    );
  });
});
