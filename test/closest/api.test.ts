/**
 * The friendly API's newer promises: {x,y,z} inputs, a reusable target that allocates nothing,
 * stable nearest points through parallel, finite far points, direct distanceSq, reduced exact
 * fractions. Each case here failed before the change that added it.
 */
import { Vector2, Vector3, Vector4 } from 'three';
import { describe, expect, it } from 'vitest';
import {
  SkewlineInputError,
  closestPoints,
  createClosestResult,
  exactRelation,
  point,
  ray,
  line,
  segment,
  segmentIntersection2D,
  collinear,
} from '../../src/index.js';
import { exactClosest } from '../support/oracle.js';
import { mulberry32 } from '../support/rng.js';


describe('{x, y, z} inputs (three.js vectors)', () => {
  it('Vector3, Vector2 and Vector4 give the same answers as arrays', () => {
    const r1 = closestPoints(segment(new Vector3(0, 0, 0), new Vector3(2, 0, 0)), segment(new Vector3(1, -1, 1), new Vector3(1, 1, 1)));
    const r2 = closestPoints(segment([0, 0, 0], [2, 0, 0]), segment([1, -1, 1], [1, 1, 1]));
    expect(r1).toEqual(r2);
    expect(closestPoints(point(new Vector2(3, 4)), point({ x: 0, y: 0 })).distance).toBe(5);
    expect(segment(new Vector4(1, 2, 3, 4), [0, 0, 0, 0]).dim).toBe(4);
    expect(segmentIntersection2D({ x: 0, y: 0 }, { x: 2, y: 2 }, { x: 0, y: 2 }, { x: 2, y: 0 })).toMatchObject({ kind: 'point', point: [1, 1] });
    expect(collinear({ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 3, y: 3 })).toBe(true);
  });
  it('validates objects like arrays, naming the axis', () => {
    expect(() => point({ x: 1, y: NaN })).toThrow(/point\.y is not finite/);
    expect(() => point({ x: 1, y: '2' } as never)).toThrow(/point\.y is not a number/);
    expect(() => point({ x: 1 } as never)).toThrow(/without x and y/);
    expect(() => point({ x: 1, y: 2, w: 3 } as never)).toThrow(/w but no z/);
    expect(() => segment({ x: 0, y: 0 }, { x: 0, y: 0, z: 0 })).toThrow(SkewlineInputError);
  });
});

describe('closestPoints(a, b, target)', () => {
  it('fills the target and returns it, with the same numbers as the allocating call', () => {
    const rng = mulberry32(7101);
    const target = createClosestResult(3);
    for (let k = 0; k < 200; k++) {
      const P = () => [rng() * 4 - 2, rng() * 4 - 2, rng() * 4 - 2];
      const a = segment(P(), P());
      const b = k % 3 === 0 ? ray(P(), P()) : segment(P(), P());
      const r = closestPoints(a, b, target);
      expect(r).toBe(target);
      expect({ ...r, c: [...r.c], d: [...r.d], p: [...r.p], vector: [...r.vector] }).toEqual(closestPoints(a, b));
    }
    expect(() => closestPoints(segment([0, 0], [1, 0]), point([0, 1]), target)).toThrow(/dimension 3/);
  });
  it('reuses the target: the same object and the same arrays, call after call (the allocation-free path)', () => {
    const t = createClosestResult(3);
    const arrays = [t.c, t.d, t.p, t.vector];
    const rng = mulberry32(7103);
    for (let k = 0; k < 1000; k++) {
      const P = () => [rng(), rng(), rng()];
      const r = closestPoints(segment(P(), P()), k % 2 ? point(P()) : segment(P(), P()), t);
      expect(r).toBe(t);
      expect([r.c, r.d, r.p, r.vector]).toEqual(arrays);
      for (let i = 0; i < 4; i++) expect([r.c, r.d, r.p, r.vector][i]).toBe(arrays[i]);
    }
  });
});

describe('stable nearest points through parallel (Rhodes: the points jump; blend instead)', () => {
  // b turns about its middle through parallel to a, 1 unit above it: skew, never touching.
  const sweep = (stable: boolean) => {
    const a = segment([0, 0, 0], [1, 0, 0]);
    let prevC: number[] | null = null;
    let prevD: number[] | null = null;
    let jump = 0;
    let excess = -Infinity;
    for (let k = -2000; k <= 2000; k++) {
      const th = k * 1e-5;
      const b = segment([0.5 - 0.5 * Math.cos(th), 0.3 + 0.5 * Math.sin(th), 1], [0.5 + 0.5 * Math.cos(th), 0.3 - 0.5 * Math.sin(th), 1]);
      const r = stable ? closestPoints(a, b, { stable: true, tolerance: 0.05 }) : closestPoints(a, b);
      const exact = closestPoints(a, b).distance;
      excess = Math.max(excess, r.distance - Math.sqrt(exact * exact + 0.05 ** 2)); // S = 1 here; bound √(dmin² + (τS)²)
      if (prevC && prevD) {
        jump = Math.max(jump, Math.hypot(r.c[0] - prevC[0], r.c[1] - prevC[1], r.c[2] - prevC[2]), Math.hypot(r.d[0] - prevD[0], r.d[1] - prevD[1], r.d[2] - prevD[2]));
      }
      prevC = r.c.slice();
      prevD = r.d.slice();
    }
    return { jump, excess };
  };
  it('default mode jumps from end to end; stable mode moves in small steps within its distance bound', () => {
    const plain = sweep(false);
    const st = sweep(true);
    console.log(`largest jump of c or d per 1e-5 rad step: default ${plain.jump.toFixed(3)}, stable ${st.jump.toExponential(2)}; stable distance minus its bound ${st.excess.toExponential(2)} (must be ≤ 0)`);
    expect(plain.jump).toBeGreaterThan(0.4);
    expect(st.jump).toBeLessThan(0.02);
    expect(st.excess).toBeLessThanOrEqual(0);
  });
  it('rejects lines and rays and bad tolerances', () => {
    expect(() => closestPoints(ray([0, 0], [1, 0]), point([0, 1]), { stable: true })).toThrow(/segments and points/);
    expect(() => closestPoints(segment([0, 0], [1, 0]), point([0, 1]), { stable: true, tolerance: 0 })).toThrow(/tolerance/);
  });
});

