import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  SkewlineInputError,
  closestPoints,
  intersectLineSegments,
  line,
  point,
  ray,
  segment,
  segmentDistance,
} from '../../src/index.js';
import { closestSegSeg2, closestSegSeg3, closestSegSegN } from '../../src/closest/segment-kernels.js';
import type { Primitive } from '../../src/core/types.js';
import { mulberry32 } from '../support/rng.js';

const U = 2 ** -53;

describe('documents’ worked cases', () => {
  it('Rhodes, GPG2 §2.3: A=(0,0,0)–(1,0,0), B=(1,0,1)–(1,1,1)', () => {
    const r = closestPoints(segment([0, 0, 0], [1, 0, 0]), segment([1, 0, 1], [1, 1, 1]));
    expect(r.c).toEqual([1, 0, 0]);
    expect(r.d).toEqual([1, 0, 1]);
    expect(r.p).toEqual([1, 0, 0.5]);
    expect(r.vector).toEqual([0, 0, 1]);
    expect(r.distance).toBe(1);
    expect([r.s, r.t]).toEqual([1, 0]);
    expect(r.relation).toBe('apart');
    expect(r.unique).toBe(true);
  });

  it('the tutorial’s 2D example meets at (13,4) with t1 = t2 = 3/4', () => {
    const r = closestPoints(segment([4, 7], [16, 3]), segment([1, 1], [17, 5]));
    expect(r.distance).toBe(0);
    expect(r.relation).toBe('intersecting');
    expect([r.s, r.t]).toEqual([0.75, 0.75]);
    expect(r.c).toEqual([13, 4]);
    expect(r.d).toEqual([13, 4]);
  });

  it('document 003: the shortest ray between two skew rays', () => {
    // ray 1 along x from the origin, ray 2 along y from (2, -1, 3): nearest at (2,0,0)–(2,0,3)
    const r = closestPoints(ray([0, 0, 0], [1, 0, 0]), ray([2, -1, 3], [0, 2, 0]));
    expect(r.c).toEqual([2, 0, 0]);
    expect(r.vector).toEqual([0, 0, 3]);
    expect(r.distance).toBe(3);
    expect([r.s, r.t]).toEqual([2, 0.5]);
  });

  it('document 003: negative parameters are clamped to the rays’ origins', () => {
    const r = closestPoints(ray([0, 0, 0], [1, 0, 0]), ray([-2, -1, 3], [0, -1, 0]));
    expect(r.s).toBe(0);
    expect(r.t).toBe(0);
    expect(r.distance).toBeCloseTo(Math.hypot(2, 1, 3), 15);
  });

  it('segdis (document 002) in 4D', () => {
    const d = segmentDistance([0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 1], [1, 1, 0, 1]);
    expect(d).toBe(Math.SQRT2);
  });
});

