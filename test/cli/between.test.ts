/**
 * `skewline chain --between` in bounded memory (issue 15 item 3): the search of several chains
 * runs one tile at a time (cli/tiles.ts, contactsInTiles) and the tiles' contacts, held in typed
 * arrays or in a temporary file, are merged into the writer in order (mergeTiles). The
 * reference is multiChainContacts over the whole input — every contact, bitwise the same
 * numbers, the same order — and, for the command, the bytes the old path wrote
 * (multiChainContacts' result through ContactWriter).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { multiChainContacts, type MultiChainContacts } from '../../src/index.js';
import { contactsInTiles, mergeTiles, Spill, tileContacts, type TilePlan } from '../../cli/tiles.js';
import { ContactWriter, FeatureTexts, runChain, type ChainCliOptions } from '../../cli/chain.js';
import { CoordStore, readGeojson } from '../../cli/geojson-stream.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng, type Rng } from '../support/rng.js';

const work = mkdtempSync(join(tmpdir(), 'skewline-between-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `count` seeded walks of `steps` steps scattered over a square (contacts within and between them). */
function walks(rng: Rng, count: number, steps: number, dim: number, side: number, grid = false): Float64Array[] {
  return Array.from({ length: count }, () => {
    const P = grid ? gridWalk(steps, dim, rng) : randomWalk(steps, dim, rng);
    const off = Array.from({ length: dim }, (_, k) => (k < 2 ? Math.round(rng.next() * side) : 0));
    for (let q = 0; q < P.length; q++) P[q] += off[q % dim];
    return P;
  });
}

/** The tiles' contacts, merged, as one list (through mergeTiles with small batches). */
async function tiled(chains: Float64Array[], dim: number, tau: number, closed: boolean, plan: TilePlan, batch: number, window?: number): Promise<{ rows: string[]; tiles: number }> {
  const lists = contactsInTiles(chains.length, (k) => chains[k], dim, tau, closed, plan);
  const rows: string[] = [];
  await mergeTiles(lists, batch, (r) => {
    rows.push(...rowsOf(r));
  }, window);
  return { rows, tiles: lists.length };
}

/** Each contact as text: chainI, i, chainJ, j and the exact bits of distance, s, t (Object.is keeps −0). */
function rowsOf(r: MultiChainContacts): string[] {
  const bits = (x: number): string => (Object.is(x, -0) ? '-0' : String(x));
  return Array.from({ length: r.count }, (_, k) => `${r.chainI[k]},${r.i[k]},${r.chainJ[k]},${r.j[k]},${bits(r.distance[k])},${bits(r.s[k])},${bits(r.t[k])}`);
}

/** Checks tiles of several sizes, in memory and spilled to a file, against the whole search. */
async function check(chains: Float64Array[], dim: number, tau: number, closed: boolean, what: string): Promise<void> {
  const whole = rowsOf(multiChainContacts(chains, { dim, thickness: tau, closed }));
  expect(whole.length, what).toBeGreaterThan(100);
  const segments = chains.reduce((n, c) => n + c.length / dim - (closed ? 0 : 1), 0);
  for (const perTile of [Math.ceil(segments / 9), Math.ceil(segments / 2), segments + 1]) {
    for (const held of [Infinity, 0, 37]) {
      const spill = new Spill(work);
      try {
        const { rows, tiles } = await tiled(chains, dim, tau, closed, { perTile, held, spill }, 101, held === 37 ? 7 : undefined);
        expect(tiles, `${what}: tiles of ${perTile} segments`).toBe(Math.ceil(segments / perTile));
        expect(rows, `${what}: tiles of ${perTile} segments, ${held} held`).toEqual(whole);
        expect(spill.bytes, `${what}: spilled`).toBe(held === Infinity ? 0 : held === 0 ? 40 * whole.length : spill.bytes);
      } finally {
        spill.close();
      }
    }
  }
}

