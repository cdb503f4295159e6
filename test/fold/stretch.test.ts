/**
 * stretchChain against the dense exact reference (test/support/fold-oracle.ts: referenceStretch)
 * on seeded families (test/support/fold-families.ts: stretchCase), with the fold tests' checks:
 * the returned pose is contact-free (chainContacts, exact), never through the reference's first
 * contact, blocked exactly when the reference touches and then within 1e-9 (in length, the
 * chains being of unit size) of it, with a pair the reference finds touching first. Seeds are in
 * the test names and failure messages; SKEWLINE_LONG=1 runs ten times more.
 */
import { describe, expect, it } from 'vitest';
import { chainContacts, stretchChain, SkewlineInputError } from '../../src/index.js';
import { makeRng } from '../support/rng.js';
import { stretchCase } from '../support/fold-families.js';
import { referenceStretch } from '../support/fold-oracle.js';

const LONG = process.env.SKEWLINE_LONG === '1';

const FAMILIES: [string, number, number][] = [
  ['random2d', 30, 810_000],
  ['random3d', 30, 820_000],
  ['long', 30, 830_000],
  ['coil', 20, 840_000],
  ['curl', 60, 850_000],
];

describe('stretchChain against the dense exact reference', () => {
  for (const [family, count, base] of FAMILIES) {
    it(`${family}, seeds ${base}…${base + (LONG ? 10 : 1) * count - 1}`, () => {
      let worst = 0, blocked = 0;
      const n = (LONG ? 10 : 1) * count;
      for (let k = 0; k < n; k++) {
        const seed = base + k;
        const where = `${family} seed ${seed}`;
        const c = stretchCase(family, makeRng(seed));
        const input = c.flat.slice();
        const r = stretchChain(c.flat, { dim: c.dim, joint: c.joint, length: c.length, thickness: c.tau });
        expect(c.flat, where).toEqual(input);
        expect(chainContacts(r.points, { dim: c.dim, thickness: c.tau }).count, `${where}: returned pose in contact`).toBe(0);
        const ref = referenceStretch(c.flat, c.dim, c.joint, c.length, c.tau);
        let l0 = 0;
        for (let a = 0; a < c.dim; a++) l0 += (c.flat[(c.joint + 1) * c.dim + a] - c.flat[c.joint * c.dim + a]) ** 2;
        l0 = Math.sqrt(l0);
        const got = Math.abs(r.length - l0);
        if (ref.first === Infinity) {
          expect(r.blocked, `${where}: blocked by ${JSON.stringify(r.contact)}, the reference finds the path free`).toBe(false);
          expect(r.length).toBe(c.length);
          continue;
        }
        blocked++;
        expect(r.blocked, `${where}: not blocked; the reference touches at ${ref.first}`).toBe(true);
        expect(got, `${where}: through the first contact`).toBeLessThanOrEqual(ref.first + 1e-12);
        expect(ref.first - got, `${where}: gap`).toBeLessThanOrEqual(1e-9);
        worst = Math.max(worst, ref.first - got);
        const pair = ref.contacts.find((p) => p.i === r.contact!.i && p.j === r.contact!.j);
        expect(pair !== undefined && pair.at <= ref.first + 1e-9, `${where}: pair ${JSON.stringify(r.contact)}; the reference: ${JSON.stringify(ref.contacts.slice(0, 3))}`).toBe(true);
      }
      console.log(`stretch ${family}: ${n} stretches, ${blocked} blocked; worst gap to the reference ${worst.toExponential(2)}`);
    });
  }
});