describe('special cases', () => {
  it('parallel segments with overlapping shadows: middle of the overlap, not unique', () => {
    const r = closestPoints(segment([0, 0, 0], [2, 0, 0]), segment([1, 1, 0], [3, 1, 0]));
    expect(r.relation).toBe('parallel');
    expect(r.unique).toBe(false);
    expect(r.c).toEqual([1.5, 0, 0]);
    expect(r.d).toEqual([1.5, 1, 0]);
    expect(r.distance).toBe(1);
    // swapping mirrors, reversing keeps the middle
    const w = closestPoints(segment([3, 1, 0], [1, 1, 0]), segment([2, 0, 0], [0, 0, 0]));
    expect(w.c).toEqual([1.5, 1, 0]);
    expect(w.d).toEqual([1.5, 0, 0]);
    expect([w.s, w.t]).toEqual([0.75, 0.25]);
  });

  it('parallel segments whose shadows are disjoint: the nearest ends, unique', () => {
    const r = closestPoints(segment([0, 0], [1, 0]), segment([3, 1], [2, 1]));
    expect(r.relation).toBe('parallel');
    expect(r.unique).toBe(true);
    expect(r.c).toEqual([1, 0]);
    expect(r.d).toEqual([2, 1]);
  });

  it('collinear overlapping segments: overlapping, distance 0, middle of the overlap', () => {
    const r = closestPoints(segment([0, 0, 0], [4, 0, 0]), segment([6, 0, 0], [2, 0, 0]));
    expect(r.relation).toBe('overlapping');
    expect(r.distance).toBe(0);
    expect(r.c).toEqual([3, 0, 0]);
    expect(r.unique).toBe(false);
  });

  it('collinear segments touching at one end: intersecting', () => {
    const r = closestPoints(segment([0, 0], [1, 1]), segment([1, 1], [3, 3]));
    expect(r.relation).toBe('intersecting');
    expect(r.distance).toBe(0);
    expect(r.c).toEqual([1, 1]);
  });

  it('collinear but disjoint segments: parallel, not intersecting', () => {
    const r = closestPoints(segment([0, 0], [1, 1]), segment([2, 2], [3, 3]));
    expect(r.relation).toBe('parallel');
    expect(r.distance).toBe(Math.SQRT2);
  });

  it('zero-length segments behave as points and are tagged degenerate', () => {
    const r = closestPoints(segment([1, 1, 1], [1, 1, 1]), segment([0, 0, 0], [2, 0, 0]));
    expect(r.relation).toBe('degenerate');
    expect(r.degenerate).toBe(true);
    expect(r.d).toEqual([1, 0, 0]);
    expect(r.distance).toBe(Math.SQRT2);
    const on = closestPoints(segment([1, 0, 0], [1, 0, 0]), segment([0, 0, 0], [2, 0, 0]));
    expect(on.relation).toBe('intersecting');
    expect(on.distance).toBe(0);
    const both = closestPoints(segment([1, 2], [1, 2]), segment([1, 3], [1, 3]));
    expect(both.relation).toBe('degenerate');
    expect(both.distance).toBe(1);
  });

  it('every pair of kinds, in 2D, 3D and 5D', () => {
    const makers: Record<string, (n: number) => Primitive> = {
      point: (n) => point(vec(n, 1)),
      segment: (n) => segment(vec(n, 2), vec(n, 3)),
      line: (n) => line(vec(n, 4), vec(n, 5)),
      ray: (n) => ray(vec(n, 6), vec(n, 7)),
    };
    for (const n of [2, 3, 5]) {
      for (const ka of Object.keys(makers)) {
        for (const kb of Object.keys(makers)) {
          const a = makers[ka](n);
          const b = makers[kb](n);
          const r = closestPoints(a, b);
          expect(r.c).toHaveLength(n);
          expect(Number.isFinite(r.distance)).toBe(true);
          const back = closestPoints(b, a);
          expect(Math.abs(back.distance - r.distance)).toBeLessThanOrEqual(1e-12 * (1 + r.distance));
        }
      }
    }
  });

  it('two parallel lines: the middle of a.p0 and b.p0’s shadow, not unique', () => {
    const r = closestPoints(line([0, 0], [1, 0]), line([4, 2], [5, 2]));
    expect(r.relation).toBe('parallel');
    expect(r.unique).toBe(false);
    expect(r.c).toEqual([2, 0]);
    expect(r.d).toEqual([2, 2]);
  });

  it('intersectLineSegments: the gem’s switch and tolerance', () => {
    const seg = intersectLineSegments([0, 0, 0], [1, 0, 0], [2, -1, 1], [2, 1, 1]);
    expect(seg.c).toEqual([1, 0, 0]);
    expect(seg.withinSegments).toBe(true);
    const inf = intersectLineSegments([0, 0, 0], [1, 0, 0], [2, -1, 1], [2, 1, 1], { infiniteLines: true });
    expect(inf.c).toEqual([2, 0, 0]);
    expect(inf.d).toEqual([2, 0, 1]);
    expect(inf.withinSegments).toBe(false);
    const tol = intersectLineSegments([0, 0, 0], [1e-9, 0, 0], [0, 1, 0], [0, 2, 0], { tolerance: 1e-6 });
    expect(tol.degenerate).toBe(true);
    expect(tol.c).toEqual([0, 0, 0]);
    expect(() => intersectLineSegments([0, 0], [1, 0], [0, 1], [1, 1], { tolerance: -1 })).toThrow(/tolerance/);
  });
});

