/**
 * The one-thread 2D grid search finds its pairs in chain order (contacts.ts, gridPairsInOrder)
 * and skips the sort: its output must be the hierarchy's, bit for bit and sorted by (i, j), on
 * every input the grid takes, and the shortcut must never apply to a search that did not find
 * its pairs in order (fold-backs recorded first, 3D searches).
 */
import { describe, expect, it } from 'vitest';
import { chainContacts, chainIntersections, multiChainContacts } from '../../src/index.js';
import { searchMode } from '../../src/chain/contacts.js';
import { randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';

type Result = { count: number; i: Int32Array; j: Int32Array; distance: Float64Array; s: Float64Array; t: Float64Array };

/** chainContacts with the hierarchy, then with the grid (which must take the chain). */
function treeAndGrid<R extends Result>(run: () => R): { tree: R; grid: R } {
  let tree: R;
  try {
    searchMode.broad = 'tree';
    tree = run();
  } finally {
    searchMode.broad = 'auto';
  }
  const grid = run();
  expect(searchMode.last, 'the grid takes this chain').toBe('grid');
  return { tree, grid };
}

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>, what: string): void {
  expect(a.length, what).toBe(b.length);
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) throw new Error(`${what}: entry ${k} is ${a[k]}, want ${b[k]}`);
}

function expectSame(got: Result, want: Result, label: string): void {
  expect(got.count, label).toBe(want.count);
  sameBits(got.i, want.i, `${label} i`);
  sameBits(got.j, want.j, `${label} j`);
  sameBits(got.distance, want.distance, `${label} distance`);
  sameBits(got.s, want.s, `${label} s`);
  sameBits(got.t, want.t, `${label} t`);
}

function expectSorted(r: { count: number; i: Int32Array; j: Int32Array }, label: string): void {
  for (let k = 1; k < r.count; k++) {
    const ok = r.i[k - 1] < r.i[k] || (r.i[k - 1] === r.i[k] && r.j[k - 1] < r.j[k]);
    if (!ok) throw new Error(`${label}: pair ${k} (${r.i[k]}, ${r.j[k]}) follows (${r.i[k - 1]}, ${r.j[k - 1]})`);
  }
}

/** A random walk with some vertices repeated (zero-length segments: compact indices differ from the input's). */
function withRepeats(P: Float64Array, every: number): Float64Array {
  const n = P.length / 2, extra = Math.floor(n / every);
  const Q = new Float64Array(2 * (n + extra));
  let o = 0;
  for (let k = 0; k < n; k++) {
    Q[o++] = P[2 * k];
    Q[o++] = P[2 * k + 1];
    if (k % every === every - 1 && o < Q.length) {
      Q[o] = Q[o - 2];
      Q[o + 1] = Q[o - 1];
      o += 2;
    }
  }
  return Q;
}

describe('the 2D grid search in chain order', () => {
  it('issue 16: the grid search in chain order (no sort) gives the hierarchy\'s pairs and numbers bit for bit, sorted (walks, a zigzag in a few cells, repeated vertices, rings, fold-backs, several chains; seed 41)', () => {
    const rng = makeRng(41);
    // A zigzag: 3,000 segments across a strip of width 1, 3·10⁻⁴ apart, crowding a handful of cells.
    const Z = new Float64Array(2 * 3001);
    for (let k = 0; k <= 3000; k++) {
      Z[2 * k] = k % 2 === 0 ? rng.uniform(-0.01, 0.01) : 1 + rng.uniform(-0.01, 0.01);
      Z[2 * k + 1] = 3e-4 * k + rng.uniform(0, 1e-3);
    }
    // A fold-back in the middle of a walk (vertex 1002 = vertex 1000): recorded before the grid
    // runs, so the pairs are not in order and must be sorted.
    const F = randomWalk(4000, 2, rng);
    F[2004] = F[2000];
    F[2005] = F[2001];
    const cases: [string, Float64Array, { closed?: boolean }][] = [
      ['random walk 5,000', randomWalk(5000, 2, rng), {}],
      ['random walk 20,000', randomWalk(20000, 2, rng), {}],
      ['zigzag', Z, {}],
      ['repeated vertices', withRepeats(randomWalk(5000, 2, rng), 7), {}],
      ['ring', randomWalk(5000, 2, rng), { closed: true }],
      ['fold-back', F, {}],
    ];
    for (const [label, P, opts] of cases) {
      const { tree, grid } = treeAndGrid(() => chainContacts(P, { dim: 2, ...opts }));
      expect(grid.count, label).toBeGreaterThan(100);
      expectSorted(grid, label);
      expectSame(grid, tree, label);
    }
    expect(chainContacts(F, { dim: 2 }).i.includes(999), 'the fold-back is found').toBe(true);
    // Several chains in one search (sorted by chain, then index: the hierarchy's order).
    const chains = [randomWalk(3000, 2, rng), randomWalk(3000, 2, rng)];
    const { tree, grid } = treeAndGrid(() => multiChainContacts(chains, { dim: 2 }));
    expect(grid.count).toBeGreaterThan(100);
    expectSame(grid, tree, 'two chains');
    sameBits(grid.chainI, tree.chainI, 'two chains chainI');
    sameBits(grid.chainJ, tree.chainJ, 'two chains chainJ');
  });

  it('issue 16: the in-order shortcut does not leak from a 2D grid search into the next search (3D quick search, chainIntersections, tree)', () => {
    const rng = makeRng(42);
    const P2 = randomWalk(5000, 2, rng), P3 = randomWalk(5000, 3, rng);
    const want3 = chainContacts(P3, { dim: 3, thickness: 0.3 });
    expectSorted(want3, '3D alone');
    chainContacts(P2, { dim: 2 });
    expect(searchMode.last).toBe('grid');
    // The 3D quick search (no findPairs) right after a 2D grid search.
    const got3 = chainContacts(P3, { dim: 3, thickness: 0.3 });
    expectSorted(got3, '3D after 2D');
    expectSame(got3, want3, '3D after 2D');
    // chainIntersections (the crossing-point search) after the same, then the hierarchy.
    const x = chainIntersections(P2);
    expectSorted(x, 'chainIntersections');
    const c = chainContacts(P2, { dim: 2 });
    sameBits(x.i, c.i, 'chainIntersections i');
    sameBits(x.j, c.j, 'chainIntersections j');
    chainContacts(P2, { dim: 2 });
    try {
      searchMode.broad = 'tree';
      expectSorted(chainContacts(P2, { dim: 2, thickness: 0.1 }), '2D with thickness');
    } finally {
      searchMode.broad = 'auto';
    }
  });
});
