/**
 * The 2D parallel chain search in chain order (ranges of segments, concatenated) against the
 * search by bands of columns with the merge, and against one thread: chainContactsParallel at 2
 * threads on a planar random walk at thickness 0, the three interleaved run by run in one process.
 * Medians of wall ms, each thread's CPU ms (the calling thread first), all threads' CPU, the
 * busiest thread's, and the serial share (the calling thread's CPU outside its share of the work).
 * Run alone: node --expose-gc --import tsx bench/batch/parallel-order.bench.ts [--segments N] [--runs R] [--threads T]
 */
import { chainContacts } from '../../src/index.js';
import { allocSharedChain, chainContactsParallel, closeParallelPool } from '../../src/parallel/index.js';
import { chainSearch } from '../../src/parallel/chains.js';
import { parallelStats, threadCpuMs } from '../../src/parallel/stats.js';
import { randomWalk } from '../../test/support/walks.js';
import { makeRng } from '../../test/support/rng.js';
import { machine } from '../harness.js';

const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1];

export async function run(opts: { segments?: number; runs?: number; threads?: number } = {}): Promise<void> {
  const m = opts.segments ?? 1_000_000, runs = opts.runs ?? 9, threads = opts.threads ?? 2;
  const walk = allocSharedChain(m + 1, 2);
  walk.set(randomWalk(m, 2, makeRng(2)));
  const want = chainContacts(walk, { dim: 2 });
  parallelStats.measureCpu = true;
  const modes = ['one thread', 'in chain order', 'by bands + merge'] as const;
  const rows = new Map<string, { wall: number; cpu: number[]; serial: number }[]>(modes.map((k) => [k, []]));
  let sink = 0;
  for (let run = -1; run < runs; run++) {
    for (const mode of modes) {
      globalThis.gc?.();
      const c0 = threadCpuMs(), t0 = performance.now();
      let count: number;
      if (mode === 'one thread') count = chainContacts(walk, { dim: 2 }).count;
      else {
        chainSearch.inOrder = mode === 'in chain order';
        count = (await chainContactsParallel(walk, { dim: 2, threads })).count;
      }
      const wall = performance.now() - t0;
      if (count !== want.count) throw new Error(`${mode}: ${count} contacts, want ${want.count}`);
      sink += count;
      const cpu = mode === 'one thread' ? { threadMs: [threadCpuMs() - c0], serialMs: 0 } : parallelStats.cpu!;
      if (run >= 0) rows.get(mode)!.push({ wall, cpu: cpu.threadMs, serial: cpu.serialMs });
    }
  }
  chainSearch.inOrder = true;
  parallelStats.measureCpu = false;
  const one = median(rows.get('one thread')!.map((r) => r.cpu[0]));
  const oneWall = median(rows.get('one thread')!.map((r) => r.wall));
  console.log(`\n2D random walk ${m.toLocaleString('en')}, thickness 0, ${threads} threads (median of ${runs}, interleaved; sink ${sink % 7}) — ${machine()}`);
  console.log('| search | ms | speed-up | CPU ms per thread | CPU ms (all) | CPU ratio | busiest ms | CPU speed-up | serial share |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const mode of modes) {
    const list = rows.get(mode)!;
    const wall = median(list.map((r) => r.wall));
    const per = list[0].cpu.map((_, k) => median(list.map((r) => r.cpu[k] ?? 0)).toFixed(0)).join(' / ');
    const all = median(list.map((r) => r.cpu.reduce((a, b) => a + b, 0)));
    const busiest = median(list.map((r) => Math.max(...r.cpu)));
    const serial = median(list.map((r) => r.serial));
    console.log(`| ${mode} | ${wall.toFixed(0)} | ${(oneWall / wall).toFixed(2)}× | ${per} | ${all.toFixed(0)} | ${(all / one).toFixed(3)} | ${busiest.toFixed(0)} | ${(one / busiest).toFixed(2)}× | ${mode === 'one thread' ? '—' : `${((100 * serial) / one).toFixed(1)}%`} |`);
  }
  await closeParallelPool();
}

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run({ segments: arg('--segments', 1_000_000), runs: arg('--runs', 9), threads: arg('--threads', 2) });
}
