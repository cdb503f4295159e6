/**
 * chainContactsParallel: one chain search shared by the calling thread and worker threads,
 * work items claimed from a shared counter.
 */
import { Buffer } from 'node:buffer';
import { UNCHECKED_BAD, buildChunks, chainContacts, newShare, prepareShares, quickPrepare, searchShare } from '../chain/contacts.js';
import type { ChainContacts, ChainContactsOptions, PairShare, SharedBuild } from '../chain/contacts.js';
import { checkInto, heldViews, holdInto, intoShare, releaseInto } from '../chain/into.js';
import { leafCount } from '../chain/tree.js';
import { blockGridRoom3 } from '../chain/blocks3.js';
import { releaseHooks } from '../chain/scratch.js';
import type { ChainPoints, PreparedChain } from '../chain/input.js';
import { checkOptions } from '../core/options.js';
import { maxThreads, now, postAll, replyError, serialMs } from './pool.js';
import type { Reply } from './pool.js';
import type { ParallelOptions } from './distances.js';
import type { SharedChain } from './worker.js';
import { threadCount } from './threads.js';
import { RANGES, RangeGather, leaseArrays, mergeGather, mergeOffsets, mergeRanges, rangeShift } from './merge.js';
import { allocGridPlan, planSums } from './grid-plan.js';
import { chainWork } from './chain-work.js';
import type { MergeJob, RangedShare } from './merge.js';
import { cpuSplit, parallelStats, threadCpuMs } from './stats.js';
import { STEP, newTimeline, stamp, timeline } from './timeline.js';

const KEYS = ['dim', 'thickness', 'closed', 'against', 'againstClosed', 'threads', 'into'] as const;

/**
 * How a planar chain at thickness 0 is searched: in chain order by ranges of segments over the
 * whole grid built together (inOrder), or by bands of columns with a merge; and whether the last
 * call searched in chain order. The ranges are cut by guided self-scheduling (grid-plan.ts,
 * rangeBounds), from `range · spread` segments down to `range` (spread 1: every range `range`
 * segments). `fuseSums`: the grid plan's first phase is computed with the shared boxes. Not
 * public: for the tests and the benchmarks, which compare the variants.
 */
export const chainSearch = { inOrder: true, range: 1 << 12, spread: 16, lastInOrder: false, fuseSums: true };

/** Segments per thread below which another thread does not pay for the hierarchy it builds. */
const MIN_SEGMENTS = 50_000;

// Shared working memory of finished calls, for the next (fresh memory costs a page fault per
// 4 KiB on first touch). A call takes buffers out and gives them back only when it succeeded:
// after a failure a worker may still be writing into them. Calls in flight take different ones.
// `spare`: boxes and the grid's plan (sized by the chain); `leases`: the threads' shares of
// contacts (32 bytes a contact), handed to the threads of the next call, largest first.
const spare: SharedArrayBuffer[] = [];
const SPARE_MAX = 16;
const leases: SharedArrayBuffer[] = [];

function takeBuffer(bytes: number): SharedArrayBuffer {
  let best = -1;
  for (let k = 0; k < spare.length; k++) {
    if (spare[k].byteLength >= bytes && (best < 0 || spare[k].byteLength < spare[best].byteLength)) best = k;
  }
  return best >= 0 ? spare.splice(best, 1)[0] : new SharedArrayBuffer(bytes);
}

function takeShared(numbers: number): Float64Array {
  return new Float64Array(takeBuffer(8 * numbers), 0, numbers);
}

function giveBack(...buffers: (ArrayBufferLike | null | undefined)[]): void {
  for (const b of buffers) if (b instanceof SharedArrayBuffer && spare.length < SPARE_MAX && !spare.includes(b)) spare.push(b);
}

/** Up to `k` leases, largest first, and null for the rest. */
function takeLeases(k: number): (SharedArrayBuffer | null)[] {
  leases.sort((a, b) => b.byteLength - a.byteLength);
  const out: (SharedArrayBuffer | null)[] = leases.splice(0, k);
  while (out.length < k) out.push(null);
  return out;
}

/** The memory of a finished call's shares, and its unused leases, for the next call. */
function returnLeases(buffers: (ArrayBufferLike | null)[]): void {
  for (const b of buffers) if (b instanceof SharedArrayBuffer && !leases.includes(b)) leases.push(b);
  leases.sort((a, b) => b.byteLength - a.byteLength);
  leases.length = Math.min(leases.length, 2 * maxThreads());
}

// releaseChainMemory (from 'skewline') drops it too.
releaseHooks.push(() => {
  spare.length = 0;
  leases.length = 0;
});

