// Faithful distances (issue 19, priority 1): every distance skewline returns is a faithful
// rounding of the exact minimum distance of the given doubles — pred(d) < d* < succ(d), decided
// exactly against the BigInt oracle — on seeded families whose distance is 1e-14 … 1e-2 of the
// segments' size, at 1e±300, and on every oracle family (lines, rays, points, 2D–4D).
// Replay a failure with the seed and the pair index in the message.
import { describe, expect, it } from 'vitest';
import { closestPoints, segmentDistance } from '../../src/closest/closest.js';
import { closestSegSeg2, closestSegSeg3, closestSegSegN } from '../../src/closest/segment-kernels.js';
import { allocPairs3, segmentClosestBatch, segmentDistances } from '../../src/batch/batch.js';
import { point, segment } from '../../src/core/primitives.js';
import { FAMILIES, familySeed, nearlyParallelPairs3, uniformPairs3 } from '../support/families.js';
import { FAITHFUL, faithfulSegSeg, faithfulSegSeg3, lowerBounds } from '../../src/closest/faithful.js';
import { exactDistanceSq, ratCmp, ratFromDouble, ratMul } from '../support/oracle.js';
import { FAITHFUL_FAMILIES, exactPairSq, faithfulPairs, isFaithful, ulpsOff } from '../support/faithful-families.js';

const LONG = process.env.SKEWLINE_LONG === '1';
const COUNT = LONG ? 2000 : 40;
const SEED = Number(process.env.SKEWLINE_SEED ?? 1919);

/** Every way a segment pair's distance can be asked for, pair i of a flat array. */
function allDistances(pairs: Float64Array, dim: 2 | 3): { name: string; d: (i: number) => number }[] {
  const n = pairs.length / (4 * dim);
  const at = (i: number, p: number) => pairs.subarray(4 * dim * i + dim * p, 4 * dim * i + dim * (p + 1));
  const batch = segmentDistances(pairs, dim);
  const withParams = segmentClosestBatch(pairs, dim);
  const kernel = (i: number) => (dim === 3 ? closestSegSeg3(pairs, 12 * i, null, 0) : closestSegSeg2(pairs, 8 * i, null, 0));
  const ways = [
    { name: 'closestPoints', d: (i: number) => closestPoints(segment(at(i, 0), at(i, 1)), segment(at(i, 2), at(i, 3))).distance },
    { name: 'segmentDistance', d: (i: number) => segmentDistance(at(i, 0), at(i, 1), at(i, 2), at(i, 3)) },
    { name: 'segmentDistances', d: (i: number) => batch[i] },
    { name: 'segmentClosestBatch', d: (i: number) => withParams[3 * i + 2] },
    { name: `closestSegSeg${dim}`, d: kernel },
    { name: 'closestSegSegN', d: (i: number) => closestSegSegN(pairs, 4 * dim * i, dim, null, 0) },
  ];
  if (dim === 3) {
    const resident = allocPairs3(n);
    resident.set(pairs);
    const wasm = segmentDistances(resident, 3);
    ways.push({ name: 'segmentDistances (allocPairs3, WebAssembly)', d: (i: number) => wasm[i] });
  }
  return ways;
}

describe('issue 19: distances are faithful (pred(d) < exact < succ(d)) on distances 1e-14 … 1e-2 of S', () => {
  for (const scale of [1, 1e300, 1e-300]) {
    for (const dim of [2, 3] as const) {
      FAITHFUL_FAMILIES.forEach((family, f) => {
        const seed = SEED + 100 * f + dim + (scale === 1 ? 0 : scale > 1 ? 10 : 20);
        it(`${family} ${dim}D at scale ${scale}, seed ${seed}`, () => {
          const pairs = faithfulPairs(family, dim, COUNT, seed, { scale });
          const ways = allDistances(pairs, dim);
          for (let i = 0; i < COUNT; i++) {
            const q = exactPairSq(pairs, dim, i);
            for (const w of ways) {
              const d = w.d(i);
              expect(isFaithful(d, q), `${w.name}, seed ${seed}, pair ${i}: ${d}`).toBe(true);
            }
          }
        });
      });
    }
  }
});

