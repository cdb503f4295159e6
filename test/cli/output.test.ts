/**
 * The CLI's own guard against non-finite output (issue 19), on the formatters directly: whatever
 * the library returns, no output format writes Infinity or NaN (NDJSON would write null where
 * CSV writes Infinity); the row's field is named. End-to-end runs are in contract.test.ts, where
 * the library may report the overflow itself first.
 */
import { describe, expect, it } from 'vitest';
import type { ClosestResult } from '../../src/index.js';
import { csvFormatter, finiteResult, ndjsonFormatter, num } from '../../cli/output.js';
import { InputError } from '../../cli/rows.js';
import { mulberry32 } from '../support/rng.js';

const good: ClosestResult = {
  distance: 1, c: [0, 0], d: [0, 1], p: [0, 0.5], s: 0, t: 0, relation: 'apart', unique: true,
} as unknown as ClosestResult;

function formatters() {
  return [
    ['csv', csvFormatter({ width: undefined, name: undefined })],
    ['ndjson', ndjsonFormatter()],
  ] as const;
}

describe('issue 19: the formatters never write Infinity or NaN', () => {
  it('issue 19: a finite row is written, a non-finite one is an InputError naming the field (CSV and NDJSON)', () => {
    const cases: [Partial<ClosestResult>, string, string][] = [
      [{ distance: Infinity }, 'distance', 'distance'],
      [{ s: NaN }, 's', 's'],
      [{ c: [0, -Infinity] }, 'cy', 'c[1]'],
      [{ p: [NaN, 0] }, 'px', 'p[0]'],
    ];
    for (const [format, f] of formatters()) {
      expect(f.format(undefined, 2, good), format).not.toMatch(/Infinity|NaN|null/);
    }
    for (const [patch, csvName, jsonName] of cases) {
      for (const [format, f] of formatters()) {
        const bad = { ...good, ...patch } as ClosestResult;
        const field = format === 'csv' ? csvName : jsonName;
        let err: unknown;
        try {
          f.format(undefined, 2, bad);
        } catch (e) {
          err = e;
        }
        expect(err, `${format} ${JSON.stringify(patch)}`).toBeInstanceOf(InputError);
        expect((err as Error).message).toMatch(new RegExp(`^the result's ${field.replace(/[[\]]/g, '\\$&')} is (-?Infinity|NaN), which no output format holds`));
      }
    }
  });

  it("issue 19: sweep's check (finiteResult) names the field of any non-finite number", () => {
    expect(() => finiteResult({ time: 0.5, p: [0, 0], q: [1, 0], normal: [1, 0] }, true)).not.toThrow();
    expect(() => finiteResult({ time: 0.5, p: [0, 0], q: [-Infinity, 0], normal: [NaN, 0] }, true)).toThrow(/^the result's qx is -Infinity/);
    expect(() => finiteResult({ time: NaN, p: [0, 0] }, false)).toThrow(/^the result's time is NaN/);
    expect(() => finiteResult({ time: 0, normal: [1, NaN] }, false)).toThrow(/^the result's normal\[1\] is NaN/);
  });
});

describe('issue 16: the output numbers are the shortest round-trip text, byte for byte', () => {
  // The reference is ECMAScript's Number::toString (shortest digits that read back to the same
  // double, the nearest of those, exponent form outside 1e-7 ≤ |x| < 1e21) plus the sign of −0,
  // which JSON.stringify and String drop. Any faster formatting of num() must keep these.
  it('issue 16: num() equals String(x) (−0 as -0) and reads back to x, on extreme and seeded doubles (seed 1616)', () => {
    const extreme = [
      0, -0, 1, -1, 0.1, 0.5, 1e-7, 1e-7 * (1 - 2 ** -52), 1e-6, 1e21, 1e21 - 2 ** 17, 1e20, 1e308, -1e308,
      Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, 2.2250738585072014e-308, 2.225073858507201e-308,
      2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 2 ** 60, 2 ** 70 + 2 ** 18, 2 ** 66 + 2 ** 14, 5e-324, 1.7976931348623157e308,
      0.30000000000000004, 1 / 3, 2 / 3, Math.PI, Math.E, 4.35, 0.000001, 1e-300, 123.456, -0.0000001234,
    ];
    const rng = mulberry32(1616);
    const bits = new Float64Array(1);
    const words = new Uint32Array(bits.buffer);
    const seeded: number[] = [];
    for (let k = 0; k < 3000; k++) {
      if (k % 3 === 0) seeded.push((rng() - 0.5) * 300); // crossing-point-like coordinates
      else if (k % 3 === 1) seeded.push(rng()); // parameters s, t
      else {
        // any finite double: random bits, exponent field below 2047
        words[0] = Math.floor(rng() * 2 ** 32);
        words[1] = Math.floor(rng() * 2 ** 32) & 0xffefffff;
        seeded.push(bits[0]);
      }
    }
    const fails: string[] = [];
    for (const x of [...extreme, ...seeded]) {
      const text = num(x);
      const want = Object.is(x, -0) ? '-0' : String(x);
      if (text !== want) fails.push(`num(${want}) = ${text}`);
      if (!Object.is(Number(text), x)) fails.push(`${text} does not read back to ${want}`);
    }
    expect(fails).toEqual([]);
  });
});
