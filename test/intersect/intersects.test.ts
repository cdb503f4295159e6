/**
 * intersects / intersectsSegments2 / intersectsSegments3 / collinear / coplanar against an
 * exact BigInt oracle (test/support/exact-isect.ts) on seeded near-degenerate families, named
 * regression cases, and fast-check invariants. Seeds are in the test names; a failure prints
 * the offending cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactRelation } from '../../src/core/exact.js';
import {
  collinear, coplanar, intersects, intersectsSegments2, intersectsSegments3, orient2Sign, orient3Sign,
} from '../../src/intersect/intersects.js';
import { line, point, ray, segment, SkewlineInputError } from '../../src/core/primitives.js';
import type { Primitive } from '../../src/core/types.js';
import {
  cmp, exactShares, family2D, fromDouble, mul, rng, sub, ZERO as QZERO, family3D, familyMixed, FAMILIES_2D, FAMILIES_3D, nextDown, nextUp, type OPrim, type Pair,
} from '../support/exact-isect.js';

const LONG = process.env.SKEWLINE_LONG === '1';
const N = LONG ? 20_000 : 1_500;

function prim(x: OPrim): Primitive {
  switch (x.kind) {
    case 'point': return point(x.p);
    case 'segment': return segment(x.p, x.r);
    case 'ray': return ray(x.p, x.r);
    case 'line': return line(x.p, x.r);
  }
}
const flat = (p: Pair): Float64Array => Float64Array.from([...p.a.p, ...p.a.r, ...p.b.p, ...p.b.r]);
const show = (p: Pair): string => `${p.label}: ${p.a.kind}(${p.a.p},${p.a.r}) ${p.b.kind}(${p.b.p},${p.b.r})`;

/** Seed derived from the family name so each family has its own stable stream. */
function seedOf(name: string, base: number): number {
  let h = base >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function check(pairs: Pair[], dim: 2 | 3): { mismatches: string[]; hits: number } {
  const mismatches: string[] = [];
  let hits = 0;
  for (const p of pairs) {
    const want = exactShares(p.a, p.b);
    if (want) hits++;
    const got = intersects(prim(p.a), prim(p.b));
    const gotSwap = intersects(prim(p.b), prim(p.a));
    let gotFlat = got;
    if (p.a.kind === 'segment' && p.b.kind === 'segment') {
      gotFlat = dim === 2 ? intersectsSegments2(flat(p), 0) : intersectsSegments3(flat(p), 0);
    }
    if (got !== want || gotSwap !== want || gotFlat !== want) {
      mismatches.push(`${show(p)} exact=${want} intersects=${got} swapped=${gotSwap} flat=${gotFlat}`);
    }
  }
  return { mismatches, hits };
}

describe('intersects vs the exact oracle (2D)', () => {
  for (const fam of FAMILIES_2D) {
    const seed = seedOf(fam, 20240611);
    it(`${fam} (seed ${seed}, ${N} pairs): zero mismatches`, () => {
      const { mismatches, hits } = check(family2D(fam, seed, N), 2);
      expect(mismatches.slice(0, 10), `seed ${seed}: ${mismatches.length} mismatches`).toEqual([]);
      expect(hits).toBeGreaterThan(0); // the family does produce intersecting pairs
    });
  }
  const seed = seedOf('mixed2', 7);
  it(`mixed kinds on a grid (seed ${seed}): zero mismatches`, () => {
    const { mismatches } = check(familyMixed(seed, N, 2), 2);
    expect(mismatches.slice(0, 10), `seed ${seed}: ${mismatches.length} mismatches`).toEqual([]);
  });
});

describe('intersects vs the exact oracle (3D)', () => {
  for (const fam of FAMILIES_3D) {
    const seed = seedOf(fam, 3033);
    it(`${fam} (seed ${seed}, ${N} pairs): zero mismatches`, () => {
      const { mismatches } = check(family3D(fam, seed, N), 3);
      expect(mismatches.slice(0, 10), `seed ${seed}: ${mismatches.length} mismatches`).toEqual([]);
    });
  }
  const seed = seedOf('mixed3', 7);
  it(`mixed kinds on a grid (seed ${seed}): zero mismatches`, () => {
    const { mismatches } = check(familyMixed(seed, N, 3), 3);
    expect(mismatches.slice(0, 10), `seed ${seed}: ${mismatches.length} mismatches`).toEqual([]);
  });
});

describe('one source of truth: intersects agrees with exactRelation', () => {
  const seed = seedOf('agree', 99);
  it(`2D and 3D families and mixed kinds (seed ${seed})`, () => {
    const bad: string[] = [];
    const pairs = [
      ...FAMILIES_2D.flatMap((f) => family2D(f, seed, 200)),
      ...FAMILIES_3D.flatMap((f) => family3D(f, seed, 200)),
      ...familyMixed(seed, 400, 2), ...familyMixed(seed, 400, 3),
    ];
    for (const p of pairs) {
      const a = prim(p.a), b = prim(p.b);
      if (intersects(a, b) !== (exactRelation(a, b).share !== 'none')) bad.push(show(p));
    }
    expect(bad.slice(0, 10), `seed ${seed}: ${bad.length} disagreements`).toEqual([]);
  });
  it('other dimensions defer to exactRelation (4D)', () => {
    const a = segment([0, 0, 0, 0], [2, 2, 2, 2]);
    expect(intersects(a, segment([0, 2, 0, 2], [2, 0, 2, 0]))).toBe(true);
    expect(intersects(a, segment([0, 2, 0, 2], [2, 0, 2, 1]))).toBe(false);
  });
});

describe('regressions', () => {
  const S = (a: number[], b: number[]): Primitive => segment(a, b);
  it('collinear but disjoint segments do not intersect (orientation-only false positive)', () => {
    expect(intersects(S([0, 0], [1, 0]), S([2, 0], [3, 0]))).toBe(false);
    expect(intersects(S([0, 0], [1, 1]), S([3, 3], [2, 2]))).toBe(false);
    expect(intersects(S([0, 0, 0], [1, 1, 1]), S([2, 2, 2], [3, 3, 3]))).toBe(false);
    expect(intersectsSegments2([0, 5, 0, 6, 0, 7, 0, 8], 0)).toBe(false); // vertical
    expect(intersectsSegments3([0, 0, 5, 0, 0, 6, 0, 0, 7, 0, 0, 8], 0)).toBe(false);
  });
  it('shared endpoints intersect', () => {
    expect(intersects(S([0, 0], [1, 1]), S([1, 1], [2, 0]))).toBe(true);
    expect(intersects(S([0, 0], [1, 0]), S([1, 0], [2, 0]))).toBe(true); // collinear, end to end
    expect(intersects(S([0.1, 0.2, 0.3], [0.7, 0.1, 0.9]), S([0.7, 0.1, 0.9], [5, 6, 7]))).toBe(true);
  });
  it('nearly coincident segments: one ulp apart do not meet, exactly coincident do', () => {
    const a0 = [0.1, 0.2], a1 = [0.7, 0.3];
    const up = (p: number[]): number[] => [p[0], nextUp(p[1])];
    const pair = (b0: number[], b1: number[]): boolean => intersects(S(a0, a1), S(b0, b1));
    expect(pair(up(a0), up(a1))).toBe(exactShares({ kind: 'segment', p: a0, r: a1 }, { kind: 'segment', p: up(a0), r: up(a1) }));
    expect(pair([...a1], [...a0])).toBe(true);
    // b crosses from one ulp above a's start to one ulp below its end: a genuine crossing
    expect(pair(up(a0), [a1[0], nextDown(a1[1])])).toBe(true);
  });
  it('intersections at the first and last segment of a chain', () => {
    const chain = [[0, 0], [1, 0.1], [2, -0.3], [3, 0.2], [4, 0]];
    const probe = (a: number[], b: number[]): boolean[] =>
      chain.slice(1).map((p, i) => intersects(S(chain[i], p), S(a, b)));
    expect(probe([0.5, -1], [0.5, 1])[0]).toBe(true);
    expect(probe([3.5, -1], [3.5, 1])[3]).toBe(true);
    expect(probe([0, -1], [0, 1])).toEqual([true, false, false, false]); // at the chain's first vertex
    expect(probe([4, 0], [5, 0])).toEqual([false, false, false, true]); // touching its last vertex
  });
  it("the tutorial's example crosses at (13, 4)", () => {
    expect(intersects(S([4, 7], [16, 3]), S([1, 1], [17, 5]))).toBe(true);
    expect(intersects(segment([4, 7], [16, 3]), point([13, 4]))).toBe(true);
    expect(intersects(segment([4, 7], [16, 3]), point([13, nextUp(4)]))).toBe(false);
  });
  it('rays use their exact direction (origin + direction not representable)', () => {
    const r = ray([0.1, 0.2], [0.3, 0.7]);
    expect(intersects(r, point([0.1, 0.2]))).toBe(true);
    expect(intersects(r, segment([0.1 - 3, 0.2 - 7], [0.1, 0.2]))).toBe(exactShares({ kind: 'ray', p: [0.1, 0.2], r: [0.3, 0.7] }, { kind: 'segment', p: [0.1 - 3, 0.2 - 7], r: [0.1, 0.2] }));
    expect(intersects(ray([0, 0], [1, 1]), ray([2, 2], [-1, -1]))).toBe(true); // opposite, facing
    expect(intersects(ray([0, 0], [1, 1]), ray([-1, -1], [-1, -1]))).toBe(false); // opposite, apart
    expect(intersects(line([0, 0, 0], [1, 2, 3]), line([0, 0, 1], [1, 2, 4]))).toBe(false); // parallel
  });
  it('far from the origin and tiny scales', () => {
    const o = 1e9;
    expect(intersects(S([o, o], [o + 2, o + 2]), S([o, o + 2], [o + 2, o]))).toBe(true);
    expect(intersects(S([o, o], [o + 2, o + 2]), S([o + 3, o + 3], [o + 4, o + 4]))).toBe(false);
    const t = 2 ** -1070; // subnormal: products underflow, the exact path must decide
    expect(intersects(S([0, 0], [2 * t, 2 * t]), S([0, 2 * t], [2 * t, 0]))).toBe(true);
    expect(intersects(S([0, 0], [2 * t, 2 * t]), S([t, 0], [3 * t, 2 * t]))).toBe(false);
    expect(intersects(S([0, 0], [4 * t, 4 * t]), S([t, t], [3 * t, 3 * t]))).toBe(true);
    const h = 2 ** 1000;
    expect(intersects(S([-h, -h], [h, h]), S([-h, h], [h, -h]))).toBe(true);
    expect(intersects(S([-h, -h], [h, h]), S([-h, nextUp(-h)], [h, nextUp(h)]))).toBe(false);
    // the same in 3D, through the coplanarity test and the projections
    expect(intersects(S([0, 0, t], [2 * t, 2 * t, t]), S([0, 2 * t, t], [2 * t, 0, t]))).toBe(true);
    expect(intersects(S([0, 0, t], [2 * t, 2 * t, t]), S([0, 2 * t, t], [2 * t, 0, 2 * t]))).toBe(false);
    expect(intersects(S([-h, -h, h], [h, h, h]), S([-h, h, h], [h, -h, h]))).toBe(true);
    expect(intersects(S([-h, -h, h], [h, h, h]), S([-h, h, h], [h, -h, nextUp(h)]))).toBe(false);
  });
});

describe('orientation signs (both the filtered and the exact paths) match exact determinants', () => {
  const seed = 8675309;
  it(`counter-clockwise positive in 2D, right-handed positive in 3D (seed ${seed})`, () => {
    const r = rng(seed);
    const bad: string[] = [];
    const coord = (scale: number): number => {
      const k = Math.floor(r() * 4);
      const x = Math.floor(r() * 5) * scale;
      return k === 0 ? nextUp(x) : k === 1 ? nextDown(x) : x; // grid points, some an ulp off
    };
    const d = (x: number, y: number) => sub(fromDouble(x), fromDouble(y));
    for (let i = 0; i < 3000; i++) {
      const scale = [1, 0.1, 2 ** -1070, 2 ** 700, 1e9][i % 5];
      const p = Array.from({ length: 12 }, () => coord(scale));
      const [ax, ay, bx, by, cx, cy] = p;
      const det2 = sub(mul(d(bx, ax), d(cy, ay)), mul(d(by, ay), d(cx, ax)));
      if (orient2Sign(ax, ay, bx, by, cx, cy) !== cmp(det2, QZERO)) bad.push(`2D ${p.slice(0, 6)}`);
      const u = [d(p[3], p[0]), d(p[4], p[1]), d(p[5], p[2])];
      const v = [d(p[6], p[0]), d(p[7], p[1]), d(p[8], p[2])];
      const w = [d(p[9], p[0]), d(p[10], p[1]), d(p[11], p[2])];
      const m = (a: typeof u, b: typeof u, x: number, y: number) => sub(mul(a[x], b[y]), mul(a[y], b[x]));
      const det3 = [mul(u[0], m(v, w, 1, 2)), mul(u[1], m(v, w, 2, 0)), mul(u[2], m(v, w, 0, 1))].reduce((s2, t) => {
        return { n: s2.n * t.d + t.n * s2.d, d: s2.d * t.d };
      });
      const o3 = orient3Sign(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11]);
      if (o3 !== cmp(det3, QZERO)) bad.push(`3D ${p}`);
    }
    expect(bad.slice(0, 10), `seed ${seed}: ${bad.length} wrong signs`).toEqual([]);
  });
});

