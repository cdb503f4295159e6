/**
 * Chain contacts at scale, side by side with the peers on the same data:
 * - 3D freely jointed chain, thickness 0.2: skewline (its block grid over runs of 8 segments,
 *   src/chain/blocks3.ts; its hierarchy, searchMode.broad = 'tree'; and the 3D grid it keeps on
 *   request, searchMode.broad = 'grid') against issue 16's tuned grid (boxes in
 *   every cell they overlap, Morton-keyed hash, reference-cell dedup, Ericson's distance in
 *   doubles: bench/peers/morton-grid-chain.ts) and the midpoint-cell spatial hash with
 *   skewline's exact narrow phase (bench/peers/grid-chain.ts);
 * - 2D random and smooth walks, thickness 0: skewline against isect's bush method and a
 *   flatbush index + exact orient2d baseline (bench/peers/flatbush-chain.ts);
 * - every ring of Natural Earth's 10 m land (world-atlas land-10m), each ring a chain;
 * - how skewline's time grows from 1e4 to 1e6 segments, and where it goes.
 * Run alone: node --expose-gc --import tsx bench/chain/chain.bench.ts [--segments N] [--runs R] [--3d (the 3D table only)]
 */
import os from 'node:os';
import isect from 'isect';
import sweeplineIntersections from 'sweepline-intersections';
import { chainContacts } from '../../src/index.js';
import { chainContactsParallel } from '../../src/parallel/index.js';
import { chainStats, searchMode } from '../../src/chain/contacts.js';
import { narrowStats } from '../../src/chain/narrow.js';
import { gridChainContacts } from '../peers/grid-chain.js';
import { mortonGridChainContacts } from '../peers/morton-grid-chain.js';
import { flatbushChainContacts } from '../peers/flatbush-chain.js';
import { gridWalk, randomWalk, smoothWalk } from '../../test/support/walks.js';
import { makeRng } from '../../test/support/rng.js';
import { landRings } from '../../test/support/land.js';
import { machine, measure, measureAsync, settle, table } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

/** Non-adjacent contacts isect's bush method reports for one chain (each pair once). */
function isectContacts(P: Float64Array, ring: boolean): number {
  const m = P.length / 2 - 1;
  const lines = new Array<{ from: { x: number; y: number }; to: { x: number; y: number }; k: number }>(m);
  for (let k = 0; k < m; k++) {
    lines[k] = { from: { x: P[2 * k], y: P[2 * k + 1] }, to: { x: P[2 * k + 2], y: P[2 * k + 3] }, k };
  }
  let count = 0;
  isect.bush(lines, {
    onFound: (_p: unknown, segs: { k: number }[]) => {
      const d = Math.abs(segs[0].k - segs[1].k);
      if (d >= 2 && !(ring && d === m - 1)) count++;
      return false;
    },
  }).run();
  return count;
}


/**
 * The 3D row again in CPU time (process.cpuUsage, which counts the process's GC and compiler
 * threads too): on a shared, loaded machine wall-clock medians mostly measure the scheduler,
 * CPU time much less so. One thread's methods only, interleaved, median of `runs`.
 */
function cpuRatios(P: Float64Array, n: number, runs: number): string {
  const methods: [string, () => number][] = [
    ['skewline chainContacts', () => chainContacts(P, { dim: 3, thickness: 0.2 }).count],
    ['skewline on its hierarchy', () => withBroad('tree', () => chainContacts(P, { dim: 3, thickness: 0.2 }).count)],
    ['tuned grid', () => mortonGridChainContacts(P, n, 0.2)],
    ['midpoint-cell grid', () => gridChainContacts(P, 3, n, 0.2)],
  ];
  const cpu = methods.map(() => [] as number[]);
  for (let r = 0; r < runs; r++) {
    methods.forEach(([, f], k) => {
      settle();
      const c0 = process.cpuUsage();
      f();
      const c = process.cpuUsage(c0);
      cpu[k].push((c.user + c.system) / 1000);
    });
  }
  const med = cpu.map((a) => a.slice().sort((x, y) => x - y)[a.length >> 1]);
  return `CPU time, median of ${runs} interleaved: ${methods.map(([name], k) => `${name} ${med[k].toFixed(0)} ms`).join(', ')}; ` +
    `skewline ${(med[2] / med[0]).toFixed(2)}× the tuned grid (on its hierarchy ${(med[2] / med[1]).toFixed(2)}×), ${(med[3] / med[0]).toFixed(2)}× the midpoint-cell grid`;
}

/** Runs f with the given broad phase (searchMode.broad), then restores 'auto'. */
function withBroad<T>(broad: 'grid' | 'tree', f: () => T): T {
  searchMode.broad = broad;
  try {
    return f();
  } finally {
    searchMode.broad = 'auto';
  }
}

