/**
 * Scaling of skewline/parallel: for each job, the single-thread function and the parallel one at
 * 2, 4, … threads up to the machine's available parallelism, interleaved run by run in one
 * process; time, speed-up over one thread, and from each thread's CPU time: the serial share —
 * the calling thread's CPU outside its share of the work, over one thread's CPU (Amdahl: a 10×
 * at 16 threads needs it < 4%) — the CPU ratio (all threads over one: the parallel overhead) and
 * the busiest thread's CPU. CPU times hold on a loaded machine, where wall times do not.
 * Run alone: node --expose-gc --import tsx bench/batch/parallel.bench.ts [--pairs N] [--segments N] [--runs R] [--only TEXT] [--into]
 * (--only: the jobs whose name contains TEXT, e.g. "2D"; --into: each chain job also with
 * `options.into`, a result buffer reused call after call, rows "N +into", interleaved with the
 * others; the "full GCs" column counts the mark-compacts during each call).
 */
import os from 'node:os';
import { PerformanceObserver, constants as perfConstants, performance } from 'node:perf_hooks';
import type { ChainContacts } from '../../src/index.js';
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
  /** The same with a result buffer reused call after call (`options.into`), where the job takes one. */
  oneInto?: () => number;
  parInto?: (threads: number) => Promise<number>;
}

/** Start times and durations (ms, performance.now()) of the full collections (mark-compacts) so far. */
const majorGcs: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if ((e as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) majorGcs.push([e.startTime, e.duration]);
  }
}).observe({ entryTypes: ['gc'] });

/** Full collections that started in [t0, t1]. */
function majorsIn(t0: number, t1: number): number {
  let n = 0;
  for (const [t] of majorGcs) if (t >= t0 && t <= t1) n++;
  return n;
}

const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1];

async function scale(job: Job, runs: number, withInto: boolean): Promise<string[]> {
  const threads = threadCounts();
  // Variants: a thread count, and whether it writes into a reused buffer (keyed t, or −t with into).
  const counts = withInto && job.oneInto !== undefined ? threads.flatMap((t) => [t, -t]) : threads;
  // Per variant, per run: the call's wall interval, for the collections in it (counted once the
  // observer has delivered them).
  const spans = new Map<number, [number, number][]>(counts.map((t) => [t, []]));
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
      const w0 = performance.now();
      if (Math.abs(t) === 1) {
        const c0 = threadCpuMs();
        r = t > 0 ? job.one() : job.oneInto!();
        const c = threadCpuMs() - c0;
        cpu.get(t)!.push({ threadMs: [c], serialMs: c });
      } else {
        r = t > 0 ? await job.par(t) : await job.parInto!(-t);
        if (parallelStats.cpu !== null) cpu.get(t)!.push(parallelStats.cpu);
      }
      spans.get(t)!.push([w0, performance.now()]);
      const p = process.cpuUsage(p0);
      proc.get(t)!.push((p.user + p.system) / 1000);
      faults.get(t)!.push(process.resourceUsage().minorPageFault - f0);
      return r;
    },
  }));
  const rows = await measureAsync(methods, runs, 1);
  parallelStats.measureCpu = false;
  await new Promise((resolve) => setTimeout(resolve, 50)); // the observer's last entries
  const base = rows[0].median;
  const one = median(cpu.get(1)!.map((c) => c.threadMs[0]));
  const procOne = median(proc.get(1)!);
  return rows.map((r, k) => {
    const t = counts[k];
    const list = cpu.get(t)!;
    const cells = [job.name, t > 0 ? String(t) : `${-t} +into`, r.median.toFixed(1), `${(base / r.median).toFixed(2)}×`];
    const gcs = spans.get(t)!.slice(-runs).map(([a, b]) => majorsIn(a, b)); // the timed runs (not the warm-up)
    const gcCell = `${gcs.reduce((a, b) => a + b, 0)}/${gcs.length}`;
    const procRatio = `${(median(proc.get(t)!) / procOne).toFixed(2)}`;
    const pf = median(faults.get(t)!).toLocaleString('en');
    if (list.length === 0 || !(one > 0)) return `| ${[...cells, '—', '—', '—', procRatio, '—', '—', pf, '—', gcCell].join(' | ')} |`;
    // The process's CPU outside the threads of the call, run by run: V8's compiler and collector
    // threads. With every core busy, their time comes out of the call's own.
    const procs = proc.get(t)!;
    const others = list.length === procs.length ? median(list.map((c, k) => procs[k] - c.threadMs.reduce((a, b) => a + b, 0))) : NaN;
    const total = median(list.map((c) => c.threadMs.reduce((a, b) => a + b, 0)));
    const busiest = median(list.map((c) => Math.max(...c.threadMs)));
    const serial = median(list.map((c) => c.serialMs));
    return `| ${[
      ...cells,
      Math.abs(t) === 1 ? '—' : `${((100 * serial) / one).toFixed(1)}%`,
      total.toFixed(0),
      `${(total / one).toFixed(3)}`,
      procRatio,
      busiest.toFixed(0),
      `${(one / busiest).toFixed(2)}×`,
      pf,
      Number.isNaN(others) ? '—' : others.toFixed(1),
      gcCell,
    ].join(' | ')} |`;
  });
}

