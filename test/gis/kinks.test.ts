/**
 * kinks and isSimple: turf's own published fixtures (test/fixtures/turf-kinks, source noted
 * there) with every difference from turf's expected output spelled out, brute-force exact
 * references on seeded polygons, and the input errors.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import turfKinks from '@turf/kinks';
import { SkewlineInputError, isSimple, kinks } from '../../src/index.js';
import { exactIsect } from '../support/exact-isect.js';
import type { OPrim } from '../support/exact-isect.js';
import { makeRng } from '../support/rng.js';

type Pt = [number, number];
const fixture = (name: string, io: 'in' | 'out'): unknown => JSON.parse(readFileSync(new URL(`../fixtures/turf-kinks/${name}.${io}.geojson`, import.meta.url), 'utf8'));
const points = (fc: unknown): Pt[] => (fc as { features: { geometry: { type: string; coordinates: Pt } }[] }).features
  .filter((f) => f.geometry.type === 'Point').map((f) => f.geometry.coordinates);
const sorted = (ps: Pt[]): Pt[] => ps.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
const turf = turfKinks as unknown as (g: unknown) => unknown;

describe('kinks on turf\'s published fixtures (issue 17)', () => {
  it('issue 17: kinks returns turf\'s output shape (a FeatureCollection of Point features)', () => {
    const r = kinks(fixture('hourglass', 'in'));
    expect(r.type).toBe('FeatureCollection');
    expect(r.features).toEqual([{ type: 'Feature', properties: { kind: 'crossing' }, geometry: { type: 'Point', coordinates: [-45, -2.5] } }]);
  });

  it('issue 17: hourglass, triple, open-hourglass: the same points as turf\'s expected output', () => {
    for (const name of ['hourglass', 'triple', 'open-hourglass']) {
      const ours = kinks(fixture(name, 'in'));
      expect(sorted(points(ours)), name).toEqual(sorted(points(fixture(name, 'out'))));
      expect(ours.features.every((f) => f.properties.kind === 'crossing'), name).toBe(true);
    }
  });

  it('issue 17: multi-linestring and multi-polygon: turf\'s second point is off by one ulp in y; ours is the exact crossing', () => {
    for (const name of ['multi-linestring', 'multi-polygon']) {
      const ours = points(kinks(fixture(name, 'in')));
      const theirs = points(fixture(name, 'out'));
      expect(ours.length, name).toBe(2);
      expect(ours[0], name).toEqual(theirs[0]);
      // The vertical edge x = −39.7705078125 of the first ring crosses the horizontal edge
      // y = −4.083452772038619 of the second: the exact crossing is (−39.7705078125,
      // −4.083452772038619), both input numbers. turf computes y as y0 + a·(y1 − y0) in doubles
      // and lands one unit in the last place away, at −4.08345277203862.
      expect(ours[1], name).toEqual([-39.7705078125, -4.083452772038619]);
      expect(theirs[1], name).toEqual([-39.7705078125, -4.08345277203862]);
      expect(Math.abs(theirs[1][1] - ours[1][1])).toBe(2 ** -50); // one ulp at 4.08
    }
  });

  it('issue 17: issue-2627 (turf #2627): one vertex-touch point where turf lists the same location three times', () => {
    // The sixth ring visits (11.029567, 53.911309) twice (its vertices 1 and 6): a touch at a
    // vertex, which turf's per-pair loop reports once per pair of segments meeting there (3).
    const ours = kinks(fixture('issue-2627', 'in'));
    expect(ours.features).toEqual([{ type: 'Feature', properties: { kind: 'vertex-touch' }, geometry: { type: 'Point', coordinates: [11.029567, 53.911309] } }]);
    expect(points(fixture('issue-2627', 'out'))).toEqual([[11.029567, 53.911309], [11.029567, 53.911309], [11.029567, 53.911309]]);
    expect(isSimple(fixture('issue-2627', 'in') as object)).toBe(false);
  });

  it('issue 17: the installed @turf/kinks agrees with its own fixtures (so the differences above are turf\'s answers)', () => {
    for (const name of ['hourglass', 'triple', 'open-hourglass', 'multi-linestring', 'multi-polygon', 'issue-2627']) {
      expect(sorted(points(turf(fixture(name, 'in')))), name).toEqual(sorted(points(fixture(name, 'out'))));
    }
  });
});

describe('kinks finds what turf misses (issue 17)', () => {
  it('issue 17: a self-tangent ring (turf #2919) is a vertex touch, a self-crossing ring a crossing', () => {
    // A ring pinched at (2, 0): it touches itself there but does not cross.
    const tangent = { type: 'Polygon', coordinates: [[[0, 0], [2, 0], [4, 1], [4, -1], [2, 0], [0, 1], [0, 0]]] };
    expect(kinks(tangent).features).toEqual([{ type: 'Feature', properties: { kind: 'vertex-touch' }, geometry: { type: 'Point', coordinates: [2, 0] } }]);
    const crossing = { type: 'Polygon', coordinates: [[[0, 0], [4, 1], [4, 0], [0, 1], [0, 0]]] };
    expect(kinks(crossing).features.map((f) => [f.properties.kind, f.geometry.coordinates])).toEqual([['crossing', [2, 0.5]]]);
  });

  it('issue 17: collinear overlaps and T-junctions, which turf does not report', () => {
    // A hole sharing part of the outer ring's edge: an overlap from (1, 0) to (2, 0).
    const hole = { type: 'Polygon', coordinates: [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[1, 0], [2, 0], [2, 1], [1, 1], [1, 0]]] };
    expect(kinks(hole).features.map((f) => [f.properties.kind, f.geometry.coordinates])).toEqual([['overlap', [1, 0]], ['overlap', [2, 0]]]);
    expect(points(turf(hole))).not.toContainEqual([1.5, 0]);
    // A line whose end stops on its own first segment: a T-junction at (1, 0).
    const t = { type: 'LineString', coordinates: [[0, 0], [2, 0], [2, 2], [1, 2], [1, 0]] };
    expect(kinks(t).features.map((f) => [f.properties.kind, f.geometry.coordinates])).toEqual([['t-junction', [1, 0]]]);
    // A spike: the ring runs out along an edge and back (adjacent segments folding back).
    const spike = { type: 'Polygon', coordinates: [[[0, 0], [3, 0], [3, 3], [3, 5], [3, 3], [0, 3], [0, 0]]] };
    // The shared piece runs from (3, 3) to the spike's tip (3, 5); turf skips neighbours, so it
    // sees only the touches of the non-adjacent segments at the spike's base, (3, 3), twice.
    expect(sorted(points(kinks(spike)))).toEqual([[3, 3], [3, 5]]);
    expect(kinks(spike).features.every((f) => f.properties.kind === 'overlap')).toBe(true);
    expect(points(turf(spike))).toEqual([[3, 3], [3, 3]]);
    expect(isSimple(spike)).toBe(false);
  });

  it('issue 17: kinks equals a brute-force exact reference on seeded self-touching polygons (seed 31)', () => {
    const rng = makeRng(31);
    for (let trial = 0; trial < 40; trial++) {
      // A star-ish ring on a small integer grid: many touches, T-junctions and overlaps.
      const n = rng.int(4, 14);
      const ring: Pt[] = [];
      for (let k = 0; k < n; k++) ring.push([rng.int(0, 6), rng.int(0, 6)]);
      ring.push(ring[0]);
      const g = { type: 'Polygon', coordinates: [ring] };
      // Reference: every non-adjacent pair (neighbours count when they fold back), exactly.
      const want = new Set<string>();
      const segs: OPrim[] = [];
      for (let k = 0; k < n; k++) if (ring[k][0] !== ring[k + 1][0] || ring[k][1] !== ring[k + 1][1]) segs.push({ kind: 'segment', p: ring[k], r: ring[k + 1] });
      const m = segs.length;
      for (let i = 0; i < m; i++) {
        for (let j = i + 1; j < m; j++) {
          const r = exactIsect(segs[i], segs[j]);
          const adjacent = j === i + 1 || (i === 0 && j === m - 1);
          if (r.kind === 'none' || (adjacent && r.kind === 'point')) continue;
          if (r.kind === 'point') want.add(`${Number(r.X[0].n) / Number(r.X[0].d)},${Number(r.X[1].n) / Number(r.X[1].d)}`);
          else for (const s of [r.s.lo!, r.s.hi!]) want.add(r.X(s).map((x) => Number(x.n) / Number(x.d)).join(','));
        }
      }
      const got = new Set(kinks(g).features.map((f) => f.geometry.coordinates.join(',')));
      const label = `seed 31 trial ${trial}: ${JSON.stringify(ring)}`;
      expect([...got].sort(), label).toEqual([...want].sort());
      expect(isSimple(g), label).toBe(want.size === 0);
      expect(isSimple(ring.slice(0, -1), { closed: true }), label).toBe(want.size === 0);
    }
  });
});

describe('isSimple (issue 17)', () => {
  it('issue 17: isSimple on lines, rings and plain arrays', () => {
    expect(isSimple([[0, 0], [1, 0], [1, 1], [0, 1]])).toBe(true);
    expect(isSimple([[0, 0], [1, 0], [1, 1], [0, 1]], { closed: true })).toBe(true);
    expect(isSimple([0, 0, 1, 0, 1, 1, 0.5, -1])).toBe(false);
    expect(isSimple({ type: 'LineString', coordinates: [[0, 0], [1, 1]] })).toBe(true);
    expect(isSimple(fixture('hourglass', 'in') as object)).toBe(false);
    expect(isSimple({ type: 'Polygon', coordinates: [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[1, 1], [2, 1], [2, 2], [1, 1]]] })).toBe(true);
  });

  it('issue 17: isSimple checks its options and input', () => {
    expect(() => isSimple([[0, 0], [1, 1]], { close: true } as never)).toThrow(/unknown option "close" \(accepted: closed\)/);
    expect(() => isSimple({ type: 'LineString', coordinates: [[0, 0], [1, 1]] }, { closed: true })).toThrow(/not GeoJSON/);
    expect(() => isSimple([[0, 0, 0], [1, 1, 1]])).toThrow(/2D/);
  });
});

describe('kinks: bad GeoJSON is a clear SkewlineInputError naming where (issue 17)', () => {
  it('issue 17: a ring of fewer than 4 positions, an unclosed ring, a LineString of 0–1 positions, bad positions and types', () => {
    const poly = (ring: unknown): unknown => ({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[0, 0], [5, 0], [5, 5], [0, 0]], ring] } });
    expect(() => kinks(poly([[0, 0], [1, 1], [0, 0]]))).toThrow(SkewlineInputError);
    expect(() => kinks(poly([[0, 0], [1, 1], [0, 0]]))).toThrow('kinks: geometry.coordinates[1] is a polygon ring of 3 positions; a linear ring needs at least 4');
    expect(() => kinks(poly([[0, 0], [1, 1], [1, 0], [0, 1]]))).toThrow(/geometry.coordinates\[1\] is a polygon ring whose last position \(0, 1\) is not its first \(0, 0\)/);
    expect(() => kinks({ type: 'LineString', coordinates: [[0, 0]] })).toThrow('kinks: coordinates is a LineString of 1 position; a LineString needs at least 2');
    expect(() => kinks({ type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], []] })).toThrow(/coordinates\[1\] is a LineString of 0 positions/);
    expect(() => kinks({ type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[0, 0], ['a', 0], [1, 1], [0, 0]]]] })).toThrow(/coordinates\[1\]\[0\]\[1\] must hold finite numbers/);
    expect(() => kinks({ type: 'Point', coordinates: [0, 0] })).toThrow(/LineString, MultiLineString, Polygon or MultiPolygon .* got type "Point"/);
    expect(() => kinks({ type: 'Feature', properties: {}, geometry: null })).toThrow(/no geometry/);
    expect(() => kinks(null)).toThrow(SkewlineInputError);
  });
});
