/**
 * The block grid of the one-chain 3D search (src/chain/blocks3.ts): its leaf pairs against an
 * all-pairs scan of the leaf boxes with the hierarchy's test, and chainContacts through it
 * against the exact brute force (test/support/chain-oracle.ts) and bit for bit against the
 * hierarchy. Families: random walks, a dense clump, collinear runs back and forth, huge and
 * tiny coordinates, far from the origin, thickness 0.
 */
import { describe, expect, it } from 'vitest';
import { SkewlineInputError, chainContacts } from '../../src/index.js';
import { blockBoxes3, blockPairList, blockPairs3 } from '../../src/chain/blocks3.js';
import { foldsBack } from '../../src/chain/narrow.js';
import { searchMode } from '../../src/chain/contacts.js';
import { LEAF, leafCount, segmentLeafBoxes3 } from '../../src/chain/tree.js';
import { bruteContacts } from '../support/chain-oracle.js';
import { makeRng } from '../support/rng.js';
import type { Rng } from '../support/rng.js';
import { gridWalk, randomWalk } from '../support/walks.js';

/** A walk of n unit steps kept in a ball of radius R (a step leaving it is reversed): a dense clump. */
function clump(n: number, R: number, rng: Rng): Float64Array {
  const P = new Float64Array(3 * (n + 1));
  for (let k = 1; k <= n; k++) {
    const u = rng.unitVector(3);
    const o = 3 * k - 3;
    const out = Math.hypot(P[o] + u[0], P[o + 1] + u[1], P[o + 2] + u[2]) > R ? -1 : 1;
    for (let c = 0; c < 3; c++) P[o + 3 + c] = P[o + c] + out * u[c];
  }
  return P;
}

/** A chain running back and forth along one line (runs of collinear segments that overlap), with a sideways step now and then. */
function collinearRuns(n: number, rng: Rng): Float64Array {
  const P = new Float64Array(3 * (n + 1));
  let dir = 1;
  for (let k = 1; k <= n; k++) {
    const o = 3 * k;
    if (rng.uniform(0, 1) < 0.1) dir = -dir;
    const side = rng.uniform(0, 1) < 0.05;
    P[o] = P[o - 3] + (side ? 0 : dir * rng.uniform(0.5, 1.5));
    P[o + 1] = P[o - 2] + (side ? rng.uniform(-0.3, 0.3) : 0);
    P[o + 2] = P[o - 1] + (side ? rng.uniform(-0.3, 0.3) : 0);
  }
  return P;
}

/**
 * A comb: 8 segments along the x-axis (block 0), then the chain crosses the axis up and down
 * `teeth` times (pairs of vertical segments 0.08 apart), and every third tooth its top run
 * overshoots and folds back. Block 0 then holds the lower segment of about 2·teeth contacts
 * at thickness 0.05, and fold-backs lie all along the chain.
 */
function comb(teeth: number): Float64Array {
  const v: number[] = [];
  for (let k = 0; k <= 8; k++) v.push(k, 0, 0);
  let x = 7.95;
  for (let k = 0; k < teeth; k++, x -= 0.16) {
    v.push(x, 0, 1, x, 0, -1, x - 0.08, 0, -1, x - 0.08, 0, 1);
    if (k % 3 === 2) v.push(x - 0.2, 0, 1); // overshoot: the next segment folds back
  }
  return Float64Array.from(v);
}

const scaled = (P: Float64Array, s: number, shift = 0): Float64Array => P.map((x, k) => x * s + (k % 3 === 2 ? -shift : shift));

/** The families: name, chain, and the thicknesses to try (in the chain's units). */
function families(rng: Rng): [string, Float64Array, number[]][] {
  return [
    ['random walk', randomWalk(1200, 3, rng), [0, 0.2, 1]],
    ['dense clump', clump(800, 6, rng), [0, 0.05, 0.3]],
    ['crowded clump (the grid declines: too many block pairs per cell)', clump(800, 2.5, rng), [0, 0.3]],
    ['collinear runs', collinearRuns(900, rng), [0, 0.1]],
    ['integer-grid walk', gridWalk(1200, 3, rng), [0, 0.5, 1]],
    ['tiny (1e-200)', scaled(randomWalk(800, 3, rng), 1e-200), [0, 2e-201]],
    ['huge (1e200)', scaled(randomWalk(800, 3, rng), 1e200), [0, 3e199]],
    ['far from the origin (1e9)', scaled(randomWalk(800, 3, rng), 1, 1e9), [0, 0.2]],
  ];
}