/** Prints the scaling table of segmentDistancesParallel and chainContactsParallel. */
export async function run(opts: { pairs?: number; segments?: number; runs?: number; only?: string; into?: boolean } = {}): Promise<void> {
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
  // With --into: one result buffer per side and chain, reused run after run (grown on the first).
  const buffer = (): ChainContacts => ({ count: 0, i: new Int32Array(0), j: new Int32Array(0), distance: new Float64Array(0), s: new Float64Array(0), t: new Float64Array(0) });
  const into = { one3: buffer(), par3: buffer(), one2: buffer(), par2: buffer() };
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
      oneInto: () => chainContacts(walk3, { dim: 3, thickness: 0.2, into: into.one3 }).count,
      parInto: async (threads) => (await chainContactsParallel(walk3, { dim: 3, thickness: 0.2, threads, into: into.par3 })).count,
    },
    {
      name: `chainContactsParallel, 2D random walk ${m.toLocaleString('en')}, thickness 0 (allocSharedChain)`,
      one: () => chainContacts(walk2, { dim: 2 }).count,
      par: async (threads) => (await chainContactsParallel(walk2, { dim: 2, threads })).count,
      oneInto: () => chainContacts(walk2, { dim: 2, into: into.one2 }).count,
      parInto: async (threads) => (await chainContactsParallel(walk2, { dim: 2, threads, into: into.par2 })).count,
    },
  ];
  console.log(`\nskewline/parallel scaling (median of ${runs}, interleaved; one thread = the single-thread function; ms and speed-up: wall clock; CPU: each thread's CPU time (Linux schedstat), which a loaded machine does not inflate as it does the wall clock — serial share = the calling thread's CPU outside its share of the work, over one thread's CPU; CPU ratio = all threads' CPU over one thread's (the parallel overhead), process = the same for the whole process's CPU (V8's collector and compiler threads included); busiest = the most CPU one thread spent, and one thread's CPU over it: the speed-up of an idle machine if no thread waited; page faults: the process's minor faults during the call, fresh memory touched, which costs more when the threads run at once; helper ms: the process's CPU outside the call's threads, V8's compiler and collector threads, which take their time from the call's when every core is busy; full GCs: mark-compacts during the calls / calls (gc() before each call is outside); "+into": the call with options.into, a result buffer reused run after run) — ${machine()}`);
  console.log('| job | threads | ms | speed-up | serial share | CPU ms (all threads) | CPU ratio | process CPU ratio | busiest thread ms | CPU speed-up | page faults | helper ms | full GCs |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const job of jobs) {
    if (opts.only !== undefined && !job.name.includes(opts.only)) continue;
    for (const line of await scale(job, runs, opts.into === true)) console.log(line);
  }
  await closeParallelPool();
}

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.indexOf('--only');
  await run({ pairs: arg('--pairs', 4_000_000), segments: arg('--segments', 1_000_000), runs: arg('--runs', 5), ...(only >= 0 ? { only: process.argv[only + 1] } : {}), into: process.argv.includes('--into') });
}
