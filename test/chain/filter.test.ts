/**
 * The double-precision filter of the thick 3D chain search (src/chain/narrow.ts, apart3): it may
 * only ever reject a pair whose exact distance exceeds the thickness. Checked against exact
 * rational squared distances (test/support/oracle.ts) on seeded pair families, at thicknesses
 * placed on, an ulp around and a hair around each pair's own distance.
 */
import { describe, expect, it } from 'vitest';
import { apart3, narrowStats, tau2Up } from '../../src/chain/narrow.js';
import { chainContacts, segment } from '../../src/index.js';
import { exactDistanceSq, ratCmp, ratFromDouble, ratMul, ratSqrtToNumber } from '../support/oracle.js';
import { makeRng, nextDown, nextUp } from '../support/rng.js';
import type { Rng } from '../support/rng.js';
import { randomWalk } from '../support/walks.js';

/** One pair of 3D segments a0 a1 b0 b1 (12 numbers) of the given family. */
function makePair(rng: Rng, family: string): number[] {
  const a0 = [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)];
  const u = rng.unitVector(3).map((x) => x * rng.logUniform(0.1, 2));
  const near = (p: number[], r: number): number[] => p.map((x) => x + rng.uniform(-r, r));
  let b0: number[], v: number[];
  switch (family) {
    case 'random':
      b0 = near(a0, 1.5);
      v = rng.unitVector(3).map((x) => x * rng.logUniform(0.1, 2));
      break;
    case 'nearly parallel': {
      b0 = near(a0, 0.5);
      const e = rng.logUniform(1e-14, 1e-2);
      v = u.map((x) => x * rng.uniform(0.5, 1.5) * rng.sign() + rng.uniform(-e, e));
      break;
    }
    case 'touching': {
      // b0 on segment a (exactly at a vertex, or rounded onto its interior): distance 0 or a few ulps.
      const s = rng.chance(0.5) ? rng.int(0, 1) : rng.next();
      b0 = a0.map((x, k) => x + s * u[k]);
      v = rng.unitVector(3);
      break;
    }
    default: { // 'crossing lines': b passes within a tiny distance of a's line
      const s = rng.next();
      const p = a0.map((x, k) => x + s * u[k]);
      v = rng.unitVector(3);
      const t = rng.uniform(-0.5, 1.5);
      b0 = p.map((x, k) => x - t * v[k] + rng.uniform(-1e-9, 1e-9));
    }
  }
  return [...a0, ...a0.map((x, k) => x + u[k]), ...b0, ...b0.map((x, k) => x + v[k])];
}

describe('the 3D chain filter in doubles (apart3)', () => {
  it('issue 16: apart3 rejects only pairs whose exact distance exceeds the thickness (seeds 1630–1635; scales 1, 1e±12, 1e±100, far from the origin, and past its range)', () => {
    const families = ['random', 'nearly parallel', 'touching', 'crossing lines'];
    const transforms: [string, (x: number) => number][] = [
      ['as is', (x) => x], ['×1e-12', (x) => x * 1e-12], ['×1e12', (x) => x * 1e12], ['+1e6', (x) => x + 1e6],
      ['×1e-100', (x) => x * 1e-100], ['×1e100', (x) => x * 1e100], ['×1e-130', (x) => x * 1e-130], ['×1e130', (x) => x * 1e130],
    ];
    const ORDINARY = ['as is', '×1e-12', '×1e12', '+1e6'];
    let rejected = 0, clear = 0, clearRejected = 0;
    for (let seed = 1630; seed <= 1635; seed++) {
      const rng = makeRng(seed);
      for (let n = 0; n < 60; n++) {
        const family = families[n % families.length];
        const base = makePair(rng, family);
        for (const [tname, f] of transforms) {
          const q = base.map(f);
          const PA = Float64Array.from(q.slice(0, 6)), PB = Float64Array.from(q.slice(6));
          const exact = exactDistanceSq(segment(q.slice(0, 3), q.slice(3, 6)), segment(q.slice(6, 9), q.slice(9, 12)));
          const d = ratSqrtToNumber(exact);
          const taus = [d, nextDown(d), nextUp(d), d * (1 - 2 ** -40), d * (1 + 2 ** -40), d * (1 - 1e-6), d * 0.5, d * 0.999, d * 2, 0]
            .filter((t) => t >= 0 && Number.isFinite(t));
          for (const tau of taus) {
            const r = apart3(PA, 0, PB, 0, tau2Up(tau));
            const label = `seed ${seed}, pair ${n} (${family}, ${tname}), τ = ${tau}, exact distance ≈ ${d}`;
            const t = ratFromDouble(tau);
            if (r === 1) {
              rejected++;
              expect(ratCmp(exact, ratMul(t, t)), label).toBeGreaterThan(0);
            }
            // Random pairs clearly apart (by 0.1 % and by more than 1e-6 of their size) at
            // ordinary scales: the filter should decide them itself. (Touching pairs, lines
            // passing within 1e-9 and tiny angles are the full test's by design.)
            if (family === 'random' && tau > 0 && tau <= d * 0.999 && d > 1e-6 * Math.abs(f(1) - f(0)) && ORDINARY.includes(tname)) {
              clear++;
              clearRejected += r;
            }
          }
        }
      }
    }
    expect(rejected).toBeGreaterThan(1000);
    // (Not a bound on correctness, but on usefulness: a filter that never rejects passes the line above.)
    expect(clearRejected / clear).toBeGreaterThan(0.95);
  });

  it('issue 16: tau2Up rounds τ² up and leaves the range it cannot vouch for to the full test', () => {
    const rng = makeRng(1636);
    for (let k = 0; k < 2000; k++) {
      const tau = rng.logUniform(1e-140, 1e140);
      const t = ratFromDouble(tau), up = tau2Up(tau);
      expect(ratCmp(ratFromDouble(up), ratMul(t, t)), `seed 1636, τ = ${tau}`).toBeGreaterThanOrEqual(0);
    }
    expect(tau2Up(0)).toBe(0);
    expect(tau2Up(1e-160)).toBe(Infinity);
    expect(tau2Up(1e160)).toBe(Infinity);
  });

  it('issue 16: on a 3D random walk the filter decides most non-contacts, and the contacts are those of the full test (seed 1637)', () => {
    const P = randomWalk(20000, 3, makeRng(1637));
    narrowStats.tests = narrowStats.exact = narrowStats.apart = 0;
    const r = chainContacts(P, { dim: 3, thickness: 0.2 });
    const nonContacts = narrowStats.tests - r.count;
    expect(narrowStats.apart).toBeLessThanOrEqual(nonContacts);
    expect(narrowStats.apart / nonContacts).toBeGreaterThan(0.9);
    // Every reported pair, and every rejected-looking near miss, against the exact distance.
    const seg = (k: number) => segment(P.slice(3 * k, 3 * k + 3), P.slice(3 * k + 3, 3 * k + 6));
    const t = ratFromDouble(0.2);
    for (let k = 0; k < r.count; k += 7) expect(ratCmp(exactDistanceSq(seg(r.i[k]), seg(r.j[k])), ratMul(t, t)), `seed 1637 contact ${r.i[k]},${r.j[k]}`).toBeLessThanOrEqual(0);
  });
});
