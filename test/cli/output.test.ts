/**
 * The CLI's own guard against non-finite output (issue 19), on the formatters directly: whatever
 * the library returns, no output format writes Infinity or NaN (NDJSON would write null where
 * CSV writes Infinity); the row's field is named. End-to-end runs are in contract.test.ts, where
 * the library may report the overflow itself first.
 */
import { describe, expect, it } from 'vitest';
import type { ClosestResult } from '../../src/index.js';
import { csvFormatter, finiteResult, ndjsonFormatter } from '../../cli/output.js';
import { InputError } from '../../cli/rows.js';

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
