// The n-D kernel (src/closest/kernel-nd.ts, O(n) Gram quantities) against the exact BigInt oracle
// at dimensions 4, 7, 50 and 1000 (issue 16), and the extreme lines and rays of issue 19 item 4
// (those go through the same kernel from 2D and 3D). Every case is seeded; the seed and the case
// index are in the failure message. Replay: `cases(dim, seed)` below.
import { describe, expect, it } from 'vitest';
import { closestPoints, segmentDistance } from '../../src/closest/closest.js';
import { line, ray, segment } from '../../src/core/primitives.js';
import type { Primitive } from '../../src/core/types.js';
import { collinear, coplanar, intersects } from '../../src/intersect/intersects.js';
import { exactClosest, measure, ratSqrtToNumber, scaleS, U, errorVsExact } from '../support/oracle.js';
import { mulberry32, nextDown, nextUp } from '../support/rng.js';
import { KINDS, make } from '../support/nd-kinds.js';

const LONG = process.env.SKEWLINE_LONG === '1';

/** True when x is within one ulp of the exact distance (the rounded exact value or a neighbour). */
function faithful(x: number, exactRounded: number): boolean {
  return x === exactRounded || x === nextUp(exactRounded) || x === nextDown(exactRounded);
}

interface Case {
  label: string;
  a: Primitive;
  b: Primitive;
}

/**
 * Seeded n-D pairs of every kind: general position, nearly parallel (b's direction a's plus a
 * relative 2⁻³⁰ perturbation), exactly parallel (b's direction 2× or −½× a's), crossing (small
 * integers with b through a point of a) and touching (a segment's end on the other).
 */
function cases(dim: number, seed: number, count: number): Case[] {
  const rng = mulberry32(seed);
  const vec = (scale = 1): number[] => Array.from({ length: dim }, () => (rng() * 2 - 1) * scale);
  const ints = (): number[] => Array.from({ length: dim }, () => Math.floor(rng() * 21) - 10);
  const out: Case[] = [];
  for (let i = 0; i < count; i++) {
    const ka = KINDS[i % 4];
    const kb = KINDS[Math.floor(i / 4) % 4];
    const family = i % 5;
    const a0 = vec();
    const a1 = vec();
    if (family === 0) {
      out.push({ label: 'general', a: make(ka, a0, a1), b: make(kb, vec(), vec()) });
    } else if (family === 1) {
      const b0 = vec();
      const off = vec(2 ** -30);
      const b1 = b0.map((x, j) => x + (a1[j] - a0[j]) + off[j]);
      out.push({ label: 'nearly parallel', a: make(ka, a0, a1), b: make(kb, b0, b1) });
    } else if (family === 2) {
      const label = 'exactly parallel';
      const f = i % 2 === 0 ? 2 : -0.5;
      // Small integers, so that b's direction is exactly f times a's.
      const A0 = ints();
      const A1 = ints();
      const P = ints();
      out.push({
        label,
        a: make(ka, A0, A1),
        b: make(kb, P, P.map((x, j) => x + f * (A1[j] - A0[j]))),
      });
    } else if (family === 3) {
      const label = 'crossing';
      const A0 = ints();
      const A1 = ints();
      const X = A0.map((x, j) => x + (A1[j] - x) / 2); // a's midpoint, exact (halves of small integers)
      const dir = ints();
      out.push({
        label,
        a: make(ka, A0, A1),
        b: make(kb, X.map((x, j) => x - dir[j]), X.map((x, j) => x + dir[j])),
      });
    } else {
      const label = 'touching';
      const A0 = ints();
      const A1 = ints();
      out.push({ label, a: make(ka, A0, A1), b: make(kb, A1, ints()) });
    }
  }
  return out;
}

const show = (p: Primitive): string => `${p.kind}(dim ${p.dim})`;