describe('issue 19: closestPoints is faithful on every oracle family (lines, rays, points; 2D–4D)', () => {
  FAMILIES.forEach((fam, f) => {
    const seed = familySeed(SEED, f);
    it(`${fam.name}, seed ${seed}`, () => {
      const cases = fam.make(seed, LONG ? 1000 : 60);
      cases.forEach((c, i) => {
        const d = closestPoints(c.a, c.b).distance;
        expect(isFaithful(d, exactDistanceSq(c.a, c.b)), `${fam.name} seed ${seed} case ${i}: ${d}`).toBe(true);
      });
    });
  });
});

describe('issue 19: the faithfulness check itself', () => {
  it('rejects a distance one ulp off and accepts the exact neighbours', () => {
    // a0 = (0, 0) to b0 = (3, 4): 5 exactly: only 5 is faithful; its neighbours are not.
    const pairs = new Float64Array([0, 0, -1, 0, 3, 4, 4, 5]);
    const q = exactPairSq(pairs, 2, 0);
    expect(isFaithful(segmentDistances(pairs, 2)[0], q)).toBe(true);
    expect(isFaithful(5 + 2 ** -50, q)).toBe(false);
    expect(isFaithful(5 - 2 ** -50, q)).toBe(false);
    // √2: both neighbours of the true value are faithful, the next ones not.
    const r = exactPairSq(new Float64Array([0, 0, -1, 0, 1, 1, 2, 2]), 2, 0);
    expect(isFaithful(Math.SQRT2, r)).toBe(true);
    expect(isFaithful(Math.SQRT2 + 2 * 2 ** -52, r)).toBe(false);
  });
});

describe('issue 19: nearly parallel overlapping segments (angle ≤ 1e-8), where the distance barely changes along the overlap', () => {
  // The certificate of the kernel's (s, t) cannot settle a clamped parameter's sign there; the
  // minimum is then the least of the four endpoint-to-segment distances (the boundary of the
  // parameter square), each certified on its own. Checked exactly, every way of asking.
  const cases: [2 | 3, number, number][] = [[3, 1, 200], [2, 1, 60], [2, 1e300, 60], [3, 1e300, 60]];
  cases.forEach(([dim, scale, n], c) => {
    const seed = SEED + 500 + c;
    it(`${dim}D at scale ${scale}, seed ${seed}`, () => {
      const pairs = faithfulPairs('nearParallel', dim, n, seed, { scale, angleHi: 1e-8 });
      const ways = allDistances(pairs, dim);
      for (let i = 0; i < n; i++) {
        const q = exactPairSq(pairs, dim, i);
        for (const w of ways) {
          const d = w.d(i);
          expect(isFaithful(d, q), `${w.name}, seed ${seed}, pair ${i}: ${d}`).toBe(true);
        }
      }
    });
  });
});

describe('issue 19: subnormal distances are faithful, and correctly rounded (the midpoints of the subnormal grid tested exactly)', () => {
  for (const dim of [2, 3] as const) {
    const seed = SEED + 600 + dim;
    it(`${dim}D, distances 1e-312 … 1e-308, seed ${seed}`, () => {
      const n = 150;
      const pairs = faithfulPairs('nearEndpoint', dim, n, seed, { scale: 1e-300, rhoLo: 1e-12, rhoHi: 1e-8 });
      const ways = allDistances(pairs, dim);
      let subnormal = 0;
      for (let i = 0; i < n; i++) {
        const q = exactPairSq(pairs, dim, i);
        for (const w of ways) {
          const d = w.d(i);
          // (A pair whose rounded coordinates touch has distance 0, exactly.)
          expect(d > 0, `${w.name}, seed ${seed}, pair ${i}: ${d} > 0`).toBe(q.num > 0n);
          expect(isFaithful(d, q), `${w.name}, seed ${seed}, pair ${i}: ${d}`).toBe(true);
          if (d < 2 ** -1022) subnormal++;
          // Correctly rounded where the midpoint test can tell (every pair of this seed).
          expect(ulpsOff(d, q), `${w.name}, seed ${seed}, pair ${i}: ${d} correctly rounded`).toBeLessThanOrEqual(0.5 + 1e-9);
        }
      }
      // (The family's distance is ρ times a size of about 1e-300: nearly all subnormal.)
      expect(subnormal).toBeGreaterThan((n * ways.length) / 2);
    });
  }
});

