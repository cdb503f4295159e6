/**
 * crossingPoint2 (cli/crossing.ts), the double-double fast path for the GeoJSON output's crossing
 * points: whenever it answers, its point is bit for bit the exact rational point rounded once
 * (intersection2D, BigInt arithmetic, the reference), on seeded proper crossings of every kind.
 */
import { describe, expect, it } from 'vitest';
import { crossingPoint2 } from '../../cli/crossing.js';
import { intersection2D } from '../../src/intersect/segment-2d.js';
import { orient2Sign } from '../../src/intersect/intersects.js';
import { makeRng, nextUp, type Rng } from '../support/rng.js';

/** A proper crossing: each segment's ends strictly on opposite sides of the other's line. */
function proper(p: number[]): boolean {
  const [ax0, ay0, ax1, ay1, bx0, by0, bx1, by1] = p;
  const d3 = orient2Sign(ax0, ay0, ax1, ay1, bx0, by0), d4 = orient2Sign(ax0, ay0, ax1, ay1, bx1, by1);
  const d1 = orient2Sign(bx0, by0, bx1, by1, ax0, ay0), d2 = orient2Sign(bx0, by0, bx1, by1, ax1, ay1);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/** Checks the fast path against the exact point on `cases` proper crossings from `make`; returns the share it answered. */
function check(rng: Rng, cases: number, make: (rng: Rng) => number[]): number {
  const out = [0, 0];
  let answered = 0, tried = 0;
  for (let guard = 0; tried < cases && guard < cases * 50; guard++) {
    const p = make(rng);
    if (!proper(p)) continue;
    tried++;
    const ok = crossingPoint2(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], out);
    if (!ok) continue;
    answered++;
    const r = intersection2D(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
    if (r.kind !== 'point' || !Object.is(out[0], r.point[0]) || !Object.is(out[1], r.point[1])) {
      throw new Error(`seed ${rng.seed}: segments ${p.join(',')}: fast ${out.join(',')}, exact ${r.kind === 'point' ? r.point.join(',') : r.kind}`);
    }
  }
  expect(tried, `seed ${rng.seed}: enough proper crossings`).toBe(cases);
  return answered / tried;
}

describe('crossingPoint2 (GeoJSON output crossing points)', () => {
  it('issue 17: random-walk crossings (seed 1701): the fast point equals the exact point rounded once, and it answers nearly always', () => {
    const share = check(makeRng(1701), 20_000, (rng) => {
      const x = rng.uniform(0, 100), y = rng.uniform(0, 100);
      const a = rng.uniform(0, 2 * Math.PI), b = rng.uniform(0, 2 * Math.PI);
      const s = rng.uniform(0, 1);
      return [x, y, x + Math.cos(a), y + Math.sin(a), x + s * Math.cos(a) - 0.5 * Math.cos(b), y + s * Math.sin(a) - 0.5 * Math.sin(b), x + s * Math.cos(a) + 0.5 * Math.cos(b), y + s * Math.sin(a) + 0.5 * Math.sin(b)];
    });
    expect(share).toBeGreaterThan(0.99);
  });

  it('issue 17: crossings at every scale and far from the origin (seed 1702), near-parallel ones, and integer grids agree with the exact point', () => {
    check(makeRng(1702), 20_000, (rng) => {
      const scale = rng.logUniform(1e-200, 1e200), off = rng.chance(0.5) ? 0 : rng.sign() * rng.logUniform(1, 1e12) * scale;
      return Array.from({ length: 8 }, () => off + rng.uniform(-1, 1) * scale);
    });
    // Near-parallel: b is a turned by an angle down to 1e-15 (den loses most of its digits).
    const nearly = check(makeRng(1703), 5_000, (rng) => {
      const x = rng.uniform(-10, 10), y = rng.uniform(-10, 10), a = rng.uniform(0, 7), e = rng.sign() * rng.logUniform(1e-15, 1e-3);
      const c = rng.uniform(0.2, 0.8);
      return [x, y, x + Math.cos(a), y + Math.sin(a), x + c * Math.cos(a) - Math.cos(a + e), y + c * Math.sin(a) - Math.sin(a + e), x + c * Math.cos(a) + Math.cos(a + e), y + c * Math.sin(a) + Math.sin(a + e)];
    });
    expect(nearly).toBeGreaterThan(0.5);
    check(makeRng(1704), 5_000, (rng) => Array.from({ length: 8 }, () => rng.int(-20, 20)));
  });

  it('issue 17: crossings on or just off the midpoint of two doubles are left to the exact path or rounded correctly', () => {
    // a from (1, −1) to (1 + 2^-52, 1) crosses y = 0 at x = 1 + 2^-53, the midpoint of 1 and its successor.
    const out = [NaN, NaN];
    const ok = crossingPoint2(1, -1, 1 + 2 ** -52, 1, 0, 0, 3, 0, out);
    const r = intersection2D(1, -1, 1 + 2 ** -52, 1, 0, 0, 3, 0);
    expect(r.kind === 'point' && r.point[0]).toBe(1); // ties to even
    if (ok) expect(out).toEqual([1, 0]);
    // Just off a midpoint, where the double-double value itself rounds the wrong way: a from
    // (X, −1) to (X + ulp(X), 1) crosses y = δ at X + ulp/2 + δ·ulp/2.
    let answered = 0;
    for (const X of [1, 3, -7.25, 1e6 + 0.5, 2 ** 30, -(2 ** 40) - 1, 0.1]) {
      const ulp = Math.abs(nextUp(Math.abs(X)) - Math.abs(X));
      for (const dy of [0, 2 ** -67, -(2 ** -67), 2 ** -60, -(2 ** -60), 2 ** -80, 2 ** -45, -(2 ** -45), 0.25]) {
        const w = 2 * Math.abs(X) + 1;
        const p = [X, -1, X + ulp, 1, -w, dy, w, dy];
        expect(proper(p)).toBe(true);
        const r = intersection2D(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
        if (!crossingPoint2(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], out)) continue;
        answered++;
        expect(r.kind === 'point' && [r.point[0], r.point[1]], `X ${X}, δ ${dy}`).toEqual([out[0], out[1]]);
      }
    }
    expect(answered).toBeGreaterThan(0);
    // Outside [2^-300, 2^300] it declines (the caller computes exactly).
    expect(crossingPoint2(0, 0, 1e308, 1e308, 0, 1e308, 1e308, 0, out)).toBe(false);
  });
});