describe('far nearest points', () => {
  it('a ray with a tiny direction reaching far: finite c, the exact distance', () => {
    const r = closestPoints(ray([0, 0], [1e-200, 0]), point([1e200, 1]));
    expect(r.c).toEqual([1e200, 0]);
    expect(r.d).toEqual([1e200, 1]);
    expect(r.p).toEqual([1e200, 0.5]);
    expect(r.distance).toBe(1);
  });
  it('a nearest point beyond the double range is a RangeError, not NaN', () => {
    // A line through (−1e308, 0) and (1e308, 1e-300): its nearest point to (1e308·1.5, 1e308·1.5)… lies
    // far beyond ±1.8e308 along the almost-horizontal direction scaled up.
    const a = ray([1e308, 0], [1e-300, 1e-300]);
    // (issue 19) its distance, 1.84e308, is itself beyond the double range: a clear error.
    expect(() => closestPoints(a, point([1.7e308, -1.7e308]))).toThrow(/distance exceeds the largest double/);
    const b = ray([0, 1e308], [1e-320, 0]);
    const far = point([1.7976931348623157e308, 1e308]);
    expect(closestPoints(b, far).c[0]).toBe(1.7976931348623157e308);
  });
});

describe('distanceSq', () => {
  it('is the exact squared distance rounded, not distance² (which is off by an ulp)', () => {
    const r = closestPoints(point([0, 0]), point([1, 1]));
    expect(Math.SQRT2 * Math.SQRT2).not.toBe(2);
    expect(r.distanceSq).toBe(2);
  });
  it('does not underflow or overflow where the true value is representable', () => {
    const tiny = closestPoints(point([0, 0]), point([3e-162, 4e-162]));
    expect(tiny.distanceSq).toBeGreaterThan(0);
    expect(Math.abs(tiny.distanceSq - 2.5e-323)).toBeLessThanOrEqual(5e-324);
    const big = closestPoints(point([0, 0]), point([3e153, 4e153]));
    expect(big.distanceSq).toBe(25e306);
  });
  it('matches the exact oracle within 2 ulps plus twice the distance bound on random 3D segments', () => {
    const seed = 7202;
    const rng = mulberry32(seed);
    for (let k = 0; k < 300; k++) {
      const P = () => [rng() * 2 - 1, rng() * 2 - 1, rng() * 2 - 1];
      const a = segment(P(), P()), b = segment(P(), P());
      const r = closestPoints(a, b);
      const ex = exactClosest(a, b);
      const exSq = Number(ex.distSq.num) / Number(ex.distSq.den);
      const S = 4;
      expect(Math.abs(r.distanceSq - exSq), `seed ${seed} case ${k}`).toBeLessThanOrEqual(2 * 2 ** -52 * exSq + 2 * r.distance * 8 * 2 ** -53 * S);
    }
  });
});

describe('exactRelation', () => {
  it('returns fractions in lowest terms (the tutorial example gives 3/4, not a huge multiple)', () => {
    const r = exactRelation(segment([4, 7], [16, 3]), segment([1, 1], [17, 5]));
    expect(r.share).toBe('point');
    expect(r.s).toEqual({ num: 3n, den: 4n });
    expect(r.t).toEqual({ num: 3n, den: 4n });
  });
});

describe('n-D cost and accuracy', () => {
  it('1000-D queries take O(n²) and stay within 8·u·S of the exact distance (segments, lines, rays, nearly parallel)', () => {
    const seed = 1000;
    const rng = mulberry32(seed);
    const dim = 1000;
    for (let k = 0; k < 6; k++) {
      const P = () => Array.from({ length: dim }, () => rng() * 2 - 1);
      const a0 = P(), a1 = P(), b0 = P();
      const b1 = k % 2 ? a1.map((x, i) => x - a0[i] + b0[i] + 1e-9 * (rng() - 0.5)) : P();
      const A = k % 3 === 2 ? line(a0, a1) : segment(a0, a1);
      const B = k % 3 === 1 ? ray(b0, b1) : segment(b0, b1);
      const r = closestPoints(A, B);
      const ex = exactClosest(A, B);
      const exact = Math.sqrt(Number(ex.distSq.num) / Number(ex.distSq.den));
      const diff = (p: number[], q: number[]) => Math.hypot(...p.map((x, i) => q[i] - x));
      const S = Math.max(diff(a0, a1), diff(b0, b1), diff(a0, b0));
      expect(Math.abs(r.distance - exact), `seed ${seed} case ${k}`).toBeLessThanOrEqual(8 * 2 ** -53 * S + 2 ** -52 * exact);
    }
  });
});
