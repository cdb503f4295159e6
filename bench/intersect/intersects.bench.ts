/**
 * Benchmark: exact 2D segment–segment intersection tests, side by side in one process.
 *
 *   npx tsx bench/intersects.bench.ts
 *
 * - skewline `intersectsSegments2` (exact: filtered orientations, exact fallback);
 * - the tutorial's naive floating-point test (document 004, `Geometry::segmentIntersection2D`),
 *   ported to TypeScript twice: verbatim, and with its t2 sign corrected (see below);
 * - `robust-segment-intersect` (npm, exact orientations via robust-orientation), fed from the
 *   same Float64Array through four reused [x, y] arrays.
 *
 * 1,000,000 seeded uniform random pairs in the unit square, pre-generated in one Float64Array;
 * two warm-up passes, then RUNS timed passes per method, interleaved; median and spread
 * (min–max) reported, with a sink so the work cannot be dropped. A second, near-degenerate set
 * (small integer grid: many touches and collinear pairs) counts each method's wrong answers
 * against the exact oracle of the tests (BigInt rationals, independent of src/).
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { intersectsSegments2 } from '../../src/intersect/intersects.js';
import { exactShares } from '../../test/support/exact-isect.js';
import { mulberry32 } from '../../test/support/rng.js';

type Vec2 = [number, number];
const require = createRequire(import.meta.url);
const robustSegmentIntersect = require('robust-segment-intersect') as (a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) => boolean;

/** One row of results. */
export interface BenchRow {
  method: string;
  /** Median time of one pass over all pairs, ms. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Million pairs per second at the median. */
  mpairsPerSec: number;
  /** Throughput relative to the corrected naive version. */
  ratioVsNaive: number;
  /** Wrong answers on the near-degenerate grid set (vs the exact oracle). */
  wrongOnGrid: number;
  gridPairs: number;
}

// ---------------------------------------------------------------------------------------------
// The tutorial's test, from its C++ (float replaced by double).

/**
 * Verbatim port: det = v1 × v2, t1 = (v2.y·dx − v2.x·dy)/det, t2 = (−v1.y·dx + v1.x·dy)/det.
 * The t2 line has the wrong sign (Cramer's rule on V = [v1, −v2] gives t2 = (v1.y·dx −
 * v1.x·dy)/det), so it rejects most true crossings — including the tutorial's own example,
 * where it yields t2 = −3/4. It also returns false whenever det == 0 (collinear overlaps).
 */
function naiveVerbatim(d: Float64Array, k: number): boolean {
  const p1x = d[k], p1y = d[k + 1];
  const v1x = d[k + 2] - p1x, v1y = d[k + 3] - p1y;
  const p2x = d[k + 4], p2y = d[k + 5];
  const v2x = d[k + 6] - p2x, v2y = d[k + 7] - p2y;
  const det = v1x * v2y - v1y * v2x;
  if (det === 0) return false;
  const dx = p2x - p1x, dy = p2y - p1y;
  const t1 = (v2y * dx - v2x * dy) / det;
  if (0 > t1 || t1 > 1) return false;
  const t2 = (-v1y * dx + v1x * dy) / det;
  if (0 > t2 || t2 > 1) return false;
  return true;
}

/** The same with t2's sign corrected: the fair speed baseline (same operations). */
function naive(d: Float64Array, k: number): boolean {
  const p1x = d[k], p1y = d[k + 1];
  const v1x = d[k + 2] - p1x, v1y = d[k + 3] - p1y;
  const p2x = d[k + 4], p2y = d[k + 5];
  const v2x = d[k + 6] - p2x, v2y = d[k + 7] - p2y;
  const det = v1x * v2y - v1y * v2x;
  if (det === 0) return false;
  const dx = p2x - p1x, dy = p2y - p1y;
  const t1 = (v2y * dx - v2x * dy) / det;
  if (0 > t1 || t1 > 1) return false;
  const t2 = (v1y * dx - v1x * dy) / det;
  if (0 > t2 || t2 > 1) return false;
  return true;
}

const A0: Vec2 = [0, 0], A1: Vec2 = [0, 0], B0: Vec2 = [0, 0], B1: Vec2 = [0, 0];
function robust(d: Float64Array, k: number): boolean {
  A0[0] = d[k]; A0[1] = d[k + 1]; A1[0] = d[k + 2]; A1[1] = d[k + 3];
  B0[0] = d[k + 4]; B0[1] = d[k + 5]; B1[0] = d[k + 6]; B1[1] = d[k + 7];
  return robustSegmentIntersect(A0, A1, B0, B1);
}

// ---------------------------------------------------------------------------------------------


type Kernel = (d: Float64Array, k: number) => boolean;

