// The fused n-D path (kernel-nd.ts closestNdFast, issue 16: the public n-D functions in linear
// time) and intersects' one-pass filter (linesApartNd), against the exact BigInt oracle. Every
// case is seeded; the seed and the case index are in the failure message.
import { describe, expect, it } from 'vitest';
import { closestPoints, createClosestResult, segmentDistance } from '../../src/closest/closest.js';
import { FAST_DECLINED, FAST_DONE, FAST_NOT_FINITE, FAST_SQ, closestNdFast, linesApartNd } from '../../src/closest/kernel-nd.js';
import { SkewlineInputError, line, segment } from '../../src/core/primitives.js';
import type { Primitive } from '../../src/core/types.js';
import { intersects } from '../../src/intersect/intersects.js';
import { exactClosest, measure, ratSqrtToNumber, ratToNumber } from '../support/oracle.js';
import { mulberry32 } from '../support/rng.js';
import { CODE, faithful, KINDS, make, ndCase } from '../support/nd-kinds.js';

/** closestNdFast on the primitives' own arrays (as closestPoints calls it). */
function fast(a: Primitive, b: Primitive, out: Float64Array): number {
  return closestNdFast(CODE[a.kind], CODE[b.kind], a.dim, a.p0, 0, a.kind === 'ray' ? a.dir : a.p1, 0, b.p0, 0, b.kind === 'ray' ? b.dir : b.p1, 0, out, true);
}

