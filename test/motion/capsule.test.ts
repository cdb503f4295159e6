/**
 * capsuleSweep against the exact oracle (test/support/exact-motion.ts: brute-force rational
 * minimisation over the box of (t, s, s′)): every hit/miss decision, and the time in ulps from
 * the first double at which the exact capsules touch.
 */
import { describe, expect, it } from 'vitest';
import { capsuleSweep, sphereSweep, SkewlineInputError } from '../../src/index.js';
import { capsuleOracle, capsuleTouchR, ulpsApart } from '../support/exact-motion.js';
import { ratFromDouble } from '../support/oracle.js';
import { capsuleTouchFiltered } from '../../src/motion/capsule.js';
import { CAPSULE_FAMILIES, capsuleCases } from '../support/motion-families.js';

const LONG = process.env.SKEWLINE_LONG === '1';
const N = LONG ? 3_000 : 150;

describe('capsuleSweep against the exact oracle', () => {
  for (const [k, name] of Object.keys(CAPSULE_FAMILIES).entries()) {
    for (const dim of [2, 3]) {
      const seed = 9600 + 10 * k + dim;
      it(`${name}, ${dim}D (seed ${seed}, ${N} cases): zero wrong decisions, time within 4 ulps`, () => {
        let wrong = 0;
        let worst = 0;
        let hits = 0;
        const failures: string[] = [];
        for (const c of capsuleCases(name, N, seed, dim)) {
          const o = capsuleOracle(c);
          const r = capsuleSweep(c.a0, c.a1, c.ra, c.move, c.b0, c.b1, c.rb);
          if (r.hit !== o.hit) {
            wrong++;
            if (failures.length < 5) failures.push(`decision ${r.hit} vs ${o.hit}: ${JSON.stringify(c)}`);
            continue;
          }
          if (!o.hit) continue;
          hits++;
          const e = ulpsApart(r.time, o.first);
          worst = Math.max(worst, e);
          if (e > 4 && failures.length < 5) failures.push(`time ${r.time} vs ${o.first}: ${JSON.stringify(c)}`);
        }
        console.log(`capsuleSweep ${name} ${dim}D (seed ${seed}): ${hits} hits of ${N}; wrong decisions ${wrong}; worst time error ${worst} ulps`);
        expect(failures, `seed ${seed}`).toEqual([]);
        expect(wrong, `seed ${seed}`).toBe(0);
        expect(worst, `seed ${seed}`).toBeLessThanOrEqual(4);
      }, LONG ? 3_600_000 : 120_000);
    }
  }

  it('edge cases: spheres agree with sphereSweep, touching at the start, crossing segments, bad input', () => {
    // zero-length capsules are spheres
    const s = sphereSweep([0, 0], [3, 0], 0.5, [2, 0.5], [2, 0.5], 0.5);
    const c = capsuleSweep([0, 0], [0, 0], 0.5, [3, 0], [2, 0.5], [2, 0.5], 0.5);
    expect(c.hit).toBe(true);
    expect(c.time).toBe(s.time);
    // a horizontal capsule falling onto a vertical one: face contact at t = 0.5 (gap 2 − 0.5 closed at speed 2)
    const f = capsuleSweep([-1, 2, 0], [1, 2, 0], 0.25, [0, -2, 0], [0, 0, 1], [0, 0, -1], 0.25);
    expect(f).toMatchObject({ hit: true, time: 0.75, normal: [0, -1, 0] });
    expect(f.point).toEqual([0, 0.25, 0]);
    expect(capsuleSweep([0, 0], [1, 0], 0.1, [0, 1], [0, 0.1], [1, 0.1], 0.1)).toMatchObject({ hit: true, time: 0 });
    expect(capsuleSweep([0, 0], [1, 0], 0.1, [0, 0], [0, 0.5], [1, 0.5], 0.1).hit).toBe(false); // no motion
    expect(capsuleSweep([0, 0], [1, 0], 0, [0, 1], [0.5, 0.5], [0.5, 2], 0)).toMatchObject({ hit: true, time: 0.5 }); // segments meet
    expect(() => capsuleSweep([0, 0], [1, 0], -1, [0, 1], [0, 0], [1, 0], 1)).toThrow(SkewlineInputError);
    expect(() => capsuleSweep([0, 0], [1, 0, 0], 1, [0, 1], [0, 0], [1, 0], 1)).toThrow(/different dimensions/);
  });
});

describe('issue 16: the capsule touch filters (doubles, then double-double) never contradict the exact predicate', () => {
  // At the doubles next to every contact (where the double filter cannot decide and the
  // double-double certificate does the work, instead of BigInt): each certain answer of the
  // filters is checked against the oracle's rational box minimum; most must be decided.
  for (const [name, scale] of [['random', 1], ['grazing', 1], ['parallel', 1], ['zeroLength', 1], ['farFromOrigin', 1], ['random', 2 ** 300], ['grazing', 2 ** -300]] as const) {
    for (const dim of [2, 3]) {
      const seed = 9660 + dim;
      const label = scale === 1 ? '' : ` ×2^${Math.log2(scale)}`;
      it(`issue 16: ${name}${label} ${dim}D (seed ${seed}): certain answers at ±0…64 ulps around each contact are exact`, () => {
        let checked = 0;
        let decided = 0;
        const bad: string[] = [];
        const buf = new Float64Array(1);
        const bits = new BigInt64Array(buf.buffer);
        for (const c0 of capsuleCases(name, scale === 1 ? 60 : 25, seed, dim)) {
          // scaled by a power of two (exact): the same contacts at 2^±300
          const sc = (v: number[]) => v.map((x) => x * scale);
          const c = { ...c0, a0: sc(c0.a0), a1: sc(c0.a1), move: sc(c0.move), b0: sc(c0.b0), b1: sc(c0.b1), ra: c0.ra * scale, rb: c0.rb * scale };
          const o = capsuleOracle(c);
          if (!o.hit || !(o.first > 0)) continue;
          const F = [c.a0, c.a1, c.move, c.b0, c.b1].map((v) => Float64Array.from(v));
          for (const k of [-64, -8, -2, -1, 0, 1, 2, 8, 64]) {
            buf[0] = o.first;
            bits[0] += BigInt(k);
            const t = buf[0];
            if (!(t >= 0 && t <= 1)) continue;
            const f = capsuleTouchFiltered(F[0], F[1], c.ra, F[2], F[3], F[4], c.rb, t);
            checked++;
            if (f === 0) continue;
            decided++;
            if (f > 0 !== capsuleTouchR(c, ratFromDouble(t)) && bad.length < 5) bad.push(`t = first ${k >= 0 ? '+' : ''}${k} ulps: filter ${f}; ${JSON.stringify(c)}`);
          }
        }
        console.log(`capsule touch filters ${name}${label} ${dim}D (seed ${seed}): ${decided} of ${checked} decided without BigInt`);
        expect(bad, `seed ${seed}`).toEqual([]);
        if (name === 'random' || name === 'farFromOrigin') expect(decided, `seed ${seed}`).toBeGreaterThan(0.9 * checked);
        expect(checked, `seed ${seed}`).toBeGreaterThan(0);
      }, 60_000);
    }
  }
});