/** The leaf pairs qa < qb whose boxes pass the hierarchy's test, by scanning all pairs. */
function allLeafPairs(L: Float64Array, n: number, tau: number): string[] {
  const out: string[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      let near = true;
      for (let k = 0; k < 3; k++) if (L[6 * b + k] - L[6 * a + 3 + k] > tau || L[6 * a + k] - L[6 * b + 3 + k] > tau) near = false;
      if (near) out.push(`${a},${b}`);
    }
  }
  return out;
}

/** Runs chainContacts with the given broad phase and copies the result (the arrays are views of reused memory only in parallel shares, but be safe). */
function search(mode: 'auto' | 'tree', P: Float64Array, tau: number, closed = false): { keys: string[]; nums: number[]; last: string } {
  try {
    searchMode.broad = mode;
    const r = chainContacts(P, { dim: 3, thickness: tau, closed });
    const keys: string[] = [], nums: number[] = [];
    for (let k = 0; k < r.count; k++) {
      keys.push(`${r.i[k]},${r.j[k]}`);
      nums.push(r.distance[k], r.s[k], r.t[k]);
    }
    return { keys, nums, last: searchMode.last };
  } finally {
    searchMode.broad = 'auto';
  }
}

describe('the block grid over the leaves (blocks3.ts)', () => {
  it('issue 16: blockPairs3 lists exactly the leaf pairs an all-pairs scan finds, each once (seeds 1640–1642)', () => {
    let declined = 0;
    for (let seed = 1640; seed < 1643; seed++) {
      const rng = makeRng(seed);
      for (const [name, P, taus] of families(rng)) {
        const m = P.length / 3 - 1, n = leafCount(m);
        const seg = new Float64Array(6 * m), L = new Float64Array(6 * n);
        segmentLeafBoxes3(P, m, seg, L);
        for (const tau of taus) {
          const label = `seed ${seed}, ${name}, thickness ${tau}`;
          const np = blockPairs3(L, n, tau);
          if (name.startsWith('crowded') && np === -1) {
            declined++;
            continue;
          }
          expect(np, `${label}: the grid was used`).toBeGreaterThan(0);
          const list = blockPairList();
          const got: string[] = [];
          for (let k = 0; k < np; k++) {
            expect(list[2 * k], label).toBeLessThan(list[2 * k + 1]);
            got.push(`${list[2 * k]},${list[2 * k + 1]}`);
          }
          const want = allLeafPairs(L, n, tau);
          expect(new Set(got).size, `${label}: no pair twice`).toBe(got.length);
          expect(got.sort(), label).toEqual(want.sort());
        }
      }
    }
    expect(declined, 'the crowded clump made the grid decline at least once').toBeGreaterThan(0);
  });

  it('issue 16: blockBoxes3 gives segmentLeafBoxes3’s block boxes and lists every fold-back turn (seed 1648)', () => {
    const rng = makeRng(1648);
    for (const [name, P] of families(rng)) {
      const m = P.length / 3 - 1, n = leafCount(m);
      const seg = new Float64Array(6 * m), want = new Float64Array(6 * n), got = new Float64Array(6 * n), folds = new Int32Array(m);
      segmentLeafBoxes3(P, m, seg, want);
      const nf = blockBoxes3(P, m, got, folds);
      expect(Array.from(got), name).toEqual(Array.from(want));
      const listed = new Set(folds.subarray(0, nf));
      let turns = 0;
      for (let c = 0; c + 1 < m; c++) {
        if (!foldsBack(P, 3, c, c + 1, c + 2)) continue;
        turns++;
        expect(listed.has(c), `${name}: fold-back at turn ${c}`).toBe(true);
      }
      if (name === 'collinear runs') expect(turns, 'the collinear runs fold back').toBeGreaterThan(10);
    }
  });

  it('issue 16: blockBoxes3 forms minima and maxima by selects: on coordinates of ±0 its boxes equal segmentLeafBoxes3’s up to the sign of a zero, and the contacts are the hierarchy’s bit for bit (seed 1650)', () => {
    const rng = makeRng(1650);
    // An integer-grid walk with every zero given a random sign: boxes whose sides are ±0.
    const P = gridWalk(400, 3, rng).map((x) => (x === 0 && rng.uniform(0, 1) < 0.5 ? -0 : x));
    expect(P.some((x) => Object.is(x, -0)) && P.some((x) => Object.is(x, 0))).toBe(true);
    const m = P.length / 3 - 1, n = leafCount(m);
    const want = new Float64Array(6 * n), got = new Float64Array(6 * n);
    segmentLeafBoxes3(P, m, new Float64Array(6 * m), want);
    expect(blockBoxes3(P, m, got, new Int32Array(m))).toBeGreaterThanOrEqual(0);
    for (let k = 0; k < 6 * n; k++) expect(got[k] === want[k], `box number ${k}`).toBe(true);
    for (const tau of [0, 0.5, 1]) {
      const auto = search('auto', P, tau), tree = search('tree', P, tau);
      expect(auto.last).toBe('blocks');
      expect(auto.keys, `thickness ${tau}`).toEqual(tree.keys);
      expect(auto.nums.every((x, k) => Object.is(x, tree.nums[k])), `thickness ${tau}: distance, s and t bit for bit`).toBe(true);
    }
  });

  it('issue 16: blockPairs3 declines (−1) where τ/2 or the extent overflows, and where the grid would be too sparse', () => {
    const rng = makeRng(1643);
    const P = randomWalk(400, 3, rng);
    const m = P.length / 3 - 1, n = leafCount(m);
    const seg = new Float64Array(6 * m), L = new Float64Array(6 * n);
    // From −1.5e308 to 1.5e308 along x: the chain's extent overflows.
    const W = new Float64Array(3 * (m + 1)).map((_, k) => (k % 3 === 0 ? -1.5e308 + (k / 3) * (3 * (1e308 / m)) : (k % 3) * Math.floor(k / 3)));
    segmentLeafBoxes3(W, m, seg, L);
    expect(blockPairs3(L, n, 0)).toBe(-1);
    segmentLeafBoxes3(P, m, seg, L);
    expect(blockPairs3(L, n, 1.7e308)).toBe(-1); // lo − τ/2 overflows
    // A straight diagonal line: blocks far apart on all three axes, cells ~ n³.
    const D = new Float64Array(3 * (m + 1)).map((_, k) => Math.floor(k / 3));
    segmentLeafBoxes3(D, m, seg, L);
    expect(blockPairs3(L, n, 0.1)).toBe(-1);
    expect(blockPairs3(L, 1, 0.1)).toBe(-1);
    // The search falls back to the hierarchy there, with the same contacts as the brute force.
    expect(search('auto', D, 0.1).last).toBe('tree');
  });

  it('issue 16: chainContacts through the block grid equals the exact brute force, and the hierarchy bit for bit (seeds 1644–1645)', () => {
    let blocks = 0;
    for (let seed = 1644; seed < 1646; seed++) {
      const rng = makeRng(seed);
      for (const [name, full, taus] of families(rng)) {
        const P = full.subarray(0, 3 * 161); // 160 segments: the exact brute force is quadratic
        for (const tau of taus) {
          for (const closed of [false, true]) {
            const label = `seed ${seed}, ${name}, thickness ${tau}${closed ? ', closed' : ''}`;
            const got = search('auto', P, tau, closed);
            if (got.last === 'blocks') blocks++;
            expect(got.keys, label).toEqual(bruteContacts(P, 3, { thickness: tau, closed }));
            const tree = search('tree', P, tau, closed);
            expect(tree.last).toBe('tree');
            expect(got.keys, label).toEqual(tree.keys);
            expect(got.nums.every((x, k) => Object.is(x, tree.nums[k])), `${label}: distance, s and t bit for bit`).toBe(true);
          }
        }
      }
    }
    expect(blocks, 'most searches above ran on the block grid').toBeGreaterThan(40);
  });

  it('issue 16: on larger chains the block grid and the hierarchy agree bit for bit (seed 1646)', () => {
    const rng = makeRng(1646);
    for (const [name, P, taus] of families(rng)) {
      for (const tau of taus) {
        const label = `seed 1646, ${name}, thickness ${tau}`;
        const got = search('auto', P, tau);
        if (!name.startsWith('crowded')) expect(got.last, label).toBe('blocks');
        const tree = search('tree', P, tau);
        expect(got.keys, label).toEqual(tree.keys);
        expect(got.nums.every((x, k) => Object.is(x, tree.nums[k])), `${label}: distance, s and t bit for bit`).toBe(true);
      }
    }
    expect(LEAF).toBe(8);
  });

  it('issue 16: chainContacts sorts the block grid’s pairs block by block (fold-backs merged in, a block with over 32 contacts, a ring): the same arrays as the hierarchy’s counting sort and the brute force (seed 1649)', () => {
    const rng = makeRng(1649);
    const chains: [string, Float64Array, number][] = [
      ['comb of 48 teeth', comb(48), 0.05],
      // Closed, the closing segment folds back over segment 0: that pair is recorded after the other fold-backs.
      ['comb closing back over its first segment', Float64Array.from([...comb(48), 0.5, 0, 0]), 0.05],
      ['collinear runs', collinearRuns(600, rng), 0.1],
      ['random walk', randomWalk(700, 3, rng), 0.3],
    ];
    for (const [name, P, tau] of chains) {
      for (const closed of [false, true]) {
        const label = `${name}${closed ? ', closed' : ''}, thickness ${tau}`;
        const got = search('auto', P, tau, closed);
        expect(got.last, label).toBe('blocks');
        const tree = search('tree', P, tau, closed);
        expect(got.keys, label).toEqual(tree.keys);
        expect(got.nums.every((x, k) => Object.is(x, tree.nums[k])), `${label}: distance, s and t bit for bit`).toBe(true);
        expect(got.keys, label).toEqual(bruteContacts(P, 3, { thickness: tau, closed }));
        const pairs = got.keys.map((key) => key.split(',').map(Number));
        if (name.startsWith('comb')) {
          expect(pairs.filter(([i]) => i < LEAF).length, `${label}: block 0 holds over 32 contacts`).toBeGreaterThan(32);
        }
        if (name !== 'random walk') expect(pairs.some(([i, j]) => j === i + 1), `${label}: fold-backs`).toBe(true);
        if (name.startsWith('comb closing') && closed) expect(got.keys, label).toContain(`0,${P.length / 3 - 1}`);
      }
    }
  });

  it('issue 16: the one-pass 3D search (validation, zero-length check, fold-back signs and boxes together) falls back for a repeated vertex, NaN, ±Infinity and a ring, with the usual results and errors (seed 1647)', () => {
    const rng = makeRng(1647);
    const base = collinearRuns(200, rng); // fold-backs along the line
    const want = (P: Float64Array, opts: { thickness: number; closed?: boolean }): string[] => bruteContacts(P, 3, opts);
    for (const tau of [0, 0.15]) {
      const r = search('auto', base, tau);
      expect(r.last).toBe('blocks');
      expect(r.keys, `collinear runs, thickness ${tau}`).toEqual(want(base, { thickness: tau }));
      // A repeated vertex (a zero-length segment 40) at the start, inside and at the end.
      for (const v of [1, 40, 200]) {
        const P = base.slice();
        P.copyWithin(3 * v, 3 * (v - 1), 3 * v);
        const got = search('auto', P, tau);
        expect(got.keys, `vertex ${v} repeated, thickness ${tau}`).toEqual(want(P, { thickness: tau }));
        const tree = search('tree', P, tau).nums;
        expect(got.nums.every((x, k) => Object.is(x, tree[k]))).toBe(true);
      }
      // A ring (last vertex = first): the first and last segments are adjacent.
      const R = base.slice(0, 3 * 101);
      R.set(R.subarray(0, 3), 3 * 100);
      expect(search('auto', R, tau).keys, `ring, thickness ${tau}`).toEqual(want(R, { thickness: tau }));
    }
    for (const bad of [NaN, Infinity, -Infinity]) {
      for (const at of [0, 2, 3 * 57 + 1, base.length - 1]) {
        const P = base.slice();
        P[at] = bad;
        const vertex = Math.floor(at / 3), coord = at % 3;
        expect(() => chainContacts(P, { dim: 3, thickness: 0.1 }), `${bad} at ${at}`).toThrow(SkewlineInputError);
        expect(() => chainContacts(P, { dim: 3, thickness: 0.1 })).toThrow(new RegExp(`vertex ${vertex} coordinate ${coord} `));
      }
    }
  });
});