describe('issue 16: the fused n-D path (two passes, faithful, certified)', () => {
  for (const dim of [4, 9, 200]) {
    const seed = 16_400 + dim;
    it(`issue 16: the fused path answers general-position pairs of every kind, faithful against the oracle (seed=${seed})`, () => {
      const rng = mulberry32(seed);
      const fails: string[] = [];
      let done = 0;
      let total = 0;
      const out = new Float64Array(8 + dim);
      for (let k = 0; k < 240; k++) {
        const { a, b, ka, kb, family } = ndCase(rng, dim, k);
        const where = `seed=${seed} case ${k} ${ka}–${kb} family ${family}`;
        const code = fast(a, b, out);
        total++;
        if (code !== FAST_DONE) continue;
        done++;
        const ex = exactClosest(a, b);
        const exact = ratSqrtToNumber(ex.distSq);
        if (!faithful(out[2], exact)) fails.push(`${where}: distance ${out[2]}, exact ${exact}`);
        if (out[3] !== 0 || out[4] !== 0) fails.push(`${where}: relation ${out[3]}, flags ${out[4]} (apart, unique expected)`);
        const exSq = ratToNumber(ex.distSq);
        if (!(Math.abs(FAST_SQ[0] - exSq) <= 4 * 2 ** -53 * exSq)) fails.push(`${where}: d² ${FAST_SQ[0]}, exact ${exSq}`);
        const r = closestPoints(a, b, createClosestResult(dim));
        if (r.distance !== out[2] || r.s !== out[0] || r.t !== out[1]) fails.push(`${where}: closestPoints differs from the kernel`);
        const m = measure(a, b, r);
        if (!(m.cOnAPrime <= 8 && m.dOnBPrime <= 8 && m.cdPrime <= 16)) fails.push(`${where}: c off a ${m.cOnAPrime}, d off b ${m.dOnBPrime}, |c − d| off ${m.cdPrime} u·M'`);
        // d − c from the residual: within 2⁻⁴⁰ of the distance of the exact d − c.
        let err = 0;
        for (let i = 0; i < dim; i++) {
          const x = ex.d[i];
          const y = ex.c[i];
          err = Math.max(err, Math.abs(out[5 + i] - ratToNumber({ num: x.num * y.den - y.num * x.den, den: x.den * y.den })));
        }
        if (!(err <= 2 ** -40 * exact)) fails.push(`${where}: d − c off by ${err} (distance ${exact})`);
      }
      expect(fails).toEqual([]);
      // The common case is the fused one (the speed of the public functions rests on it).
      expect(done, `seed=${seed}: the fused path answered ${done} of ${total}`).toBeGreaterThanOrEqual(0.9 * total);
    });
  }

  it('issue 16: the fused path declines what it cannot certify (touching, nearly parallel, zero length, out of range) and the general path answers (seed=16410)', () => {
    const rng = mulberry32(16_410);
    const dim = 6;
    const out = new Float64Array(8 + dim);
    const v = (s = 1): number[] => Array.from({ length: dim }, () => (rng() * 2 - 1) * s);
    const a0 = v();
    const a1 = v();
    const mid = a0.map((x, i) => x + (a1[i] - x) / 2);
    const d = v();
    const declined: [string, Primitive, Primitive][] = [
      ['crossing', segment(a0, a1), segment(mid.map((x, i) => x - d[i]), mid.map((x, i) => x + d[i]))],
      ['touching at an end', segment(a0, a1), segment(a1, v())],
      ['nearly parallel', segment(a0, a1), segment(d, d.map((x, i) => x + (a1[i] - a0[i]) * (1 + 2 ** -40)))],
      ['exactly parallel', line(a0, a1), line(d, d.map((x, i) => x + 2 * (a1[i] - a0[i])))],
      ['zero length', segment(a0, a0), segment(v(), v())],
      ['sums of squares above 2³⁰⁰', segment(v(2 ** 200), v(2 ** 200)), segment(v(2 ** 200), v(2 ** 200))],
      ['sums of squares below 2⁻³⁰⁰', segment(v(2 ** -200), v(2 ** -200)), segment(v(2 ** -200), v(2 ** -200))],
    ];
    for (const [label, a, b] of declined) {
      expect(fast(a, b, out), label).toBe(FAST_DECLINED);
      const r = closestPoints(a, b);
      const exact = ratSqrtToNumber(exactClosest(a, b).distSq);
      expect(faithful(r.distance, exact), `${label}: ${r.distance} vs ${exact}`).toBe(true);
    }
  });

  it('issue 16: non-finite coordinates still get a SkewlineInputError in n-D (closestPoints, segmentDistance, intersects)', () => {
    const a = segment([0, 0, 0, 0, 0], [1, 2, 3, 4, 5]);
    const b = segment([1, 0, 0, 0, 0], [0, 2, 3, 4, 9]);
    const out = new Float64Array(16);
    // Primitives are frozen, but their typed arrays can still be written: the checks must see it.
    (b.p1 as Float64Array)[3] = NaN;
    expect(fast(a, b, out)).toBe(FAST_NOT_FINITE);
    expect(() => closestPoints(a, b)).toThrow(SkewlineInputError);
    expect(() => closestPoints(a, b, createClosestResult(5))).toThrow(/p1\[3\] = NaN is not finite/);
    expect(() => intersects(a, b)).toThrow(/b\.p1\[3\] is not finite/);
    (b.p1 as Float64Array)[3] = Infinity;
    expect(() => intersects(b, a)).toThrow(/a\.p1\[3\] is not finite/);
    const p = [0, 1, 2, 3, 4];
    expect(() => segmentDistance(p, [1, 2, 3, Infinity, 5], p, [4, 3, 2, 1, 0])).toThrow(/segment p1\[3\] is not finite/);
    expect(() => segmentDistance(p, [1, 2, 3, '4', 5] as unknown as number[], p, [4, 3, 2, 1, 0])).toThrow(/segment p1\[3\] is not a number/);
    expect(() => segmentDistance(new Float64Array([0, 1, 2, NaN, 4]), p, p, p)).toThrow(/segment p0\[3\] is not finite/);
  });

  it('issue 16: segmentDistance from plain arrays, Float64Arrays and a mix gives the same faithful distance (seed=16420)', () => {
    const rng = mulberry32(16_420);
    for (const dim of [4, 50, 1000]) {
      const v = (): number[] => Array.from({ length: dim }, () => rng() * 2 - 1);
      const [a0, a1, b0, b1] = [v(), v(), v(), v()];
      const plain = segmentDistance(a0, a1, b0, b1);
      const typed = segmentDistance(Float64Array.from(a0), Float64Array.from(a1), Float64Array.from(b0), Float64Array.from(b1));
      const mixed = segmentDistance(a0, Float64Array.from(a1), b0, Float64Array.from(b1));
      const exact = ratSqrtToNumber(exactClosest(segment(a0, a1), segment(b0, b1)).distSq);
      expect(faithful(plain, exact), `seed=16420 dim ${dim}`).toBe(true);
      expect(typed).toBe(plain);
      expect(mixed).toBe(plain);
    }
  });
});

