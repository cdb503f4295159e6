/**
 * Issue 16: writeShortest (cli/shortest.ts), the GeoJSON writer's number formatting, writes
 * exactly String(x)'s text (−0 as -0) for every double: the extremes of each of its paths and
 * seeded doubles of every kind, checked against String(x) itself (V8's shortest round-trip).
 * SKEWLINE_LONG=1 checks 25× as many.
 */
import { describe, expect, it } from 'vitest';
import { writeShortest } from '../../cli/shortest.js';
import { mulberry32, nextDown, nextUp } from '../support/rng.js';

const LONG = process.env.SKEWLINE_LONG === '1';
const buf = Buffer.alloc(64);

/** The differences between writeShortest and String(x) over xs (at most 20 listed). */
function differences(xs: Iterable<number>): string[] {
  const fails: string[] = [];
  for (const x of xs) {
    buf.fill(0x7e);
    const end = writeShortest(buf, 3, x);
    const got = buf.toString('latin1', 3, end);
    const want = Object.is(x, -0) ? '-0' : String(x);
    if (got !== want || buf[2] !== 0x7e) {
      if (fails.length < 20) fails.push(`${want} written as ${got}`);
    }
  }
  return fails;
}

describe('issue 16: numbers written as bytes are String(x), byte for byte', () => {
  it('issue 16: writeShortest equals String(x) at the extremes: ±0, subnormals, 1e-7 and 1e-6, 1e15, 2^53, 1e21, MAX_VALUE, powers of two and ten and their neighbours', () => {
    const xs: number[] = [0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, 2.2250738585072014e-308, 2.225073858507201e-308, Number.MAX_VALUE, -Number.MAX_VALUE,
      1e-7, 1e-6, 1e15, 1e21, 2 ** 53, 2 ** 53 + 2, 2 ** 52 + 0.5, 0.1, 0.2, 0.30000000000000004, 1 / 3, 2 / 3, Math.PI, 5e-324, 123.456, 9007199254740991, -9007199254740991];
    for (let e = -1074; e <= 1023; e++) xs.push(2 ** e, -(2 ** e));
    for (let e = -323; e <= 308; e++) xs.push(Number(`1e${e}`), Number(`9.999999999999999e${e}`), Number(`1.0000000000000002e${e}`), Number(`5e${e}`));
    for (const x of [...xs]) if (x !== 0 && Number.isFinite(x)) xs.push(nextUp(x), nextDown(x));
    expect(differences(xs)).toEqual([]);
  });

  it(`issue 16: writeShortest equals String(x) on ${LONG ? '5,000,000' : '200,000'} seeded doubles of each kind (seed 1618): coordinates, parameters, short decimals, any bits, integers`, () => {
    const n = LONG ? 5_000_000 : 200_000;
    const rng = mulberry32(1618);
    const bits = new Float64Array(1);
    const words = new Uint32Array(bits.buffer);
    const full = (): number => rng() + rng() * 2 ** -32; // 53 random bits
    const kinds: [string, () => number][] = [
      ['crossing-point coordinates', () => (full() - 0.5) * 300],
      ['parameters in (0, 1)', () => full()],
      ['any scale', () => (full() - 0.5) * 10 ** Math.floor(rng() * 40 - 12)],
      ['short decimals', () => Number((full() * 10 ** Math.floor(rng() * 20 - 6)).toPrecision(1 + Math.floor(rng() * 17)))],
      ['dyadic', () => Math.floor(rng() * 2 ** 30) / 2 ** Math.floor(rng() * 60)],
      ['any bits', () => {
        words[0] = Math.floor(rng() * 2 ** 32);
        words[1] = Math.floor(rng() * 2 ** 32) & 0xffefffff; // finite
        return bits[0];
      }],
      ['integers', () => Math.floor(full() * 2 ** Math.floor(rng() * 70))],
    ];
    for (const [name, make] of kinds) {
      const xs = new Float64Array(n);
      for (let k = 0; k < n; k++) xs[k] = make();
      expect(differences(xs), name).toEqual([]);
    }
  });
});
