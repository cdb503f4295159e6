/**
 * Crossing points and GIS kinks, side by side with the peers on the same data:
 * - chainIntersections (every crossing point, exactly rounded, each contact classified) beside
 *   chainContacts (the search alone) and isect's bush and sweep (which compute the crossing points
 *   in plain doubles) on a 2D random walk; chainIntersections again with `into` (one buffer
 *   reused run after run, as a simulation's steps would; the plain row gets fresh arrays, as
 *   isect does); and how the points were rounded (doubles, double-double, exact);
 * - kinks and isSimple beside @turf/kinks on world-atlas countries-50m (each country a Feature),
 *   and kinks and isSimple on every ring of land-10m (turf's pairwise loop is left out there: its
 *   largest ring alone would take minutes).
 * Run alone: node --expose-gc --import tsx bench/gis/gis.bench.ts [--segments N] [--runs R] [--part crossing|gis]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import isect from 'isect';
import turfKinks from '@turf/kinks';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { chainContacts, chainIntersections, isSimple, kinks } from '../../src/index.js';
import { pointStats } from '../../src/chain/points.js';
import { randomWalk } from '../../test/support/walks.js';
import { makeRng } from '../../test/support/rng.js';
import { landRings } from '../../test/support/land.js';
import { machine, measure, settle, table } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

type Line = { from: { x: number; y: number }; to: { x: number; y: number }; k: number };

function isectLines(P: Float64Array): Line[] {
  const m = P.length / 2 - 1;
  const lines = new Array<Line>(m);
  for (let k = 0; k < m; k++) lines[k] = { from: { x: P[2 * k], y: P[2 * k + 1] }, to: { x: P[2 * k + 2], y: P[2 * k + 3] }, k };
  return lines;
}

/** Crossing points isect reports between non-adjacent segments (its own points, in doubles). */
function isectPoints(lines: Line[], method: 'bush' | 'sweep'): number {
  let count = 0;
  isect[method](lines, {
    onFound: (_p: unknown, segs: { k: number }[]) => {
      if (Math.abs(segs[0].k - segs[1].k) >= 2) count++;
      return false;
    },
  }).run();
  return count;
}