describe('issue 16: the fused path over one scratch array (kernel-nd.ts FLAT)', () => {
  it('issue 16: one scratch for every call — rays read zeros that a larger call never wrote, and kernel.ts\'s flat layout at an offset gives the same answer (seed=16440)', () => {
    // The fused passes copy the four vectors into one module array (a0, a1, b0, b1 at 0, dim,
    // 2·dim, 3·dim; the residual at 4·dim), and a ray's "first point" of u = a1 − 0 is read from
    // that array's last dim entries, which must stay zero whatever dimensions came before. Calls
    // alternate between large and small dimensions and every kind; each answer is checked
    // against the oracle (faithful distance), and closestFlat on a data array at an offset (read
    // in place, no copy) must give the same s, t and distance as closestPoints.
    const rng = mulberry32(16_440);
    const fails: string[] = [];
    let done = 0;
    const dims = [1000, 5, 64, 4, 333, 7, 1000, 6];
    for (let k = 0; k < 96; k++) {
      const dim = dims[k % dims.length];
      const ka = KINDS[(k >> 1) % 4];
      const kb = KINDS[(k >> 3) % 4];
      const v = (): number[] => Array.from({ length: dim }, () => rng() * 2 - 1);
      const a = make(ka, v(), v());
      const b = make(kb, v(), v());
      const where = `seed=16440 case ${k} ${ka}–${kb} dim ${dim}`;
      const r = closestPoints(a, b);
      const exact = ratSqrtToNumber(exactClosest(a, b).distSq);
      if (!faithful(r.distance, exact)) fails.push(`${where}: distance ${r.distance}, exact ${exact}`);
      // The same pair on kernel.ts's flat layout, 7 numbers into a larger array.
      const off = 7;
      const data = new Float64Array(off + 4 * dim + 3).fill(Number.NaN);
      data.set(a.p0, off);
      data.set(a.kind === 'ray' ? a.dir : a.p1, off + dim);
      data.set(b.p0, off + 2 * dim);
      data.set(b.kind === 'ray' ? b.dir : b.p1, off + 3 * dim);
      const out = new Float64Array(8 + dim);
      const code = closestNdFast(CODE[ka], CODE[kb], dim, data, off, data, off + dim, data, off + 2 * dim, data, off + 3 * dim, out, true);
      if (code === FAST_DONE) {
        done++;
        if (out[0] !== r.s || out[1] !== r.t || out[2] !== r.distance) fails.push(`${where}: flat layout s ${out[0]}, t ${out[1]}, distance ${out[2]}; closestPoints ${r.s}, ${r.t}, ${r.distance}`);
        for (let i = 0; i < dim; i++) {
          if (!(Math.abs(out[5 + i] - r.vector[i]) <= 2 ** -40 * exact)) {
            fails.push(`${where}: d − c[${i}] ${out[5 + i]} vs ${r.vector[i]}`);
            break;
          }
        }
      }
    }
    expect(fails).toEqual([]);
    expect(done, 'seed=16440: the fused path answered').toBeGreaterThanOrEqual(80);
  });
});

describe('issue 16: intersects in n-D, one pass where the lines are apart', () => {
  it('issue 16: linesApartNd never calls meeting primitives apart, and intersects agrees with the oracle (seed=16430)', () => {
    const rng = mulberry32(16_430);
    const fails: string[] = [];
    let apart = 0;
    for (let k = 0; k < 400; k++) {
      const dim = 4 + (k % 5) * 3;
      const ka = KINDS[k % 4];
      const kb = KINDS[(k >> 2) % 4];
      const ints = (): number[] => Array.from({ length: dim }, () => Math.floor(rng() * 21) - 10);
      const v = (): number[] => Array.from({ length: dim }, () => rng() * 2 - 1);
      const family = (k >> 4) % 4;
      const a0 = family === 0 ? v() : ints();
      const a1 = family === 0 ? v() : ints();
      let b0: number[];
      let b1: number[];
      if (family === 0) {
        b0 = v();
        b1 = v();
      } else if (family === 1) {
        // b through a's midpoint (exact: halves of small integers).
        const mid = a0.map((x, i) => x + (a1[i] - x) / 2);
        const d = ints();
        b0 = mid.map((x, i) => x - d[i]);
        b1 = mid.map((x, i) => x + d[i]);
      } else if (family === 2) {
        // Lines 2⁻⁴⁰ apart at a's midpoint: apart, but far below the filter's reach.
        const mid = a0.map((x, i) => x + (a1[i] - x) / 2 + (i === 0 ? 2 ** -40 : 0));
        const d = ints();
        b0 = mid.map((x, i) => x - d[i]);
        b1 = mid.map((x, i) => x + d[i]);
      } else {
        b0 = a1;
        b1 = ints();
      }
      const a = make(ka, a0, a1.every((x, i) => x === a0[i]) ? a1.map((x) => x + 1) : a1);
      const b = make(kb, b0, b1.every((x, i) => x === b0[i]) ? b1.map((x) => x + 1) : b1);
      const shares = exactClosest(a, b).distSq.num === 0n;
      const where = `seed=16430 case ${k} ${ka}–${kb} family ${family} dim ${dim}`;
      const code = linesApartNd(CODE[a.kind], CODE[b.kind], dim, a.p0, a.kind === 'ray' ? a.dir : a.p1, b.p0, b.kind === 'ray' ? b.dir : b.p1);
      if (code === FAST_DONE) {
        apart++;
        if (shares) fails.push(`${where}: the filter said apart, but they share a point`);
      }
      if (intersects(a, b) !== shares) fails.push(`${where}: intersects ${!shares}, oracle ${shares}`);
    }
    expect(fails).toEqual([]);
    expect(apart).toBeGreaterThan(50); // general-position pairs (family 0) are answered in one pass
  });
});
