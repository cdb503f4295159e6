/**
 * A GeoJSON geometry's `coordinates` read a number at a time (cli/json-stream.ts CoordsSink,
 * cli/geojson-stream.ts StreamedCoords), never built as JS arrays: streamed when its `type` comes
 * first, recorded (RecordedCoords) and replayed at the feature's end when `coordinates` comes
 * first (and a Feature's `geometry` before its `type`). Reference: the array path (readGeojson's
 * `stream: false`, the CLI's `coordsStream: false`), which builds every feature as JS values as
 * before. Seeded random documents, fed in random chunks, give the same chains, features and
 * errors all three ways; the CLI writes the same bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runChain, type ChainCliOptions } from '../../cli/chain.js';
import { CoordStore, readGeojson, type ReadFeature } from '../../cli/geojson-stream.js';
import { jsonCounters } from '../../cli/json-stream.js';
import { makeRng, type Rng } from '../support/rng.js';
import { collector, takeOutput } from '../support/collector.js';

const work = mkdtempSync(join(tmpdir(), 'skewline-geojson-coords-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Geometry = { type: string; coordinates?: unknown; geometries?: Geometry[] };
interface Feature {
  type: 'Feature';
  id?: unknown;
  properties: unknown;
  geometry: Geometry | null;
}

/** The object with `type` first (streamed) or last (the array path), recursively for geometries and features. */
function ordered(v: Feature | Geometry, typeFirst: boolean): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const rest = Object.entries(v).filter(([k]) => k !== 'type');
  const fix = (k: string, x: unknown): unknown =>
    k === 'geometry' && x !== null ? ordered(x as Geometry, typeFirst) : k === 'geometries' ? (x as Geometry[]).map((g) => ordered(g, typeFirst)) : x;
  if (typeFirst) o.type = v.type;
  for (const [k, x] of rest) o[k] = fix(k, x);
  if (!typeFirst) o.type = v.type;
  return o;
}

const STREAMABLE = ['LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'];

/** Arrays in a JSON value, itself included. */
function arraysIn(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((n: number, x) => n + arraysIn(x), 0);
  if (v !== null && typeof v === 'object') return Object.values(v).reduce((n: number, x) => n + arraysIn(x), 0);
  return 0;
}

/** A random number as GeoJSON writers print them (integers, decimals, exponents, −0). */
function coord(rng: Rng): number {
  const k = rng.int(0, 5);
  if (k === 0) return rng.int(-50, 50);
  if (k === 1) return -0;
  if (k === 2) return rng.uniform(-1, 1) * 10 ** rng.int(-8, 8);
  return Math.round(rng.uniform(-20, 20) * 1000) / 1000;
}

function positions(rng: Rng, n: number, dims: readonly number[], ring: boolean): number[][] {
  const out: number[][] = [];
  for (let v = 0; v < n; v++) out.push(Array.from({ length: rng.pick(dims) }, () => coord(rng)));
  if (ring) out.push(out[0].slice());
  return out;
}