describe('issue 16: n-D closest points in O(n), against the exact oracle', () => {
  const plan: [number, number][] = [
    [4, 200],
    [7, 200],
    [50, 100],
    [1000, LONG ? 60 : 20],
  ];
  for (const [dim, count] of plan) {
    const seed = 16_000 + dim;
    it(`issue 16: closestPoints at ${dim}-D is faithful and decides contact exactly (seed=${seed})`, () => {
      const fails: string[] = [];
      cases(dim, seed, count).forEach((c, i) => {
        const where = `seed=${seed} case ${i} [${c.label}] ${show(c.a)} vs ${show(c.b)}`;
        const r = closestPoints(c.a, c.b);
        const ex = exactClosest(c.a, c.b);
        const shares = ex.distSq.num === 0n;
        const exact = ratSqrtToNumber(ex.distSq);
        if (!faithful(r.distance, exact)) fails.push(`${where}: distance ${r.distance}, exact ${exact}`);
        if ((r.distance === 0) !== shares) fails.push(`${where}: distance ${r.distance} but shares=${shares}`);
        if ((r.relation === 'intersecting' || r.relation === 'overlapping') !== shares) fails.push(`${where}: relation ${r.relation}, shares=${shares}`);
        if (intersects(c.a, c.b) !== shares) fails.push(`${where}: intersects disagrees with the oracle (shares=${shares})`);
        if (r.parallel !== ex.parallel && c.a.kind !== 'point' && c.b.kind !== 'point') {
          fails.push(`${where}: parallel ${r.parallel}, exact ${ex.parallel}`);
        }
        const m = measure(c.a, c.b, r);
        if (!(m.cOnAPrime <= 8 && m.dOnBPrime <= 8)) fails.push(`${where}: c off a ${m.cOnAPrime} u·M', d off b ${m.dOnBPrime} u·M'`);
      });
      expect(fails).toEqual([]);
    });
  }

  it('issue 16: segmentDistance at 1000-D equals closestPoints and is faithful (seed=16999)', () => {
    const rng = mulberry32(16999);
    const v = (): number[] => Array.from({ length: 1000 }, () => rng() * 2 - 1);
    const [a0, a1, b0, b1] = [v(), v(), v(), v()];
    const d = segmentDistance(a0, a1, b0, b1);
    const ex = ratSqrtToNumber(exactClosest(segment(a0, a1), segment(b0, b1)).distSq);
    expect(faithful(d, ex)).toBe(true);
  });
});

describe('issue 16: collinear and coplanar in high dimension, exact', () => {
  for (const dim of [4, 50, 1000, 10_000]) {
    it(`issue 16: collinear and coplanar at ${dim}-D decide exact and one-ulp-off inputs (seed=${1600 + dim})`, () => {
      const rng = mulberry32(1600 + dim);
      const ints = (): number[] => Array.from({ length: dim }, () => Math.floor(rng() * 2001) - 1000);
      const p = ints();
      const u = ints();
      const v = ints();
      // q, r on the line p + t·u (t = 3, −5): exactly collinear; s in the plane of p, u, v.
      const q = p.map((x, i) => x + 3 * u[i]);
      const r = p.map((x, i) => x - 5 * u[i]);
      const s = p.map((x, i) => x + 7 * u[i] - 2 * v[i]);
      const w = p.map((x, i) => x + v[i]);
      expect(collinear(p, q, r)).toBe(true);
      expect(coplanar(p, q, w, s)).toBe(true);
      expect(coplanar(p, q, r, s)).toBe(true); // three collinear points and any fourth
      // One coordinate one ulp off (of 2^40-sized numbers, so the change is a relative 2⁻⁵³).
      const big = (x: number[]): number[] => x.map((y) => y * 2 ** 30);
      const r2 = big(r);
      const k = dim >> 1;
      r2[k] = nextUp(r2[k] + 2 ** 40);
      const p2 = big(p);
      const q2 = big(q);
      p2[k] += 2 ** 40;
      q2[k] += 2 ** 40;
      expect(collinear(p2, q2, big(r).map((y, i) => (i === k ? y + 2 ** 40 : y)))).toBe(true);
      expect(collinear(p2, q2, r2)).toBe(false);
      const s2 = big(s).map((y, i) => (i === k ? y + 2 ** 40 : y));
      const w2 = big(w).map((y, i) => (i === k ? y + 2 ** 40 : y));
      expect(coplanar(p2, q2, w2, s2)).toBe(true);
      s2[dim - 1] = nextUp(s2[dim - 1]);
      expect(coplanar(p2, q2, w2, s2)).toBe(false);
    });
  }
});

