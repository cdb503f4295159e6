/**
 * crossing2, the chain search's fused 2D test, against the exact BigInt oracle
 * (test/support/exact-isect.ts): whatever it decides must be true — 1 only for a proper crossing
 * (one common point, interior to both), 0 only for disjoint segments — and its s, t are
 * closestSegSeg2's bit for bit. On seeded near-degenerate families and random pairs; the seeds
 * are in the labels.
 */
import { describe, expect, it } from 'vitest';
import { closestSegSeg2, crossing2, touchingParams2 } from '../../src/closest/segment-kernels.js';
import { ONE, ZERO, cmp, exactIsect, exactShares, family2D, FAMILIES_2D, nextDown, nextUp, rng, type Pair } from '../support/exact-isect.js';

const LONG = process.env.SKEWLINE_LONG === '1';
const N = LONG ? 20_000 : 2_000;

function check(pairs: Pair[]): { wrong: string[]; decided: number } {
  const A = new Float64Array(4), B = new Float64Array(4), Q = new Float64Array(8);
  const out = new Float64Array(2), want = new Float64Array(2);
  const wrong: string[] = [];
  let decided = 0;
  for (const p of pairs) {
    A.set([...p.a.p, ...p.a.r]);
    B.set([...p.b.p, ...p.b.r]);
    Q.set(A, 0);
    Q.set(B, 4);
    const c = crossing2(A, 0, B, 0, out);
    if (c === -1) continue;
    decided++;
    const x = exactIsect(p.a, p.b);
    if (c === 0 && exactShares(p.a, p.b)) wrong.push(`${p.label}: said apart, they share a point`);
    if (c === 1) {
      const proper = x.kind === 'point' && cmp(x.s, ZERO) > 0 && cmp(x.s, ONE) < 0 && cmp(x.t, ZERO) > 0 && cmp(x.t, ONE) < 0;
      if (!proper) wrong.push(`${p.label}: said crossing, exact ${x.kind}`);
      closestSegSeg2(Q, 0, want, 0);
      if (!Object.is(out[0], want[0]) || !Object.is(out[1], want[1])) wrong.push(`${p.label}: s, t (${out[0]}, ${out[1]}), kernel (${want[0]}, ${want[1]})`);
    }
  }
  return { wrong, decided };
}

/** Random pairs in a box, and pairs whose endpoints sit an ulp or two off the other's line. */
function randomPairs(seed: number, count: number): Pair[] {
  const r = rng(seed);
  const out: Pair[] = [];
  const seg = (p: number[], q: number[]) => ({ kind: 'segment' as const, p, r: q });
  for (let k = 0; k < count; k++) {
    const s = 10 ** Math.floor(r() * 8 - 4);
    const pt = (): number[] => [(r() * 2 - 1) * s, (r() * 2 - 1) * s];
    const a0 = pt(), a1 = pt();
    let b0 = pt();
    const b1 = pt();
    if (k % 3 === 1) {
      // b0 on a's line (rounded), nudged by an ulp: the certificates must not claim too much.
      const f = r();
      b0 = [a0[0] + f * (a1[0] - a0[0]), a0[1] + f * (a1[1] - a0[1])];
      const c = Math.floor(r() * 2);
      b0[c] = r() < 0.5 ? nextUp(b0[c]) : nextDown(b0[c]);
    }
    out.push({ a: seg(a0, a1), b: seg(b0, b1), label: `random#${seed}/${k}` });
  }
  return out;
}

