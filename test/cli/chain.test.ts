/**
 * `skewline chain`, spawned as a user runs it: the bundled coastline, CSV and GeoJSON input,
 * results checked against the library called in this process, errors naming the line or the
 * GeoJSON path, and -o leaving nothing behind on error.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainContacts, chainIntersections, CONTACT_KIND_NAMES, contactKind, multiChainContacts, OVERLAP_CONTACT } from '../../src/index.js';
import { compileCli, runCli, REPO, type CliHarness } from './harness.js';
import { pointOn } from '../../cli/chain.js';
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
    expect(r.stdout.split('\n')[0]).toBe('chain_i,i,chain_j,j,distance,s,t,cx,cy,cz,dx,dy,dz,kind');
    expect(got.length).toBe(want.count);
    got.forEach((row, k) => {
      expect(Number(row[1])).toBe(want.i[k]);
      expect(Number(row[3])).toBe(want.j[k]);
      expect(Number(row[4])).toBe(want.distance[k]);
      expect(Number(row[5])).toBe(want.s[k]);
      expect(Number(row[6])).toBe(want.t[k]);
    });
  });

  it('a chain column or blank lines separate chains; --no-between keeps contacts within each; NDJSON out', async () => {
    const rng = makeRng(7);
    const A = gridWalk(60, 2, rng), B = gridWalk(60, 2, rng);
    const text = csvOf(A, 2) + '\n' + csvOf(B, 2).split('\n').slice(1).join('\n');
    const within = await run(['chain', file('two.csv', text), '--no-between', '--format', 'ndjson']);
    const between = await run(['chain', 'two.csv', '--format', 'ndjson']);
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
    const r = await run(['chain', file('map.geojson', JSON.stringify(doc)), '--no-between']);
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
    expect(geo.stderr).toBe('skewline: bad.geojson:1: geometry.coordinates[1][1]: not a finite number ("x")\n');
    const mixed = await run(['chain', file('mixed.geojson', '{"type":"LineString","coordinates":[[0,0,0],[1,1,1,1]]}')]);
    expect(mixed.stderr).toMatch(/coordinates\[1\]: has 4 coordinates, earlier positions 3 \(feature 0; only 2 and 3 may mix/);
    const notJson = await run(['chain', file('x.json', '{"type":')]);
    expect(notJson.stderr).toBe("skewline: x.json:1:9: expected a value (got the end of the input)\n");
    const usage = await run(['chain', '--thickness', 'abc']);
    expect(usage.code).toBe(2);
    expect((await run(['chain', 'missing.csv'])).stderr).toMatch(/cannot read 'missing\.csv'/);
  });

  it('reads piped input and writes -o atomically', async () => {
    const r = await run(['chain', '-o', 'piped.csv'], 'x,y\n0,0\n2,0\n1,1\n1,-1\n');
    expect(r.code).toBe(0);
    expect(readFileSync(join(h.work, 'piped.csv'), 'utf8')).toBe('chain_i,i,chain_j,j,distance,s,t,cx,cy,dx,dy,kind\n0,0,0,2,0,0.5,0.5,1,0,1,0,crossing\n');
  });

  it('issue 17 item 2: --format ndjson writes one record per line and no empty line', async () => {
    const r = await run(['chain', file('cross.csv', 'x,y\n0,0\n2,0\n1,1\n1,-1\n0,-1\n0,2\n'), '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).every((l) => l !== '' && JSON.parse(l) !== null)).toBe(true);
    expect(lines.length - 1).toBe(chainContacts([0, 0, 2, 0, 1, 1, 1, -1, 0, -1, 0, 2], { dim: 2 }).count);
  });

  it('issue 17 item 3: empty input gives the CSV header alone, nothing in NDJSON, an empty FeatureCollection; exit 0', async () => {
    const csv = await run(['chain', file('empty.csv', '')]);
    expect([csv.code, csv.stdout]).toEqual([0, 'chain_i,i,chain_j,j,distance,s,t,cx,cy,dx,dy,kind\n']);
    const nd = await run(['chain', 'empty.csv', '--format', 'ndjson']);
    expect([nd.code, nd.stdout]).toEqual([0, '']);
    const geo = await run(['chain', file('empty.geojson', '')]);
    expect(geo.code, geo.stderr).toBe(0);
    expect(JSON.parse(geo.stdout)).toEqual({ type: 'FeatureCollection', features: [] });
    const blank = await run(['chain', file('blank.geojson', ' \r\n\n')]);
    expect([blank.code, JSON.parse(blank.stdout)]).toEqual([0, { type: 'FeatureCollection', features: [] }]);
    const fc = await run(['chain', file('nofeat.geojson', '{"type":"FeatureCollection","features":[]}'), '--format', 'csv']);
    expect([fc.code, fc.stdout]).toEqual([0, 'chain_i,i,chain_j,j,distance,s,t,cx,cy,dx,dy,a_id,b_id,kind\n']);
  });

  it('issue 17 item 5: a plain JSON array of points is a chain', async () => {
    const r = await run(['chain', file('arr.json', '[[0,0],[2,0],[1,1],[1,-1]]'), '--format', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('chain_i,i,chain_j,j,distance,s,t,cx,cy,dx,dy,a_id,b_id,kind\n0,0,0,2,0,0.5,0.5,1,0,1,0,,,crossing\n');
  });

  it('issue 17 item 5: mixed 2D/3D GeoJSON positions are read as 3D with z = 0', async () => {
    const doc = { type: 'FeatureCollection', features: [
      { type: 'Feature', properties: null, geometry: { type: 'LineString', coordinates: [[0, 0], [2, 0]] } },
      { type: 'Feature', properties: null, geometry: { type: 'LineString', coordinates: [[1, -1, 0], [1, 1, 0], [1, 1, 5]] } },
    ] };
    const r = await run(['chain', file('mixed23.geojson', JSON.stringify(doc)), '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const want = multiChainContacts([[0, 0, 0, 2, 0, 0], [1, -1, 0, 1, 1, 0, 1, 1, 5]], { dim: 3 });
    const got = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { chainI: number; j: number; c: number[] });
    expect(got.length).toBe(want.count);
    expect(got[0]).toMatchObject({ chainI: 0, chainJ: 1, j: 0, c: [1, 0, 0] });
  });

  it("issue 17 item 5: input features' id and properties travel to their contacts (a_id, b_id, a_<name>, b_<name>)", async () => {
    const doc = { type: 'FeatureCollection', features: [
      { type: 'Feature', id: 'parcel-7', properties: { owner: 'Ada', area: 12.5 }, geometry: { type: 'LineString', coordinates: [[0, 0], [2, 0]] } },
      { type: 'Feature', id: 42, properties: { owner: 'Bo' }, geometry: { type: 'LineString', coordinates: [[1, -1], [1, 1]] } },
    ] };
    const r = await run(['chain', file('ids.geojson', JSON.stringify(doc))]);
    expect(r.code, r.stderr).toBe(0);
    const fc = JSON.parse(r.stdout) as { features: { properties: Record<string, unknown> }[] };
    expect(fc.features.length).toBe(1);
    expect(fc.features[0].properties).toMatchObject({ a_id: 'parcel-7', a_owner: 'Ada', a_area: 12.5, b_id: 42, b_owner: 'Bo' });
    const csv = await run(['chain', 'ids.geojson', '--format', 'csv']);
    expect(csv.stdout.split('\n')[1].endsWith(',parcel-7,42,crossing')).toBe(true);
    const nd = await run(['chain', 'ids.geojson', '--format', 'ndjson']);
    expect(JSON.parse(nd.stdout)).toMatchObject({ a_id: 'parcel-7', b_id: 42, a_owner: 'Ada', b_owner: 'Bo' });
  });

  it('issue 17 item 5: --between is on by default, as in multiChainContacts; --no-between turns it off', async () => {
    const rng = makeRng(17);
    const A = randomWalk(80, 2, rng), B = randomWalk(80, 2, rng);
    const text = csvOf(A, 2) + '\n' + csvOf(B, 2).split('\n').slice(1).join('\n');
    const dflt = await run(['chain', file('ab.csv', text)]);
    const off = await run(['chain', 'ab.csv', '--no-between']);
    expect(rows(dflt.stdout).length).toBe(multiChainContacts([A, B], { dim: 2 }).count);
    expect(rows(off.stdout).length).toBe(multiChainContacts([A, B], { dim: 2, between: false }).count);
    expect(rows(dflt.stdout).length).toBeGreaterThan(rows(off.stdout).length);
  });

  it('issue 17 item 5: progress moves through reading, searching and writing, never "0 rows"', async () => {
    const P = randomWalk(3000, 2, makeRng(5));
    const r = await run(['chain', file('prog.csv', csvOf(P, 2)), '--progress', '-o', 'prog-out.csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/reading .*MB/);
    expect(r.stderr).toMatch(/searching 3,001 vertices in 1 chains/);
    const n = chainContacts(P, { dim: 2 }).count.toLocaleString('en');
    expect(r.stderr).toContain(`writing ${n}/${n} contacts`);
    expect(r.stderr).not.toMatch(/ 0 rows/);
  });

  it('issue 19: a Polygon ring of fewer than 4 positions and a LineString of 0–1 positions are errors naming the feature', async () => {
    const ring = await run(['chain', file('ring2.geojson', '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1]]]}}]}')]);
    expect([ring.code, ring.stderr]).toEqual([1, 'skewline: ring2.geojson:1: features[0].geometry.coordinates[0]: a Polygon ring needs at least 4 positions (got 2; feature 0)\n']);
    const one = await run(['chain', file('line1.geojson', '{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0]]}}\n')]);
    expect(one.stderr).toBe('skewline: line1.geojson:1: geometry.coordinates: a LineString needs at least 2 positions (got 1; feature 0)\n');
    const none = await run(['chain', file('line0.ndjson', '{"type":"LineString","coordinates":[[0,0],[1,1]]}\n{"type":"LineString","coordinates":[]}\n')]);
    expect(none.stderr).toBe('skewline: line0.ndjson:2: geometry.coordinates: a LineString needs at least 2 positions (got 0; feature 1)\n');
  });

  it('issue 19: contact points near ±1e308 are computed without overflow (contact 0–2 at (0, 0)); no Infinity or NaN is written', async () => {
    const r = await run(['chain', file('huge.csv', 'x,y\n0,0\n1e308,1e308\n-1e308,1e308\n1e308,-1e308\n')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('chain_i,i,chain_j,j,distance,s,t,cx,cy,dx,dy,kind\n0,0,0,2,0,0,0.5,0,0,0,0,t-junction\n');
    for (const fmt of ['ndjson', 'geojson']) {
      const o = await run(['chain', 'huge.csv', '--format', fmt]);
      expect(o.stdout).not.toMatch(/Infinity|NaN|null/);
    }
  });

  it('issue 19: pointOn(a, b, s) is finite and between a and b for a, b across the whole double range (seed 1953)', () => {
    const rng = makeRng(1953);
    const big = (): number => (rng.next() < 0.5 ? -1 : 1) * rng.next() * 1.7976931348623157e308;
    for (let k = 0; k < 20_000; k++) {
      const a = big(), b = k % 3 === 0 ? -a : big(), s = k % 7 === 0 ? 0.5 : rng.next();
      const p = pointOn(a, b, s);
      expect(Number.isFinite(p), `seed 1953 case ${k}: ${a}, ${b}, ${s}`).toBe(true);
      expect(p >= Math.min(a, b) && p <= Math.max(a, b), `seed 1953 case ${k}`).toBe(true);
    }
    expect([pointOn(1e308, -1e308, 0), pointOn(1e308, -1e308, 1), pointOn(-1e308, 1e308, 0.5)]).toEqual([1e308, -1e308, 0]);
    expect(pointOn(1, 3, 0.25)).toBe(1.5); // the difference form where b − a is finite
  });

  it('issue 15 item 3: GeoJSON syntax errors name line:column and what was expected', async () => {
    const r = await run(['chain', file('syntax.geojson', '{"type":"FeatureCollection",\r\n "features":[\n  {"type":"Feature","geometry":null} {"type":"Feature"}]}')]);
    expect([r.code, r.stderr]).toEqual([1, "skewline: syntax.geojson:3:38: expected ',' or ']' (got '{')\n"]);
    const num = await run(['chain', file('num.geojson', '[[0,0],[1,01]]')]);
    expect(num.stderr).toBe("skewline: num.geojson:1:11: not a JSON number ('01')\n");
    const str = await run(['chain', file('str.geojson', '{"type":"Feature","geometry":{"type":"Line\nString"}}')]);
    expect(str.stderr).toMatch(/^skewline: str\.geojson:1:\d+: a string runs to the end of the line/);
  });

  it('issue 19: a .json input nested 5,000 deep is an error naming the file, line and column (no stack overflow)', async () => {
    const r = await run(['chain', file('deep.json', '{"type":"Feature","properties":' + '['.repeat(5000) + ']'.repeat(5000) + '}')]);
    expect([r.code, r.stderr]).toEqual([1, 'skewline: deep.json:1:1031: nested deeper than 1000 levels\n']);
  });

  it('GeoJSON output: meeting points and overlap pieces are exactly chainIntersections\' on a grid walk (seed 1551, touches and overlaps) and a random walk (seed 1552, crossings)', async () => {
    for (const [name, P] of [['grid', gridWalk(600, 2, makeRng(1551))], ['random', randomWalk(600, 2, makeRng(1552))]] as const) {
      const line = { type: 'LineString', coordinates: Array.from({ length: P.length / 2 }, (_, v) => [P[2 * v], P[2 * v + 1]]) };
      const r = await run(['chain', file(`${name}-walk.geojson`, JSON.stringify(line))]);
      expect(r.code, r.stderr).toBe(0);
      const fc = JSON.parse(r.stdout) as { features: { geometry: { type: string; coordinates: number[] | number[][] } }[] };
      const x = chainIntersections(P);
      expect(fc.features.length, name).toBe(x.count);
      expect(x.count).toBeGreaterThan(20);
      for (let k = 0; k < x.count; k++) {
        const want = x.kind[k] === OVERLAP_CONTACT ? { type: 'LineString', coordinates: [[x.x0[k], x.y0[k]], [x.x1[k], x.y1[k]]] } : { type: 'Point', coordinates: [x.x0[k], x.y0[k]] };
        expect(fc.features[k].geometry, `${name} walk, contact ${k}`).toEqual(want);
      }
    }
  });

  it('issue 15 item 3: newline-delimited features, RFC 8142 text sequences, BOM and CRLF read as one FeatureCollection', async () => {
    const rng = makeRng(15);
    const lines = Array.from({ length: 6 }, () => Array.from(randomWalk(30, 2, rng), (x) => x));
    const feats = lines.map((c, k) => ({ type: 'Feature', id: k, properties: { k }, geometry: { type: 'LineString', coordinates: Array.from({ length: c.length / 2 }, (_, v) => [c[2 * v], c[2 * v + 1]]) } }));
    const fc = await run(['chain', file('all.geojson', JSON.stringify({ type: 'FeatureCollection', features: feats })), '--format', 'csv']);
    expect(fc.code, fc.stderr).toBe(0);
    const want = multiChainContacts(lines, { dim: 2 });
    expect(rows(fc.stdout).length).toBe(want.count);
    const nd = await run(['chain', file('all.geojsonl', '\uFEFF' + feats.map((f) => JSON.stringify(f)).join('\r\n') + '\r\n'), '--format', 'csv']);
    expect(nd.stdout).toBe(fc.stdout);
    const seq = await run(['chain', file('all.geojsons', feats.map((f) => '\x1e' + JSON.stringify(f, null, 1) + '\n').join('')), '--format', 'csv']);
    expect(seq.stdout).toBe(fc.stdout);
    // --no-between streams feature by feature: the same contacts as the library within each chain.
    const within = await run(['chain', 'all.geojsonl', '--no-between', '--format', 'csv']);
    expect(rows(within.stdout).length).toBe(multiChainContacts(lines, { dim: 2, between: false }).count);
  });

  it('issue 15 item 3: --threads 2 on one large chain gives the same bytes as --threads 1', async () => {
    const P = randomWalk(120_000, 2, makeRng(3));
    file('big-walk.csv', csvOf(P, 2));
    const one = await run(['chain', 'big-walk.csv', '--threads', '1']);
    const two = await run(['chain', 'big-walk.csv', '--threads', '2']);
    expect(one.code, one.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(rows(one.stdout).length).toBe(chainContacts(P, { dim: 2 }).count);
    expect((await run(['chain', 'big-walk.csv', '--threads', '0'])).code).toBe(2);
  });

  it.runIf(process.env.SKEWLINE_LONG === '1')('issue 15 item 3: a FeatureCollection on one line of 80 MB (over the old 64 MiB line limit) is read feature by feature (SKEWLINE_LONG)', async () => {
    const rng = makeRng(1533);
    const walks: Float64Array[] = [];
    const parts: string[] = [];
    let bytes = 0;
    while (bytes < 80e6) {
      const P = randomWalk(64, 2, rng);
      const x0 = rng.next() * 3000, y0 = rng.next() * 3000;
      for (let k = 0; k < P.length; k += 2) {
        P[k] += x0;
        P[k + 1] += y0;
      }
      walks.push(P);
      const text = JSON.stringify({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: Array.from({ length: P.length / 2 }, (_, v) => [P[2 * v], P[2 * v + 1]]) } });
      parts.push(text);
      bytes += text.length + 1;
    }
    file('oneline.geojson', `{"type":"FeatureCollection","features":[${parts.join(',')}]}`);
    const r = await run(['chain', 'oneline.geojson', '--no-between', '--format', 'csv', '--stats']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').length - 2).toBe(multiChainContacts(walks, { dim: 2, between: false }).count);
    const rss = Number(/peak RSS ([\d.]+) MiB/.exec(r.stderr)?.[1]);
    expect(rss).toBeLessThan(400); // the file is 80 MB on one line; memory follows the largest feature
  }, 300_000);
});

/** Axis steps of length 1 or 2 (seeded): touches, overlaps, and vertices on other segments' interiors (T-junctions). */
function axisWalk(n: number, dim: number, seed: number): Float64Array {
  const rng = makeRng(seed);
  const P = new Float64Array(dim * (n + 1));
  for (let v = 1; v <= n; v++) {
    const axis = Math.floor(rng.next() * dim), step = (rng.next() < 0.5 ? 1 : 2) * (rng.next() < 0.5 ? -1 : 1);
    for (let k = 0; k < dim; k++) P[dim * v + k] = P[dim * (v - 1) + k] + (k === axis ? step : 0);
  }
  return P;
}

