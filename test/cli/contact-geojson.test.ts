/**
 * Issue 16 (GeoJSON output ≥ 1M contact features/s): the byte writer (cli/contact-geojson.ts)
 * writes exactly the text of the string writer it replaced (test/cli/geojson-reference.ts), byte
 * for byte: on seeded random walks (crossing points), grid walks (touches, T-junctions,
 * overlaps), 3D and thick chains, coordinates at the extremes of the double range and near ±0,
 * with feature properties in and out of ASCII, over several batches (chain numbering) and
 * chunks, as text and as bytes (what the CLI writes); and a number it cannot write stops it at
 * the same feature with the same message.
 */
import { describe, expect, it } from 'vitest';
import { multiChainContacts, type MultiChainContacts } from '../../src/index.js';
import { GeojsonContactWriter } from '../../cli/contact-geojson.js';
import { CoordStore } from '../../cli/geojson-stream.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng, type Rng } from '../support/rng.js';
import { ReferenceGeojsonWriter } from './geojson-reference.js';

interface Batch {
  store: CoordStore;
  r: MultiChainContacts;
}

/** `features` chains from `walk`, each moved by `shift` and scaled by `scale`, as one store, with their contacts. */
function batch(features: number, first: number, dim: number, thickness: number, walk: (f: number) => Float64Array, map: (x: number, q: number, f: number) => number): Batch {
  const store = new CoordStore();
  store.dim = dim;
  for (let f = 0; f < features; f++) {
    store.begin(f % 5 === 4 ? { feature: first + f, part: 1, ring: 0 } : f % 7 === 6 ? {} : { feature: first + f });
    const P = walk(f);
    for (let k = 0; k < P.length; k++) store.push(map(P[k], k % dim, f));
  }
  const r = multiChainContacts(Array.from({ length: store.count }, (_, k) => store.chain(k)), { dim, thickness });
  return { store, r };
}

/** Feature properties as ContactWriter keeps them: JSON text of each side, some outside ASCII. */
function props(n: number, big = false): [Map<number, string>, Map<number, string>] {
  const a = new Map<number, string>(), b = new Map<number, string>();
  for (let f = 0; f < n; f++) {
    if (f % 3 === 2) continue; // no properties
    const name = big && f === 1 ? 'ä'.repeat(100_000) : f % 4 === 0 ? `Zürich ${f} 🌊` : `parcel ${f}`;
    a.set(f, `,"a_name":${JSON.stringify(name)},"a_id":${f}`);
    b.set(f, `,"b_name":${JSON.stringify(name)},"b_id":${f}`);
  }
  return [a, b];
}

/** Both writers' text over the batches (chain numbers continue from batch to batch), or the error each ended with. */
async function both(batches: Batch[], thickness: number, features: number, big = false): Promise<{ got: string; want: string; gotError: string | undefined; wantError: string | undefined }> {
  const [a, b] = props(features, big);
  const out: string[] = [];
  const ref: string[] = [];
  const chunks: Uint8Array[] = [];
  const w = new GeojsonContactWriter((t: string) => out.push(t), thickness, a, b);
  const wb = new GeojsonContactWriter((c: Uint8Array) => chunks.push(c), thickness, a, b, true);
  const rw = new ReferenceGeojsonWriter(thickness, (t) => ref.push(t), a, b);
  const drain = (): Promise<void> => Promise.resolve();
  let base = 0;
  let gotError: string | undefined, wantError: string | undefined, bytesError: string | undefined;
  for (const { store, r } of batches) {
    try {
      await w.contacts(r, store, base, drain);
    } catch (e) {
      gotError ??= (e as Error).message;
    }
    try {
      await wb.contacts(r, store, base, drain);
    } catch (e) {
      bytesError ??= (e as Error).message;
    }
    try {
      await rw.contacts(r, store, base, drain);
    } catch (e) {
      wantError ??= (e as Error).message;
    }
    base += store.count;
  }
  // The bytes, as the CLI writes them, are the text's UTF-8; fresh chunks, none reused.
  const text = out.join('');
  expect(Buffer.concat(chunks).toString('utf8') === text).toBe(true);
  expect(new Set(chunks.map((c) => c.buffer)).size).toBe(chunks.length);
  expect(bytesError).toBe(gotError);
  return { got: text, want: ref.join(''), gotError, wantError };
}

function firstDifference(a: string, b: string): string {
  let k = 0;
  while (k < a.length && a[k] === b[k]) k++;
  return `${k}: ${JSON.stringify(a.slice(Math.max(0, k - 80), k + 80))} vs ${JSON.stringify(b.slice(Math.max(0, k - 80), k + 80))}`;
}

