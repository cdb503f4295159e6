/**
 * `skewline chain --tile i/n` on a file with one chain, or with `--no-between`, in two passes
 * (cli/tile-stream.ts: the bounding box, then only the segments that reach the tile, as runs).
 * References: the command's whole-input path (`tileStream: false`: every chain read, then
 * tileContacts) — the same bytes in CSV, NDJSON and GeoJSON for every tile of n = 1, 3, 8, also
 * when a tile is searched in small sub-tiles whose contacts spill to a file — and the whole run
 * without `--tile`: the tiles' rows, concatenated, are its rows, each once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runChain, type ChainCliOptions } from '../../cli/chain.js';
import { BoxScan, TileRuns, type TileRunsPlan } from '../../cli/tile-stream.js';
import { tileGrid } from '../../cli/tiles.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng, type Rng } from '../support/rng.js';
import { collector, takeOutput } from '../support/collector.js';

const work = mkdtempSync(join(tmpdir(), 'skewline-tile-stream-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const BASE: ChainCliOptions = { file: undefined, input: undefined, thickness: 0, closed: false, between: true, format: undefined, output: undefined, progress: false, stats: false, threads: 1, tile: undefined };

/** Runs `skewline chain` in this process, output to a file under `work` (`stdin`: the text piped in). */
async function run(opts: Partial<ChainCliOptions>, stdin?: string): Promise<{ code: number; stdout: string; stderr: string; written: boolean }> {
  const err = collector();
  const out = join(work, `out-${Math.random().toString(36).slice(2)}.txt`);
  const input = stdin === undefined ? process.stdin : Object.assign(Readable.from([Buffer.from(stdin)]), { isTTY: false, fd: undefined });
  const code = await runChain({ ...BASE, output: out, ...opts }, { stdin: input as unknown as NodeJS.ReadStream, stdout: process.stdout, stderr: err.stream }, '');
  const { stdout, written } = takeOutput(out);
  return { code, stdout, stderr: err.text(), written };
}

/** Chains as CSV: one chain with an `x,y[,z]` header, or several with a `chain` column. */
function csvOf(chains: Float64Array[], dim: number): string {
  const axes = ['x', 'y', 'z'].slice(0, dim);
  let text = chains.length > 1 ? `chain,${axes.join(',')}\n` : `${axes.join(',')}\n`;
  chains.forEach((P, c) => {
    for (let v = 0; v < P.length / dim; v++) {
      const xs = Array.from(P.subarray(v * dim, (v + 1) * dim), String).join(',');
      text += chains.length > 1 ? `c${c},${xs}\n` : `${xs}\n`;
    }
  });
  return text;
}

/** A seeded walk with some vertices repeated (zero-length segments between kept ones). */
function withRepeats(P: Float64Array, dim: number, rng: Rng): Float64Array {
  const out: number[] = [];
  for (let v = 0; v < P.length / dim; v++) {
    const xs = Array.from(P.subarray(v * dim, (v + 1) * dim));
    out.push(...xs);
    if (rng.next() < 0.05) out.push(...xs);
  }
  return Float64Array.from(out);
}

/**
 * For n = 1, 3, 8 and every tile: the two-pass bytes equal the whole-input path's, in each
 * format; and the tiles' rows, concatenated, are the whole run's rows, each once (CSV).
 */
