/** Bit-for-bit comparison of two chain searches' results, for the tests that check one search against another. */
import { expect } from 'vitest';
import type { ChainContacts } from '../../src/index.js';

/**
 * Expects `b` to hold `a`'s contacts bit for bit: the same count, and at every k the same i and
 * j and the same distance, s and t (Object.is: −0 and NaN told apart). Names the first contact
 * that differs, with both sides, under `label`.
 */
export function expectSameContacts(a: ChainContacts, b: ChainContacts, label: string): void {
  expect(b.count, label).toBe(a.count);
  for (let k = 0; k < a.count; k++) {
    if (a.i[k] !== b.i[k] || a.j[k] !== b.j[k] || !Object.is(a.distance[k], b.distance[k]) || !Object.is(a.s[k], b.s[k]) || !Object.is(a.t[k], b.t[k])) {
      throw new Error(`${label}: contact ${k} differs: (${b.i[k]}, ${b.j[k]}, ${b.distance[k]}, ${b.s[k]}, ${b.t[k]}) instead of (${a.i[k]}, ${a.j[k]}, ${a.distance[k]}, ${a.s[k]}, ${a.t[k]})`);
    }
  }
}
