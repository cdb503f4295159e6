/**
 * issue 19: the motion functions at every finite input — coordinates near ±1.8e308, far from the
 * origin with tiny radii, subnormal gaps, absurd speeds and bad numbers — each checked against the
 * exact oracles of test/support/exact-motion.ts (BigInt rationals), plus fast-check properties over
 * extreme doubles (subnormals, ±1e308, −0), seeded.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bounceBall, bounceBallFlat, capsuleSweep, closestApproach, createCapsuleResult, createSweepResult, sphereSweep } from '../../src/motion/index.js';
import { SkewlineInputError } from '../../src/index.js';
import { capsuleOracle, oracleFirstDouble, oracleHit, quad, ulpsApart } from '../support/exact-motion.js';
import { ratCmp, ratFromDouble, ratMul, ratAdd, ratSub } from '../support/oracle.js';

/** |v| − 1 in units of 2⁻⁵², computed with scaling (v itself may hold huge or tiny numbers). */
function unitError(v: number[]): number {
  let s = 0;
  for (const x of v) s += x * x;
  return Math.abs(Math.sqrt(s) - 1) / 2 ** -52;
}

/** The exact squared distance from segment wall k to (x, y), and r², compared: 1 when outside. */
function outside(x: number, y: number, w: number[][], r: number): boolean {
  const [a, b] = w;
  const F = ratFromDouble;
  const qx = ratSub(F(x), F(a[0]));
  const qy = ratSub(F(y), F(a[1]));
  const ex = ratSub(F(b[0]), F(a[0]));
  const ey = ratSub(F(b[1]), F(a[1]));
  const se = ratAdd(ratMul(qx, ex), ratMul(qy, ey));
  const ee = ratAdd(ratMul(ex, ex), ratMul(ey, ey));
  const r2 = ratMul(F(r), F(r));
  let d2;
  if (se.num <= 0n) d2 = ratAdd(ratMul(qx, qx), ratMul(qy, qy));
  else if (ratCmp(se, ee) >= 0) {
    const dx = ratSub(F(x), F(b[0]));
    const dy = ratSub(F(y), F(b[1]));
    d2 = ratAdd(ratMul(dx, dx), ratMul(dy, dy));
  } else {
    const cross = ratSub(ratMul(ex, qy), ratMul(ey, qx));
    return ratCmp(ratMul(cross, cross), ratMul(r2, ee)) >= 0;
  }
  return ratCmp(d2, r2) >= 0;
}