describe('contactsInTiles + mergeTiles = multiChainContacts', () => {
  it('issue 15 item 3: --between tile by tile gives multiChainContacts bitwise and in order: 2D random walks (seed 1561), tiles of 1/9, 1/2 and all of the segments, in memory and spilled, windows of 7 and 101', async () => {
    await check(walks(makeRng(1561), 60, 40, 2, 40), 2, 0, false, 'seed 1561');
  });

  it('issue 15 item 3: grid walks (seed 1562): touches and overlaps on the tile cut lines, each once', async () => {
    await check(walks(makeRng(1562), 50, 40, 2, 12, true), 2, 0, false, 'seed 1562');
  });

  it('issue 15 item 3: 3D walks with thickness 0.3 (seed 1563) and closed chains (seed 1564)', async () => {
    await check(walks(makeRng(1563), 40, 30, 3, 20), 3, 0.3, false, 'seed 1563');
    await check(walks(makeRng(1564), 40, 30, 2, 30), 2, 0, true, 'seed 1564');
  });

  it('issue 15 item 3: --tile i/n in sub-tiles gives tileContacts\' contacts bitwise and in order (n = 3, 8; 2D seed 1569, 3D at 0.3 seed 1570, closed chains seed 1571; in memory and spilled)', async () => {
    const cases = [
      { chains: walks(makeRng(1569), 60, 40, 2, 40), dim: 2, tau: 0, closed: false },
      { chains: walks(makeRng(1570), 40, 30, 3, 20), dim: 3, tau: 0.3, closed: false },
      { chains: walks(makeRng(1571), 40, 30, 2, 30), dim: 2, tau: 0, closed: true },
    ];
    for (const { chains, dim, tau, closed } of cases) {
      const segments = chains.reduce((m, c) => m + c.length / dim - (closed ? 0 : 1), 0);
      for (const n of [3, 8]) {
        let all = 0;
        for (let i = 0; i < n; i++) {
          const want = rowsOf(tileContacts(chains, dim, tau, closed, true, { i, n }));
          all += want.length;
          for (const [perTile, held] of [[Math.ceil(segments / n / 5), 0], [segments, Infinity]]) {
            const spill = new Spill(work);
            try {
              const { rows, tiles } = await tiled(chains, dim, tau, closed, { perTile, held, spill, within: { i, n } }, 53);
              expect(rows, `${dim}D ${closed ? 'closed ' : ''}tile ${i}/${n}, sub-tiles of ${perTile} segments (${tiles})`).toEqual(want);
            } finally {
              spill.close();
            }
          }
        }
        expect(all, `${dim}D, n = ${n}: the tiles hold every contact`).toBe(multiChainContacts(chains, { dim, thickness: tau, closed }).count);
      }
    }
  });

  it('a spill file is removed by close, also when nothing was written; the merge of no tiles emits nothing; a bad plan is an error naming the option', async () => {
    const before = readdirSync(work).length;
    const spill = new Spill(work);
    const r = multiChainContacts(walks(makeRng(1565), 10, 30, 2, 10), { dim: 2 });
    const src = spill.put(r);
    expect(readdirSync(work).length).toBe(before + 1);
    expect(rowsOf(src.read(3, 5))).toEqual(rowsOf(r).slice(3, 8));
    spill.close();
    spill.close();
    expect(readdirSync(work).length).toBe(before);
    new Spill(work).close();
    expect(readdirSync(work).length).toBe(before);
    const nowhere = new Spill(join(work, 'no-such-folder'));
    expect(() => nowhere.put(r)).toThrow(/cannot write the temporary file of contacts in '.*no-such-folder' \(ENOENT; set TMPDIR/);
    nowhere.close();
    const one = [new Float64Array([0, 0, 1, 1])];
    expect(() => contactsInTiles(1, () => one[0], 2, 0, false, { perTile: 0 })).toThrow(/contactsInTiles: options.perTile must be a number in \[1, /);
    expect(() => contactsInTiles(1, () => one[0], 2, 0, false, { held: -1 })).toThrow(/options.held must be a number in \[0, /);
    expect(() => contactsInTiles(1, () => one[0], 2, 0, false, { tiles: 3 } as TilePlan)).toThrow(/contactsInTiles: unknown option "tiles"/);
    let emitted = 0;
    await mergeTiles([], 16, () => void emitted++);
    expect(emitted).toBe(0);
  });
});

/** A one-line FeatureCollection of the walks, with ids and properties. */
function featureCollection(chains: Float64Array[]): string {
  const features = chains.map((P, f) => ({
    type: 'Feature', id: f % 3 === 0 ? `road-${f}` : f, properties: { k: f % 7, name: `w${f}` },
    geometry: { type: 'LineString', coordinates: Array.from({ length: P.length / 2 }, (_, v) => [P[2 * v], P[2 * v + 1]]) },
  }));
  return JSON.stringify({ type: 'FeatureCollection', features });
}

/** What the command wrote before the tiles: multiChainContacts over every chain, through ContactWriter. */
async function oldWay(path: string, format: 'csv' | 'ndjson' | 'geojson'): Promise<string> {
  const store = new CoordStore();
  let text = '';
  const writer = new ContactWriter(format, true, 0, (t) => (text += t));
  const chunks = async function* (): AsyncGenerator<Buffer> {
    yield readFileSync(path);
  };
  await readGeojson(chunks(), store, () => {}, { features: (list) => list.forEach((q) => writer.feature(q.index, q.info)) });
  const r = multiChainContacts(Array.from({ length: store.count }, (_, k) => store.chain(k)), { dim: store.dim });
  await writer.contacts(r, store, 0, () => Promise.resolve());
  writer.end(store.dim);
  return text;
}

/** Runs `skewline chain` in this process (the command's own function), output to a file. */
async function runInProcess(opts: Partial<ChainCliOptions>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stderr = '';
  const err = new Writable({
    write(chunk: Buffer, _enc, done) {
      stderr += chunk.toString();
      done();
    },
  });
  const out = join(work, `out-${Math.random().toString(36).slice(2)}`);
  const full: ChainCliOptions = { file: undefined, input: undefined, thickness: 0, closed: false, between: true, format: undefined, output: out, progress: false, stats: false, threads: 1, tile: undefined, ...opts };
  const code = await runChain(full, { stdin: process.stdin, stdout: process.stdout, stderr: err }, '');
  let stdout = '';
  try {
    stdout = readFileSync(out, 'utf8');
    rmSync(out);
  } catch {
    // nothing written (an error)
  }
  return { code, stdout, stderr };
}

describe('skewline chain --between: the same bytes as before', () => {
  it('issue 15 item 3: a --between run on a seeded multi-feature file (seed 1566) gives the bytes of multiChainContacts written the old way: CSV, NDJSON, GeoJSON; one tile, several, spilled', async () => {
    const chains = walks(makeRng(1566), 80, 40, 2, 45);
    const path = join(work, 'walks.geojson');
    writeFileSync(path, featureCollection(chains));
    const spillsBefore = readdirSync(tmpdir()).filter((n) => n.startsWith('skewline-contacts-')).length;
    for (const format of ['csv', 'ndjson', 'geojson'] as const) {
      const want = await oldWay(path, format);
      expect(want.split('\n').length, format).toBeGreaterThan(200);
      for (const tiles of [undefined, { perTile: 400 }, { perTile: 300, held: 50 }, { perTile: 200, held: 0 }]) {
        const r = await runInProcess({ file: path, format, ...(tiles === undefined ? {} : { tiles }) });
        expect(r.stderr, `${format} ${JSON.stringify(tiles)}`).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout === want, `${format} ${JSON.stringify(tiles)}: same bytes`).toBe(true);
      }
    }
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('skewline-contacts-')).length, 'no spill file left').toBe(spillsBefore);
  });
});

