// Every finite input (issue 19, items 1, 4 and 5 for closest points and the batches): named
// regression tests for what the hostile tester found, and a fast-check hunt of our own over NaN,
// ±Infinity, −0, subnormals, 1e±308 and mixed dimensions. Seeds are in the test names.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { closestPoints, createClosestResult, intersectLineSegments, segmentDistance } from '../../src/closest/closest.js';
import { allocPairs3, segmentClosestBatch, segmentDistances, segmentIntersectsBatch } from '../../src/batch/batch.js';
import { SkewlineInputError, line, point, ray, segment } from '../../src/core/primitives.js';
import type { Primitive } from '../../src/core/types.js';
import { closestSegSeg3 } from '../../src/closest/segment-kernels.js';
import { exactDistanceSq } from '../support/oracle.js';
import { isFaithful } from '../support/faithful-families.js';

const BIG = 1.7e308;
const POOL = allocPairs3(9);

describe('issue 19 item 1: near the top of the double range', () => {
  it('issue 19: two segments 3.4e308 apart — the distance is not a double, a clear RangeError (never s = t = 0, unique)', () => {
    const a = segment([BIG, 0], [BIG, 1]);
    const b = segment([-BIG, 0], [-BIG, 1]);
    expect(() => closestPoints(a, b)).toThrow(/distance exceeds the largest double/);
    expect(() => segmentDistances(new Float64Array([BIG, 0, BIG, 1, -BIG, 0, -BIG, 1]), 2)).toThrow(/pair starting at index 0: the distance exceeds/);
  });
  it('issue 19: the same pair scaled down is parallel, s = t = 0.5, unique: false — at every magnitude', () => {
    for (const x of [1.7, 1.7e100, 1.7e300, 8.5e307]) {
      const r = closestPoints(segment([x, 0], [x, 1]), segment([-x, 0], [-x, 1]));
      expect([r.s, r.t, r.unique, r.relation, r.distance], `x = ${x}`).toEqual([0.5, 0.5, false, 'parallel', 2 * x]);
    }
  });
  it('issue 19: two parallel, fully overlapping segments spanning ±1.7e308 are unique: false (s = t = 0.5)', () => {
    const r = closestPoints(segment([-BIG, 0], [BIG, 0]), segment([-BIG, 1], [BIG, 1]));
    expect([r.s, r.t, r.unique, r.relation, r.distance]).toEqual([0.5, 0.5, false, 'parallel', 1]);
    expect(r.c).toEqual([0, 0]);
    expect(r.d).toEqual([0, 1]);
    // and in the batches (the segment kernels hand these to the same kernel)
    const pairs = new Float64Array([-BIG, 0, BIG, 0, -BIG, 1, BIG, 1]);
    expect(Array.from(segmentClosestBatch(pairs, 2))).toEqual([0.5, 0.5, 1]);
    expect(segmentDistances(pairs, 2)[0]).toBe(1);
  });
  it('issue 19: overflowing differences are answered at ¼ scale: the answers of the scaled-down problem, scaled back', () => {
    const r = closestPoints(segment([BIG, 0, 0], [-BIG, 1, 0]), segment([BIG, 5, 3], [-BIG, 6, 3]));
    const small = closestPoints(segment([BIG / 4, 0, 0], [-BIG / 4, 1 / 4, 0]), segment([BIG / 4, 5 / 4, 3 / 4], [-BIG / 4, 6 / 4, 3 / 4]));
    expect([r.s, r.t, r.unique, r.relation]).toEqual([small.s, small.t, small.unique, small.relation]);
    expect(r.distance).toBe(4 * small.distance);
    expect(isFaithful(r.distance, exactDistanceSq(segment([BIG, 0, 0], [-BIG, 1, 0]), segment([BIG, 5, 3], [-BIG, 6, 3])))).toBe(true);
  });
  it('issue 19: a subnormal coordinate beside ±1.7e308 (¼ scale would round it) takes the exact path, same policy', () => {
    const r = closestPoints(segment([BIG, 0], [-BIG, 0]), segment([BIG, 1e-320], [-BIG, 1e-320]));
    expect([r.s, r.t, r.unique, r.distance]).toEqual([0.5, 0.5, false, 1e-320]);
  });
});