describe('issue 19: sweeps at every finite input', () => {
  it('issue 19: sphereSweep at ±1e308 gives finite points and a unit normal', () => {
    const args = [[-1e308, 0], [1e308, 0], 1e300, [1e308, 0], [-1e308, 0], 1e300] as const;
    const r = sphereSweep(...args);
    const q = quad([-1e308, 0], [1e308, 0], 1e300, [1e308, 0], [-1e308, 0], 1e300);
    expect(r.hit).toBe(oracleHit(q));
    expect(ulpsApart(r.time, oracleFirstDouble(q))).toBeLessThanOrEqual(4);
    for (const x of [...r.p, ...r.q, ...r.normal]) expect(Number.isFinite(x)).toBe(true);
    expect(r.p[0]).toBeLessThan(r.q[0]);
    expect(r.normal).toEqual([1, 0]);
  });

  it('issue 19: closestApproach at ±1e308 gives finite points, the meeting time and distance', () => {
    const a = closestApproach([-1e308, 0], [1e308, 0], [1e308, 0], [-1e308, 0]);
    expect(a).toEqual({ time: 0.5, distance: 0, p: [0, 0], q: [0, 0] });
    const b = closestApproach([-1e308, 0], [1.7e308, 0], [1.7e308, 1], [-1e308, 1]);
    for (const x of [...b.p, ...b.q, b.distance, b.time]) expect(Number.isFinite(x)).toBe(true);
    expect(b.distance).toBe(1);
  });

  it('issue 19: far from the origin with radii 1e-9, sphereSweep is a hit with a unit normal (not zeros)', () => {
    const args = [[1e9, 0, 0], [1e9 + 1, 0, 0], 1e-9, [1e9 + 2, 0, 0], [1e9 + 1, 0, 0], 1e-9] as const;
    const r = sphereSweep(...args);
    const q = quad(...(args as unknown as Parameters<typeof quad>));
    expect(r.hit).toBe(true);
    expect(oracleHit(q)).toBe(true);
    expect(ulpsApart(r.time, oracleFirstDouble(q))).toBeLessThanOrEqual(4);
    expect(r.normal).toEqual([1, 0, 0]);
  });

  it('issue 19: far from the origin with radii 1e-9, capsuleSweep is a hit with a unit normal (not zeros)', () => {
    const c = { a0: [1e9, 0, 0], a1: [1e9, 1e-3, 0], ra: 1e-9, move: [2, 0, 0], b0: [1e9 + 2, 0.5e-3, -1e-3], b1: [1e9 + 2, 0.5e-3, 1e-3], rb: 1e-9 };
    const r = capsuleSweep(c.a0, c.a1, c.ra, c.move, c.b0, c.b1, c.rb);
    const o = capsuleOracle(c);
    expect(r.hit).toBe(o.hit);
    expect(r.time).toBe(o.first);
    expect(unitError(r.normal)).toBeLessThanOrEqual(4);
    expect(r.normal[0]).toBeGreaterThan(0.99);
  });

  it('issue 19: capsuleSweep near ±1e308 decides exactly and returns finite points', () => {
    const c = { a0: [-1e308, 0, 0], a1: [-1e308, 1e300, 0], ra: 1e300, move: [1.5e308, 0, 0], b0: [4e307, -1e300, 0], b1: [4e307, 1e300, 0], rb: 1e300 };
    const r = capsuleSweep(c.a0, c.a1, c.ra, c.move, c.b0, c.b1, c.rb);
    const o = capsuleOracle(c);
    expect(r.hit).toBe(true);
    expect(o.hit).toBe(true);
    expect(ulpsApart(r.time, o.first)).toBeLessThanOrEqual(1);
    for (const x of [...r.point, ...r.normal]) expect(Number.isFinite(x)).toBe(true);
    expect(unitError(r.normal)).toBeLessThanOrEqual(4);
  });

  it('issue 19: points 1e-170 apart moving apart are a miss (the squared gap underflows, the decision does not)', () => {
    const r = sphereSweep([0, 0], [0, -1], 0, [0, 1e-170], [0, 1e-170], 0);
    expect(oracleHit(quad([0, 0], [0, -1], 0, [0, 1e-170], [0, 1e-170], 0))).toBe(false);
    expect(r.hit).toBe(false);
    // and the same points moving together meet at t = 1/2 with the approach direction as normal
    const m = sphereSweep([0, 0], [0, 1e-170], 0, [0, 1e-170], [0, 0], 0);
    expect(m).toMatchObject({ hit: true, time: 0.5, normal: [0, 1] });
  });

  it('issue 19: sweeps over extreme doubles agree with the exact oracle; points finite, normals unit (fast-check, seed 1919)', () => {
    const extreme = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, 1e-308, 1e308, -1e308, Number.MAX_VALUE, -Number.MAX_VALUE, 1, -1),
      fc.double({ min: -4, max: 4, noNaN: true }),
    );
    const radius = fc.oneof(fc.constantFrom(0, Number.MIN_VALUE, 1e-300, 1e300), fc.double({ min: 0, max: 2, noNaN: true }));
    const pt = fc.tuple(extreme, extreme);
    const T = createSweepResult(2);
    fc.assert(
      fc.property(pt, pt, radius, pt, pt, radius, (p0, p1, r1, q0, q1, r2) => {
        const r = sphereSweep(p0, p1, r1, q0, q1, r2, T);
        const q = quad(p0, p1, r1, q0, q1, r2);
        const hit = oracleHit(q);
        if (r.hit !== hit) return false;
        for (const x of [...r.p, ...r.q, ...r.normal]) if (!Number.isFinite(x)) return false;
        if (hit && ulpsApart(r.time, oracleFirstDouble(q)) > 4) return false;
        if (hit && r.normal.some((x) => x !== 0) && unitError(r.normal) > 8) return false;
        return true;
      }),
      { seed: 1919, numRuns: 300 },
    );
  });

  it('issue 19: capsuleSweep over extreme doubles agrees with the exact oracle (fast-check, seed 1920)', () => {
    const extreme = fc.oneof(fc.constantFrom(0, -0, Number.MIN_VALUE, 1e-300, 1e300, -1e300, 1e308, -1e308), fc.double({ min: -3, max: 3, noNaN: true }));
    const radius = fc.oneof(fc.constantFrom(0, Number.MIN_VALUE, 1e-300), fc.double({ min: 0, max: 1, noNaN: true }));
    const pt = fc.tuple(extreme, extreme);
    const T = createCapsuleResult(2);
    fc.assert(
      fc.property(pt, pt, radius, pt, pt, pt, radius, (a0, a1, ra, move, b0, b1, rb) => {
        const r = capsuleSweep(a0, a1, ra, move, b0, b1, rb, T);
        const o = capsuleOracle({ a0, a1, ra, move, b0, b1, rb });
        if (r.hit !== o.hit) return false;
        for (const x of [...r.point, ...r.normal]) if (!Number.isFinite(x)) return false;
        return !o.hit || ulpsApart(r.time, o.first) <= 1;
      }),
      { seed: 1920, numRuns: 60 },
    );
  });

  it('issue 19: a target of the wrong dimension and bad dims are SkewlineInputErrors', () => {
    expect(() => sphereSweep([0, 0, 0], [1, 0, 0], 1, [0, 1, 0], [1, 1, 0], 1, createSweepResult(2))).toThrow(/target must be a result of createSweepResult\(3\)/);
    expect(() => capsuleSweep([0, 0], [1, 0], 1, [0, 1], [0, 2], [1, 2], 1, createCapsuleResult(3))).toThrow(SkewlineInputError);
    expect(() => createSweepResult(0)).toThrow(/dim must be an integer ≥ 1/);
    expect(() => sphereSweep([0, 0], [1, 0], NaN, [0, 1], [1, 1], 1)).toThrow(/r1 must be a finite number ≥ 0/);
  });
});