describe('input validation', () => {
  it('rejects non-primitives, different dimensions and non-finite coordinates', () => {
    expect(() => intersects({} as Primitive, point([0, 0]))).toThrow(SkewlineInputError);
    expect(() => intersects(point([0, 0]), point([0, 0, 0]))).toThrow(/dimensions/);
    const bad = { ...segment([0, 0], [1, 1]), p0: Float64Array.of(NaN, 0) } as Primitive;
    expect(() => intersects(bad, point([0, 0]))).toThrow(/a\.p0\[0\]/);
  });
  it('collinear / coplanar helpers', () => {
    expect(collinear([0, 0], [1, 1], [3, 3])).toBe(true);
    expect(collinear([0, 0], [1, 1], [3, nextUp(3)])).toBe(false);
    expect(collinear([0, 0, 0], [1, 2, 3], [2, 4, 6])).toBe(true);
    expect(collinear([0, 0, 0], [1, 2, 3], [2, 4, 7])).toBe(false);
    expect(collinear([1, 1, 1, 1], [1, 1, 1, 1], [5, 6, 7, 8])).toBe(true);
    expect(coplanar([0, 0, 0], [1, 0, 0], [0, 1, 0], [0.3, 0.7, 0])).toBe(true);
    expect(coplanar([0, 0, 0], [1, 0, 0], [0, 1, 0], [0.3, 0.7, 2 ** -1074])).toBe(false);
    expect(coplanar([0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [1, 1, 0, 0])).toBe(true);
    expect(coplanar([0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [1, 1, 0, 1])).toBe(false);
    expect(coplanar([0, 0], [1, 0], [0, 1], [5, 5])).toBe(true);
    expect(() => collinear([0, 0], [1, 1], [1, NaN])).toThrow(/collinear: r\[1\]/);
    expect(() => coplanar([0, 0], [1, 1], [1, 1], [0, 0, 0])).toThrow(/different dimensions/);
  });
});

describe('invariants (fast-check)', () => {
  const coord = fc.integer({ min: -6, max: 6 });
  const p2 = fc.tuple(coord, coord);
  const p3 = fc.tuple(coord, coord, coord);
  const seg2 = fc.tuple(p2, p2, p2, p2);
  const seg3 = fc.tuple(p3, p3, p3, p3);
  const I2 = (a0: number[], a1: number[], b0: number[], b1: number[]): boolean => intersectsSegments2([...a0, ...a1, ...b0, ...b1], 0);
  const I3 = (a0: number[], a1: number[], b0: number[], b1: number[]): boolean => intersectsSegments3([...a0, ...a1, ...b0, ...b1], 0);
  const params = { seed: 424242, numRuns: LONG ? 20_000 : 1_000 };

  for (const [name, arb, I] of [['2D', seg2, I2], ['3D', seg3, I3]] as const) {
    it(`${name}: swapping, reversing, scaling by 2^k and translating keep the answer (seed ${params.seed})`, () => {
      fc.assert(
        fc.property(arb, fc.integer({ min: -60, max: 60 }), fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), ([a0, a1, b0, b1], k, tr) => {
          const want = I(a0, a1, b0, b1);
          const sc = (p: readonly number[]): number[] => p.map((x) => x * 2 ** k);
          const mv = (p: readonly number[]): number[] => p.map((x, i) => x + (i === 0 ? tr : tr / 4));
          return (
            want === exactShares({ kind: 'segment', p: [...a0], r: [...a1] }, { kind: 'segment', p: [...b0], r: [...b1] }) &&
            I(b0, b1, a0, a1) === want &&
            I(a1, a0, b0, b1) === want &&
            I(a0, a1, b1, b0) === want &&
            I(sc(a0), sc(a1), sc(b0), sc(b1)) === want &&
            I(mv(a0), mv(a1), mv(b0), mv(b1)) === want
          );
        }),
        params,
      );
    });
  }
  it(`mixed kinds: symmetric and agrees with the oracle (seed ${params.seed})`, () => {
    const kind = fc.constantFrom('point', 'segment', 'ray', 'line');
    const prim2 = fc.tuple(kind, p2, p2).filter(([k, p, r]) => (k === 'ray' ? r.some((x) => x !== 0) : k === 'line' ? r.some((x, i) => x !== p[i]) : true));
    fc.assert(
      fc.property(prim2, prim2, ([ka, pa, ra], [kb, pb, rb]) => {
        const A: OPrim = { kind: ka, p: [...pa], r: [...ra] }, B: OPrim = { kind: kb, p: [...pb], r: [...rb] };
        const want = exactShares(A, B);
        return intersects(prim(A), prim(B)) === want && intersects(prim(B), prim(A)) === want;
      }),
      params,
    );
  });
});
