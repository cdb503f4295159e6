/**
 * Scaling of segmentDistancesParallel (worker threads over SharedArrayBuffer) against the
 * single-threaded segmentDistances on the same shared array.
 * Run: npx tsx bench/parallel.bench.ts [--pairs N] [--runs R]
 */
import os from 'node:os';
import { segmentDistances } from '../../src/batch/batch.js';
import { closeParallelPool, segmentDistancesParallel } from '../../src/parallel/index.js';
import { nearlyParallelPairs3, uniformPairs3 } from '../../test/support/families.js';
import { machine } from '../harness.js';

async function median(f: () => unknown | Promise<unknown>, runs: number): Promise<number> {
  for (let w = 0; w < 2; w++) await f();
  const ts: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    await f();
    ts.push(performance.now() - t0);
  }
  return ts.sort((a, b) => a - b)[runs >> 1];
}

/** Prints one row per data set: ms for 1..cores threads and the speed-up. */
export async function run(opts: { pairs?: number; runs?: number } = {}): Promise<void> {
  const n = opts.pairs ?? 1_000_000;
  const runs = opts.runs ?? 7;
  const cores = os.availableParallelism();
  console.log(`\nsegmentDistancesParallel, ${n.toLocaleString('en')} 3D pairs in a SharedArrayBuffer — ${machine()}`);
  console.log('| data | 1 thread (segmentDistances) ms | ' + [...Array(cores).keys()].map((i) => `${i + 1} workers ms`).join(' | ') + ' | best speed-up |');
  console.log('|---|---:|' + '---:|'.repeat(cores) + '---:|');
  for (const [label, src] of [['uniform', uniformPairs3(n, 1)], ['nearly parallel', nearlyParallelPairs3(n, 2)]] as const) {
    const data = new Float64Array(new SharedArrayBuffer(src.byteLength));
    data.set(src);
    const out = new Float64Array(n);
    const one = await median(() => segmentDistances(data, 3, out), runs);
    const par: number[] = [];
    for (let t = 1; t <= cores; t++) par.push(await median(() => segmentDistancesParallel(data, 3, { threads: t }), runs));
    console.log(`| ${label} | ${one.toFixed(1)} | ${par.map((x) => x.toFixed(1)).join(' | ')} | ${(one / Math.min(...par)).toFixed(2)}× |`);
  }
  await closeParallelPool();
}

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

if (import.meta.url === `file://${process.argv[1]}`) await run({ pairs: arg('--pairs', 1_000_000), runs: arg('--runs', 7) });
