/** The allocation-free neighbouring doubles of src/motion/ulp.ts against BigInt stepping of the bit pattern. */
import { describe, expect, it } from 'vitest';
import { nextDown, nextUp } from '../../src/motion/ulp.js';
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
});
