/**
 * Scaling of skewline/parallel: for each job, the single-thread function and the parallel one at
 * 2, 4, … threads up to the machine's available parallelism, interleaved run by run in one
 * process; time, speed-up over one thread, and the serial share — time on the calling thread
 * while no worker runs, over the one-thread time (Amdahl: a 10× at 16 threads needs it < 4%).
 * Run alone: node --expose-gc --import tsx bench/batch/parallel.bench.ts [--pairs N] [--segments N] [--runs R]
 */
import os from 'node:os';
import { segmentDistances } from '../../src/batch/batch.js';
import { chainContacts } from '../../src/index.js';
import { allocSharedChain, allocSharedPairs, chainContactsParallel, closeParallelPool, segmentDistancesParallel } from '../../src/parallel/index.js';
import { parallelStats } from '../../src/parallel/stats.js';
import { uniformPairs3 } from '../../test/support/families.js';
import { randomWalk } from '../../test/support/walks.js';
import { makeRng } from '../../test/support/rng.js';
import { machine, measureAsync } from '../harness.js';

/** 1, 2, 4, 8, … threads, and the core count itself. */
function threadCounts(): number[] {
  const cores = os.availableParallelism();
  const t = [1];
  for (let k = 2; k < cores; k *= 2) t.push(k);
  if (cores > 1) t.push(cores);
  return t;
}

interface Job {
  name: string;
  one: () => number;
  par: (threads: number) => Promise<number>;
}

async function scale(job: Job, runs: number): Promise<string[]> {
  const counts = threadCounts();
  const serial = new Map<number, number[]>();
  const cpu = new Map<number, number[]>();
  const push = (m: Map<number, number[]>, t: number, x: number): void => {
    const list = m.get(t) ?? [];
    list.push(x);
    m.set(t, list);
  };
  const methods = counts.map((t) => ({
    name: String(t),
    run: async () => {
      const c0 = process.cpuUsage();
      const r = t === 1 ? job.one() : await job.par(t);
      const c = process.cpuUsage(c0);
      push(cpu, t, (c.user + c.system) / 1000);
      if (t > 1) push(serial, t, parallelStats.serialMs);
      return r;
    },
  }));
  const rows = await measureAsync(methods, runs, 1);
  const base = rows[0].median;
  const med = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1];
  const cpuOne = med(cpu.get(1)!);
  return rows.map((r, k) => {
    const t = counts[k];
    const share = t === 1 ? '—' : `${((100 * med(serial.get(t)!)) / base).toFixed(1)}%`;
    const work = med(cpu.get(t)!);
    return `| ${job.name} | ${t} | ${r.median.toFixed(1)} | ${(base / r.median).toFixed(2)}× | ${share} | ${work.toFixed(0)} (${(work / cpuOne).toFixed(2)}×) |`;
  });
}

/** Prints the scaling table of segmentDistancesParallel and chainContactsParallel. */
export async function run(opts: { pairs?: number; segments?: number; runs?: number } = {}): Promise<void> {
  const n = opts.pairs ?? 4_000_000;
  const m = opts.segments ?? 1_000_000;
  const runs = opts.runs ?? 5;
  const pairs = allocSharedPairs(n, 3);
  pairs.set(uniformPairs3(n, 1));
  const out = new Float64Array(n);
  const walk3 = allocSharedChain(m + 1, 3);
  walk3.set(randomWalk(m, 3, makeRng(1)));
  const walk2 = allocSharedChain(m + 1, 2);
  walk2.set(randomWalk(m, 2, makeRng(2)));
  const jobs: Job[] = [
    {
      name: `segmentDistancesParallel, ${n.toLocaleString('en')} 3D pairs (allocSharedPairs)`,
      one: () => segmentDistances(pairs, 3, out)[n - 1],
      par: async (threads) => (await segmentDistancesParallel(pairs, 3, { threads }))[n - 1],
    },
    {
      name: `chainContactsParallel, 3D walk ${m.toLocaleString('en')}, thickness 0.2 (allocSharedChain)`,
      one: () => chainContacts(walk3, { dim: 3, thickness: 0.2 }).count,
      par: async (threads) => (await chainContactsParallel(walk3, { dim: 3, thickness: 0.2, threads })).count,
    },
    {
      name: `chainContactsParallel, 2D random walk ${m.toLocaleString('en')}, thickness 0 (allocSharedChain)`,
      one: () => chainContacts(walk2, { dim: 2 }).count,
      par: async (threads) => (await chainContactsParallel(walk2, { dim: 2, threads })).count,
    },
  ];
  console.log(`\nskewline/parallel scaling (median of ${runs}; one thread = the single-thread function; serial share = calling thread alone, over the one-thread time; CPU = all threads' CPU time, and over one thread's: the parallel overhead, which a loaded machine does not hide) — ${machine()}`);
  console.log('| job | threads | ms | speed-up | serial share | CPU ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const job of jobs) for (const line of await scale(job, runs)) console.log(line);
  await closeParallelPool();
}

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run({ pairs: arg('--pairs', 4_000_000), segments: arg('--segments', 1_000_000), runs: arg('--runs', 5) });
}