function split(): string {
  const s = chainStats;
  return `read ${s.readMs.toFixed(0)} ms, build ${s.buildMs.toFixed(0)} ms, search + exact tests ${(s.searchMs - s.buildMs).toFixed(0)} ms ` +
    `(${narrowStats.tests.toLocaleString('en')} pairs tested, ${narrowStats.apart.toLocaleString('en')} of them rejected by the double filter, ${narrowStats.exact.toLocaleString('en')} in exact arithmetic), sort ${s.sortMs.toFixed(0)} ms, distances and parameters ${s.numbersMs.toFixed(0)} ms`;
}


/** Points sweepline-intersections (turf's kinks) reports for one ring or line. */
function sweeplinePoints(P: Float64Array): number {
  const coords: number[][] = [];
  for (let k = 0; k < P.length; k += 2) coords.push([P[k], P[k + 1]]);
  const closed = coords.length > 3 && coords[0][0] === coords[coords.length - 1][0] && coords[0][1] === coords[coords.length - 1][1];
  const geom = closed ? { type: 'Polygon', coordinates: [coords] } : { type: 'LineString', coordinates: coords };
  // (the package's CommonJS export is the function itself; its typings describe an ES default export)
  const sweep = sweeplineIntersections as unknown as (g: object, ignoreSelf?: boolean) => unknown[];
  return sweep({ type: 'Feature', properties: {}, geometry: geom }).length;
}