const walks = {
  random: (rng: Rng, dim: number) => () => randomWalk(80, dim, rng),
  grid: (rng: Rng, dim: number) => () => gridWalk(60, dim, rng),
};

describe('issue 16: GeoJSON contact features written as bytes equal the string writer, byte for byte', () => {
  it('issue 16: byte writer = string writer on seeded 2D random and grid walks, 3D and thick chains, in batches (seed 1616)', async () => {
    const rng = makeRng(1616);
    const cases: [string, number, number, (rng: Rng, dim: number) => (f: number) => Float64Array][] = [
      ['2D random, thickness 0', 2, 0, walks.random],
      ['2D grid, thickness 0', 2, 0, walks.grid],
      ['2D random, thickness 0.3', 2, 0.3, walks.random],
      ['3D random, thickness 0.5', 3, 0.5, walks.random],
      ['3D grid, thickness 0', 3, 0, walks.grid],
    ];
    for (const [name, dim, thickness, walk] of cases) {
      const batches = [0, 1, 2].map((k) => {
        const x0 = Math.round(rng.next() * 20);
        return batch(12, 12 * k, dim, thickness, walk(rng, dim), (x, q) => x + (q === 0 ? x0 : 0));
      });
      const count = batches.reduce((s, b) => s + b.r.count, 0);
      expect(count, name).toBeGreaterThan(500);
      const { got, want, gotError, wantError } = await both(batches, thickness, 36);
      expect([gotError, wantError], name).toEqual([undefined, undefined]);
      expect(got.length, name).toBeGreaterThan(70_000); // more than one chunk
      if (got !== want) expect.fail(`${name}: the texts differ from character ${firstDifference(got, want)}`);
      expect(() => JSON.parse(`{"features":[${got}]}`), name).not.toThrow();
    }
  });

  it('issue 16: byte writer = string writer at extreme scales, −0 and near-integer coordinates (seed 1617)', async () => {
    const rng = makeRng(1617);
    const maps: [string, (x: number, q: number, f: number) => number][] = [
      ['tiny (1e-300)', (x) => x * 1e-300],
      ['subnormal-ish (1e-310)', (x) => x * 1e-310],
      ['huge (1e300)', (x) => x * 1e300],
      ['1e15 offset', (x, q) => x + (q === 0 ? 1e15 : -3e15)],
      ['past 2^53', (x) => x * 2 ** 50],
      ['1e-6 scale', (x) => x * 1e-6],
      ['1e-7 scale', (x) => x * 1.3e-7],
      ['−0 on the axes', (x) => (x === 0 ? -0 : x)],
      ['−0 in every other chain (a touch at 0 and −0: which endpoint is written)', (x, _q, f) => (x === 0 && f % 2 === 1 ? -0 : x)],
      ['short decimals', (x) => x / 8],
    ];
    for (const [name, map] of maps) {
      for (const walk of [walks.random, walks.grid]) {
        const batches = [batch(8, 0, 2, 0, walk(rng, 2), map)];
        const { got, want, gotError, wantError } = await both(batches, 0, 8);
        expect(gotError, name).toBe(wantError);
        if (got !== want) expect.fail(`${name}: the texts differ from character ${firstDifference(got, want)}`);
      }
    }
  });

  it('issue 16: a number past the double range stops both writers at the same feature with the same message (a feature larger than a chunk before it)', async () => {
    const store = new CoordStore();
    store.dim = 2;
    store.begin({ feature: 0 });
    for (const x of [0, 0, 1, 1, 2, 0, 3, 1]) store.push(x);
    store.begin({ feature: 1 });
    for (const x of [0, 1, 1, 0, 2, 1, 3, 0]) store.push(x);
    const r = multiChainContacts([store.chain(0), store.chain(1)], { dim: 2, thickness: 0 });
    expect(r.count).toBeGreaterThan(2);
    // As a search result whose last contact's distance overflowed (the writers' own guard).
    const bad: Batch = { store, r: { ...r, distance: Float64Array.from(r.distance, (d, k) => (k === r.count - 1 ? Infinity : d)) } };
    const { got, want, gotError, wantError } = await both([bad], 0, 2, true);
    expect(gotError).toMatch(/^a contact's distance is not representable \(Infinity\)/);
    expect(gotError).toBe(wantError);
    expect(got).toBe(want);
    expect(got.split('\n{').length - 1).toBe(r.count - 1);
  });
});