describe('bad input gets a clear error', () => {
  const cases: [string, () => unknown, RegExp][] = [
    ['different dimensions', () => closestPoints(segment([0, 0], [1, 1]), segment([0, 0, 0], [1, 1, 1])), /different dimensions/],
    ['endpoints of different dimensions', () => segment([0, 0], [1, 1, 1]), /different dimensions/],
    ['NaN', () => point([0, NaN]), /point\[1\] is not finite/],
    ['Infinity', () => segment([0, 0], [Infinity, 0]), /segment p1\[0\] is not finite/],
    ['a string', () => segment([0, '1' as unknown as number], [0, 0]), /segment p0\[1\] is not a number/],
    ['missing', () => segment([0, 0], undefined as unknown as number[]), /segment p1 is missing/],
    ['zero ray', () => ray([0, 0], [0, 0]), /direction is the zero vector/],
    ['line through one point twice', () => line([1, 2], [1, 2]), /same point/],
    ['not a primitive', () => closestPoints({} as Primitive, point([0, 0])), /not a primitive/],
    ['missing primitive', () => closestPoints(point([0, 0]), undefined as unknown as Primitive), /not a primitive/],
    ['empty', () => point([]), /no coordinates/],
    ['not an array', () => point(5 as unknown as number[]), /must be an array/],
  ];
  for (const [name, f, msg] of cases) {
    it(name, () => {
      expect(f).toThrow(SkewlineInputError);
      expect(f).toThrow(msg);
    });
  }
  it('accepts typed arrays', () => {
    const r = closestPoints(segment(new Float32Array([0, 0]), new Float64Array([1, 0])), point([0.5, 1]));
    expect(r.distance).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties. fast-check prints the seed and the counterexample when one fails.

const coord = fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true });
/** Coordinates that stay normal under scaling by 2^±40, so that scaling is exact. */
const scalable = coord.filter((x) => x === 0 || Math.abs(x) > 1e-280);
const dyadic = fc.integer({ min: -64, max: 64 }).map((x) => x / 8);
const pt = (n: number, c = coord) => fc.array(c, { minLength: n, maxLength: n });
const segPair = (n: number, c = coord) => fc.tuple(pt(n, c), pt(n, c), pt(n, c), pt(n, c));

function scale(S: number[][]): number {
  const [a0, a1, b0, b1] = S;
  const len = (p: number[], q: number[]) => Math.hypot(...p.map((x, i) => x - q[i]));
  return Math.max(len(a0, a1), len(b0, b1), len(a0, b0));
}

describe('properties', () => {
  for (const n of [2, 3, 4]) {
    it(`swapping a and b mirrors the result (${n}D)`, () => {
      fc.assert(
        fc.property(fc.oneof(segPair(n), segPair(n, dyadic)), ([a0, a1, b0, b1]) => {
          const r = closestPoints(segment(a0, a1), segment(b0, b1));
          const w = closestPoints(segment(b0, b1), segment(a0, a1));
          expect(w.relation).toBe(r.relation);
          expect(w.distance === 0).toBe(r.distance === 0);
          expect(Math.abs(w.distance - r.distance)).toBeLessThanOrEqual(16 * U * scale([a0, a1, b0, b1]));
        }),
        { numRuns: 300, seed: 20261122 },
      );
    });

    it(`reversing a segment keeps the distance and maps s to 1 − s (${n}D)`, () => {
      fc.assert(
        fc.property(segPair(n), ([a0, a1, b0, b1]) => {
          const r = closestPoints(segment(a0, a1), segment(b0, b1));
          const v = closestPoints(segment(a1, a0), segment(b0, b1));
          const S = scale([a0, a1, b0, b1]);
          // s is only well defined (well conditioned) when neither segment is tiny beside
          // the configuration and they are not nearly parallel.
          const u = a1.map((x, i) => x - a0[i]);
          const w = b1.map((x, i) => x - b0[i]);
          const lu = Math.hypot(...u);
          const lw = Math.hypot(...w);
          const cos = u.reduce((acc, x, i) => acc + x * w[i], 0) / (lu * lw);
          const wellPosed = lu > 1e-6 * S && lw > 1e-6 * S && Math.abs(cos) < 0.999;
          expect(Math.abs(v.distance - r.distance)).toBeLessThanOrEqual(16 * U * S);
          expect(v.relation).toBe(r.relation);
          if (wellPosed) expect(Math.abs(v.s - (1 - r.s))).toBeLessThan(1e-9);
        }),
        { numRuns: 300, seed: 7 },
      );
    });

    it(`scaling every coordinate by a power of two scales the results exactly (${n}D)`, () => {
      fc.assert(
        fc.property(fc.oneof(segPair(n, scalable), segPair(n, dyadic)), fc.integer({ min: -40, max: 40 }), ([a0, a1, b0, b1], e) => {
          const f = 2 ** e;
          const m = (p: number[]) => p.map((x) => x * f);
          const r = closestPoints(segment(a0, a1), segment(b0, b1));
          const g = closestPoints(segment(m(a0), m(a1)), segment(m(b0), m(b1)));
          expect(g.distance).toBe(r.distance * f);
          expect(g.s).toBe(r.s);
          expect(g.t).toBe(r.t);
          expect(g.c).toEqual(m(r.c));
          expect(g.relation).toBe(r.relation);
        }),
        { numRuns: 300, seed: 11 },
      );
    });
  }
});

describe('flat kernels agree with the generic kernel', () => {
  for (const dim of [2, 3, 5]) {
    it(`segment pairs in ${dim}D, seed 99`, () => {
      const rnd = mulberry32(99 + dim);
      const n = 5000;
      const data = new Float64Array(n * 4 * dim);
      for (let i = 0; i < data.length; i++) {
        // mix uniform, integer-grid (touching) and nearly-degenerate data
        const mode = Math.floor(i / (4 * dim)) % 3;
        data[i] = mode === 0 ? rnd() * 2 - 1 : mode === 1 ? Math.floor(rnd() * 5) : 1 + (rnd() - 0.5) * 1e-9;
      }
      const out = new Float64Array(2);
      for (let p = 0; p < n; p++) {
        const k = p * 4 * dim;
        const q = (j: number) => Array.from(data.subarray(k + j * dim, k + (j + 1) * dim));
        const r = closestPoints(segment(q(0), q(1)), segment(q(2), q(3)));
        const fast = dim === 2 ? closestSegSeg2(data, k, out, 0) : dim === 3 ? closestSegSeg3(data, k, out, 0) : closestSegSegN(data, k, dim, out, 0);
        const S = scale([q(0), q(1), q(2), q(3)]);
        if (Math.abs(fast - r.distance) > 16 * U * S || (fast === 0) !== (r.distance === 0)) {
          throw new Error(`seed 99, dim ${dim}, pair ${p}: fast ${fast} vs generic ${r.distance} for ${JSON.stringify([q(0), q(1), q(2), q(3)])}`);
        }
      }
    });
  }
});

function vec(n: number, seed: number): number[] {
  const v: number[] = [];
  for (let i = 0; i < n; i++) v.push(Math.sin(seed * 12.9898 + i * 78.233) * 3);
  return v;
}

describe('extreme magnitudes', () => {
  it('coordinates near the largest double, whose differences overflow (exact path)', () => {
    const big = 1.5e308;
    const r = closestPoints(segment([-big, 0], [big, 0]), segment([0, 1], [0, 2]));
    expect(r.distance).toBe(1);
    expect(r.relation).toBe('apart');
    // 3e308 is beyond the largest double: a clear error (issue 19), never Infinity.
    expect(() => closestPoints(segment([-big, 0, 0], [-big, 1, 0]), segment([big, 0, 0], [big, 1, 0]))).toThrow(RangeError);
    const hit = closestPoints(segment([-big, -big], [big, big]), segment([-big, big], [big, -big]));
    expect(hit.distance).toBe(0);
    expect(hit.c).toEqual([0, 0]);
  });
  it('subnormal coordinates', () => {
    const t = 5e-324;
    const r = closestPoints(segment([0, 0], [4 * t, 0]), segment([2 * t, t], [2 * t, 3 * t]));
    expect(r.distance).toBe(t);
    expect(r.c).toEqual([2 * t, 0]);
  });
});