describe('stretchChain: named cases', () => {
  it('shortening pulls the part beyond into a wall: blocked where its tip reaches it', () => {
    const r = stretchChain([[0, 2], [0, 0], [2, 0], [2, 1], [0.5, 1]], { joint: 1, length: 0.5 });
    expect(r.blocked).toBe(true);
    expect(r.contact).toEqual({ i: 0, j: 3 });
    expect(r.length - 1.5).toBeGreaterThanOrEqual(0);
    expect(r.length - 1.5).toBeLessThan(1e-10);
    expect(Array.isArray(r.points)).toBe(true);
  });

  it('lengthening: the segment grows into the part beyond it (seen from that part, it grows backwards)', () => {
    const r = stretchChain([[0, 0], [1, 0], [1, 1], [-1, 1], [-1, 0.05]], { joint: 0, length: 5, thickness: 0.1 });
    const want = 2 - Math.sqrt(0.0075);
    expect(r.contact).toEqual({ i: 0, j: 3 });
    expect(want - r.length).toBeGreaterThanOrEqual(0);
    expect(want - r.length).toBeLessThan(1e-10);
  });

  it('lengthening: the part beyond runs into the part before; shortening the same segment is free', () => {
    const chain = [[5, 0.05], [5, 3], [0, 3], [0, 0], [1, 0], [1, 1], [2, 1]];
    const r = stretchChain(chain, { joint: 3, length: 9, thickness: 0.1 });
    expect(r.contact).toEqual({ i: 0, j: 5 });
    expect(3.9 - r.length).toBeGreaterThanOrEqual(0);
    expect(3.9 - r.length).toBeLessThan(1e-10);
    expect(stretchChain(chain, { joint: 3, length: 0.25, thickness: 0.1 })).toMatchObject({ length: 0.25, blocked: false });
  });

  it('the same length returns the chain; flat input gives a Float64Array', () => {
    const flat = Float64Array.from([0, 0, 3, 4, 3, 5]);
    const r = stretchChain(flat, { dim: 2, joint: 0, length: 5 });
    expect(r).toMatchObject({ length: 5, blocked: false, contact: null });
    expect(r.points).toEqual(flat);
    expect(r.points).not.toBe(flat);
  });

  it('grazing: a moving vertex passes a fixed vertex at exactly the thickness; stopped within √(rounding) of it', () => {
    // the moving segment's end runs along y = 0 under the fixed vertex (3, 0.1) with thickness 0.1
    const r = stretchChain([[3, 5], [3, 0.1], [-2, 3], [-2, 0], [-1, 0], [0, 0]], { joint: 3, length: 10, thickness: 0.1 });
    expect(r.blocked).toBe(true);
    expect([{ i: 0, j: 4 }, { i: 1, j: 4 }]).toContainEqual(r.contact);
    expect(4 - r.length).toBeGreaterThanOrEqual(0);
    expect(4 - r.length).toBeLessThan(2e-6);
  });

  it('the last segment: only it moves; lengthening runs it into the chain, shortening is free', () => {
    const chain = [[0, 0], [0, 2], [2, 2], [2, 1], [1, 1]];
    const r = stretchChain(chain, { joint: 3, length: 3 });
    expect(r.contact).toEqual({ i: 0, j: 3 });
    expect(2 - r.length).toBeGreaterThanOrEqual(0);
    expect(2 - r.length).toBeLessThan(1e-10);
    expect(stretchChain(chain, { joint: 3, length: 0.5 })).toMatchObject({ length: 0.5, blocked: false });
  });

  it('rejects bad input with a SkewlineInputError naming it', () => {
    const c = [[0, 0], [1, 0], [1, 0], [1, 1]];
    const bad: [() => unknown, RegExp][] = [
      [() => stretchChain(c, { joint: 1, length: 2 }), /segment 1 has zero length/],
      [() => stretchChain(c, { joint: 3, length: 2 }), /segment index, an integer in \[0, 2\]/],
      [() => stretchChain(c, { joint: 0, length: 0 }), /length must be a finite number > 0/],
      [() => stretchChain(c, { joint: 0, length: Infinity }), /length/],
      [() => stretchChain([[0, 0], [2, 0], [1, 1], [1, -1]], { joint: 0, length: 1 }), /already in contact at the start: segments 0 and 2/],
    ];
    for (const [f, msg] of bad) {
      expect(f).toThrow(SkewlineInputError);
      expect(f).toThrow(msg);
    }
  });
});