async function check(path: string, opts: Partial<ChainCliOptions>, what: string, formats: readonly ('csv' | 'ndjson' | 'geojson')[] = ['csv', 'ndjson', 'geojson']): Promise<void> {
  const whole = await run({ file: path, ...opts, format: 'csv' });
  expect(whole.stderr, what).toBe('');
  const wholeRows = whole.stdout.trimEnd().split('\n').slice(1);
  expect(wholeRows.length, `${what}: contacts`).toBeGreaterThan(50);
  for (const n of [1, 3, 8]) {
    const union: string[] = [];
    let nonEmpty = 0;
    for (let i = 0; i < n; i++) {
      for (const format of formats) {
        const tile = { i, n };
        const old = await run({ file: path, ...opts, format, tile, tileStream: false });
        const streamed = await run({ file: path, ...opts, format, tile });
        expect(streamed.stderr, `${what}, ${format}, tile ${i}/${n}`).toBe('');
        expect(streamed.code).toBe(0);
        expect(streamed.stdout === old.stdout, `${what}, ${format}, tile ${i}/${n}: the bytes of the whole-input path`).toBe(true);
        if (format === formats[0]) {
          // Sub-tiles of 97 and 300 kept segments, their contacts spilled to a file (all of them, or past 40).
          for (const tiles of [{ perTile: 97, held: 0 }, { perTile: 300, held: 40 }]) {
            const sub = await run({ file: path, ...opts, format, tile, tiles });
            expect(sub.stdout === old.stdout, `${what}, ${format}, tile ${i}/${n}, sub-tiles ${JSON.stringify(tiles)}: the same bytes`).toBe(true);
          }
        }
        if (format === 'csv') {
          const rows = streamed.stdout.trimEnd().split('\n').slice(1);
          if (rows.length > 0) nonEmpty++;
          union.push(...rows);
        }
      }
    }
    expect(new Set(union).size, `${what}, n = ${n}: no contact twice`).toBe(union.length);
    expect(union.sort(), `${what}, n = ${n}: the tiles hold the whole run`).toEqual([...wholeRows].sort());
    if (n > 1) expect(nonEmpty, `${what}, n = ${n}: the work is spread`).toBeGreaterThan(1);
  }
}

/** Random star-shaped rings (the first vertex repeated at the end) as Polygon features, ids and properties, one 3D. */
function ringsGeojson(rng: Rng): string {
  const features = Array.from({ length: 40 }, (_, f) => {
    const k = 5 + rng.int(0, 25), cx = (f % 8) * 3, cy = Math.floor(f / 8) * 3;
    const pts: number[][] = [];
    for (let v = 0; v < k; v++) {
      const a = f % 3 === 0 ? rng.next() * 2 * Math.PI : (2 * Math.PI * v) / k;
      const r = 1 + 2 * rng.next();
      pts.push(f === 30 ? [cx + r * Math.cos(a), cy + r * Math.sin(a), v % 2] : [cx + r * Math.cos(a), cy + r * Math.sin(a)]);
    }
    pts.push(pts[0]);
    return { type: 'Feature', id: f % 2 === 0 ? `ring-${f}` : f, properties: { k: f % 5 }, geometry: { type: 'Polygon', coordinates: [pts] } };
  });
  return JSON.stringify({ type: 'FeatureCollection', features });
}

