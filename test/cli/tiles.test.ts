/**
 * `--tile i/n` (cli/tiles.ts): for n = 1, 3, 8 the tiles' contacts, put together, are exactly
 * multiChainContacts' contacts (brute force over the whole input, the reference), each once,
 * with bitwise the same numbers — in process on seeded data, and through the CLI.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multiChainContacts, type MultiChainContacts } from '../../src/index.js';
import { boundingBox, parseTile, tileContacts, tileGrid } from '../../cli/tiles.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng, type Rng } from '../support/rng.js';
import { compileCli, runCli, type CliHarness } from './harness.js';

/** The contacts as sortable text rows (chainI, i, chainJ, j and the exact bits of distance, s, t). */
function rowsOf(r: MultiChainContacts): string[] {
  return Array.from({ length: r.count }, (_, k) => `${r.chainI[k]},${r.i[k]},${r.chainJ[k]},${r.j[k]},${r.distance[k]},${r.s[k]},${r.t[k]}`);
}

/** Checks that tiles 0 … n − 1 partition the whole result. */
function checkTiles(chains: Float64Array[], dim: number, tau: number, closed: boolean, between: boolean, what: string, spread = true): void {
  const whole = rowsOf(multiChainContacts(chains, { dim, thickness: tau, closed, between }));
  expect(whole.length, what).toBeGreaterThan(0);
  for (const n of [1, 3, 8]) {
    const all: string[] = [];
    let nonEmpty = 0;
    for (let i = 0; i < n; i++) {
      const rows = rowsOf(tileContacts(chains, dim, tau, closed, between, { i, n }));
      if (rows.length > 0) nonEmpty++;
      all.push(...rows);
    }
    expect(new Set(all).size, `${what}, n = ${n}: no contact twice`).toBe(all.length);
    expect(all.sort(), `${what}, n = ${n}`).toEqual([...whole].sort());
    if (n > 1 && spread) expect(nonEmpty, `${what}, n = ${n}: the work is spread`).toBeGreaterThan(1);
  }
}

/** A random star-shaped ring (closed by repeating its first vertex) around (cx, cy): self-crossing when `wild`. */
function ring(rng: Rng, cx: number, cy: number, k: number, wild: boolean): Float64Array {
  const P = new Float64Array(2 * (k + 1));
  for (let v = 0; v < k; v++) {
    const a = wild ? rng.next() * 2 * Math.PI : (2 * Math.PI * v) / k;
    const r = 1 + 2 * rng.next();
    P[2 * v] = cx + r * Math.cos(a);
    P[2 * v + 1] = cy + r * Math.sin(a);
  }
  P[2 * k] = P[0];
  P[2 * k + 1] = P[1];
  return P;
}

describe('tiles', () => {
  it('issue 15 item 4: a 2D random walk (seed 1541), thickness 0: tiles 1, 3, 8 together give every contact once', () => {
    checkTiles([randomWalk(4000, 2, makeRng(1541))], 2, 0, false, true, 'seed 1541');
  });

  it('issue 15 item 4: a 2D integer grid walk (seed 1542): touches and overlaps on the cut lines, counted once', () => {
    checkTiles([gridWalk(3000, 2, makeRng(1542))], 2, 0, false, true, 'seed 1542');
    checkTiles([gridWalk(3000, 2, makeRng(1542))], 2, 1, true, true, 'seed 1542, thickness 1, closed');
  });

  it('issue 15 item 4: a 3D chain with thickness 0.3 (seed 1543)', () => {
    checkTiles([randomWalk(3000, 3, makeRng(1543))], 3, 0.3, false, true, 'seed 1543');
  });

  it('issue 15 item 4: a multi-ring map with --between and without (seed 1544)', () => {
    const rng = makeRng(1544);
    const rings = Array.from({ length: 60 }, (_, k) => ring(rng, (k % 10) * 3, Math.floor(k / 10) * 3, 5 + rng.int(0, 30), k % 4 === 0));
    checkTiles(rings, 2, 0, false, true, 'seed 1544, between');
    checkTiles(rings, 2, 0, false, false, 'seed 1544, within each ring');
    checkTiles(rings, 2, 0.05, false, true, 'seed 1544, thickness 0.05');
  });

  it('issue 15 item 4: a flat box (every vertex on one line) and coordinates near ±1.7e308 still partition', () => {
    const flat = Float64Array.from([0, 0, 4, 0, 1, 0, 3, 0, 2, 0, 5, 0]);
    checkTiles([flat], 2, 0, false, true, 'collinear', false);
    const huge = Float64Array.from([-1.7e308, -1.7e308, 1.7e308, 1.7e308, 1.7e308, -1.7e308, -1.7e308, 1.7e308, 0, 1e308]);
    checkTiles([huge], 2, 0, false, true, 'near the top of the double range', false);
  });

  it('the grid: n tiles, as square as n allows, cut lines never decreasing', () => {
    const g = tileGrid(Float64Array.of(0, 0), Float64Array.of(40, 10), { i: 5, n: 8 });
    expect([g.cut0.length - 1, g.cut1.length - 1]).toEqual([4, 2]);
    expect([g.k0, g.k1]).toEqual([1, 1]);
    expect(Array.from(g.cut0)).toEqual([-Infinity, 10, 20, 30, Infinity]);
    const { lo, hi } = boundingBox([Float64Array.of(1, 2, 3, -4)], 2);
    expect([Array.from(lo), Array.from(hi)]).toEqual([[1, -4], [3, 2]]);
    expect(() => parseTile('3/3')).toThrow(/i must be below n/);
    expect(() => parseTile('1/0')).toThrow(/n must be between 1/);
    expect(() => parseTile('a/b')).toThrow(/--tile must be i\/n/);
    expect(parseTile(' 2/7 ')).toEqual({ i: 2, n: 7 });
  });
});

describe('skewline chain --tile', () => {
  let h: CliHarness;
  beforeAll(() => {
    h = compileCli('tiles');
  }, 90_000);
  afterAll(() => h?.dispose());

  it('issue 15 item 4: the outputs of --tile 0/3, 1/3, 2/3 on a GeoJSON map, concatenated, hold every row of the whole run once', async () => {
    const rng = makeRng(1545);
    const features = Array.from({ length: 30 }, (_, k) => {
      const P = ring(rng, (k % 6) * 3, Math.floor(k / 6) * 3, 6 + rng.int(0, 20), k % 3 === 0);
      return { type: 'Feature', id: `f${k}`, properties: { k }, geometry: { type: 'Polygon', coordinates: [Array.from({ length: P.length / 2 }, (_, v) => [P[2 * v], P[2 * v + 1]])] } };
    });
    writeFileSync(join(h.work, 'map.geojsonl'), features.map((f) => JSON.stringify(f)).join('\n') + '\n');
    const whole = await runCli(h, ['chain', 'map.geojsonl', '--format', 'csv']);
    expect(whole.code, whole.stderr).toBe(0);
    const header = whole.stdout.split('\n')[0];
    const want = whole.stdout.trimEnd().split('\n').slice(1);
    expect(want.length).toBeGreaterThan(10);
    const got: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await runCli(h, ['chain', 'map.geojsonl', '--format', 'csv', '--tile', `${i}/3`]);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(header);
      got.push(...lines.slice(1).filter((l) => l !== ''));
    }
    expect(new Set(got).size).toBe(got.length);
    expect(got.sort()).toEqual([...want].sort());
    const bad = await runCli(h, ['chain', 'map.geojsonl', '--tile', '3/3']);
    expect([bad.code, bad.stderr]).toEqual([2, "skewline chain: --tile: i must be below n (got 3/3)\n"]);
  });
});