function geometry(rng: Rng, dims: readonly number[], depth = 0): Geometry | null {
  const type = rng.pick(['LineString', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection', 'Point', 'MultiPoint', 'null']);
  const line = (): number[][] => positions(rng, rng.int(2, 9), dims, false);
  const ring = (): number[][] => positions(rng, rng.int(3, 8), dims, true);
  const some = <T>(f: () => T): T[] => Array.from({ length: rng.int(0, 3) }, f);
  switch (type) {
    case 'LineString':
      return { type, coordinates: line() };
    case 'MultiLineString':
      return { type, coordinates: some(line) };
    case 'Polygon':
      return { type, coordinates: some(ring) };
    case 'MultiPolygon':
      return { type, coordinates: some(() => some(ring)) };
    case 'GeometryCollection':
      return depth > 0 ? { type: 'Point', coordinates: [1, 2] } : { type, geometries: some(() => geometry(rng, dims, 1) ?? { type: 'Point', coordinates: [0, 0] }) };
    case 'Point':
      return { type, coordinates: positions(rng, 1, dims, false)[0] };
    case 'MultiPoint':
      return { type, coordinates: some(() => positions(rng, 1, dims, false)[0]) };
    default:
      return null;
  }
}

/** A seeded document of `count` items in one of the reader's layouts; both member orders. */
function document(rng: Rng, count: number): { streamed: string; arrays: string; layout: string; items: (Feature | Geometry)[] } {
  const dims = rng.pick([[2], [3], [2, 3]] as const);
  const items: (Feature | Geometry)[] = [];
  for (let f = 0; f < count; f++) {
    const g = geometry(rng, dims);
    if (rng.chance(0.2) && g !== null) items.push(g);
    else {
      const feature: Feature = { type: 'Feature', properties: rng.chance(0.8) ? { name: `f${f}`, tags: [f, 'x'], nested: { a: [1, [2]] } } : null, geometry: g };
      if (rng.chance(0.5)) feature.id = rng.chance(0.5) ? f : `id-${f}`;
      items.push(feature);
    }
  }
  const layout = rng.pick(['collection', 'indented', 'ndjson', 'rs', 'array', 'one']);
  if (layout === 'one') items.length = 1;
  const text = (typeFirst: boolean): string => {
    const list = items.map((v) => ordered(v, typeFirst));
    switch (layout) {
      case 'collection':
        return JSON.stringify({ type: 'FeatureCollection', features: list });
      case 'indented':
        return JSON.stringify({ type: 'FeatureCollection', features: list }, null, 2);
      case 'ndjson':
        return list.map((v) => JSON.stringify(v)).join('\n') + '\n';
      case 'rs':
        return list.map((v) => `\x1e${JSON.stringify(v, null, 1)}\n`).join('');
      case 'array':
        return JSON.stringify(list, null, '\t');
      default:
        return JSON.stringify(list[0]);
    }
  };
  return { streamed: text(true), arrays: text(false), layout, items };
}

/** Everything readGeojson puts in a store (never cleared), fed `text` in chunks of 1 to 60 bytes. */
async function read(text: string, rng: Rng, stream = true): Promise<{ chains: unknown[]; features: ReadFeature[]; dim: number; arrays: number }> {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = rng.int(1, rng.chance(0.3) ? 3 : 60);
    chunks.push(bytes.subarray(at, at + n));
    at += n;
  }
  const store = new CoordStore(64);
  const features: ReadFeature[] = [];
  const before = jsonCounters.arrays;
  await readGeojson(Readable.from(chunks), store, () => {}, { stream, features: (list) => void features.push(...list) });
  const chains = Array.from({ length: store.count }, (_, k) => ({ where: store.whereOf(k), xs: Array.from(store.chain(k)) }));
  return { chains, features, dim: store.dim, arrays: jsonCounters.arrays - before };
}

async function errorOf(text: string, rng: Rng, stream = true): Promise<string> {
  try {
    await read(text, rng, stream);
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
  return 'no error';
}

const BASE: ChainCliOptions = { file: undefined, input: undefined, thickness: 0, closed: false, between: true, format: undefined, output: undefined, progress: false, stats: false, threads: 1, tile: undefined };

/** Runs `skewline chain` in this process, its output to a file; returns what was written and the arrays the JSON reader built. */
async function run(opts: Partial<ChainCliOptions>): Promise<{ code: number; stdout: string; stderr: string; arrays: number; written: boolean }> {
  const err = collector();
  const out = join(work, `out-${Math.random().toString(36).slice(2)}.txt`);
  const before = jsonCounters.arrays;
  const code = await runChain({ ...BASE, output: out, ...opts }, { stdin: process.stdin, stdout: process.stdout, stderr: err.stream }, '');
  const arrays = jsonCounters.arrays - before;
  const { stdout, written } = takeOutput(out);
  return { code, stdout, stderr: err.text(), arrays, written };
}

describe('skewline chain: GeoJSON coordinates streamed a number at a time', () => {
  it('issue 15 item 3: seeded documents (seed 1531) in random chunks give the chains, their dimension and the features of the array path, and build no array for streamed coordinates', async () => {
    const rng = makeRng(1531);
    for (let trial = 0; trial < 60; trial++) {
      const doc = document(rng, rng.int(1, 8));
      const what = `seed 1531 trial ${trial} (${doc.layout})`;
      const a = await read(doc.streamed, rng);
      const b = await read(doc.streamed, rng, false);
      const c = await read(doc.arrays, rng);
      for (const [x, how] of [[a, 'streamed'], [c, 'recorded']] as const) {
        expect(x.chains, `${what}: ${how}`).toEqual(b.chains);
        expect(x.dim, `${what}: ${how}`).toBe(b.dim);
        expect(x.features, `${what}: ${how}`).toEqual(b.features);
      }
      // Streamed: only the arrays outside the chain geometries' coordinates (properties, points, collections) are built.
      let outside = 0;
      for (const v of doc.items) {
        const g = v.type === 'Feature' ? (v as Feature).geometry : (v as Geometry);
        outside += arraysIn(v) - (g !== null && STREAMABLE.includes(g.type) ? arraysIn(g.coordinates) : 0);
      }
      expect(a.arrays, what).toBe(outside);
      expect(c.arrays, what).toBeLessThanOrEqual(outside); // (a recorded Point's coordinates are built by the record)
      expect(b.arrays, what).toBe(arraysIn(doc.items) - 1); // (the list of items is streamed, not built)
    }
  });

  it('issue 15 item 3: every coordinate error of a streamed feature has the array path\'s message (line, path, what), held until the feature ends (seed 1532)', async () => {
    const rng = makeRng(1532);
    const cases: [string, string][] = [
      ['LineString', '[[0,0]]'],
      ['LineString', '[]'],
      ['LineString', '[[0,0],[1,"a"]]'],
      ['LineString', '[[0,0],[1]]'],
      ['LineString', '[[0,0],5]'],
      ['LineString', '[[0,0],null,[1]]'],
      ['LineString', '[[0,0],[[1],2]]'],
      ['LineString', '[[0,0],[1,{"a":[1]}]]'],
      ['LineString', '[[0,0],[1,1,1,1]]'],
      ['LineString', '[[0,0,0,0],[1,1,1]]'],
      ['LineString', '[[0,0],[1,1,1],[2,2,2,2]]'],
      ['LineString', '[[0,0,0],[1,1],[2,2,2,2]]'],
      ['LineString', '[[[0,0]],[[1,1]]]'],
      ['LineString', '["x"]'],
      ['LineString', '[[0,"a"]]'],
      ['MultiLineString', '[[[0,0],[1,1]],5]'],
      ['MultiLineString', '[[[0,0]]]'],
      ['MultiLineString', '[[[0,0],[1,"x"]],[[0]]]'],
      ['MultiLineString', '[[[0,0],[1,1]],[[0,0],[1,true]]]'],
      ['MultiLineString', '[[0,0],[1,1]]'],
      ['Polygon', '[[[0,0],[1,0],[0,0]]]'],
      ['Polygon', '[[[0,0],[1,0],[1,1],[0,0]],[[0,0]]]'],
      ['Polygon', '[[[0,0],[1,0],[1,1],[0,"z"]]]'],
      ['MultiPolygon', '[5]'],
      ['MultiPolygon', '[[5]]'],
      ['MultiPolygon', '[[[[0,0],[1,0]]]]'],
      ['MultiPolygon', '[[[[0,0],[1,0],[1,1],[0,0]]],[[[0,0],[1,0],[1,1],[0,[1]]]]]'],
      ['MultiPolygon', '[[[0,0],[1,0],[1,1],[0,0]]]'],
    ];
    for (const [type, coords] of cases) {
      for (const wrap of ['feature', 'geometry'] as const) {
        const good = '{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[9,9],[8,8]]}}';
        const make = (typeFirst: boolean): string => {
          const g = typeFirst ? `{"type":"${type}","coordinates":${coords}}` : `{"coordinates":${coords},"type":"${type}"}`;
          const item = wrap === 'geometry' ? g : typeFirst ? `{"type":"Feature","properties":{"p":1},"geometry":${g}}` : `{"properties":{"p":1},"geometry":${g},"type":"Feature"}`;
          return `{"type":"FeatureCollection","features":[\n${good},\n${item},\n${good}]}`;
        };
        const what = `${wrap} ${type} ${coords}`;
        const reference = await errorOf(make(true), rng, false);
        expect(reference, what).toMatch(/^InputError: line 3: features\[1\]/);
        expect(await errorOf(make(true), rng), `${what}: streamed`).toBe(reference);
        expect(await errorOf(make(false), rng), `${what}: recorded`).toBe(reference);
      }
    }
    // A syntax error later in the feature is the one reported, as when the feature is built whole.
    for (const late of ['{"type":"LineString","coordinates":[[0,0],[1,"a"]],"x":}', '{"coordinates":[[0,0],[1,"a"]],"type":"LineString","x":}']) {
      expect(await errorOf(late, rng)).toBe('JsonSyntaxError: 1:56: expected a value (got \'}\')');
      expect(await errorOf(late, rng, false)).toBe('JsonSyntaxError: 1:56: expected a value (got \'}\')');
    }
  });

  it('issue 15 item 3: an error in the last streamed feature, after features already searched, writes nothing (feature by feature, --tile in two passes, the whole run)', async () => {
    const rng = makeRng(1536);
    const feature = (k: number, last: string): string => {
      const xs = Array.from({ length: 50 }, () => `[${rng.int(0, 9)},${rng.int(0, 9)}]`).join(',');
      return `{"type":"Feature","properties":{"k":${k}},"geometry":{"type":"MultiLineString","coordinates":[[${xs}${last}]]}}`;
    };
    const path = join(work, 'late-error.geojson');
    writeFileSync(path, `{"type":"FeatureCollection","features":[\n${feature(0, '')},\n${feature(1, '')},\n${feature(2, ',[1,"a"]')}\n]}\n`);
    for (const mode of [{ between: false }, { between: false, tile: { i: 0, n: 2 } }, {}] as Partial<ChainCliOptions>[]) {
      const r = await run({ file: path, format: 'csv', ...mode });
      expect(r.code, JSON.stringify(mode)).toBe(1);
      expect(r.written, JSON.stringify(mode)).toBe(false);
      expect(r.stderr, JSON.stringify(mode)).toContain('late-error.geojson:4: features[2].geometry.coordinates[0][50][1]: not a finite number ("a")');
    }
  });

  it('issue 15 item 3: a streamed feature whose type, geometry or coordinates is given twice is an error naming it (not chains of the wrong member)', async () => {
    const rng = makeRng(1533);
    const twice = [
      '{"type":"LineString","coordinates":[[0,0],[1,1]],"coordinates":[[0,0],[2,2]]}',
      '{"type":"LineString","coordinates":[[0,0],[1,1]],"type":"Point"}',
      '{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"type":"LineString","coordinates":[[5,5],[6,6]]}',
      '{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"geometry":null}',
    ];
    for (const text of twice) expect(await errorOf(text, rng), text).toMatch(/^InputError: line 1: (type|geometry): a member \('type', 'geometry' or 'coordinates'\) is given twice$/);
    // Given twice before the type (the first coordinates recorded, the second built), or the type twice after a record: the last one counts, as in the array path.
    for (const text of [
      '{"coordinates":[[7,7],[8,8]],"type":"LineString","coordinates":[[0,0],[2,2]]}',
      '{"coordinates":[[0,0],[2,2]],"type":"Point","type":"LineString"}',
      '{"geometry":{"coordinates":[[7,7],[8,8]],"type":"LineString"},"geometry":{"type":"LineString","coordinates":[[0,0],[2,2]]},"type":"Feature"}',
      '{"geometry":{"type":"LineString","coordinates":[[7,7],[8,8]]},"type":"LineString","coordinates":[[0,0],[2,2]],"type":"Feature","type":"LineString"}',
    ]) {
      const got = await read(text, rng);
      expect(got.chains, text).toEqual([{ where: { feature: 0 }, xs: [0, 0, 2, 2] }]);
      expect(got.chains, text).toEqual((await read(text, rng, false)).chains);
    }
  });

  it('issue 15 item 3: the CLI writes the same bytes for streamed and built coordinates (CSV, NDJSON, GeoJSON; contacts between chains, --no-between, --tile 1/3; seed 1534)', async () => {
    const rng = makeRng(1534);
    for (let trial = 0; trial < 3; trial++) {
      let doc = document(rng, 12);
      while (doc.layout === 'one') doc = document(rng, 12);
      const a = join(work, `s${trial}.geojson`), b = join(work, `a${trial}.geojson`);
      writeFileSync(a, doc.streamed);
      writeFileSync(b, doc.arrays);
      for (const format of ['csv', 'ndjson', 'geojson'] as const) {
        for (const mode of [{}, { between: false }, { between: false, tile: { i: 1, n: 3 } }] as Partial<ChainCliOptions>[]) {
          const what = `seed 1534 trial ${trial} (${doc.layout}) ${format} ${JSON.stringify(mode)}`;
          const x = await run({ file: a, format, thickness: 0.5, ...mode });
          const y = await run({ file: b, format, thickness: 0.5, ...mode });
          const z = await run({ file: a, format, thickness: 0.5, ...mode, coordsStream: false });
          expect(z.code, what).toBe(0);
          expect([x.stderr, y.stderr], what).toEqual([z.stderr, z.stderr]);
          expect(x.stdout, `${what}: streamed`).toBe(z.stdout);
          expect(y.stdout, `${what}: recorded`).toBe(z.stdout);
          expect(x.arrays, what).toBeLessThan(z.arrays);
          expect(y.arrays, what).toBeLessThan(z.arrays);
          if (format === 'csv' && mode.between !== false) expect(x.stdout.split('\n').length, what).toBeGreaterThan(10); // contacts to compare
        }
      }
    }
  });

  it('issue 15 items 3–4: two-pass --tile 0/16 on one LineString feature of 200,000 vertices builds no per-position array, type first or last (the same bytes as the array path, which builds one per position in each pass; seed 1535)', async () => {
    const rng = makeRng(1535);
    const n = 200_000;
    const xs: string[] = [];
    let x = 0, y = 0;
    for (let v = 0; v < n; v++) {
      x += rng.int(-3, 3) / 4;
      y += rng.int(-3, 3) / 4;
      xs.push(`[${x},${y}]`);
    }
    const coords = `[${xs.join(',')}]`;
    const a = join(work, 'giant.geojson'), b = join(work, 'giant-arrays.geojson');
    writeFileSync(a, `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"giant"},"geometry":{"type":"LineString","coordinates":${coords}}}]}`);
    writeFileSync(b, `{"type":"FeatureCollection","features":[{"properties":{"name":"giant"},"geometry":{"coordinates":${coords},"type":"LineString"},"type":"Feature"}]}`);
    const streamed = await run({ file: a, format: 'csv', tile: { i: 0, n: 16 } });
    const recorded = await run({ file: b, format: 'csv', tile: { i: 0, n: 16 } });
    const arrays = await run({ file: a, format: 'csv', tile: { i: 0, n: 16 }, coordsStream: false });
    expect(streamed.stderr).toBe('');
    expect(streamed.stdout.split('\n').length).toBeGreaterThan(100);
    expect(streamed.stdout).toBe(arrays.stdout);
    expect(recorded.stdout).toBe(arrays.stdout);
    expect(streamed.arrays).toBe(0);
    expect(recorded.arrays).toBe(0);
    expect(arrays.arrays).toBeGreaterThanOrEqual(2 * (n + 1)); // each pass: the coordinates and every position
  });
});