/** Room for bands of grid columns in a shared plan (the search cuts the grid into at most 16). */
const PLAN_BANDS = 64;

/** Five arrays for n pairs on one buffer of at least 32·n bytes (the merge's shared memory). */
function stagingArrays(buf: SharedArrayBuffer, n: number): PairShare {
  return { distance: new Float64Array(buf, 0, n), s: new Float64Array(buf, 8 * n, n), t: new Float64Array(buf, 16 * n, n), CI: new Int32Array(buf, 24 * n, n), CJ: new Int32Array(buf, 28 * n, n) };
}

/**
 * The merge's range width (log₂) for m first segments and this many threads: 32 ranges a thread
 * (at most {@link RANGES}). Fewer ranges make the threads' partition cheaper (fewer streams to
 * scatter into: on the 1e6-step planar walk's 2.8 million contacts, 62 ranges against 245 took
 * the partition from 48 to 34 ms of CPU and the merge from 82 to 88, one thread, median of 15),
 * and still leave each thread enough ranges to even out the merge.
 */
function mergeShift(m: number, threads: number): number {
  return rangeShift(m, Math.min(RANGES, 32 * threads));
}

/**
 * The result's five arrays for n contacts, each on an ArrayBuffer of its own: the distances
 * zeroed when `zero` (thickness 0: the merge does not write them), every other array on memory
 * left uninitialised (Buffer.allocUnsafeSlow), which the merge then writes in full — each
 * contact's slot once. That skips a zeroing pass over 24 bytes a contact (66 MB on the 1e6-step
 * planar walk) on the calling thread.
 */
function resultArrays(n: number, zero: boolean): PairShare {
  const raw = (bytes: number): ArrayBuffer => Buffer.allocUnsafeSlow(bytes).buffer as ArrayBuffer;
  return {
    CI: new Int32Array(raw(4 * n), 0, n), CJ: new Int32Array(raw(4 * n), 0, n),
    distance: zero ? new Float64Array(n) : new Float64Array(raw(8 * n), 0, n),
    s: new Float64Array(raw(8 * n), 0, n), t: new Float64Array(raw(8 * n), 0, n),
  };
}

/** Contacts below which the calling thread merges alone (a message round trip costs more). */
const MIN_MERGE = 1 << 16;

/** Is the chain's compact index its input index (nothing dropped)? O(1) for the common case. */
function identityOrig(C: PreparedChain): boolean {
  if (C.identity === true) return true;
  const o = C.orig;
  for (let k = 0; k < o.length; k++) if (o[k] !== k) return false;
  return true;
}

/** `a` as shared memory: itself when it already is, else a copy. */
function shared(a: Float64Array | Int32Array | Uint8Array): SharedArrayBuffer {
  if (a.buffer instanceof SharedArrayBuffer && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength) return a.buffer;
  const buf = new SharedArrayBuffer(a.byteLength);
  new Uint8Array(buf).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return buf;
}

function share(C: PreparedChain): SharedChain {
  const inPlace = C.P.buffer instanceof SharedArrayBuffer;
  return {
    P: inPlace ? (C.P.buffer as SharedArrayBuffer) : shared(C.P),
    byteOffset: inPlace ? C.P.byteOffset : 0,
    length: C.P.length,
    dim: C.dim,
    m: C.m,
    checked: C.checked !== false,
    partner: C.partner === null ? null : shared(C.partner),
    dead: C.dead === null ? null : shared(C.dead),
    start: shared(C.start),
  };
}

/** Vertices in `points` (a flat array's length over dim, or the number of points); 0 if unknown. */
function vertices(points: ChainPoints, dim: unknown): number {
  const n = (points as { length?: unknown } | null)?.length;
  if (typeof n !== 'number') return 0;
  const first = n > 0 ? (points as ArrayLike<unknown>)[0] : undefined;
  return typeof first === 'number' || ArrayBuffer.isView(points) ? (typeof dim === 'number' && dim > 0 ? n / dim : 0) : n;
}

/**
 * One round of the search: the threads' shares (partitioned by range of i into ranges of 2^shift, merge.ts), the calling
 * thread's CPU in its own share, and the shares' memory to hand back after the merge; or null
 * when a thread found the unchecked input bad.
 */
