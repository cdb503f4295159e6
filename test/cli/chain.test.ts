/**
 * `skewline chain`, spawned as a user runs it: the bundled coastline, CSV and GeoJSON input,
 * results checked against the library called in this process, errors naming the line or the
 * GeoJSON path, and -o leaving nothing behind on error.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainContacts, chainIntersections, multiChainContacts } from '../../src/index.js';
import { compileCli, runCli, REPO, type CliHarness } from './harness.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';

let h: CliHarness;
beforeAll(() => {
  h = compileCli('chain');
}, 90_000);
afterAll(() => h?.dispose());

const run = (args: string[], input?: string) => runCli(h, args, input);
const file = (name: string, text: string): string => {
  writeFileSync(join(h.work, name), text);
  return name;
};
const csvOf = (P: Float64Array, dim: number): string => {
  const axes = ['x', 'y', 'z', 'w'].slice(0, dim);
  const lines = [axes.join(',')];
  for (let k = 0; k < P.length; k += dim) lines.push(Array.from(P.subarray(k, k + dim)).join(','));
  return lines.join('\n') + '\n';
};
const rows = (text: string): string[][] => text.trimEnd().split('\n').slice(1).map((l) => l.split(','));

describe.concurrent('skewline chain', () => {
  it('runs the bundled coastline with no input: GeoJSON points where the rings touch themselves', async () => {
    const r = await run(['chain']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const fc = JSON.parse(r.stdout) as { type: string; features: { geometry: { type: string; coordinates: number[] }; properties: { a: { ring: number; segment: number }; kind: string } }[] };
    expect(fc.type).toBe('FeatureCollection');
    const doc = JSON.parse(readFileSync(join(REPO, 'data', 'coastline.geojson'), 'utf8')) as { features: { geometry: { coordinates: number[][][] } }[] };
    const rings = doc.features.map((f) => f.geometry.coordinates[0]);
    const want = rings.reduce((s, ring) => s + chainContacts(ring).count, 0);
    expect(fc.features.length).toBe(want);
    // Crossing points are chainIntersections' exact points.
    const x = chainIntersections(rings[0]);
    const pts = fc.features.filter((f) => f.geometry.type === 'Point').map((f) => f.geometry.coordinates);
    for (let k = 0; k < x.count; k++) expect(pts).toContainEqual([x.x0[k], x.y0[k]]);
  });

  it('reads a 3D CSV chain with a thickness and prints what chainContacts finds, digit for digit', async () => {
    const P = randomWalk(400, 3, makeRng(42));
    const r = await run(['chain', file('walk3.csv', csvOf(P, 3)), '--thickness', '0.3']);
    expect(r.code, r.stderr).toBe(0);
    const want = chainContacts(P, { dim: 3, thickness: 0.3 });
    const got = rows(r.stdout);
    expect(r.stdout.split('\n')[0]).toBe('chain_i,i,chain_j,j,distance,s,t,cx,cy,cz,dx,dy,dz');
    expect(got.length).toBe(want.count);
    got.forEach((row, k) => {
      expect(Number(row[1])).toBe(want.i[k]);
      expect(Number(row[3])).toBe(want.j[k]);
      expect(Number(row[4])).toBe(want.distance[k]);
      expect(Number(row[5])).toBe(want.s[k]);
      expect(Number(row[6])).toBe(want.t[k]);
    });
  });

  it('a chain column or blank lines separate chains; --between adds contacts across them; NDJSON out', async () => {
    const rng = makeRng(7);
    const A = gridWalk(60, 2, rng), B = gridWalk(60, 2, rng);
    const text = csvOf(A, 2) + '\n' + csvOf(B, 2).split('\n').slice(1).join('\n');
    const within = await run(['chain', file('two.csv', text), '--format', 'ndjson']);
    const between = await run(['chain', 'two.csv', '--between', '--format', 'ndjson']);
    expect(within.code).toBe(0);
    const parse = (s: string) => s.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { chainI: number; i: number; chainJ: number; j: number });
    const w = multiChainContacts([A, B], { dim: 2, between: false });
    const b = multiChainContacts([A, B], { dim: 2 });
    expect(parse(within.stdout).map((o) => [o.chainI, o.i, o.chainJ, o.j])).toEqual(Array.from({ length: w.count }, (_, k) => [w.chainI[k], w.i[k], w.chainJ[k], w.j[k]]));
    expect(parse(between.stdout).length).toBe(b.count);
    expect(b.count).toBeGreaterThan(w.count);
    const withId = 'id,x,y\n' + [...Array.from({ length: 61 }, (_, k) => `a,${A[2 * k]},${A[2 * k + 1]}`), ...Array.from({ length: 61 }, (_, k) => `b,${B[2 * k]},${B[2 * k + 1]}`)].join('\n');
    const r3 = await run(['chain', file('ids.csv', withId), '--between', '--format', 'ndjson']);
    expect(parse(r3.stdout).length).toBe(b.count);
  });

  it('GeoJSON: LineStrings, Polygons with holes, MultiPolygons; --closed for open rings', async () => {
    const doc = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [[0, 0], [2, 0], [1, 1], [1, -1]] } },
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[1, 1], [3, 3], [3, 1], [1, 3], [1, 1]]] } },
        { type: 'Feature', properties: {}, geometry: null },
      ],
    };
    const r = await run(['chain', file('map.geojson', JSON.stringify(doc))]);
    expect(r.code, r.stderr).toBe(0);
    const fc = JSON.parse(r.stdout) as { features: { geometry: { coordinates: number[] }; properties: { a: { feature: number; ring?: number } } }[] };
    // The line crosses itself at (1, 0); the hole is a bow-tie crossing at (2, 2).
    expect(fc.features.map((f) => f.geometry.coordinates)).toEqual([[1, 0], [2, 2]]);
    expect(fc.features[1].properties.a).toEqual({ chain: 2, feature: 1, ring: 1, segment: 0 });
  });

  it('bad input names the line, the column or the GeoJSON path; exit 1; -o leaves nothing', async () => {
    const bad = await run(['chain', file('bad.csv', 'x,y\n0,0\n1,oops\n'), '-o', 'out.csv']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("skewline: bad.csv:3: column y: not a number (\"oops\")\n");
    expect(existsSync(join(h.work, 'out.csv'))).toBe(false);
    expect(readdirSync(h.work).filter((f) => f.startsWith('.skewline-out.csv'))).toEqual([]); // (other tests run concurrently in this folder)
    const short = await run(['chain', file('short.csv', '0,0,0\n1,1\n')]);
    expect(short.stderr).toMatch(/short\.csv:2: expected 3 fields/);
    const geo = await run(['chain', file('bad.geojson', '{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,"x"]]}}')]);
    expect(geo.stderr).toBe('skewline: bad.geojson: geometry.coordinates[1][1]: not a finite number ("x")\n');
    const mixed = await run(['chain', file('mixed.geojson', '{"type":"LineString","coordinates":[[0,0],[1,1,1]]}')]);
    expect(mixed.stderr).toMatch(/coordinates\[1\]: has 3 coordinates, earlier positions 2/);
    const notJson = await run(['chain', file('x.json', '{"type":')]);
    expect(notJson.stderr).toMatch(/x\.json: not valid JSON/);
    const usage = await run(['chain', '--thickness', 'abc']);
    expect(usage.code).toBe(2);
    expect((await run(['chain', 'missing.csv'])).stderr).toMatch(/cannot read 'missing\.csv'/);
  });

  it('reads piped input and writes -o atomically', async () => {
    const r = await run(['chain', '-o', 'piped.csv'], 'x,y\n0,0\n2,0\n1,1\n1,-1\n');
    expect(r.code).toBe(0);
    expect(readFileSync(join(h.work, 'piped.csv'), 'utf8')).toBe('chain_i,i,chain_j,j,distance,s,t,cx,cy,dx,dy\n0,0,0,2,0,0.5,0.5,1,0,1,0\n');
  });
});