describe('issue 19 item 5: unclear errors', () => {
  const message = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return `${(e as Error).name}: ${(e as Error).message}`;
    }
    return 'no error';
  };
  it('issue 19: point({ length: NaN }) is an error, not a 0-dimensional point', () => {
    expect(message(() => point({ length: NaN } as never))).toMatch(/SkewlineInputError: point has length NaN/);
  });
  it('issue 19: point({ length: 2.5 }) is an error, not truncated', () => {
    expect(message(() => point({ length: 2.5 } as never))).toMatch(/SkewlineInputError: point has length 2.5/);
  });
  it('issue 19: point({ length: 1e10 }) is a SkewlineInputError naming the limit, not "Invalid typed array length"', () => {
    expect(message(() => point({ length: 1e10 } as never))).toMatch(/SkewlineInputError: point has length 10000000000: .* 1 to 16777216/);
  });
  it('issue 19: a string coordinate shows as a string: (got "3")', () => {
    expect(message(() => point(['3', 1] as never))).toBe('SkewlineInputError: point[0] is not a number (got "3")');
    expect(message(() => segmentDistances(new Float64Array(8), '2' as never))).toMatch(/\(got "2"\)/);
    expect(message(() => createClosestResult('3' as never))).toMatch(/\(got "3"\)/);
  });
  it('issue 19: closestPoints on a primitive whose array was set to NaN is a SkewlineInputError, not the internal RangeError', () => {
    const p = point([1, 2]);
    p.p0[0] = NaN;
    expect(message(() => closestPoints(p, point([0, 0])))).toMatch(/SkewlineInputError: first argument: p0\[0\] = NaN is not finite/);
    const s = segment([0, 0], [1, 1]);
    s.p1[1] = Infinity;
    expect(message(() => closestPoints(point([0, 0]), s))).toMatch(/SkewlineInputError: second argument: p1\[1\] = Infinity/);
  });
  it('issue 19: a getter that throws is a SkewlineInputError naming the coordinate', () => {
    const v = { x: 1, get y(): number { throw new Error('boom'); } };
    expect(message(() => point(v))).toBe('SkewlineInputError: point.y could not be read: boom');
    const arr = new Proxy([1, 2], { get: (t, k) => (k === '1' ? (() => { throw new Error('no'); })() : Reflect.get(t, k)) });
    expect(message(() => segment(arr, [0, 0]))).toBe('SkewlineInputError: segment p0[1] could not be read: no');
  });
  it('issue 19: sparse arrays and Float32Array input', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(message(() => point([1, , 3] as never))).toBe('SkewlineInputError: point[1] is not a number (got undefined)');
    // A Float32Array is an exact source of doubles for a primitive…
    expect(point(new Float32Array([0.5, 0.25])).p0).toEqual(new Float64Array([0.5, 0.25]));
    // …but batches need Float64Array (no silent copy of millions of pairs).
    expect(message(() => segmentDistances(new Float32Array(8) as never, 2))).toMatch(/pairs must be a Float64Array \(got Float32Array/);
  });
  it('issue 19: empty and wrong-length typed arrays in batches', () => {
    expect(segmentDistances(new Float64Array(0), 3).length).toBe(0);
    expect(segmentIntersectsBatch(new Float64Array(0), 2).length).toBe(0);
    expect(message(() => segmentDistances(new Float64Array(11), 3))).toMatch(/has 11 numbers, not a multiple of 4·dim = 12/);
    expect(message(() => segmentClosestBatch(new Float64Array(12), 3, new Float64Array(2)))).toMatch(/out must be a Float64Array of length ≥ 3/);
  });
  it('issue 19: ClosestOptions are checked (unknown keys, ranges, types); the target-as-third-argument form still works', () => {
    const a = segment([0, 0], [1, 0]);
    const b = segment([0, 1], [1, 2]);
    expect(message(() => closestPoints(a, b, { tolerence: 0.1 } as never))).toMatch(/closestPoints: unknown option "tolerence" \(accepted: target, stable, tolerance\)/);
    expect(message(() => closestPoints(a, b, { stable: true, tolerance: 0 }))).toMatch(/options.tolerance must be a number in/);
    expect(message(() => closestPoints(a, b, { stable: true, tolerance: NaN }))).toMatch(/options.tolerance must be a number in/);
    expect(message(() => closestPoints(a, b, { stable: 'yes' } as never))).toMatch(/options.stable must be true or false \(got "yes"\)/);
    expect(message(() => closestPoints(a, b, { target: [] } as never))).toMatch(/options.target must be a result from createClosestResult/);
    expect(message(() => closestPoints(a, b, 3 as never))).toMatch(/options must be an object \(got number\)/);
    const target = createClosestResult(2);
    expect(closestPoints(a, b, target)).toBe(target);
    expect(closestPoints(a, b, { target }).distance).toBe(target.distance);
    expect(message(() => intersectLineSegments([0, 0], [1, 0], [0, 1], [1, 2], { infinite: true } as never))).toMatch(/intersectLineSegments: unknown option "infinite"/);
    expect(message(() => intersectLineSegments([0, 0], [1, 0], [0, 1], [1, 2], { tolerance: -1 }))).toMatch(/options.tolerance must be a number in \[0,/);
  });
});

// ---------------------------------------------------------------------------------------------
// The hunt (fast-check): any finite doubles, at any magnitude.

/** Doubles a hostile tester picks: −0, subnormals, 1e±308, ordinary values. */
const nasty = fc.oneof(
  fc.constantFrom(0, -0, 5e-324, -5e-324, 1e-320, 2.2250738585072014e-308, 1e-300, 1, -1, 1e300, -1e300, 1.7e308, -1.7e308, 1.7976931348623157e308),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -8, max: 8 }),
);
const kinds = ['point', 'segment', 'ray', 'line'] as const;
function build(kind: (typeof kinds)[number], p: number[], q: number[]): Primitive | null {
  try {
    return kind === 'point' ? point(p) : kind === 'segment' ? segment(p, q) : kind === 'ray' ? ray(p, q) : line(p, q);
  } catch (e) {
    expect(e).toBeInstanceOf(SkewlineInputError); // a zero direction for a ray or line
    return null;
  }
}
const prim = (dim: number) =>
  fc.tuple(fc.constantFrom(...kinds), fc.array(nasty, { minLength: dim, maxLength: dim }), fc.array(nasty, { minLength: dim, maxLength: dim }));