async function search(A: PreparedChain, B: PreparedChain | null, tau: number, threads: number, into: ChainContacts | null): Promise<{ A: PreparedChain; B: PreparedChain | null; tau: number; shift: number; shares: RangedShare[]; replies: Reply[]; ownMs: number; memory: (ArrayBufferLike | null)[]; ranged: RangeGather | null; trace: Float64Array | null } | null> {
  const sa = share(A);
  const sb = B === null ? null : share(B);
  const counter = new SharedArrayBuffer(4);
  const want = 64 * threads;
  const shift = mergeShift(A.m, threads);
  const stride = 2 * A.dim;
  const build: SharedBuild = {
    segA: takeShared(A.m * stride), leavesA: takeShared(leafCount(A.m) * stride),
    segB: B === null ? null : takeShared(B.m * stride), leavesB: B === null ? null : takeShared(leafCount(B.m) * stride),
    counter: new Int32Array(new SharedArrayBuffer(4 * (UNCHECKED_BAD + 1))),
    done: new Int32Array(new SharedArrayBuffer(4 * (buildChunks(A.m) + (B === null ? 0 : buildChunks(B.m))))),
  };
  // One 3D chain may take the block grid: room for it, built once by one thread.
  if (A.dim === 3 && B === null) {
    const [cells, items] = blockGridRoom3(leafCount(A.m));
    build.grid3 = {
      state: new Int32Array(new SharedArrayBuffer(16)), count: new Int32Array(takeBuffer(4 * cells), 0, cells), items: new Int32Array(takeBuffer(4 * items), 0, items),
      folds: new Int32Array(takeBuffer(4 * A.m), 0, A.m), nfold: new Int32Array(new SharedArrayBuffer(4 * buildChunks(A.m))),
    };
  }
  // A planar chain at thickness 0 may take the grid: its plan is built together too.
  const grid = A.dim === 2 && tau === 0 && B === null ? allocGridPlan(A.m, PLAN_BANDS, takeBuffer, chainSearch.inOrder ? chainSearch.range : 0, chainSearch.range * chainSearch.spread, threads) : null;
  if (grid !== null && chainSearch.fuseSums) build.sums = planSums(grid);
  const lease = takeLeases(threads);
  const trace = timeline.on ? newTimeline((grid?.whole?.bounds.length ?? 2) - 1) : null;
  timeline.last = trace;
  if (trace !== null) trace[STEP.start] = stamp();
  // threads − 1 workers, and this thread as the last searcher: all build the boxes (and the
  // grid's plan) together, each the small upper levels of the hierarchy, then claim work items
  // from the same counter.
  const pending = postAll(threads - 1, (k) => ({ kind: 'chain', A: sa, B: sb, tau, counter, want, shift, build, grid, lease: lease[k + 1], slot: k + 1, trace }));
  const c0 = parallelStats.measureCpu ? threadCpuMs() : 0;
  const work = chainWork({ tau, counter, want, shift, build, grid, lease: lease[0], slot: 0, trace }, true);
  // Searching in chain order, this thread copies the finished ranges into the result as it goes.
  const whole = grid?.whole ?? null;
  const gather = whole === null ? null : new RangeGather(whole.table, whole.bounds.length - 1, whole.bounds, A.m, lease.map((b, k) => (k === 0 || b === null ? null : leaseArrays(b))), into === null ? null : { CI: into.i, CJ: into.j, distance: into.distance, s: into.s, t: into.t });
  if (gather !== null) {
    work.onRange = trace === null ? (r, found) => gather.own(r, found, work.folded ?? 0) : (r, found) => {
      const c0 = stamp();
      gather.own(r, found, work.folded ?? 0, trace);
      trace[STEP.copyMs] = (Number.isNaN(trace[STEP.copyMs]) ? 0 : trace[STEP.copyMs]) + stamp() - c0;
    };
    const partitioned = work.share!;
    work.share = (found, m) => {
      if (work.ranged !== true) return partitioned(found, m);
      const c0 = trace === null ? 0 : stamp();
      gather.ownDone(found, work.folded ?? 0, trace);
      if (trace !== null) trace[STEP.sideMs] = stamp() - c0;
      return { ...newShare(0, false), off: new Int32Array(0), leased: false };
    };
  }
  const mine = searchShare(A, B, tau, work) as RangedShare;
  const ownMs = parallelStats.measureCpu ? threadCpuMs() - c0 : 0;
  if (trace !== null) trace[STEP.share] = stamp();
  const replies = await Promise.all(pending);
  if (trace !== null) trace[STEP.replies] = stamp();
  for (const r of replies) if (!r.ok) throw replyError(r);
  giveBack(build.segA.buffer, build.leavesA.buffer, build.segB?.buffer, build.leavesB?.buffer, build.grid3?.count.buffer, build.grid3?.items.buffer, build.grid3?.folds.buffer);
  if (grid !== null) giveBack(grid.part.buffer, grid.ranges.buffer, grid.counts.buffer, grid.segs.buffer, grid.ecounts.buffer, grid.whole?.start.buffer, grid.whole?.items.buffer);
  const shares = [mine, ...replies.map((r) => r.share as RangedShare)];
  // The shares' memory serves the next call once this one has merged them: the leases (each
  // either unused or under its thread's share), and the new memory of shares that outgrew theirs.
  const memory = [...lease, ...shares.filter((p) => !p.leased && p.CI.buffer instanceof SharedArrayBuffer).map((p) => p.CI.buffer)];
  if (build.counter[UNCHECKED_BAD] !== 0) {
    returnLeases(memory);
    return null;
  }
  // Searched in chain order (every thread took the same plan, so the same way): the ranges' table.
  const ranged = work.ranged === true && gather !== null ? gather : null;
  chainSearch.lastInOrder = ranged !== null;
  return { A, B, tau, shift, shares, replies, ownMs, memory, ranged, trace };
}

