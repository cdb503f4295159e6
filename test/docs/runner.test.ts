/** The doc-test runner itself: a wrong claim must fail, a loose one must be reported. */
import { describe, expect, it } from 'vitest';
import { fencedBlocks, instrument, looksLikeUncheckedClaim, mismatch, parseExpected } from '../support/doctest.js';

const m = (actual: unknown, text: string): string | null => mismatch(actual, parseExpected(text).value);

describe('doc-test runner', () => {
  it('matches numbers exactly, or by printed prefix with …', () => {
    expect(m(0.75, '0.75')).toBeNull();
    expect(m(0.7500000000000001, '0.75')).not.toBeNull();
    expect(m(0.46364760899863955, '0.463647608998…')).toBeNull();
    expect(m(0.46, '0.463647608998…')).not.toBeNull();
    expect(m(NaN, 'NaN')).toBeNull();
    expect(m(-Infinity, '-Infinity')).toBeNull();
  });
  it('compares objects whole unless … allows more keys', () => {
    expect(m({ hit: false, time: 1 }, "{ hit: false, time: 1 }")).toBeNull();
    expect(m({ hit: false, time: 1, p: [0] }, '{ hit: false, time: 1 }')).toMatch(/unexpected keys p/);
    expect(m({ hit: false, time: 1, p: [0] }, '{ hit: false, … }')).toBeNull();
    expect(m({ kind: 'point' }, "{ kind: 'overlap' }")).not.toBeNull();
  });
  it('compares arrays and typed arrays element by element', () => {
    expect(m(new Float64Array([1, 0, 0.5]), '[1, 0, 0.5]')).toBeNull();
    expect(m([1, 2, 3], '[1, 2]')).toMatch(/2 elements/);
    expect(m([1, 2, 3], '[1, …]')).toBeNull();
  });
  it('accepts a remark after the value and refuses other trailing text', () => {
    expect(parseExpected('true  — decided exactly').value).toEqual({ t: 'lit', v: true });
    expect(() => parseExpected('true, decided exactly')).toThrow(/unexpected text/);
  });
  it('reports comments that look like unchecked claims', () => {
    expect(looksLikeUncheckedClaim('r.c; // [1, 0, 0]')).toBe(true);
    expect(looksLikeUncheckedClaim('// { hit: true }')).toBe(true);
    expect(looksLikeUncheckedClaim('r.c; // → [1, 0, 0]')).toBe(false);
    expect(looksLikeUncheckedClaim('x = 1; // the nearest point')).toBe(false);
  });
  it('instruments a block: inline claims and claims on the next line', () => {
    const [b] = fencedBlocks("```ts\nimport { a } from 'skewline';\nf(1); // → 2\ng(2);\n// → [3]\n```\n");
    const { code, claims } = instrument(b, { main: 'M', parallel: 'P' });
    expect(claims.map((c) => [c.line, c.expr, c.text])).toEqual([[3, 'f(1)', '2'], [5, 'g(2)', '[3]']]);
    expect(code).toContain("from 'M'");
    expect(code).toContain('globalThis.__doc[0] = await (async () => (f(1)))();');
    expect(code).toContain('globalThis.__doc[1] = await (async () => (g(2)))();');
  });
});