/** The contact kinds of one run's output, in order, with the chains and segments they join. */
function kindsOf(stdout: string, format: 'csv' | 'ndjson' | 'geojson'): { ci: number; i: number; cj: number; j: number; distance: number; kind: string | null }[] {
  if (format === 'csv') {
    const lines = stdout.trimEnd().split('\n');
    const head = lines[0].split(',');
    expect(head.at(-1)).toBe('kind');
    return lines.slice(1).map((l) => {
      const f = l.split(',');
      return { ci: Number(f[0]), i: Number(f[1]), cj: Number(f[2]), j: Number(f[3]), distance: Number(f[4]), kind: f.at(-1) ?? null };
    });
  }
  if (format === 'ndjson') {
    return stdout.split('\n').filter((l) => l !== '').map((l) => {
      const o = JSON.parse(l) as { chainI: number; i: number; chainJ: number; j: number; distance: number; kind: string | null };
      return { ci: o.chainI, i: o.i, cj: o.chainJ, j: o.j, distance: o.distance, kind: o.kind };
    });
  }
  const fc = JSON.parse(stdout) as { features: { properties: { a: { chain: number; segment: number }; b: { chain: number; segment: number }; distance: number; kind: string } }[] };
  return fc.features.map(({ properties: p }) => ({ ci: p.a.chain, i: p.a.segment, cj: p.b.chain, j: p.b.segment, distance: p.distance, kind: p.kind }));
}