/**
 * `chainContacts` (from 'skewline') with the search split over threads: the same options, and
 * the same result — the same pairs in the same order with bitwise the same distances and
 * parameters (every pair is found by exactly one thread and measured by the same kernel) —
 * under any number of calls in flight. `threads − 1` workers and the calling thread claim
 * work items from a shared counter (node pairs of the hierarchy; for a crowded planar chain at
 * thickness 0, bands of grid columns, each built by the thread that claims it), so a crowded
 * part of the chain leaves no thread idle. What every thread needs is built once, by all of
 * them together in shared memory, chunk by chunk: the segment and leaf boxes, and the grid's
 * plan (grid-plan.ts); each thread builds only the small upper levels of the hierarchy. Each
 * thread hands over its contacts partitioned by range of first segments i, and the threads then
 * sort the ranges into the result (merge.ts): one sort in all, and no pass over every contact
 * on one thread. A crowded planar chain at thickness 0 is searched in chain order instead
 * (where its whole grid fits the room kept for it: at most 9 cells a segment): the whole grid is
 * built once by the threads together, the work items are ranges of consecutive segments whose
 * contacts come out sorted, and the calling thread concatenates them into the result as they
 * are finished (merging in the fold-backs) — no partition and no sort. A chain in an array from
 * {@link allocSharedChain} (any SharedArrayBuffer) is shared as it is when it needs no
 * rewriting (open, no repeated vertex); otherwise its compact form is copied once. Without
 * `threads`, a chain of fewer than about 10⁵ segments is searched on the calling thread alone.
 * The result's arrays are ordinary typed arrays (not shared), as chainContacts' are (in chain
 * order, views of length `count` on somewhat larger memory); with `options.into` they are
 * the caller's, reused call after call, and `into` is returned. While the call is in flight its
 * `into` may serve no other call (that call throws). Working memory (boxes, the plan, the
 * threads' shares and the merge's shared copy of the result: 32 + 32 bytes a contact) is kept
 * for the next call, as chainContacts keeps its own; releaseChainMemory (from 'skewline') frees
 * it. Node.js only.
 * @throws (rejects with) SkewlineInputError as chainContacts does, for an unknown option, a
 * bad `threads` or a bad `into` (as chainContacts names it, and one in use by another call in
 * flight); an Error if the pool is closed or a worker dies during the call (`into`'s contents
 * are then unspecified, and it is free for the next call).
 */
export async function chainContactsParallel(points: ChainPoints, options?: ChainContactsOptions & ParallelOptions): Promise<ChainContacts> {
  checkOptions(options, KEYS, 'chainContactsParallel');
  const into = options?.into === undefined ? null : checkInto(options.into, 'chainContactsParallel', [points, options.against]);
  const segments = Math.max(0, vertices(points, options?.dim) - 1);
  const threads = threadCount(options?.threads, segments, MIN_SEGMENTS, 'chainContactsParallel');
  const t0 = now();
  const measure = parallelStats.measureCpu;
  const c0 = measure ? threadCpuMs() : 0;
  if (threads === 1) {
    const { threads: _, ...rest } = options ?? {};
    const out = chainContacts(points, rest);
    const t1 = now();
    const c = measure ? threadCpuMs() - c0 : NaN;
    parallelStats.set(1, t1 - t0, t1 - t0, measure ? { threadMs: [c], serialMs: c } : null);
    return out;
  }
  if (into === null) return searchThreads(points, options, threads, null, t0, c0);
  // Held from here until the call settles: another call meeting these arrays throws.
  const held = heldViews(into);
  holdInto(into);
  try {
    return await searchThreads(points, options, threads, into, t0, c0);
  } finally {
    releaseInto(held);
  }
}