describe('the coordinate store in blocks', () => {
  it('issue 15 item 3: each chain lies in one block and reads back exactly: chains of 1–300 vertices and one longer than a block (seed 1567), 2D then promoted to 3D', () => {
    const rng = makeRng(1567);
    const store = new CoordStore(256);
    store.dim = 2;
    const want: number[][] = [];
    const add = (n: number, dim: number): void => {
      store.begin({ feature: want.length });
      const c: number[] = [];
      for (let q = 0; q < n * dim; q++) {
        const x = rng.uniform(-1e3, 1e3);
        c.push(x);
        store.push(x);
      }
      want.push(c);
    };
    for (let k = 0; k < 60; k++) add(k === 30 ? 700 : 1 + Math.floor(rng.next() * 300), 2);
    expect(store.blocks.length, 'seed 1567: several blocks').toBeGreaterThan(20);
    for (let k = 0; k < want.length; k++) expect(Array.from(store.chain(k)), `seed 1567: chain ${k}`).toEqual(want[k]);
    store.promoteTo3();
    for (let k = 0; k < want.length; k++) want[k] = want[k].flatMap((x, q) => (q % 2 === 1 ? [x, 0] : [x]));
    for (let k = 0; k < 30; k++) add(1 + Math.floor(rng.next() * 200), 3);
    for (let k = 0; k < want.length; k++) expect(Array.from(store.chain(k)), `seed 1567, 3D: chain ${k}`).toEqual(want[k]);
    expect(store.vertices).toBe(want.reduce((n, c) => n + c.length / 3, 0));
  });

  it('issue 15 item 3: contacts between chains in different blocks are written byte for byte as from one block (seed 1568: CSV, NDJSON, GeoJSON; 2D at thickness 0, 3D at 0.3)', async () => {
    for (const [dim, tau] of [[2, 0], [3, 0.3]] as const) {
      const chains = walks(makeRng(1568), 40, 30, dim, 25);
      const r = multiChainContacts(chains, { dim, thickness: tau });
      expect(r.count).toBeGreaterThan(100);
      for (const format of ['csv', 'ndjson', 'geojson'] as const) {
        const texts = await Promise.all([Infinity, 97].map(async (block) => {
          const store = block === Infinity ? new CoordStore() : new CoordStore(block);
          store.dim = dim;
          chains.forEach((c, f) => {
            store.begin({ feature: f });
            c.forEach((x) => store.push(x));
          });
          if (block !== Infinity) expect(store.blocks.length).toBeGreaterThan(10);
          let text = '';
          const w = new ContactWriter(format, true, tau, (t) => (text += t));
          chains.forEach((_, f) => w.feature(f, { id: f, properties: { k: f % 5 } }));
          await w.contacts(r, store, 0, () => Promise.resolve());
          w.end(dim);
          return text;
        }));
        expect(texts[1] === texts[0], `seed 1568, ${dim}D ${format}`).toBe(true);
      }
    }
  });
});

describe('feature texts', () => {
  it('issue 15 item 3: the texts of a batch are kept densely and dropped when the batch is written; later batches start afresh; out of order still found', () => {
    const t = new FeatureTexts();
    for (let f = 0; f < 5; f++) t.set(f, `f${f}`);
    expect([0, 1, 2, 3, 4].map((f) => t.get(f))).toEqual(['f0', 'f1', 'f2', 'f3', 'f4']);
    for (let f = 0; f < 5; f++) t.delete(f);
    expect(t.get(2)).toBeUndefined();
    t.set(1000, 'a');
    t.set(1003, 'b');
    expect([t.get(1000), t.get(1001), t.get(1003), t.get(5)]).toEqual(['a', undefined, 'b', undefined]);
    t.set(998, 'c');
    expect([t.get(998), t.get(1000), t.get(1003)]).toEqual(['c', 'a', 'b']);
    t.delete(1000);
    t.delete(1000);
    expect([t.get(998), t.get(1000), t.get(1003)]).toEqual(['c', undefined, 'b']);
  });
});
