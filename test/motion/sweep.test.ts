/**
 * Moving spheres against the exact oracle (test/support/exact-motion.ts): every hit/miss
 * decision, the first-contact time in ulps, the closest approach within 8·u·S, the gem's path
 * test decided exactly — and, beside them, how often the textbook quadratic and the gem's test
 * are wrong on the same cases (counted, printed, never asserted as correct).
 */
import { describe, expect, it } from 'vitest';
import { capsuleDistance, closestApproach, pathsWithin, segmentDistance, sphereSweep, SkewlineInputError } from '../../src/index.js';
import { createSweepResult, sweepStats } from '../../src/motion/sweep.js';
import { oracleFirstDouble, oracleHit, quad, ulpsApart, evalQuad } from '../support/exact-motion.js';
import { SWEEP_FAMILIES, sweepCases } from '../support/motion-families.js';
import { exactDistanceSq, ratSqrtToNumber, ratCmp, rat, ratMul, ratFromDouble, ratAdd, ratSub } from '../support/oracle.js';
import { segment } from '../../src/index.js';
import { gemPathTest, textbookSweep } from '../../bench/peers/textbook-sweep.js';

const LONG = process.env.SKEWLINE_LONG === '1';
const N = LONG ? 20_000 : 1_500;
const U = 2 ** -53;

describe('sphereSweep against the exact oracle', () => {
  for (const [k, name] of Object.keys(SWEEP_FAMILIES).entries()) {
    for (const dim of [2, 3]) {
      const seed = 9100 + 10 * k + dim;
      it(`${name}, ${dim}D (seed ${seed}, ${N} cases): zero wrong decisions, time within 4 ulps`, () => {
        let wrong = 0;
        let worst = 0;
        let hits = 0;
        let textbookWrong = 0;
        let gemFalse = 0;
        const failures: string[] = [];
        for (const c of sweepCases(name, N, seed, dim)) {
          const q = quad(c.p0, c.p1, c.r1, c.q0, c.q1, c.r2);
          const exact = oracleHit(q);
          const r = sphereSweep(c.p0, c.p1, c.r1, c.q0, c.q1, c.r2);
          if ((textbookSweep(c.p0, c.p1, c.r1, c.q0, c.q1, c.r2) >= 0) !== exact) textbookWrong++;
          if (gemPathTest(c.p0, c.p1, c.r1, c.q0, c.q1, c.r2) && !exact) gemFalse++;
          if (r.hit !== exact) {
            wrong++;
            if (failures.length < 5) failures.push(JSON.stringify(c));
            continue;
          }
          if (!exact) continue;
          hits++;
          const want = oracleFirstDouble(q);
          const e = ulpsApart(r.time, want);
          worst = Math.max(worst, e);
          if (e > 4 && failures.length < 5) failures.push(`time ${r.time} vs ${want}: ${JSON.stringify(c)}`);
        }
        console.log(`${name} ${dim}D: ${hits} hits of ${N}; wrong decisions: skewline ${wrong}, textbook quadratic ${textbookWrong}, gem's path test ${gemFalse} false collisions; worst time error ${worst} ulps`);
        expect(failures, `seed ${seed}`).toEqual([]);
        expect(wrong, `seed ${seed}`).toBe(0);
        expect(worst, `seed ${seed}`).toBeLessThanOrEqual(4);
      });
    }
  }

  it('edge cases: touching at the start, grazing exactly, equal velocities, points, bad input', () => {
    expect(sphereSweep([0, 0], [1, 0], 0.5, [1, 0], [2, 0], 0.5)).toMatchObject({ hit: true, time: 0 });
    // grazing: q passes at exactly r1 + r2 = 1 above p's path at t = 1/2
    const g = sphereSweep([0, 0], [0, 0], 0.5, [-1, 1], [1, 1], 0.5);
    expect(g).toMatchObject({ hit: true, time: 0.5, p: [0, 0], q: [0, 1], normal: [0, 1] });
    expect(sphereSweep([0, 0], [0, 0], 0.5, [-1, 1], [1, 1], 0.4999999999999999).hit).toBe(false);
    expect(sphereSweep([0, 0], [1, 1], 0.1, [3, 0], [4, 1], 0.1).hit).toBe(false); // same velocity
    expect(sphereSweep([0, 0], [2, 0], 0, [1, -1], [1, 1], 0)).toMatchObject({ hit: true, time: 0.5 });
    expect(() => sphereSweep([0, 0], [1, 0], -1, [0, 0], [1, 0], 1)).toThrow(SkewlineInputError);
    expect(() => sphereSweep([0, 0], [1, 0, 0], 1, [0, 0], [1, 0], 1)).toThrow(/different dimensions/);
    expect(() => sphereSweep({ x: 0, y: NaN }, [1, 0], 1, [0, 0], [1, 0], 1)).toThrow(/p0\.y is not finite/);
  });
});

