/** The allocation-free neighbouring doubles of src/motion/ulp.ts against BigInt stepping of the bit pattern. */
import { describe, expect, it } from 'vitest';
import { NEIGHBOUR_MIN, PRED, SUCC, nextDown, nextUp } from '../../src/motion/ulp.js';
import { mulberry32 } from '../support/rng.js';

const b = new Float64Array(1);
const i = new BigInt64Array(b.buffer);
const ref = (x: number, k: bigint): number => {
  b[0] = x;
  i[0] += k;
  return b[0];
};

describe('nextUp / nextDown', () => {
  it('step one ulp across word and exponent boundaries, subnormals and signs (seed 9950)', () => {
    const rng = mulberry32(9950);
    const xs = [1, 0.5, 1 - 2 ** -53, 2 ** -1022, 5e-324, 2 ** -1074 * 4294967295, 2 ** -1074 * 4294967296, 4294967296, 1e300];
    for (let k = 0; k < 1000; k++) xs.push(rng() * 2 ** (Math.floor(rng() * 200) - 100));
    for (const x of xs) {
      expect(nextUp(x), String(x)).toBe(ref(x, 1n));
      expect(nextDown(x), String(x)).toBe(ref(x, -1n));
      expect(nextUp(-x), String(-x)).toBe(ref(-x, -1n));
      expect(nextDown(-x), String(-x)).toBe(ref(-x, 1n));
    }
    expect(nextUp(0)).toBe(5e-324);
    expect(nextDown(0)).toBe(-5e-324);
  });

  it('issue 16: x − x·PRED and x + x·SUCC are the neighbouring doubles for every x ≥ NEIGHBOUR_MIN (powers of two, their neighbours, random mantissas; seed 9951)', () => {
    const rng = mulberry32(9951);
    const xs: number[] = [];
    for (let e = Math.log2(NEIGHBOUR_MIN); e <= 1020; e++) {
      const p = 2 ** e;
      xs.push(p, ref(p, 1n), ref(p, -1n), p * 1.5, ref(2 * p, -1n));
    }
    for (let k = 0; k < 20000; k++) xs.push((1 + rng()) * 2 ** (Math.floor(rng() * 1980) - 960));
    let bad = 0;
    for (const x of xs) {
      if (!(x >= NEIGHBOUR_MIN) || x === Infinity) continue;
      if (x - x * PRED !== ref(x, -1n) || (x < 1.7e308 && x + x * SUCC !== ref(x, 1n))) bad++;
    }
    expect(bad, 'seed 9951').toBe(0);
  });
});