describe('issue 19: fast-check hunt', () => {
  it('issue 19: finite input never gives NaN or ±Infinity — a finite, faithful answer or a clear error (seed 19)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }).chain((dim) => fc.tuple(prim(dim), prim(dim))), ([[ka, p0, p1], [kb, q0, q1]]) => {
        const a = build(ka, p0, p1);
        const b = build(kb, q0, q1);
        if (a === null || b === null) return;
        let r;
        try {
          r = closestPoints(a, b);
        } catch (e) {
          // Only a result beyond the double range may fail, and then with a clear RangeError.
          expect(e).toBeInstanceOf(RangeError);
          expect((e as Error).message).toMatch(/exceeds the largest double|beyond the double range/);
          return;
        }
        for (const x of [r.distance, r.s, r.t, ...r.c, ...r.d, ...r.vector]) expect(Number.isNaN(x)).toBe(false);
        expect(Number.isFinite(r.distance)).toBe(true);
        for (const x of [...r.c, ...r.d]) expect(Number.isFinite(x)).toBe(true);
        expect(isFaithful(r.distance, exactDistanceSq(a, b))).toBe(true);
      }),
      { seed: 19, numRuns: 300 },
    );
  });
  it('issue 19: NaN and ±Infinity anywhere are a SkewlineInputError (seed 20)', () => {
    fc.assert(
      fc.property(fc.array(nasty, { minLength: 3, maxLength: 3 }), fc.nat(2), fc.constantFrom(NaN, Infinity, -Infinity), (v, i, bad) => {
        const w = v.slice();
        w[i] = bad;
        expect(() => point(w)).toThrow(SkewlineInputError);
        expect(() => segmentDistance(w, v, v, v)).toThrow(SkewlineInputError);
        const pairs = new Float64Array([...w, ...v, ...v, ...v]);
        expect(() => segmentDistances(pairs, 3)).toThrow(SkewlineInputError);
      }),
      { seed: 20, numRuns: 100 },
    );
  });
  it('issue 19: mixed dimensions are a SkewlineInputError (seed 21)', () => {
    expect(() => closestPoints(point([1, 2]), point([1, 2, 3]))).toThrow(/different dimensions \(2 and 3\)/);
    expect(() => segment([1, 2], [1, 2, 3])).toThrow(SkewlineInputError);
  });
  it('issue 19 (what held): identical decisions under scaling by 2^±1000 over integer cases, all kind pairs (seed 22)', () => {
    const int = fc.integer({ min: -6, max: 6 });
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 3 }).chain((dim) =>
        fc.tuple(fc.constantFrom(...kinds), fc.constantFrom(...kinds), fc.array(int, { minLength: 4 * dim, maxLength: 4 * dim }), fc.constant(dim))),
      ([ka, kb, xs, dim]) => {
        const at = (f: number, j: number) => xs.slice(j * dim, (j + 1) * dim).map((x) => x * f);
        for (const f of [2 ** 1000, 2 ** -1000]) {
          const a = build(ka, at(1, 0), at(1, 1));
          const b = build(kb, at(1, 2), at(1, 3));
          if (a === null || b === null) return;
          const A = build(ka, at(f, 0), at(f, 1)) as Primitive;
          const B = build(kb, at(f, 2), at(f, 3)) as Primitive;
          const r = closestPoints(a, b);
          const R = closestPoints(A, B);
          expect([R.relation, R.unique, R.parallel, R.degenerate, R.s, R.t]).toEqual([r.relation, r.unique, r.parallel, r.degenerate, r.s, r.t]);
          expect(R.distance === 0).toBe(r.distance === 0);
          expect(isFaithful(R.distance, exactDistanceSq(A, B))).toBe(true);
        }
      }),
      { seed: 22, numRuns: 400 },
    );
  });
  it('issue 19 (what held): the JavaScript and WebAssembly batch paths agree bit for bit on nasty pairs (seed 23)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.oneof(nasty.filter((x) => Math.abs(x) < 1e307), fc.double({ min: -2, max: 2, noNaN: true })), { minLength: 12, maxLength: 12 }), { minLength: 1, maxLength: 9 }), (rows) => {
        const data = new Float64Array(rows.flat());
        const n = rows.length;
        const resident = new Float64Array(POOL.buffer, 0, 12 * n); // a prefix of an allocPairs3 array
        resident.set(data);
        let wasm: Float64Array;
        try {
          wasm = segmentDistances(resident, 3);
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError);
          return;
        }
        for (let i = 0; i < n; i++) expect(Object.is(wasm[i], closestSegSeg3(data, 12 * i, null, 0)), `pair ${i}`).toBe(true);
      }),
      { seed: 23, numRuns: 20 },
    );
  });
});