describe('skewline chain --tile in two passes', () => {
  it('issue 15 item 4: a single 2D walk (seed 1591, some vertices repeated; a grid walk, closed): the bytes of the whole-input path for tiles 1, 3, 8, together the whole run', async () => {
    const rng = makeRng(1591);
    const path = join(work, 'walk.csv');
    writeFileSync(path, csvOf([withRepeats(randomWalk(1500, 2, rng), 2, rng)], 2));
    await check(path, {}, 'seed 1591, 2D walk');
    const grid = join(work, 'grid.csv');
    writeFileSync(grid, csvOf([withRepeats(gridWalk(600, 2, rng), 2, rng)], 2));
    await check(grid, { closed: true }, 'seed 1591, grid walk, closed', ['csv']);
    await check(grid, { thickness: 1 }, 'seed 1591, grid walk, thickness 1', ['csv']);
  });

  it('issue 15 item 4: a single 3D chain with thickness 0.3 (seed 1592)', async () => {
    const path = join(work, 'walk3.csv');
    writeFileSync(path, csvOf([randomWalk(2000, 3, makeRng(1592))], 3));
    await check(path, { thickness: 0.3 }, 'seed 1592, 3D walk at 0.3');
  });

  it('issue 15 item 4: several chains with --no-between, CSV (seed 1593) and a GeoJSON map of rings with ids, one of them 3D (seed 1594)', async () => {
    const rng = makeRng(1593);
    const chains = Array.from({ length: 30 }, (_, c) => {
      const P = gridWalk(c === 4 ? 600 : 10 + rng.int(0, 80), 2, rng);
      for (let q = 0; q < P.length; q++) P[q] += q % 2 === 0 ? (c % 6) * 6 : Math.floor(c / 6) * 6;
      return P;
    });
    const path = join(work, 'chains.csv');
    writeFileSync(path, csvOf(chains, 2));
    await check(path, { between: false }, 'seed 1593, CSV chains');
    const map = join(work, 'rings.geojson');
    writeFileSync(map, ringsGeojson(makeRng(1594)));
    await check(map, { between: false }, 'seed 1594, GeoJSON rings');
  });

  it('issue 15 item 4: --tile on a single chain keeps only the segments that reach its tile (not the whole chain), and their runs find what the whole chain finds', async () => {
    // The finding: `--tile` on one chain held every coordinate of the input. Pass 2's sink keeps
    // a tile's share: on a 2D walk of 40,000 steps, tile 0 of 8 keeps under a quarter.
    const P = randomWalk(40000, 2, makeRng(1595));
    const scan = new BoxScan();
    scan.dim = 2;
    scan.begin({});
    P.forEach((x) => scan.push(x));
    const { lo, hi } = scan.box();
    const runs = new TileRuns(2, 0, false, tileGrid(lo, hi, { i: 0, n: 8 }), lo, hi);
    runs.begin({});
    P.forEach((x) => runs.push(x));
    let count = 0;
    await runs.write(1024, (r) => void (count += r.count));
    expect(count, 'seed 1595: contacts in the tile').toBeGreaterThan(0);
    expect(runs.numbers, 'seed 1595: numbers kept').toBeLessThan(P.length / 4);
    expect(runs.numbers).toBeGreaterThan(0);
    const grid = tileGrid(lo, hi, { i: 0, n: 8 });
    expect(() => new TileRuns(2, 0, false, grid, lo, hi, { perTile: 0 })).toThrow(/TileRuns: options.perTile must be a number in \[1, /);
    expect(() => new TileRuns(2, 0, false, grid, lo, hi, { held: -1 })).toThrow(/TileRuns: options.held must be a number in \[0, /);
    expect(() => new TileRuns(2, 0, false, grid, lo, hi, { tiles: 3 } as TileRunsPlan)).toThrow(/TileRuns: unknown option "tiles"/);
  });

  it('a ring whose first and last segments fold back over each other across a tile cut, and a fold-back through a zero-length segment: as the whole-input path', async () => {
    // A ring (its first vertex repeated at the end) whose closing segment 13 (2,0 → 0,0) folds
    // back over segment 0 (0,0 → 4,0); segment 8 (0,2 → 0,2.5) folds back over segment 6
    // (0,3 → 0,2) through the zero-length segment 7; another zero-length segment at (4,1).
    const ring = [[0, 0], [4, 0], [4, 1], [4, 1], [1, 1], [1, 3], [0, 3], [0, 2], [0, 2], [0, 2.5], [3, 2], [3, -1], [2, -1], [2, 0], [0, 0]];
    const path = join(work, 'ring.csv');
    writeFileSync(path, `x,y\n${ring.map((p) => p.join(',')).join('\n')}\n`);
    for (const n of [1, 2, 3, 4, 6, 8]) {
      const rows: string[] = [];
      for (let i = 0; i < n; i++) {
        const old = await run({ file: path, tile: { i, n }, tileStream: false });
        const streamed = await run({ file: path, tile: { i, n } });
        expect(streamed.stdout, `ring, tile ${i}/${n}`).toBe(old.stdout);
        // Sub-tiles of 2 segments: the ring partners in each sub-tile's runs.
        expect((await run({ file: path, tile: { i, n }, tiles: { perTile: 2, held: 0 } })).stdout, `ring, tile ${i}/${n}, sub-tiles`).toBe(old.stdout);
        rows.push(...streamed.stdout.trimEnd().split('\n').slice(1));
      }
      const whole = (await run({ file: path })).stdout.trimEnd().split('\n').slice(1);
      expect(whole.some((l) => l.startsWith('0,0,0,13,') && l.endsWith(',overlap')), 'the ring\'s wrap fold-back').toBe(true);
      expect(whole.some((l) => l.startsWith('0,6,0,8,') && l.endsWith(',overlap')), 'the fold-back through a zero-length segment').toBe(true);
      expect(rows.sort(), `ring, n = ${n}`).toEqual(whole.sort());
    }
  });

  it('the gap between two runs of a chain is never part of a contact: a gap along the segment after it (a fold-back for the search) that crosses the tile', async () => {
    // Box 0…30 on both axes: tile 4 of 9 is the cell [10, 20)². Segments 3–5 go around the cell
    // (5,15 → 5,25 → 25,25 → 25,15) and are not kept, so the runs are joined by a gap from 5,15 to
    // 25,15, across the cell; segment 6 (25,15 → 15,15) runs back along it: the search sees a
    // fold-back whose reference point (15,15) lies in the cell. It must not be reported.
    const chain = [[0, 0], [0, 30], [15, 15], [5, 15], [5, 25], [25, 25], [25, 15], [15, 15], [30, 0]];
    const path = join(work, 'gap.csv');
    writeFileSync(path, `x,y\n${chain.map((p) => p.join(',')).join('\n')}\n`);
    const rows: string[] = [];
    for (let i = 0; i < 9; i++) {
      const old = await run({ file: path, tile: { i, n: 9 }, tileStream: false });
      const streamed = await run({ file: path, tile: { i, n: 9 } });
      expect(streamed.stdout, `gap, tile ${i}/9`).toBe(old.stdout);
      expect((await run({ file: path, tile: { i, n: 9 }, tiles: { perTile: 2 } })).stdout, `gap, tile ${i}/9, sub-tiles`).toBe(old.stdout);
      rows.push(...streamed.stdout.trimEnd().split('\n').slice(1));
    }
    expect(rows.sort()).toEqual((await run({ file: path })).stdout.trimEnd().split('\n').slice(1).sort());
  });

  it('an error in a late row names file:line (CSV) or file:line:column (GeoJSON), nothing is written; a number that overflows is named as before; stdin gives the same bytes (its copy read twice: tile-stdin.test.ts)', async () => {
    const P = randomWalk(3000, 2, makeRng(1596));
    const good = csvOf([P], 2);
    const bad = good.replace(/\n[^\n]*\n$/, '\n1,x\n');
    const path = join(work, 'bad.csv');
    writeFileSync(path, bad);
    const lines = bad.trimEnd().split('\n').length;
    for (const between of [true, false]) {
      const r = await run({ file: path, tile: { i: 1, n: 3 }, between });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`skewline: ${path}:${lines}: column y: not a number ("x")\n`);
      expect(r.written, 'nothing written').toBe(false);
    }
    const geo = join(work, 'bad.geojson');
    const text = ringsGeojson(makeRng(1597));
    writeFileSync(geo, `${text.slice(0, -3)},\n]}`);
    const g = await run({ file: geo, tile: { i: 0, n: 3 }, between: false });
    expect(g.code).toBe(1);
    expect(g.stderr).toMatch(new RegExp(`^skewline: ${geo.replace(/[.]/g, '\\.')}:\\d+:\\d+: expected a string key`));
    expect(g.written).toBe(false);
    const inf = join(work, 'inf.geojson');
    writeFileSync(inf, '{"type":"LineString","coordinates":[[0,0],[1,1],[1e999,0]]}');
    const i = await run({ file: inf, tile: { i: 0, n: 2 } });
    const iOld = await run({ file: inf, tile: { i: 0, n: 2 }, tileStream: false });
    expect(i.stderr).toBe(iOld.stderr);
    expect(i.stderr).toMatch(/inf\.geojson:1:50: a number too large for a double/);
    writeFileSync(join(work, 'good.csv'), good);
    const fromFile = await run({ file: join(work, 'good.csv'), tile: { i: 2, n: 3 } });
    const fromStdin = await run({ file: '-', tile: { i: 2, n: 3 } }, good);
    expect(fromStdin.stderr).toBe('');
    expect(fromFile.stdout.split('\n').length).toBeGreaterThan(2);
    expect(fromStdin.stdout === fromFile.stdout, 'stdin: the same bytes').toBe(true);
  });
});