/** chainContactsParallel on more than one thread, its options and `into` checked; t0, c0: its start (wall, CPU ms). */
async function searchThreads(points: ChainPoints, options: (ChainContactsOptions & ParallelOptions) | undefined, threads: number, into: ChainContacts | null, t0: number, c0: number): Promise<ChainContacts> {
  const measure = parallelStats.measureCpu;
  // A plain open chain in a Float64Array is validated by the threads while they build (no pass
  // over it here); if they find a bad coordinate or a repeated vertex, it is prepared the careful
  // way (which names the bad vertex, or drops the zero-length segments) and searched again.
  const quick = quickPrepare(points, options);
  // (The CPU split counts the round that succeeded.)
  let round = quick === null ? null : await search(quick.A, null, quick.tau, threads, into);
  if (round === null) {
    const { A, B, tau } = prepareShares(points, options);
    round = await search(A, B, tau, threads, into);
    if (round === null) throw new Error('skewline/parallel: the threads could not build the boxes of a validated chain (an internal error)');
  }
  const { A, B, tau, shift, shares, replies, ownMs, memory, ranged, trace } = round;
  if (ranged !== null) {
    // Searched in chain order: the ranges still waiting, after those copied during the search.
    const g0 = measure ? threadCpuMs() : 0;
    const Bc = B ?? A;
    const result = ranged.finish(shares, identityOrig(A) ? null : A.orig, identityOrig(Bc) ? null : Bc.orig, trace);
    if (trace !== null) trace[STEP.finish] = stamp();
    const total = result.CI.length;
    const gatherMs = measure ? threadCpuMs() - g0 : 0;
    returnLeases(memory);
    const t1 = now();
    parallelStats.set(threads, t1 - t0, serialMs(t0, t1, replies), measure ? cpuSplit(threadCpuMs() - c0, ownMs + gatherMs, replies) : null);
    if (into === null) {
      if (trace !== null) trace[STEP.end] = stamp();
      return { count: total, i: result.CI, j: result.CJ, distance: result.distance, s: result.s, t: result.t };
    }
    // Into the caller's arrays (or, where they were too small, the memory grown in their place).
    // (Thickness 0, the only search in chain order: the copies zeroed its distances, merge.ts.)
    const R = ranged.arrays();
    if (trace !== null) trace[STEP.end] = stamp();
    Object.assign(into, { count: total, i: R.CI, j: R.CJ, distance: R.distance, s: R.s, t: R.t });
    return into;
  }
  // The merge: threads sort ranges of i into shared memory kept from call to call, the calling
  // thread its own straight into the result, and it copies the others' in (merge.ts).
  const at = mergeOffsets(shares, A.m, shift);
  const total = at[at.length - 1];
  const Bc = B ?? A;
  // Below MIN_MERGE contacts the calling thread merges alone, straight into the result.
  const staging = total < MIN_MERGE ? null : takeBuffer(32 * total);
  const job: MergeJob = {
    kind: 'merge', shares, m: A.m, shift, at, counter: new SharedArrayBuffer(4),
    out: staging === null ? newShare(0, false) : stagingArrays(staging, total), done: staging === null ? null : new Int32Array(new SharedArrayBuffer(4 * (at.length - 1))), zero: tau === 0,
    oa: identityOrig(A) ? null : new Int32Array(shared(A.orig)), ob: identityOrig(Bc) ? null : new Int32Array(shared(Bc.orig)),
  };
  const merging = staging === null ? [] : postAll(threads - 1, { ...job });
  const m0 = measure ? threadCpuMs() : 0;
  const result = into === null ? resultArrays(total, tau === 0) : intoShare(into, total, tau === 0);
  if (staging === null) mergeRanges({ ...job, out: result });
  else mergeGather(job, result);
  const mergeMs = measure ? threadCpuMs() - m0 : 0;
  const replies2 = await Promise.all(merging);
  for (const r of replies2) if (!r.ok) throw replyError(r);
  giveBack(staging);
  returnLeases(memory);
  const out: ChainContacts = into ?? { count: total, i: result.CI, j: result.CJ, distance: result.distance, s: result.s, t: result.t };
  const t1 = now();
  const all = [...replies, ...replies2];
  parallelStats.set(threads, t1 - t0, serialMs(t0, t1, all), measure ? cpuSplit(threadCpuMs() - c0, ownMs + mergeMs, all) : null);
  return out;
}