export async function run(opts: { segments?: number; runs?: number; only3d?: boolean } = {}): Promise<void> {
  const n = opts.segments ?? 1_000_000;
  const runs = opts.runs ?? 3;

  // 3D, thickness 0.2.
  const threads = `chainContactsParallel (${os.availableParallelism()} threads)`;
  {
    const P = randomWalk(n, 3, makeRng(1));
    const rows = await measureAsync([
      { name: 'skewline chainContacts', run: () => chainContacts(P, { dim: 3, thickness: 0.2 }).count },
      { name: 'skewline, hierarchy broad phase (on request)', run: () => withBroad('tree', () => chainContacts(P, { dim: 3, thickness: 0.2 }).count) },
      { name: 'skewline, 3D grid broad phase (on request)', run: () => withBroad('grid', () => chainContacts(P, { dim: 3, thickness: 0.2 }).count) },
      { name: threads, run: async () => (await chainContactsParallel(P, { dim: 3, thickness: 0.2 })).count },
      { name: 'tuned grid (Morton hash, doubles)', run: () => mortonGridChainContacts(P, n, 0.2) },
      { name: 'midpoint-cell grid (same exact test)', run: () => gridChainContacts(P, 3, n, 0.2) },
    ], runs, 3);
    const a = chainContacts(P, { dim: 3, thickness: 0.2 });
    narrowStats.tests = narrowStats.exact = narrowStats.apart = 0;
    chainContacts(P, { dim: 3, thickness: 0.2 });
    const treeSplit = `(broad phase: ${searchMode.last}): ${split()}`; // before the midpoint grid below runs the same narrow phase (its tests would count)
    const tuned = rows.find((r) => r.name.startsWith('tuned'))!.median, mid = rows.find((r) => r.name.startsWith('midpoint'))!.median;
    console.log(table(`Chain contacts, 3D freely jointed chain of ${n.toLocaleString('en')} unit segments, thickness 0.2 (${a.count.toLocaleString('en')} contacts; tuned grid: ${mortonGridChainContacts(P, n, 0.2).toLocaleString('en')} non-adjacent, midpoint grid: ${gridChainContacts(P, 3, n, 0.2).toLocaleString('en')})`, rows, n, 'tuned grid (Morton hash, doubles)', 'midpoint-cell grid (same exact test)'));
    console.log(`faster peer: ${tuned <= mid ? 'the tuned grid' : 'the midpoint-cell grid'} (${(Math.max(tuned, mid) / Math.min(tuned, mid)).toFixed(2)}×); issue 16 floor: skewline one thread ≥ 4× the tuned grid`);
    console.log(`skewline time split ${treeSplit}`);
    console.log(cpuRatios(P, n, runs));
    narrowStats.tests = narrowStats.exact = narrowStats.apart = 0;
    withBroad('grid', () => chainContacts(P, { dim: 3, thickness: 0.2 }));
    console.log(`3D grid time split (${searchMode.last}; "build" is the grid's sort): ${split()}`);
  }

  if (opts.only3d === true) return;

  // 2D walks, thickness 0.
  for (const [name, P] of [['random walk', randomWalk(n, 2, makeRng(2))], ['smooth walk', smoothWalk(n, 2, makeRng(3))]] as const) {
    const rows = await measureAsync([
      { name: 'skewline chainContacts', run: () => chainContacts(P, { dim: 2 }).count },
      { name: threads, run: async () => (await chainContactsParallel(P, { dim: 2 })).count },
      { name: 'isect bush', run: () => isectContacts(P, false) },
      { name: 'flatbush + exact orient2d', run: () => flatbushChainContacts(P, false) },
    ], runs, 3);
    const ours = chainContacts(P, { dim: 2 }).count;
    narrowStats.tests = narrowStats.exact = narrowStats.apart = 0;
    chainContacts(P, { dim: 2 });
    const s = split();
    console.log(table(`Chain contacts, 2D ${name} of ${n.toLocaleString('en')} unit segments (skewline ${ours.toLocaleString('en')} contacts, isect ${isectContacts(P, false).toLocaleString('en')}, flatbush + orient2d ${flatbushChainContacts(P, false).toLocaleString('en')})`, rows, n, 'isect bush', 'flatbush + exact orient2d'));
    console.log(`skewline time split (${searchMode.last === 'grid' ? 'uniform grid' : 'hierarchy'}): ${s}`);
  }

  // Natural Earth 10 m land: every ring a chain.
  {
    const rings = landRings('land-10m.json');
    const vertices = rings.reduce((s, r) => s + r.length / 2, 0);
    const rows = measure([
      { name: 'skewline chainContacts', run: () => rings.reduce((s, r) => s + chainContacts(r, { dim: 2 }).count, 0) },
      { name: 'isect bush', run: () => rings.reduce((s, r) => s + isectContacts(r, true), 0) },
      { name: 'flatbush + exact orient2d', run: () => rings.reduce((s, r) => s + flatbushChainContacts(r, true), 0) },
    ], runs, 1);
    const count = (f: (r: Float64Array) => number): number => rings.reduce((s, r) => s + f(r), 0);
    const nonAdjacent = (r: Float64Array): number => {
      const c = chainContacts(r, { dim: 2 });
      let k = 0;
      const m = r.length / 2 - 1; // rings repeat their first vertex: segments 0 and m − 1 are adjacent
      for (let q = 0; q < c.count; q++) if (c.j[q] - c.i[q] >= 2 && !(c.i[q] === 0 && c.j[q] === m - 1)) k++;
      return k;
    };
    console.log(table(`Chain contacts, all ${rings.length.toLocaleString('en')} rings of Natural Earth land-10m (${vertices.toLocaleString('en')} vertices; non-adjacent contacts: skewline ${count(nonAdjacent)}, isect ${count((r) => isectContacts(r, true))}, flatbush + orient2d ${count((r) => flatbushChainContacts(r, true))}; fold-backs besides: skewline ${count((r) => chainContacts(r, { dim: 2 }).count) - count(nonAdjacent)})`, rows, vertices, 'isect bush', 'flatbush + exact orient2d'));
  }

  // What the peers answer (counts of non-adjacent contacts; sweepline-intersections reports points).
  {
    const rings = landRings('land-10m.json');
    const big = rings.reduce((a, b) => (a.length > b.length ? a : b));
    const G = gridWalk(100_000, 2, makeRng(6));
    const lines = ['\nAnswers on real and degenerate data (non-adjacent contacts; exact = skewline)', '| chain | exact | isect bush | flatbush + orient2d | sweepline-intersections (points) |', '|---|---:|---:|---:|---:|'];
    for (const [name, P, ring] of [[`largest land-10m ring (${big.length / 2} vertices)`, big, true], ['integer-grid walk, 100,000 steps', G, false]] as const) {
      const c = chainContacts(P, { dim: 2 });
      let exact = 0;
      for (let q = 0; q < c.count; q++) if (c.j[q] - c.i[q] >= 2 && !(ring && c.i[q] === 0 && c.j[q] === P.length / 2 - 2)) exact++;
      lines.push(`| ${name} | ${exact} (+${c.count - exact} fold-backs) | ${isectContacts(P, ring)} | ${flatbushChainContacts(P, ring)} | ${sweeplinePoints(P)} |`);
    }
    console.log(lines.join('\n'));
  }

  // Growth.
  const lines = ['\nskewline chainContacts, growth with n (median of 3; ms, and ms per n·log2 n × 1e6)', '| n | 2D random walk | 3D chain, thickness 0.2 |', '|---:|---:|---:|'];
  for (let size = 10_000; size <= n; size *= 10) {
    const P2 = randomWalk(size, 2, makeRng(4));
    const P3 = randomWalk(size, 3, makeRng(5));
    const [a] = measure([{ name: '2', run: () => chainContacts(P2, { dim: 2 }).count }], 3, 1);
    const [b] = measure([{ name: '3', run: () => chainContacts(P3, { dim: 3, thickness: 0.2 }).count }], 3, 1);
    const nl = size * Math.log2(size) / 1e6;
    lines.push(`| ${size.toLocaleString('en')} | ${a.median.toFixed(1)} (${(a.median / nl).toFixed(2)}) | ${b.median.toFixed(1)} (${(b.median / nl).toFixed(2)}) |`);
  }
  console.log(lines.join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`skewline chain benchmark — ${machine()}`);
  await run({ segments: arg('--segments', 1_000_000), runs: arg('--runs', 3), only3d: process.argv.includes('--3d') });
  const { closeParallelPool } = await import('../../src/parallel/index.js');
  await closeParallelPool();
}