/** The countries of world-atlas countries-50m as GeoJSON Features (topojson-client). */
export function countries50m(): { type: 'Feature'; geometry: { type: string; coordinates: unknown } }[] {
  const require = createRequire(import.meta.url);
  const topo = JSON.parse(readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8')) as Topology;
  const fc = feature(topo, topo.objects.countries as GeometryCollection);
  return fc.features.filter((f) => f.geometry !== null) as never;
}

function crossingRows(n: number, runs: number, withSweep: boolean): void {
  const P = randomWalk(n, 2, makeRng(2));
  let lines: Line[] | null = null;
  const isectRun = (method: 'bush' | 'sweep'): number => isectPoints(lines ?? (lines = isectLines(P)), method);
  // isect's million segment objects are built (untimed) just before each of its runs and dropped
  // before skewline's: kept alive, they slow every garbage collection of the skewline runs too
  // (each major GC marks them), which made chainIntersections look up to 1.7× slower than alone.
  const drop = (): void => void (lines = null);
  const build = (): void => void (lines = isectLines(P));
  // "+into": one result's arrays handed back as options.into run after run, as a simulation's
  // every step would (no fresh result arrays to fault in or collect). The row above it gets fresh
  // arrays each run, as isect does.
  const into = chainIntersections(P);
  const runInto = (): number => chainIntersections(P, { into }).count;
  const methods = [
    { name: 'skewline chainContacts (search only)', run: () => chainContacts(P, { dim: 2 }).count, setup: drop },
    { name: 'skewline chainIntersections (points + kinds)', run: () => chainIntersections(P).count, setup: drop },
    { name: 'skewline chainIntersections +into (reused buffer)', run: runInto, setup: drop },
    { name: 'isect bush', run: () => isectRun('bush'), setup: build },
  ];
  if (withSweep) methods.push({ name: 'isect sweep', run: () => isectRun('sweep'), setup: build });
  const rows = measure(methods, runs, 1);
  lines = null;
  pointStats.double = pointStats.doubleDouble = pointStats.exact = 0;
  const r = chainIntersections(P);
  // How this one call rounded its points (read now: the CPU-time runs below add to the counts).
  const rounded = { ...pointStats };
  const total = rounded.double + rounded.doubleDouble + rounded.exact;
  const pct = (x: number): string => `${((100 * x) / total).toFixed(2)}%`;
  console.log(table(`Crossing points, 2D random walk of ${n.toLocaleString('en')} unit segments (${r.count.toLocaleString('en')} contacts; isect bush: ${isectRun('bush').toLocaleString('en')} non-adjacent points)`, rows, n, 'skewline chainContacts (search only)', 'isect bush'));
  const ci = rows[1].median / rows[0].median;
  console.log(`chainIntersections / chainContacts = ${ci.toFixed(2)} (floor ≤ 1.5); isect bush / chainIntersections = ${(rows[3].median / rows[1].median).toFixed(2)} (floor ≥ 2); isect bush / chainIntersections +into = ${(rows[3].median / rows[2].median).toFixed(2)}`);
  // CPU time (process.cpuUsage), interleaved: steadier than wall time on a shared, loaded machine;
  // isect's objects are alive only for its own runs, as above.
  lines = null;
  const cpu = [[], [], [], []] as number[][];
  const fns = [() => chainContacts(P, { dim: 2 }).count, () => chainIntersections(P).count, runInto, () => isectRun('bush')];
  for (let r = 0; r < runs; r++) {
    fns.forEach((f, q) => {
      lines = q === 3 ? isectLines(P) : null;
      settle();
      const a = process.cpuUsage();
      f();
      const b = process.cpuUsage(a);
      cpu[q].push((b.user + b.system) / 1000);
    });
  }
  lines = null;
  const med = cpu.map((t) => t.sort((a, b) => a - b)[t.length >> 1]);
  console.log(`CPU time, median of ${runs} interleaved (each without the others' data alive): chainContacts ${med[0].toFixed(0)} ms, chainIntersections ${med[1].toFixed(0)} ms, chainIntersections +into ${med[2].toFixed(0)} ms, isect bush ${med[3].toFixed(0)} ms: chainIntersections / chainContacts = ${(med[1] / med[0]).toFixed(2)}, isect bush / chainIntersections = ${(med[3] / med[1]).toFixed(2)}, isect bush / chainIntersections +into = ${(med[3] / med[2]).toFixed(2)}`);
  console.log(`crossing points rounded: ${rounded.double.toLocaleString('en')} in doubles (${pct(rounded.double)}), ${rounded.doubleDouble.toLocaleString('en')} in double-double (${pct(rounded.doubleDouble)}), ${rounded.exact.toLocaleString('en')} exactly (${pct(rounded.exact)})`);
}

export function run(opts: { segments?: number; runs?: number; part?: string } = {}): void {
  const n = opts.segments ?? 1_000_000;
  const runs = opts.runs ?? 3;
  const part = opts.part ?? 'all';
  if (part !== 'gis') {
    crossingRows(n, runs, n <= 200_000);
    if (n > 200_000) crossingRows(200_000, runs, true);
  }
  if (part === 'crossing') return;

  // countries-50m: each country one Feature, as a GIS user would call kinks.
  const countries = countries50m();
  const positions = (c: unknown): number => (Array.isArray(c) && typeof c[0] === 'number' ? 1 : Array.isArray(c) ? c.reduce((s: number, x) => s + positions(x), 0) : 0);
  const vertices = countries.reduce((s, f) => s + positions(f.geometry.coordinates), 0);
  const turf = turfKinks as unknown as (g: unknown) => { features: unknown[] };
  const rows = measure([
    { name: 'skewline kinks', run: () => countries.reduce((s, f) => s + kinks(f).features.length, 0) },
    { name: 'skewline isSimple', run: () => countries.reduce((s, f) => s + (isSimple(f) ? 0 : 1), 0) },
    { name: '@turf/kinks', run: () => countries.reduce((s, f) => s + turf(f).features.length, 0) },
  ], Math.min(runs, 3), 1);
  const ours = countries.reduce((s, f) => s + kinks(f).features.length, 0);
  const notSimple = countries.filter((f) => !isSimple(f)).length;
  const theirs = countries.reduce((s, f) => s + turf(f).features.length, 0);
  console.log(table(`kinks on world-atlas countries-50m, ${countries.length} countries, about ${vertices.toLocaleString('en')} vertices (skewline: ${ours} kink points in ${notSimple} countries; @turf/kinks: ${theirs} points)`, rows, vertices, '@turf/kinks'));

  // land-10m: every ring.
  const rings = landRings('land-10m.json');
  const polys = rings.map((r) => ({ type: 'Polygon', coordinates: [Array.from({ length: r.length / 2 }, (_, k) => [r[2 * k], r[2 * k + 1]])] }));
  const lv = rings.reduce((s, r) => s + r.length / 2, 0);
  const big = polys.reduce((a, b) => (a.coordinates[0].length > b.coordinates[0].length ? a : b));
  const rows2 = measure([
    { name: 'skewline kinks (every ring)', run: () => polys.reduce((s, p) => s + kinks(p).features.length, 0) },
    { name: 'skewline isSimple (every ring)', run: () => polys.reduce((s, p) => s + (isSimple(p) ? 0 : 1), 0) },
    { name: `skewline kinks (largest ring, ${big.coordinates[0].length.toLocaleString('en')} vertices)`, run: () => kinks(big).features.length },
  ], Math.min(runs, 3), 1);
  console.log(table(`kinks on world-atlas land-10m, ${rings.length.toLocaleString('en')} rings, ${lv.toLocaleString('en')} vertices (@turf/kinks left out: pairwise, its largest ring alone is ${(big.coordinates[0].length ** 2 / 2 / 1e9).toFixed(1)} billion pair tests)`, rows2, lv, 'skewline kinks (every ring)'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`skewline GIS benchmark — ${machine()}`);
  const i = process.argv.indexOf('--part');
  run({ segments: arg('--segments', 1_000_000), runs: arg('--runs', 3), part: i >= 0 ? process.argv[i + 1] : 'all' });
}
