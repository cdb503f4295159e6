/**
 * Where the wall clock of a two-thread chainContactsParallel call goes: every thread stamps its
 * steps into a shared timeline (src/parallel/timeline.ts) — the job's arrival, the shared boxes,
 * the grid's plan and whole grid, each range of the search in chain order, the share handed over
 * — and the calling thread its copies, the replies and the finish. Prints the median over calls
 * of each step (ms after the call's start), each thread's idle time, and the one-thread call's
 * wall time, interleaved call by call in one process.
 * Run alone: node --expose-gc --import tsx bench/batch/parallel-timeline.bench.ts [--segments N] [--runs R] [--plain] [--threads T] [--range R] [--ab 'KEY=a,b;KEY2=c,d']
 * (--plain: without options.into; --range: segments per range of the search in chain order).
 */
import type { ChainContacts } from '../../src/index.js';
import { chainContacts } from '../../src/index.js';
import { chainStats } from '../../src/chain/contacts.js';
import { allocSharedChain, chainContactsParallel, closeParallelPool } from '../../src/parallel/index.js';
import { chainSearch } from '../../src/parallel/chains.js';
import { PER_RANGE, ROW, ROWS, STEP, timeline } from '../../src/parallel/timeline.js';
import { randomWalk } from '../../test/support/walks.js';
import { makeRng } from '../../test/support/rng.js';
import { machine } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

const m = arg('--segments', 1_000_000);
const runs = arg('--runs', 9);
const threads = arg('--threads', 2);
const plain = process.argv.includes('--plain');
chainSearch.range = arg('--range', chainSearch.range);
// --ab KEY=a,b[;KEY2=c,d]: chainSearch[KEY] (and KEY2, zipped) alternates call by call between
// the values (each variant a row set of its own).
const abAt = process.argv.indexOf('--ab');
const abKeys = abAt >= 0 ? process.argv[abAt + 1].split(';').map((kv) => kv.split('=')) : [];
const abValues = abAt >= 0 ? abKeys[0][1].split(',').map((_, k) => k) : [NaN];
let tag = '';
const walk = allocSharedChain(m + 1, 2);
walk.set(randomWalk(m, 2, makeRng(2)));
const buffer = (): ChainContacts => ({ count: 0, i: new Int32Array(0), j: new Int32Array(0), distance: new Float64Array(0), s: new Float64Array(0), t: new Float64Array(0) });
const intoOne = buffer(), intoPar = buffer();
const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => {});
const median = (a: number[]): number => {
  const b = a.filter((x) => !Number.isNaN(x)).sort((x, y) => x - y);
  return b.length === 0 ? NaN : b[b.length >> 1];
};

const rows = new Map<string, number[]>();
const put = (k: string, v: number): void => {
  k = tag + k;
  if (!rows.has(k)) rows.set(k, []);
  rows.get(k)!.push(v);
};
const oneMs: number[] = [];
const parMs = new Map<string, number[]>();

