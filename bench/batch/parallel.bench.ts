/**
 * Scaling of skewline/parallel: for each job, the single-thread function and the parallel one at
 * 2, 4, … threads up to the machine's available parallelism, interleaved run by run in one
 * process; time, speed-up over one thread, and from each thread's CPU time: the serial share —
 * the calling thread's CPU outside its share of the work, over one thread's CPU (Amdahl: a 10×
 * at 16 threads needs it < 4%) — the CPU ratio (all threads over one: the parallel overhead) and
 * the busiest thread's CPU. CPU times hold on a loaded machine, where wall times do not.
 * Run alone: node --expose-gc --import tsx bench/batch/parallel.bench.ts [--pairs N] [--segments N] [--runs R] [--only TEXT]
 * (--only: the jobs whose name contains TEXT, e.g. "2D").
 */
import os from 'node:os';
import { segmentDistances } from '../../src/batch/batch.js';
import { chainContacts } from '../../src/index.js';
import { allocSharedChain, allocSharedPairs, chainContactsParallel, closeParallelPool, segmentDistancesParallel } from '../../src/parallel/index.js';
import { parallelStats, threadCpuMs } from '../../src/parallel/stats.js';
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

const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1];

async function scale(job: Job, runs: number): Promise<string[]> {
  const counts = threadCounts();
  // Per thread count, per run: every thread's CPU ms (the calling thread first) and the serial CPU.
  const cpu = new Map<number, { threadMs: number[]; serialMs: number }[]>(counts.map((t) => [t, []]));
  // … and the whole process's CPU ms (with V8's helper threads: the collector, the compiler), and its page faults.
  const proc = new Map<number, number[]>(counts.map((t) => [t, []]));
  const faults = new Map<number, number[]>(counts.map((t) => [t, []]));
  parallelStats.measureCpu = true;
  const methods = counts.map((t) => ({
    name: String(t),
    run: async () => {
      let r: number;
      const p0 = process.cpuUsage();
      const f0 = process.resourceUsage().minorPageFault;
      if (t === 1) {
        const c0 = threadCpuMs();
        r = job.one();
        const c = threadCpuMs() - c0;
        cpu.get(1)!.push({ threadMs: [c], serialMs: c });
      } else {
        r = await job.par(t);
        if (parallelStats.cpu !== null) cpu.get(t)!.push(parallelStats.cpu);
      }
      const p = process.cpuUsage(p0);
      proc.get(t)!.push((p.user + p.system) / 1000);
      faults.get(t)!.push(process.resourceUsage().minorPageFault - f0);
      return r;
    },
  }));
  const rows = await measureAsync(methods, runs, 1);
  parallelStats.measureCpu = false;
  const base = rows[0].median;
  const one = median(cpu.get(1)!.map((c) => c.threadMs[0]));
  const procOne = median(proc.get(1)!);
  return rows.map((r, k) => {
    const t = counts[k];
    const list = cpu.get(t)!;
    const cells = [job.name, String(t), r.median.toFixed(1), `${(base / r.median).toFixed(2)}×`];
    const procRatio = `${(median(proc.get(t)!) / procOne).toFixed(2)}`;
    const pf = median(faults.get(t)!).toLocaleString('en');
    if (list.length === 0 || !(one > 0)) return `| ${[...cells, '—', '—', '—', procRatio, '—', '—', pf, '—'].join(' | ')} |`;
    // The process's CPU outside the threads of the call, run by run: V8's compiler and collector
    // threads. With every core busy, their time comes out of the call's own.
    const procs = proc.get(t)!;
    const others = list.length === procs.length ? median(list.map((c, k) => procs[k] - c.threadMs.reduce((a, b) => a + b, 0))) : NaN;
    const total = median(list.map((c) => c.threadMs.reduce((a, b) => a + b, 0)));
    const busiest = median(list.map((c) => Math.max(...c.threadMs)));
    const serial = median(list.map((c) => c.serialMs));
    return `| ${[
      ...cells,
      t === 1 ? '—' : `${((100 * serial) / one).toFixed(1)}%`,
      total.toFixed(0),
      `${(total / one).toFixed(3)}`,
      procRatio,
      busiest.toFixed(0),
      `${(one / busiest).toFixed(2)}×`,
      pf,
      Number.isNaN(others) ? '—' : others.toFixed(1),
    ].join(' | ')} |`;
  });
}

/** Prints the scaling table of segmentDistancesParallel and chainContactsParallel. */
export async function run(opts: { pairs?: number; segments?: number; runs?: number; only?: string } = {}): Promise<void> {
  const n = opts.pairs ?? 4_000_000;
  const m = opts.segments ?? 1_000_000;
  const runs = opts.runs ?? 5;
  const pairs = allocSharedPairs(n, 3);
  pairs.set(uniformPairs3(n, 1));
  // Both sides write into an output of their own, reused run after run (as a strong engineer's loop would).
  const out = new Float64Array(n);
  const outShared = new Float64Array(new SharedArrayBuffer(8 * n));
  const walk3 = allocSharedChain(m + 1, 3);
  walk3.set(randomWalk(m, 3, makeRng(1)));
  const walk2 = allocSharedChain(m + 1, 2);
  walk2.set(randomWalk(m, 2, makeRng(2)));
  const jobs: Job[] = [
    {
      name: `segmentDistancesParallel, ${n.toLocaleString('en')} 3D pairs (allocSharedPairs)`,
      one: () => segmentDistances(pairs, 3, out)[n - 1],
      par: async (threads) => (await segmentDistancesParallel(pairs, 3, { threads, out: outShared }))[n - 1],
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
  console.log(`\nskewline/parallel scaling (median of ${runs}, interleaved; one thread = the single-thread function; ms and speed-up: wall clock; CPU: each thread's CPU time (Linux schedstat), which a loaded machine does not inflate as it does the wall clock — serial share = the calling thread's CPU outside its share of the work, over one thread's CPU; CPU ratio = all threads' CPU over one thread's (the parallel overhead), process = the same for the whole process's CPU (V8's collector and compiler threads included); busiest = the most CPU one thread spent, and one thread's CPU over it: the speed-up of an idle machine if no thread waited; page faults: the process's minor faults during the call, fresh memory touched, which costs more when the threads run at once; helper ms: the process's CPU outside the call's threads, V8's compiler and collector threads, which take their time from the call's when every core is busy) — ${machine()}`);
  console.log('| job | threads | ms | speed-up | serial share | CPU ms (all threads) | CPU ratio | process CPU ratio | busiest thread ms | CPU speed-up | page faults | helper ms |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const job of jobs) {
    if (opts.only !== undefined && !job.name.includes(opts.only)) continue;
    for (const line of await scale(job, runs)) console.log(line);
  }
  await closeParallelPool();
}

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.indexOf('--only');
  await run({ pairs: arg('--pairs', 4_000_000), segments: arg('--segments', 1_000_000), runs: arg('--runs', 5), ...(only >= 0 ? { only: process.argv[only + 1] } : {}) });
}