describe.concurrent('skewline chain: contact kinds (issue 17)', () => {
  // One contact of each kind within one chain, and one between two chains, each case 10 units
  // from the others (no contacts across cases). 3D: the same figures on the plane z = x + y.
  const within: [string, number[][]][] = [
    ['crossing', [[0, 0], [2, 0], [1, 1], [1, -1]]],
    ['vertex-touch', [[0, 0], [1, 0], [2, 1], [2, -1], [1, 0]]], // the last vertex on vertex 1: two touches
    ['t-junction', [[0, 0], [2, 0], [2, 1], [1, 1], [1, 0]]],
    ['overlap', [[0, 0], [2, 0], [1, 0]]], // segments 0 and 1 fold back
  ];
  const between: [string, number[][]][] = [
    ['crossing', [[1, 1], [1, -1]]],
    ['vertex-touch', [[2, 0], [3, 1]]],
    ['t-junction', [[1, 0], [1, 1]]],
    ['overlap', [[1, 0], [3, 0]]],
  ];
  const A = [[0, 0], [2, 0]];
  const csvInput = (dim: 2 | 3): string => {
    const lines = [dim === 2 ? 'chain,x,y' : 'chain,x,y,z'];
    let chain = 0;
    const add = (pts: number[][], dx: number): void => {
      for (const [x, y] of pts) lines.push([chain, x + dx, y, ...(dim === 3 ? [x + dx + y] : [])].join(','));
      chain++;
    };
    within.forEach(([, pts], k) => add(pts, 10 * k));
    between.forEach(([, pts], k) => {
      add(A, 10 * (k + 4));
      add(pts, 10 * (k + 4));
    });
    return lines.join('\n') + '\n';
  };
  const want = [
    ...within.flatMap(([kind], k) => Array(kind === 'vertex-touch' ? 2 : 1).fill({ ci: k, cj: k, kind }) as { ci: number; cj: number; kind: string }[]),
    ...between.map(([kind], k) => ({ ci: 4 + 2 * k, cj: 5 + 2 * k, kind })),
  ];

  it('issue 17: skewline chain labels each contact crossing / vertex touch / T-junction / overlap (CSV, NDJSON, GeoJSON; 2D and 3D; one chain and two chains)', async () => {
    for (const dim of [2, 3] as const) {
      const name = file(`kinds${dim}.csv`, csvInput(dim));
      for (const format of ['csv', 'ndjson', 'geojson'] as const) {
        const r = await run(['chain', name, '--format', format]);
        expect([r.code, r.stderr], `${dim}D ${format}`).toEqual([0, '']);
        const got = kindsOf(r.stdout, format);
        expect(got.map(({ ci, cj, kind }) => ({ ci, cj, kind })).sort((p, q) => p.ci - q.ci), `${dim}D ${format}`).toEqual(want);
        expect(got.every((c) => c.distance === 0)).toBe(true);
      }
    }
    // GeoJSON input: two features (a T-junction between them), a self-tangent polygon (vertex touches only).
    const doc = { type: 'FeatureCollection', features: [
      { type: 'Feature', id: 'a', properties: null, geometry: { type: 'LineString', coordinates: [[0, 0], [2, 0]] } },
      { type: 'Feature', id: 'b', properties: null, geometry: { type: 'LineString', coordinates: [[1, 0], [1, 1]] } },
      { type: 'Feature', id: 'pinched', properties: null, geometry: { type: 'Polygon', coordinates: [[[10, 0], [12, 0], [14, 0], [14, 2], [12, 0], [10, 2], [10, 0]]] } },
    ] };
    const g = await run(['chain', file('kinds.geojson', JSON.stringify(doc))]);
    expect(g.code, g.stderr).toBe(0);
    const kinds = kindsOf(g.stdout, 'geojson');
    expect(kinds[0]).toMatchObject({ ci: 0, cj: 1, kind: 't-junction' });
    expect(kinds.length).toBe(1 + chainContacts(doc.features[2].geometry.coordinates[0] as number[][]).count);
    expect(kinds.slice(1).map((k) => k.kind)).toEqual(Array(kinds.length - 1).fill('vertex-touch'));
  });

  it('issue 17: a contact within the thickness whose segments share no point is "near"; touching ones keep their exact kind (2D and 3D)', async () => {
    for (const dim of [2, 3] as const) {
      const lift = (x: number, y: number): string => (dim === 2 ? `${x},${y}` : `${x},${y},${x + y}`);
      // Chains 0 and 1: 0.25 apart; chains 2 and 3: a crossing.
      const text = [`chain,x,y${dim === 3 ? ',z' : ''}`, `0,${lift(0, 0)}`, `0,${lift(2, 0)}`, `1,${lift(1, 0.25)}`, `1,${lift(1, 1)}`,
        `2,${lift(10, 0)}`, `2,${lift(12, 0)}`, `3,${lift(11, 1)}`, `3,${lift(11, -1)}`].join('\n');
      const r = await run(['chain', file(`near${dim}.csv`, text + '\n'), '--thickness', '0.5', '--format', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      const got = kindsOf(r.stdout, 'ndjson');
      expect(got.map(({ ci, cj, kind }) => [ci, cj, kind]), `${dim}D`).toEqual([[0, 1, 'near'], [2, 3, 'crossing']]);
      expect(got[0].distance).toBeGreaterThan(0);
    }
  });

  it('issue 17: a closed ring\'s wrap-around segment is classified (overlap and T-junction with --closed, nothing without)', async () => {
    // Ring (0,0) (2,0) (2,2) (4,0): the wrap segment (4,0)→(0,0) folds back over segment 0 and
    // passes through vertex (2,0), where segment 1 starts.
    const name = file('ring.csv', 'x,y\n0,0\n2,0\n2,2\n4,0\n');
    for (const format of ['csv', 'ndjson', 'geojson'] as const) {
      const r = await run(['chain', name, '--closed', '--format', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(kindsOf(r.stdout, format).map(({ i, j, kind }) => [i, j, kind]), format).toEqual([[0, 3, 'overlap'], [1, 3, 't-junction']]);
    }
    const open = await run(['chain', name]);
    expect(kindsOf(open.stdout, 'csv')).toEqual([]);
    // The same ring in 3D, tilted.
    const r3 = await run(['chain', file('ring3.csv', 'x,y,z\n0,0,0\n2,0,1\n2,2,3\n4,0,2\n'), '--closed']);
    expect(kindsOf(r3.stdout, 'csv').map(({ i, j, kind }) => [i, j, kind])).toEqual([[0, 3, 'overlap'], [1, 3, 't-junction']]);
  });

  it('issue 17: the kinds equal chainIntersections\' contact on a random walk (seed 1717, crossings) and an axis walk of steps 1 and 2 (seed 1718: touches, T-junctions, overlaps)', async () => {
    const seen: string[] = [];
    for (const [name, P] of [['random', randomWalk(800, 2, makeRng(1717))], ['axis', axisWalk(600, 2, 1718)]] as const) {
      const format = name === 'random' ? 'csv' : 'ndjson';
      const r = await run(['chain', file(`kind-${name}.csv`, csvOf(P, 2)), '--format', format]);
      expect(r.code, r.stderr).toBe(0);
      const got = kindsOf(r.stdout, format);
      const x = chainIntersections(P);
      expect(got.length, name).toBe(x.count);
      expect(x.count).toBeGreaterThan(20);
      const names = Array.from(x.contact, (k) => CONTACT_KIND_NAMES[k]);
      expect(got.map((c) => c.kind), `${name} walk`).toEqual(names);
      seen.push(...names);
    }
    for (const k of ['crossing', 'vertex-touch', 't-junction', 'overlap']) expect(seen, k).toContain(k);
  });

  it('issue 17: the kinds equal contactKind\'s (exact integers) on 3D axis walks (seeds 1719, 1720 sheared off the axes, 1725 in eighths at x ≈ 2^30), and "near" exactly where contactKind finds no common point (thickness 1, pairs exactly 1 apart included: 2D seed 1721, 3D seed 1722); 4D: 3D axis walks embedded (seeds 1723, 1724)', async () => {
    // (x, y, z) → (2x + y, y + z, x + z): an invertible integer map, so the contacts keep their kinds off the axes.
    const shear = (P: Float64Array): Float64Array => P.map((_, k) => {
      const v = k - (k % 3);
      return k % 3 === 0 ? 2 * P[v] + P[v + 1] : k % 3 === 1 ? P[v + 1] + P[v + 2] : P[v] + P[v + 2];
    });
    // 4D: 3D walks embedded by (x, y, z) → (x, y, z, x + 2y − z) (injective and linear: the same
    // kinds, and touching exactly where the 3D pair touches); contactKind is asked in 3D.
    const embed = (P: Float64Array): Float64Array => Float64Array.from({ length: (P.length / 3) * 4 }, (_, k) => {
      const v = 3 * Math.floor(k / 4);
      return k % 4 < 3 ? P[v + (k % 4)] : P[v] + 2 * P[v + 1] - P[v + 2];
    });
    const W4 = axisWalk(400, 3, 1723), N4 = axisWalk(300, 3, 1724);
    const cases: [string, Float64Array, 2 | 3 | 4, number, Float64Array][] = [
      ['3D axis walk', axisWalk(400, 3, 1719), 3, 0, new Float64Array()],
      ['3D sheared axis walk', shear(axisWalk(400, 3, 1720)), 3, 0, new Float64Array()],
      // Not integers (steps of 1/8, x moved by 2^30): the classifier's orient2Sign path, not its small-integer one.
      ['3D axis walk in eighths far from the origin', axisWalk(400, 3, 1725).map((x, k) => (k % 3 === 0 ? x / 8 + 2 ** 30 : x / 8)), 3, 0, new Float64Array()],
      ['2D axis walk, thickness 1', axisWalk(300, 2, 1721), 2, 1, new Float64Array()],
      ['3D axis walk, thickness 1', axisWalk(300, 3, 1722), 3, 1, new Float64Array()],
      ['4D embedded axis walk', embed(W4), 4, 0, W4],
      ['4D embedded axis walk, thickness 2', embed(N4), 4, 2, N4],
    ];
    const seen = new Set<string>();
    for (const [name, P, dim, thickness, ref] of cases) {
      const r = await run(['chain', file(`kind-${name.replace(/\W+/g, '-')}.csv`, csvOf(P, dim)), '--thickness', String(thickness)]);
      expect(r.code, r.stderr).toBe(0);
      const got = kindsOf(r.stdout, 'csv');
      expect(got.length, name).toBe(chainContacts(P, { dim, thickness }).count);
      expect(got.length, name).toBeGreaterThan(20);
      const want = got.map((c) => {
        const code = dim === 4 ? contactKind(ref, 3, c.i, c.j) : contactKind(P, dim, c.i, c.j);
        return code === 0 ? 'near' : CONTACT_KIND_NAMES[code];
      });
      expect(got.map((c) => c.kind), name).toEqual(want);
      for (const k of want) seen.add(`${dim}:${k}`);
    }
    for (const k of ['crossing', 'vertex-touch', 't-junction', 'overlap', 'near']) expect(seen, k).toContain(`4:${k}`);
    for (const k of ['crossing', 'vertex-touch', 't-junction', 'overlap', 'near']) expect(seen, k).toContain(`3:${k}`);
    expect(seen).toContain('2:near');
  });

  it('issue 17 item 3: empty input writes nothing on stderr (CSV, NDJSON, GeoJSON, streamed GeoJSON); --stats still reports', async () => {
    file('empty-k.csv', '');
    file('empty-k.geojson', '');
    file('nofeat-k.geojson', '{"type":"FeatureCollection","features":[]}');
    for (const args of [['empty-k.csv'], ['empty-k.csv', '--format', 'ndjson'], ['empty-k.geojson'], ['nofeat-k.geojson', '--no-between'], ['nofeat-k.geojson', '--format', 'csv']]) {
      const r = await run(['chain', ...args]);
      expect([r.code, r.stderr], args.join(' ')).toEqual([0, '']);
    }
    const piped = await run(['chain', '-'], '');
    expect([piped.code, piped.stdout, piped.stderr]).toEqual([0, 'chain_i,i,chain_j,j,distance,s,t,cx,cy,dx,dy,kind\n', '']);
    const stats = await run(['chain', 'empty-k.csv', '--stats']);
    expect(stats.stderr).toMatch(/^skewline: 0 vertices, 0 contacts in [\d.]+ s, peak RSS [\d.]+ MiB\n$/);
  });
});