for (let call = -3 * abValues.length; call < runs * abValues.length; call++) {
  const v = abValues[(call + 3 * abValues.length) % abValues.length];
  for (const [key, list] of abKeys) (chainSearch as unknown as Record<string, number>)[key] = Number(list.split(',')[v]);
  tag = abAt >= 0 ? `[${abKeys.map(([key, list]) => `${key} ${list.split(',')[v]}`).join(', ')}] ` : '';
  gc();
  let w0 = performance.now();
  const n1 = plain ? chainContacts(walk, { dim: 2 }).count : chainContacts(walk, { dim: 2, into: intoOne }).count;
  if (call >= 0) {
    oneMs.push(performance.now() - w0);
    if (tag === '' || v === abValues[0]) put('one thread: read', chainStats.readMs);
    if (tag === '' || v === abValues[0]) put('one thread: build (boxes, fold-backs, plan, grid)', chainStats.buildMs);
    if (tag === '' || v === abValues[0]) put('one thread: search less build', chainStats.searchMs - chainStats.buildMs);
    if (tag === '' || v === abValues[0]) put('one thread: copy out (sortFound)', chainStats.sortMs);
    if (tag === '' || v === abValues[0]) put('one thread: numbers', chainStats.numbersMs);
  }
  gc();
  timeline.on = true;
  w0 = performance.now();
  const n2 = (await chainContactsParallel(walk, plain ? { dim: 2, threads } : { dim: 2, threads, into: intoPar })).count;
  const wall = performance.now() - w0;
  timeline.on = false;
  if (n1 !== n2) throw new Error(`counts differ: ${n1} ${n2}`);
  if (call < 0) continue;
  if (!parMs.has(tag)) parMs.set(tag, []);
  parMs.get(tag)!.push(wall);
  const T = timeline.last!;
  const t0 = T[STEP.start];
  const at = (slot: number, step: number): number => T[ROW * slot + step] - t0;
  put('call (performance.now, caller)', wall);
  for (let s = 0; s < threads; s++) {
    const who = s === 0 ? 'caller' : `worker ${s}`;
    if (s > 0) put(`${who}: job received`, at(s, STEP.start));
    put(`${who}: boxes begun`, at(s, STEP.boxes0));
    put(`${who}: boxes done`, at(s, STEP.boxes1));
    if (s === 0) put(`${who}: fold-backs done`, at(s, STEP.folds));
    put(`${who}: plan phase 1 done`, at(s, STEP.plan1));
    put(`${who}: plan phase 2 done`, at(s, STEP.plan2));
    put(`${who}: plan done`, at(s, STEP.plan));
    put(`${who}: whole grid done`, at(s, STEP.grid));
    put(`${who}: search claims ran out`, at(s, STEP.search));
    put(`${who}: share handed over`, at(s, STEP.share));
  }
  put('caller: replies resolved', at(0, STEP.replies));
  put('caller: finish done', at(0, STEP.finish));
  put('caller: end', at(0, STEP.end));
  put('caller: copy ms during its search (sum)', T[STEP.copyMs]);
  put('caller: ownDone ms (saving its waiting ranges)', T[STEP.sideMs]);
  // Ranges: per thread, how many, their search ms, the first start and the last end; the copy lag.
  const base = ROW * ROWS;
  const ranges = (T.length - base) / PER_RANGE;
  const count = new Array<number>(threads).fill(0), busy = new Array<number>(threads).fill(0);
  const first = new Array<number>(threads).fill(Infinity), last = new Array<number>(threads).fill(-Infinity);
  let lastEnd = -Infinity, lastCopy = -Infinity, copiedAfterSearch = 0;
  for (let r = 0; r < ranges; r++) {
    const q = base + PER_RANGE * r, s = T[q + 2];
    count[s]++;
    busy[s] += T[q + 1] - T[q];
    first[s] = Math.min(first[s], T[q] - t0);
    last[s] = Math.max(last[s], T[q + 1] - t0);
    lastEnd = Math.max(lastEnd, T[q + 1] - t0);
    lastCopy = Math.max(lastCopy, T[q + 3] - t0);
  }
  const searchEnd = Math.max(...Array.from({ length: threads }, (_, s) => at(s, STEP.search)));
  for (let r = 0; r < ranges; r++) if (T[base + PER_RANGE * r + 3] - t0 > searchEnd) copiedAfterSearch++;
  for (let s = 0; s < threads; s++) {
    const who = s === 0 ? 'caller' : `worker ${s}`;
    put(`${who}: ranges searched`, count[s]);
    put(`${who}: ms in its ranges`, busy[s]);
    put(`${who}: first range begun`, first[s]);
    put(`${who}: last range ended`, last[s]);
  }
  put('ranges: last ended (any thread)', lastEnd);
  put('ranges: last copied (caller)', lastCopy);
  put('ranges copied after every search ended', copiedAfterSearch);
  put('the two threads\' last range ends, apart', Math.abs(last[0] - (threads > 1 ? last[1] : last[0])));
}
await closeParallelPool();

console.log(`\nchainContactsParallel, 2D random walk ${m.toLocaleString('en')}, τ 0, ${threads} threads${plain ? '' : ', into'}: median of ${runs} calls, ms after the call's start (one shared clock) — ${machine()}`);
console.log('| step | median | min | max |');
console.log('|---|---:|---:|---:|');
for (const [k, v] of rows) {
  const f = v.filter((x) => !Number.isNaN(x));
  console.log(`| ${k} | ${median(v).toFixed(2)} | ${Math.min(...f).toFixed(2)} | ${Math.max(...f).toFixed(2)} |`);
}
for (const [t, ms] of parMs) console.log(`\n${t}one thread ${median(oneMs).toFixed(1)} ms, ${threads} threads ${median(ms).toFixed(1)} ms (traced): ${(median(oneMs) / median(ms)).toFixed(3)}× (wall, interleaved, median of ${ms.length})`);