// One loop per method, so that each call site stays monomorphic (a shared loop calling four
// different kernels would be megamorphic and handicap every one of them, the smallest most).
function passSkewline(d: Float64Array, n: number): number {
  let hits = 0;
  for (let i = 0, k = 0; i < n; i++, k += 8) if (intersectsSegments2(d, k)) hits++;
  return hits;
}
function passNaive(d: Float64Array, n: number): number {
  let hits = 0;
  for (let i = 0, k = 0; i < n; i++, k += 8) if (naive(d, k)) hits++;
  return hits;
}
function passNaiveVerbatim(d: Float64Array, n: number): number {
  let hits = 0;
  for (let i = 0, k = 0; i < n; i++, k += 8) if (naiveVerbatim(d, k)) hits++;
  return hits;
}
function passRobust(d: Float64Array, n: number): number {
  let hits = 0;
  for (let i = 0, k = 0; i < n; i++, k += 8) if (robust(d, k)) hits++;
  return hits;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs the benchmark and returns its rows (also printed unless `quiet`). */
export function run(opts: { pairs?: number; runs?: number; gridPairs?: number; seed?: number; quiet?: boolean } = {}): BenchRow[] {
  const n = opts.pairs ?? 1_000_000;
  const runs = Math.max(5, opts.runs ?? 9);
  const gridN = opts.gridPairs ?? 100_000;
  const seed = opts.seed ?? 20240611;
  const log = opts.quiet ? () => {} : console.log;

  const rnd = mulberry32(seed);
  const data = new Float64Array(8 * n);
  for (let i = 0; i < data.length; i++) data[i] = rnd();
  const grid = new Float64Array(8 * gridN);
  for (let i = 0; i < grid.length; i++) grid[i] = Math.floor(rnd() * 5);

  const methods: [string, Kernel, (d: Float64Array, n: number) => number][] = [
    ['skewline intersectsSegments2', intersectsSegments2, passSkewline],
    ['naive (tutorial, t2 sign fixed)', naive, passNaive],
    ['naive (tutorial, verbatim)', naiveVerbatim, passNaiveVerbatim],
    ['robust-segment-intersect', robust, passRobust],
  ];
  let sink = 0;
  for (let w = 0; w < 2; w++) for (const [, , p] of methods) sink += p(data, n);
  const times: number[][] = methods.map(() => []);
  const hits: number[] = methods.map(() => 0);
  for (let r = 0; r < runs; r++) {
    methods.forEach(([, , p], m) => {
      const t0 = performance.now();
      const h = p(data, n);
      times[m].push(performance.now() - t0);
      hits[m] = h;
      sink += h;
    });
  }

  // Wrong answers on the near-degenerate grid set.
  const exact: boolean[] = [];
  for (let i = 0, k = 0; i < gridN; i++, k += 8) {
    exact.push(exactShares(
      { kind: 'segment', p: [grid[k], grid[k + 1]], r: [grid[k + 2], grid[k + 3]] },
      { kind: 'segment', p: [grid[k + 4], grid[k + 5]], r: [grid[k + 6], grid[k + 7]] },
    ));
  }
  const wrong = methods.map(([, f]) => {
    let w = 0;
    for (let i = 0, k = 0; i < gridN; i++, k += 8) if (f(grid, k) !== exact[i]) w++;
    return w;
  });

  const naiveMedian = median(times[1]);
  const rows: BenchRow[] = methods.map(([method], m) => {
    const med = median(times[m]);
    return {
      method,
      medianMs: med,
      minMs: Math.min(...times[m]),
      maxMs: Math.max(...times[m]),
      mpairsPerSec: n / med / 1000,
      ratioVsNaive: naiveMedian / med,
      wrongOnGrid: wrong[m],
      gridPairs: gridN,
    };
  });

  log(`intersects bench: ${n.toLocaleString('en')} uniform random 2D segment pairs (seed ${seed}), ${runs} runs after 2 warm-ups`);
  log(`machine: ${os.cpus()[0]?.model ?? 'unknown'} · Node ${process.version} · ${os.platform()} ${os.arch()}`);
  log('');
  log('method                              median ms   (min–max)        Mpairs/s  × naive  hits     wrong on grid');
  rows.forEach((r, m) => {
    log(
      `${r.method.padEnd(34)} ${r.medianMs.toFixed(1).padStart(9)}   (${r.minMs.toFixed(1)}–${r.maxMs.toFixed(1)})`.padEnd(63) +
        `${r.mpairsPerSec.toFixed(1).padStart(8)}  ${r.ratioVsNaive.toFixed(2).padStart(7)}  ${String(hits[m]).padStart(7)}  ` +
        `${r.wrongOnGrid} / ${gridN}`,
    );
  });
  log('');
  log(`grid set: ${gridN.toLocaleString('en')} pairs with integer coordinates in 0..4, ${exact.filter(Boolean).length} intersecting (exact oracle)`);
  log(`(sink ${sink})`);
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) run();