describe('crossing2 (the fused 2D crossing test of the chain search)', () => {
  for (const fam of FAMILIES_2D) {
    it(`never decides wrong: ${fam} (seeds 31–33)`, () => {
      for (let seed = 31; seed < 34; seed++) {
        const { wrong } = check(family2D(fam, seed, N));
        expect(wrong.slice(0, 5), `${fam} seed ${seed}`).toEqual([]);
      }
    });
  }
  it('never decides wrong on random pairs and ulp-nudged near touches, and decides nearly all random ones (seeds 40–43)', () => {
    for (let seed = 40; seed < 44; seed++) {
      const pairs = randomPairs(seed, N);
      const { wrong, decided } = check(pairs);
      expect(wrong.slice(0, 5), `seed ${seed}`).toEqual([]);
      // Two thirds are generic pairs, which the doubles decide; the nudged third mostly not.
      expect(decided, `seed ${seed}`).toBeGreaterThan(0.6 * pairs.length);
    }
  });
  it('hands zero-length, parallel and touching pairs to the exact test', () => {
    const out = new Float64Array(2);
    const f = (a: number[], b: number[]): number => crossing2(Float64Array.from(a), 0, Float64Array.from(b), 0, out);
    expect(f([0, 0, 0, 0], [0, 0, 1, 1])).toBe(-1); // zero length
    expect(f([0, 0, 2, 0], [0, 1, 2, 1])).toBe(-1); // parallel
    expect(f([0, 0, 2, 0], [1, 0, 1, 1])).toBe(-1); // T-junction: touches at b0
    expect(f([0, 0, 2, 0], [1, -1, 1, 1])).toBe(1); // a proper crossing
    expect(Array.from(out)).toEqual([0.5, 0.5]);
    expect(f([0, 0, 2, 0], [3, -1, 3, 1])).toBe(0); // the lines cross beyond a's end
  });
});

describe('touchingParams2 (exact s, t of touching integer segments)', () => {
  it('gives closestSegSeg2’s s and t bit for bit where crossing2 cannot decide: touching or overlapping (seeds 50–53)', () => {
    const A = new Float64Array(4), B = new Float64Array(4), Q = new Float64Array(8);
    const out = new Float64Array(2), want = new Float64Array(2);
    let took = 0, collinear = 0;
    for (let seed = 50; seed < 54; seed++) {
      for (const fam of ['grid', 'gridCollinear', 'tJunction'] as const) {
        for (const p of family2D(fam, seed, N)) {
          A.set([...p.a.p, ...p.a.r]);
          B.set([...p.b.p, ...p.b.r]);
          if ((A[0] === A[2] && A[1] === A[3]) || (B[0] === B[2] && B[1] === B[3]) || !exactShares(p.a, p.b)) continue;
          // The chain search asks only where the fused test cannot decide (a certified proper
          // crossing takes crossing2's numbers, with t projected from s).
          if (crossing2(A, 0, B, 0, out) !== -1) continue;
          Q.set(A, 0);
          Q.set(B, 4);
          const ints = [...A, ...B].every((x) => Number.isInteger(x) && Math.abs(x) <= 2 ** 24);
          expect(touchingParams2(A, 0, B, 0, out), `${p.label} (seed ${seed})`).toBe(ints);
          if (!ints) continue;
          closestSegSeg2(Q, 0, want, 0);
          expect([out[0], out[1]], `${p.label} (seed ${seed})`).toEqual([want[0], want[1]]);
          expect(Object.is(out[0], want[0]) && Object.is(out[1], want[1]), `${p.label}: signed zeros`).toBe(true);
          took++;
          if ((A[2] - A[0]) * (B[3] - B[1]) === (A[3] - A[1]) * (B[2] - B[0])) collinear++;
        }
      }
    }
    expect(took).toBeGreaterThan(500);
    expect(collinear).toBeGreaterThan(200);
  });
  it('declines coordinates that are not small integers', () => {
    const out = new Float64Array(2);
    expect(touchingParams2(Float64Array.of(0, 0, 2, 0), 0, Float64Array.of(1, -1, 1, 0.5), 0, out)).toBe(false);
    expect(touchingParams2(Float64Array.of(0, 0, 2 ** 25, 0), 0, Float64Array.of(1, -1, 1, 1), 0, out)).toBe(false);
    expect(touchingParams2(Float64Array.of(0, 0, 4, 0), 0, Float64Array.of(1, 0, 6, 0), 0, out)).toBe(true);
    expect(Array.from(out)).toEqual([0.625, 0.3]); // the shared piece [1, 4]: middle 2.5
  });
});