describe('issue 19: bounceBall at every finite speed, and clear errors', () => {
  const box = [
    [[0, 0], [1, 0]],
    [[1, 0], [1, 1]],
    [[1, 1], [0, 1]],
    [[0, 1], [0, 0]],
  ] as [number[], number[]][];

  it('issue 19: bounceBall with velocity [1e20, 3e19] in a unit box moves, and every bounce touches its wall', () => {
    const r = bounceBall({ position: [0.5, 0.5], velocity: [1e20, 3e19], radius: 0.01 }, box, 1 / 60);
    expect(r.hits.length).toBe(1024); // the cap: at this speed the ball would bounce about 1e18 times a step
    const first = r.hits[0];
    expect(first.wall).toBe(1);
    expect(first.time).toBeGreaterThan(0);
    // the first bounce is at the right wall, the centre at distance ≥ r exactly and within 1e-12 of it
    expect(1 - first.position[0]).toBeGreaterThanOrEqual(0.01);
    expect(1 - first.position[0] - 0.01).toBeLessThan(1e-12);
    let t = 0;
    for (const h of r.hits) {
      expect(h.time).toBeGreaterThanOrEqual(t);
      t = h.time;
      for (const w of box) expect(outside(h.position[0], h.position[1], w, 0.01)).toBe(true);
    }
    expect(r.hits[1023].time).toBeGreaterThan(r.hits[0].time);
  });

  it('issue 19: bounceBallFlat with velocity 1e308, a NaN radius or dt = NaN throws SkewlineInputError (not a bare RangeError or a silent 0)', () => {
    const W = new Float64Array(box.flat(2));
    const H = new Float64Array(100);
    expect(() => bounceBallFlat(Float64Array.from([0.5, 0.5, 1e308, 0]), W, 0.01, 1 / 60, 1, 10, H)).toThrow(SkewlineInputError);
    expect(() => bounceBallFlat(Float64Array.from([0.5, 0.5, 1, 0]), W, NaN, 1 / 60, 1, 10, H)).toThrow(/radius must be a finite number/);
    expect(() => bounceBallFlat(Float64Array.from([0.5, 0.5, 1, 0]), W, 0.01, NaN, 1, 10, H)).toThrow(/dt must be a finite number/);
    expect(() => bounceBallFlat(Float64Array.from([0.5, 0.5, 1, 0]), Float64Array.from([0, 0, Infinity, 0]), 0.01, 1 / 60, 1, 10, H)).toThrow(/wall 0/);
    expect(() => bounceBall({ position: [0.5, 0.5], velocity: [1e308, 0], radius: 0.01 }, box, 1 / 60)).toThrow(SkewlineInputError);
  });

  it('issue 19: bounceBall options are checked (unknown keys, out-of-range values)', () => {
    const ball = { position: [0.5, 0.5], velocity: [1, 0], radius: 0.01 };
    expect(() => bounceBall(ball, box, 1 / 60, { restitusion: 0.5 } as never)).toThrow(/bounceBall: unknown option "restitusion" \(accepted: restitution, maxHits\)/);
    expect(() => bounceBall(ball, box, 1 / 60, { restitution: 2 })).toThrow(/options.restitution must be a number in \[0, 1\]/);
    expect(() => bounceBall(ball, box, 1 / 60, { maxHits: -1 })).toThrow(/options.maxHits/);
    expect(bounceBall(ball, box, 1 / 60, { restitution: 0.5, maxHits: 8 }).position[0]).toBeCloseTo(0.5 + 1 / 60, 12);
  });
});