describe('issue 19 item 4: lines and rays at the extremes, against the exact oracle', () => {
  it('issue 19: 2D lines line([0,0],[1,0]) and line([0,1],[2**300,2]) cross: intersects true, distance 0, intersecting', () => {
    const a = line([0, 0], [1, 0]);
    const b = line([0, 1], [2 ** 300, 2]);
    expect(exactClosest(a, b).distSq.num).toBe(0n);
    expect(intersects(a, b)).toBe(true);
    const r = closestPoints(a, b);
    expect(r.distance).toBe(0);
    expect(r.relation).toBe('intersecting');
    expect(r.c[0]).toBe(-(2 ** 300));
    expect(r.c[1]).toBe(0);
  });

  it('issue 19: every exponent from 250 to 460 in the 2D family crosses (distance 0, intersects true)', () => {
    const fails: number[] = [];
    for (let e = 250; e <= 460; e++) {
      const a = line([0, 0], [1, 0]);
      const b = line([0, 1], [2 ** e, 2]);
      const r = closestPoints(a, b);
      if (r.distance !== 0 || r.relation !== 'intersecting' || !intersects(a, b)) fails.push(e);
    }
    expect(fails).toEqual([]);
  });

  it('issue 19: 3D lines line([0,0,0],[1,0,0]) and line([0,1,1],[2**300,1,2]) are exactly 1 apart', () => {
    const a = line([0, 0, 0], [1, 0, 0]);
    const b = line([0, 1, 1], [2 ** 300, 1, 2]);
    expect(ratSqrtToNumber(exactClosest(a, b).distSq)).toBe(1);
    const r = closestPoints(a, b);
    expect(r.distance).toBe(1);
    expect(r.relation).toBe('apart');
    expect(intersects(a, b)).toBe(false);
  });

  it('issue 19: 4D lines with coordinates from 1e-201 to 9.75 get the exact distance (seed=19004)', () => {
    // Each coordinate of magnitude 1e-201, 1e-150, 1e-100, 1e-50, 1e-20, 1 or 9.75: products of
    // four Gram factors underflow (the old kernel was off in 400 of 3,000 such pairs, up to 1e4×).
    const rng = mulberry32(19004);
    const mags = [1e-201, 1e-150, 1e-100, 1e-50, 1e-20, 1, 9.75];
    const c = (): number => (rng() * 2 - 1) * mags[Math.floor(rng() * mags.length)];
    const v = (): number[] => [c(), c(), c(), c()];
    const fails: string[] = [];
    for (let i = 0; i < (LONG ? 3000 : 150); i++) {
      const [a0, a1, b0, b1] = [v(), v(), v(), v()];
      if (a0.every((x, j) => x === a1[j]) || b0.every((x, j) => x === b1[j])) continue;
      const a = line(a0, a1);
      const b = line(b0, b1);
      const exact = ratSqrtToNumber(exactClosest(a, b).distSq);
      const r = closestPoints(a, b);
      if (!faithful(r.distance, exact)) fails.push(`case ${i}: ${r.distance}, exact ${exact}`);
      if ((r.distance === 0) !== (exact === 0) || intersects(a, b) !== (exact === 0)) fails.push(`case ${i}: contact decided wrongly`);
    }
    expect(fails).toEqual([]);
  });

  it('issue 19: nearly parallel line and ray pairs keep the 8·u·S bound (2D, 3D, 4D; seed=19005)', () => {
    const rng = mulberry32(19005);
    const fails: string[] = [];
    const n = LONG ? 3721 : 400;
    for (let i = 0; i < n; i++) {
      const dim = 2 + (i % 3);
      const ka = i % 2 === 0 ? 'line' : 'ray';
      const kb = Math.floor(i / 2) % 2 === 0 ? 'line' : 'ray';
      const p = Array.from({ length: dim }, () => rng() * 2 - 1);
      const u = Array.from({ length: dim }, () => rng() * 2 - 1);
      const scale = 2 ** Math.floor(rng() * 60 - 30);
      const tilt = 2 ** -Math.floor(rng() * 52);
      const q = Array.from({ length: dim }, () => rng() * 2 - 1);
      const v = u.map((x) => x * scale + (rng() * 2 - 1) * tilt * Math.abs(scale));
      const a = ka === 'line' ? line(p, p.map((x, j) => x + u[j])) : ray(p, u);
      const b = kb === 'line' ? line(q, q.map((x, j) => x + v[j])) : ray(q, v);
      const r = closestPoints(a, b);
      const err = errorVsExact(r.distance, exactClosest(a, b).distSq) / (U * scaleS(a, b));
      if (!(err <= 8)) fails.push(`case ${i} (${ka}/${kb}, ${dim}-D): ${err.toPrecision(3)} u·S`);
    }
    expect(fails).toEqual([]);
  });

  it('issue 19: intersects(segment([-1.7e308,0],[1.7e308,0]), segment([0,-1],[0,1])) is true, no throw', () => {
    expect(intersects(segment([-1.7e308, 0], [1.7e308, 0]), segment([0, -1], [0, 1]))).toBe(true);
    expect(intersects(segment([-1.7e308, 0], [1.7e308, 0]), segment([0, 1], [1, 2]))).toBe(false);
    expect(intersects(segment([-1.7e308, 0, 0], [1.7e308, 0, 0]), segment([0, -1, 0], [0, 1, 0]))).toBe(true);
    expect(intersects(segment([-1.7e308, 0, 0, 0], [1.7e308, 0, 0, 0]), segment([5, -1, 0, 0], [5, 1, 0, 0]))).toBe(true);
    const r = closestPoints(segment([-1.7e308, 0], [1.7e308, 0]), segment([0, -1], [0, 1]));
    expect(r.distance).toBe(0);
  });
});