describe('issue 16: sphereSweep without overhead keeps its answers', () => {
  for (const name of ['tinyFast', 'grazing', 'random']) {
    const seed = 9801;
    it(`issue 16: a certified time is exactly the first double of contact (${name}, 3D, seed ${seed})`, () => {
      // The one-pass certificate (a Newton step from f(t) in double-double, the signs at the
      // neighbouring doubles from f's quadratic expansion) must land on the oracle's first double.
      const T = createSweepResult(3);
      let certified = 0;
      let quick = 0;
      const bad: string[] = [];
      for (const c of sweepCases(name, 400, seed)) {
        const before = sweepStats.certify;
        const quickBefore = sweepStats.quick;
        const r = sphereSweep(Float64Array.from(c.p0), Float64Array.from(c.p1), c.r1, Float64Array.from(c.q0), Float64Array.from(c.q1), c.r2, T);
        if (sweepStats.certify === before) continue;
        certified++;
        quick += sweepStats.quick - quickBefore;
        const q = quad(c.p0, c.p1, c.r1, c.q0, c.q1, c.r2);
        if (r.hit !== oracleHit(q) || (r.hit && r.time !== oracleFirstDouble(q))) bad.push(`time ${r.time} vs ${oracleFirstDouble(q)}: ${JSON.stringify(c)}`);
      }
      console.log(`${name}: ${certified} certified times, ${quick} by the one-pass certificate`);
      expect(bad.slice(0, 5), `seed ${seed}`).toEqual([]);
      expect(certified, `seed ${seed}`).toBeGreaterThan(0);
    });
  }

  it('issue 16: Float64Array points holding NaN or ±Infinity still get the precise SkewlineInputError (finiteness is left to the sums)', () => {
    const F = (...x: number[]) => Float64Array.from(x);
    expect(() => sphereSweep(F(0, 0), F(1, 0), 0.1, F(0, NaN), F(1, 1), 0.1)).toThrow(/q0\[1\] is not finite/);
    expect(() => sphereSweep(F(0, 0), F(1, Infinity), 0.1, F(0, 1), F(1, 1), 0.1)).toThrow(/p1\[1\] is not finite/);
    expect(() => sphereSweep(F(-Infinity, 0), F(1, 0), 0.1, F(0, 1), F(1, 1), 0.1, createSweepResult(2))).toThrow(SkewlineInputError);
    expect(() => sphereSweep(F(), F(), 0.1, F(), F(), 0.1)).toThrow(/p0 has no coordinates/);
    expect(() => sphereSweep(F(0, 0), F(1, 0), 0.1, F(), F(1, 1), 0.1)).toThrow(/different dimensions/);
  });
});

describe('closestApproach', () => {
  for (const name of ['random', 'farFromOrigin', 'sameVelocity', 'tinyFast']) {
    const seed = 9300 + name.length;
    it(`${name} (seed ${seed}): distance within 8·u·S of the exact minimum, time a minimiser`, () => {
      let worst = 0;
      for (const c of sweepCases(name, 600, seed)) {
        const r = closestApproach(c.p0, c.p1, c.q0, c.q1);
        const q = quad(c.p0, c.p1, 0, c.q0, c.q1, 0);
        // exact minimum of f over [0, 1]
        let tm = rat(0n);
        if (q.A.num !== 0n) {
          tm = rat(-q.B.num * q.A.den, q.B.den * q.A.num);
          if (ratCmp(tm, rat(0n)) < 0) tm = rat(0n);
          if (ratCmp(tm, rat(1n)) > 0) tm = rat(1n);
        }
        const exact = ratSqrtToNumber(evalQuad(q, tm));
        const S = Math.max(Math.hypot(...c.p0.map((x, i) => x - c.q0[i])), Math.hypot(...c.p1.map((x, i) => x - c.p0[i])), Math.hypot(...c.q1.map((x, i) => x - c.q0[i])));
        worst = Math.max(worst, Math.abs(r.distance - exact) / (U * S));
        expect(r.time).toBeGreaterThanOrEqual(0);
        expect(r.time).toBeLessThanOrEqual(1);
      }
      console.log(`closestApproach ${name}: worst distance error ${worst.toFixed(2)} u·S`);
      expect(worst, `seed ${seed}`).toBeLessThanOrEqual(8);
    });
  }
  it('meeting points give distance 0 and the meeting time', () => {
    expect(closestApproach([0, 0], [2, 0], [1, -1], [1, 1])).toMatchObject({ time: 0.5, distance: 0, p: [1, 0], q: [1, 0] });
  });
});

describe("the gem's path test and capsules", () => {
  it('pathsWithin is exact: a pair exactly r apart is in, one an ulp farther is out', () => {
    expect(pathsWithin([0, 0], [1, 0], [0, 0.5], [1, 0.5], 0.5)).toBe(true);
    expect(pathsWithin([0, 0], [1, 0], [0, 0.5], [1, 0.5], 0.49999999999999994)).toBe(false);
    // crossing paths at different times: the gem says collision, the sweep says no
    expect(pathsWithin([0, -1], [0, 1], [-1, 0], [1, 0], 0.1)).toBe(true);
    expect(sphereSweep([0, -1], [0, 1], 0.05, [-3, 0], [-1, 0], 0.05).hit).toBe(false);
  });
  it('pathsWithin agrees with the exact squared distance on random and near-threshold pairs (seed 9401)', () => {
    for (const c of sweepCases('grazing', 500, 9401)) {
      const r = c.r1 + c.r2;
      const exact = exactDistanceSq(segment(c.p0, c.p1), segment(c.q0, c.q1));
      const rr = ratFromDouble(r);
      expect(pathsWithin(c.p0, c.p1, c.q0, c.q1, r)).toBe(ratCmp(exact, ratMul(rr, rr)) <= 0);
    }
  });
  it('capsuleDistance is the segments’ distance minus the radii (negative inside)', () => {
    expect(capsuleDistance([0, 0], [2, 0], 0.5, [1, 1], [1, 3], 0.25)).toBe(0.25);
    expect(capsuleDistance([0, 0], [2, 0], 0.5, [1, 0.5], [1, 3], 0.25)).toBe(-0.25);
    expect(capsuleDistance([0, 0], [2, 0], 0.5, [1, -1], [1, 3], 0.25)).toBe(-0.75); // crossing: the full depth
    expect(capsuleDistance([0, 0, 0], [0, 0, 0], 1, [3, 4, 0], [3, 4, 0], 1)).toBe(3); // spheres
    expect(segmentDistance([0, 0], [2, 0], [1, 1], [1, 3])).toBe(1);
  });
  void ratAdd;
  void ratSub;
});