describe('issue 19: the cheap 3D certificate (faithfulSegSeg3) answers as faithfulSegSeg, bit for bit', () => {
  const sets: [string, Float64Array][] = [
    ['uniform, seed 1931', uniformPairs3(3000, 1931)],
    ['nearly parallel, seed 1932', nearlyParallelPairs3(3000, 1932)],
    ...FAITHFUL_FAMILIES.map((f, i): [string, Float64Array] => [`${f}, seed ${1933 + i}`, faithfulPairs(f, 3, 300, 1933 + i)]),
  ];
  for (const [name, data] of sets) {
    it(`${name}: the same certificate and the same distance on every pair`, () => {
      const st = new Float64Array(2);
      let certified = 0;
      for (let k = 0; k < data.length; k += 12) {
        closestSegSeg3(data, k, st, 0);
        FAITHFUL[0] = st[0];
        FAITHFUL[1] = st[1];
        FAITHFUL[2] = NaN;
        const ok3 = faithfulSegSeg3(data, k);
        const d3 = FAITHFUL[2];
        FAITHFUL[0] = st[0];
        FAITHFUL[1] = st[1];
        FAITHFUL[2] = NaN;
        expect(faithfulSegSeg(3, data, k), `${name}, pair ${k / 12}`).toBe(ok3);
        expect(Object.is(FAITHFUL[2], d3), `${name}, pair ${k / 12}: ${d3} vs ${FAITHFUL[2]}`).toBe(true);
        if (ok3) certified++;
      }
      // (closestSegSeg3 hands pairs within 64u of touching to exact arithmetic before this.)
      expect(certified).toBeGreaterThan(0.9 * (data.length / 12));
    });
  }
});

describe('issue 19: boundaryMin skips only endpoints certainly farther than its best', () => {
  it('lowerBounds never exceed the exact endpoint-to-segment distances (nearly parallel and faithful families, 2D and 3D, seed 1941)', () => {
    let positive = 0;
    let total = 0;
    for (const dim of [2, 3] as const) {
      const sets = [
        ...FAITHFUL_FAMILIES.map((f, i) => faithfulPairs(f, dim, 60, 1941 + i)),
        ...FAITHFUL_FAMILIES.map((f, i) => faithfulPairs(f, dim, 30, 1944 + i, { scale: 1e-140 })),
      ];
      if (dim === 3) sets.push(nearlyParallelPairs3(120, 1941));
      for (const pairs of sets) {
        for (let k = 0; k < pairs.length; k += 4 * dim) {
          const lb = lowerBounds(dim, pairs, k);
          const at = (q: number) => pairs.subarray(k + q * dim, k + (q + 1) * dim);
          for (let q = 0; q < 4; q++) {
            const other = q < 2 ? segment(at(2), at(3)) : segment(at(0), at(1));
            const exact = exactDistanceSq(point(at(q)), other);
            const l = ratFromDouble(lb[q]);
            total++;
            if (lb[q] > 0) positive++;
            expect(ratCmp(ratMul(l, l), exact) <= 0, `dim ${dim}, pair at ${k}, endpoint ${q}: ${lb[q]}`).toBe(true);
          }
        }
      }
    }
    expect(positive).toBeGreaterThan(total / 10);
  });
});
