/**
 * The merge of a parallel chain search: the threads' contacts become chainContacts' sorted
 * arrays with one sort in all, done by the threads together and no pass over every contact on
 * one thread.
 *
 * The first segments i are cut into ranges of 2^shift segments (at most {@link RANGES} ranges;
 * a call picks the width and every thread of it uses the same). Each thread hands over its contacts *partitioned* by range —
 * a counting pass and one scatter into few streams, cheaper than sorting them — and the merge's
 * work items are the ranges: the thread that claims range r gathers that range's slice of every
 * share and sorts them (by i, then j, in cache: a range holds a few thousand segments) straight
 * into the result, at the offset the slices' counts give.
 *
 * The result the caller gets is on ordinary ArrayBuffers, not on the shared memory the threads
 * merge into: a SharedArrayBuffer's memory is never recycled (every new one is fresh pages from
 * the kernel, and its release unmaps them), and on a 1e6-step planar walk (2.8 million contacts,
 * 90 MB) the page faults and the TLB flushes of a fresh shared result cost the two threads about
 * 25% more CPU when they ran at once. So the workers sort into shared memory kept from call to
 * call, and the calling thread sorts its own ranges straight into the result and copies the
 * others' ranges in as they are finished ({@link mergeGather}).
 */
import { Buffer } from 'node:buffer';
import type { PairShare } from '../chain/contacts.js';
import { releaseHooks } from '../chain/scratch.js';
import { PER_RANGE, ROW, ROWS, stamp } from './timeline.js';

/** The most ranges of first segments (merge work items): enough to share out among 16 threads and more (a call may take fewer: chains.ts). */
export const RANGES = 256;

/** A thread's contacts partitioned by range: range r's are at [off[r], off[r + 1]). */
export interface RangedShare extends PairShare {
  off: Int32Array;
  /**
   * Whether the share lies on the lease it was given (else on new memory). The caller must not
   * tell by the buffer: a SharedArrayBuffer that crossed threads is another object over the
   * same memory, so the same memory would return to the pool twice.
   */
  leased: boolean;
}

/** A merge job: ranges r claimed through `counter`, their contacts sorted into `out` from at[r] on. */
export interface MergeJob {
  kind: 'merge';
  shares: RangedShare[];
  /** Segments of A (first segments are < m), and the range width's log₂. */
  m: number;
  shift: number;
  at: Int32Array;
  counter: SharedArrayBuffer;
  out: PairShare;
  /** Set to 1 at r (Atomics) once range r is in `out`; or null. */
  done: Int32Array | null;
  zero: boolean;
  /** Compact to input segment indices, or null where they are the same. */
  oa: Int32Array | null;
  ob: Int32Array | null;
}

/** log₂ of the range width for m first segments: the least that makes at most `ranges` ranges. */
export function rangeShift(m: number, ranges = RANGES): number {
  let shift = 0;
  while (m - 1 >= ranges * 2 ** shift) shift++;
  return shift;
}

/** Ranges over m first segments. */
export function rangeCount(m: number, shift: number): number {
  return m <= 0 ? 1 : Math.floor((m - 1) / 2 ** shift) + 1;
}

/**
 * Arrays for n pairs laid on one SharedArrayBuffer: `lease` when it holds them (32 bytes a
 * pair: memory of an earlier call, so no fresh page is touched), else a new one with a quarter
 * to spare (for the next call's share, which may be a little larger).
 */
export function arraysOn(lease: SharedArrayBuffer | null, n: number): PairShare & { leased: boolean } {
  const leased = lease !== null && lease.byteLength >= 32 * n;
  const buf = leased ? lease : new SharedArrayBuffer(32 * Math.ceil(1.25 * n));
  return {
    leased,
    distance: new Float64Array(buf, 0, n), s: new Float64Array(buf, 8 * n, n), t: new Float64Array(buf, 16 * n, n),
    CI: new Int32Array(buf, 24 * n, n), CJ: new Int32Array(buf, 28 * n, n),
  };
}

/**
 * A thread's found pairs (any order) partitioned by range of i (ranges of 2^shift first
 * segments) into shared memory (`lease` when large enough), in their order within a range. With `zero` (thickness 0: every distance is 0)
 * the distances are not copied and the share's are undefined: the merge does not read them.
 */
export function partitionShare(found: PairShare, m: number, zero: boolean, lease: SharedArrayBuffer | null, shift = rangeShift(m)): RangedShare {
  const R = rangeCount(m, shift);
  const off = new Int32Array(R + 1);
  const n = found.CI.length;
  countChunks(found.CI, n, shift, off);
  for (let r = 0; r < R; r++) off[r + 1] += off[r];
  const out = arraysOn(lease, n);
  scatterChunks(found, out, n, off.slice(0, R), shift, zero);
  return { ...out, off };
}

/**
 * Pairs per call of the partition's passes. A pass over a whole share, called once a call per
 * thread, is compiled only on the fly (on-stack replacement), and each call then began it in the
 * interpreter, which boxes the doubles it copies (a sampling heap profile of the two-thread
 * search on the 1e6-step planar walk: 70–270 KiB of garbage a call in scatterRanges). Called
 * once per chunk, the passes are compiled from their entry like any hot function.
 */
const PART_CHUNK = 8192;

// The chunk loops are functions of their own too, with nothing before or after the loop that
// needs type feedback: partitionShare with these loops in it was compiled on the fly and bailed
// out at its entry (`node --trace-deopt`, once or twice in six calls).

/** countRanges over pairs 0 … n − 1, chunk by chunk. */
function countChunks(fi: Int32Array, n: number, shift: number, off: Int32Array): void {
  for (let k = 0; k < n; k += PART_CHUNK) countRanges(fi, k, Math.min(k + PART_CHUNK, n), shift, off);
}

/** scatterRanges over pairs 0 … n − 1, chunk by chunk. */
function scatterChunks(found: PairShare, out: PairShare, n: number, fill: Int32Array, shift: number, zero: boolean): void {
  for (let k = 0; k < n; k += PART_CHUNK) scatterRanges(found, out, k, Math.min(k + PART_CHUNK, n), fill, shift, zero);
}

// The partition's two passes are functions of their own, each one loop with nothing after it.
// partitionShare runs once a call per thread, so V8 compiles its loops on the fly (on-stack
// replacement); with the passes in one function, the code after the first loop had no type
// feedback and went back to the interpreter on every call (`node --trace-deopt`), the scatter
// over every contact with it until it was compiled again.

/** off[r + 1] += the pairs k0 … k1 − 1 of range r (ranges of 2^shift first segments), for the pairs' first segments fi. */
function countRanges(fi: Int32Array, k0: number, k1: number, shift: number, off: Int32Array): void {
  for (let k = k0; k < k1; k++) off[(fi[k] >> shift) + 1]++;
}

/** Scatters pairs k0 … k1 − 1 of `found` into `out` by range of i, range r's from fill[r] on (fill advances); distances too unless `zero`. */
function scatterRanges(found: PairShare, out: PairShare, k0: number, k1: number, fill: Int32Array, shift: number, zero: boolean): void {
  const { CI: fi, CJ: fj, distance: fd, s: fs, t: ft } = found;
  const { CI, CJ, distance: D, s: S, t: T } = out;
  for (let k = k0; k < k1; k++) {
    const i = fi[k], at = fill[i >> shift]++;
    CI[at] = i;
    CJ[at] = fj[k];
    if (!zero) D[at] = fd[k];
    S[at] = fs[k];
    T[at] = ft[k];
  }
}

/** Where each range's contacts start in the result (the sum over shares of the contacts before it; ranges of 2^shift, as the shares were partitioned); at[R] is the total. */
export function mergeOffsets(shares: readonly RangedShare[], m: number, shift = rangeShift(m)): Int32Array {
  const R = rangeCount(m, shift);
  const at = new Int32Array(R + 1);
  for (let r = 0; r < R; r++) {
    let n = 0;
    for (const p of shares) n += p.off[r + 1] - p.off[r];
    at[r + 1] = at[r] + n;
  }
  return at;
}

/** A counter per first segment of a range (this thread's scratch; a merge sorts one range at a time). */
let counts = new Int32Array(0);
// releaseChainMemory (from 'skewline') drops it too (on the calling thread).
releaseHooks.push(() => {
  counts = new Int32Array(0);
});

/**
 * The pairs of `slices`, whose first segments i all lie in [lo, hi), sorted by (i, j) into
 * `out` from index at0 on, their numbers carried (with `zero`, distances neither read nor
 * written: `out`'s stay as they are). The same order as chainContacts' own sort (contacts.ts,
 * sortRange), but cheaper on the ranges of a merge, which hold fewer pairs than segments
 * (a 3D walk's: about 4,600 pairs a range of 16,384): two passes over the range's counters
 * (zeroing, the running sum) instead of five. A counting sort by i (Knuth, TAOCP vol. 3, 5.2,
 * Algorithm D) whose counters end as the runs' ends, then each run of one i put in order of j,
 * the runs found by a pass over the pairs, not over the counters. Each (i, j) must occur once.
 */
function sortSlices(slices: readonly PairShare[], lo: number, hi: number, zero: boolean, out: PairShare, at0: number): void {
  const span = hi - lo;
  if (counts.length < span) counts = new Int32Array(span);
  const c = counts.fill(0, 0, span);
  for (const p of slices) {
    const pi = p.CI;
    for (let k = 0; k < pi.length; k++) c[pi[k] - lo]++;
  }
  let end = at0;
  for (let q = 0; q < span; q++) {
    const n = c[q];
    c[q] = end;
    end += n;
  }
  const { CI, CJ, distance: D, s: S, t: T } = out;
  for (const p of slices) {
    const pi = p.CI, pj = p.CJ, pd = p.distance, ps = p.s, pt = p.t;
    for (let k = 0; k < pi.length; k++) {
      const at = c[pi[k] - lo]++;
      CI[at] = pi[k];
      CJ[at] = pj[k];
      if (!zero) D[at] = pd[k];
      S[at] = ps[k];
      T[at] = pt[k];
    }
  }
  for (let a = at0; a < end; ) {
    const i = CI[a];
    let b = a + 1;
    while (b < end && CI[b] === i) b++;
    if (b - a > 32) byPartner(CJ, zero ? null : D, S, T, a, b);
    else if (b - a > 1) insertPartners(CJ, zero ? null : D, S, T, a, b);
    a = b;
  }
}

/** Insertion sort of pairs [a, b) of one i by j (a few partners), numbers carried (D unless null). */
function insertPartners(CJ: Int32Array, D: Float64Array | null, S: Float64Array, T: Float64Array, a: number, b: number): void {
  for (let k = a + 1; k < b; k++) {
    const x = CJ[k];
    if (CJ[k - 1] <= x) continue;
    const d = D === null ? 0 : D[k], ss = S[k], tt = T[k];
    let q = k - 1;
    for (; q >= a && CJ[q] > x; q--) {
      CJ[q + 1] = CJ[q];
      if (D !== null) D[q + 1] = D[q];
      S[q + 1] = S[q];
      T[q + 1] = T[q];
    }
    CJ[q + 1] = x;
    if (D !== null) D[q + 1] = d;
    S[q + 1] = ss;
    T[q + 1] = tt;
  }
}

/** Pairs [a, b) of one i put in order of j through an index (a long run), numbers carried (D unless null). */
function byPartner(CJ: Int32Array, D: Float64Array | null, S: Float64Array, T: Float64Array, a: number, b: number): void {
  const idx = Array.from({ length: b - a }, (_, q) => a + q).sort((x, y) => CJ[x] - CJ[y]);
  const cj = idx.map((q) => CJ[q]), ss = idx.map((q) => S[q]), tt = idx.map((q) => T[q]);
  if (D !== null) D.set(idx.map((q) => D[q]), a);
  CJ.set(cj, a);
  S.set(ss, a);
  T.set(tt, a);
}

/** Sorts range r's contacts of every share into `out` (by i, then j; numbers carried; indices mapped). */
function mergeRange(job: MergeJob, r: number, out: PairShare, slices: PairShare[]): void {
  const { shares, m, shift, at, oa, ob } = job;
  const a0 = at[r], a1 = at[r + 1];
  if (a1 === a0) return;
  slices.length = 0;
  for (const p of shares) {
    const a = p.off[r], b = p.off[r + 1];
    if (b > a) slices.push({ CI: p.CI.subarray(a, b), CJ: p.CJ.subarray(a, b), distance: p.distance.subarray(a, b), s: p.s.subarray(a, b), t: p.t.subarray(a, b) });
  }
  sortSlices(slices, r * 2 ** shift, Math.min(m, (r + 1) * 2 ** shift), job.zero, out, a0);
  if (oa !== null || ob !== null) {
    const I = out.CI, J = out.CJ;
    for (let k = a0; k < a1; k++) {
      if (oa !== null) I[k] = oa[I[k]];
      if (ob !== null) J[k] = ob[J[k]];
    }
  }
}

/** Claims ranges and sorts their contacts into `job.out`, flagging each in `job.done` (a worker's part of the merge). */
export function mergeRanges(job: MergeJob): void {
  const counter = new Int32Array(job.counter);
  const ranges = job.at.length - 1, done = job.done;
  const slices: PairShare[] = [];
  for (let r = Atomics.add(counter, 0, 1); r < ranges; r = Atomics.add(counter, 0, 1)) {
    mergeRange(job, r, job.out, slices);
    if (done !== null) Atomics.store(done, r, 1);
  }
}

/**
 * The calling thread's part of the merge, and the whole result in `result` (memory of its own,
 * the size of job.out): it claims ranges as the workers do but sorts them straight into
 * `result`; between claims it copies in, in order, the ranges the workers have finished in
 * job.out (job.done). Once the claims run out it copies the rest, and a range still unfinished
 * (a worker on it, or dead) it sorts itself: the same bits, and it never waits. With
 * job.zero the distances are not copied (`result`'s must be zeros).
 */
export function mergeGather(job: MergeJob, result: PairShare): void {
  const counter = new Int32Array(job.counter);
  const { at, done, out, zero } = job;
  const ranges = at.length - 1;
  const mine = new Uint8Array(ranges);
  const slices: PairShare[] = [];
  let next = 0; // ranges before it are in `result`
  const copy = (r: number): void => {
    const a = at[r], b = at[r + 1];
    if (b === a) return;
    result.CI.set(out.CI.subarray(a, b), a);
    result.CJ.set(out.CJ.subarray(a, b), a);
    if (!zero) result.distance.set(out.distance.subarray(a, b), a);
    result.s.set(out.s.subarray(a, b), a);
    result.t.set(out.t.subarray(a, b), a);
  };
  for (let r = Atomics.add(counter, 0, 1); r < ranges; r = Atomics.add(counter, 0, 1)) {
    mergeRange(job, r, result, slices);
    mine[r] = 1;
    for (; next < ranges; next++) {
      if (mine[next] === 1) continue;
      if (done === null || Atomics.load(done, next) === 0) break;
      copy(next);
    }
  }
  for (; next < ranges; next++) {
    if (mine[next] === 1) continue;
    if (done !== null && Atomics.load(done, next) === 1) copy(next);
    else mergeRange(job, next, result, slices);
  }
}

/**
 * A thread's found pairs of a search in chain order (chains.ts), copied as they are onto shared
 * memory (`lease` when large enough): its ranges' contacts, each sorted, where the ranges' table
 * says. With `zero` the distances are not copied. `off` is empty (no partition).
 */
export function copyShare(found: PairShare, zero: boolean, lease: SharedArrayBuffer | null): RangedShare {
  const out = arraysOn(lease, found.CI.length);
  out.CI.set(found.CI);
  out.CJ.set(found.CJ);
  if (!zero) out.distance.set(found.distance);
  out.s.set(found.s);
  out.t.set(found.t);
  return { ...out, off: new Int32Array(0) };
}

/** Where a range's contacts are (table[4r + 3]): in its worker's lease, as the worker published them after the range (at table[4r + 1]). */
export const PUBLISHED = 1;

/** A lease laid out as {@link arraysOn} lays a share over all of it (the published ranges of a worker). */
export function leaseArrays(lease: SharedArrayBuffer): PairShare {
  return arraysOn(lease, Math.floor(lease.byteLength / 32));
}

/**
 * The result of a parallel search in chain order (chains.ts), gathered by the calling thread:
 * ranges r = 0, 1, … of `range` first segments, each sorted by (i, j) by the thread that searched
 * it (the table: slot, start, count, where), copied in range order into the result — while the
 * search still runs, as soon as a range and every range before it are done (its own ranges from
 * its found pairs, the workers' from their leases where published) — and the rest once the
 * workers have answered. The fold-backs (found by the calling thread before its ranges, in any
 * order) are merged in where they belong. As the count is known only at the end, the result is
 * laid on memory of an estimated size (from the ranges so far, with a quarter to spare; memory
 * the copy never reaches is never touched), grown when short: the arrays handed back are views
 * of their first `count` entries. Distances are not copied (thickness 0: zeros).
 */
/** Stamps when range r was copied into the result (timeline.ts). */
function copied(trace: Float64Array, r: number): void {
  trace[ROW * ROWS + PER_RANGE * r + 3] = stamp();
}

export class RangeGather {
  private readonly mine: Uint8Array;
  private next = 0;
  private at = 0;
  private cap = 0;
  private out: PairShare | null = null;
  private folds: PairShare | null = null;
  private fk = 0;
  /** The calling thread's ranges not yet copied when its search ended, saved (side) at sideAt[r]. */
  private side: PairShare | null = null;
  private readonly sideAt: Int32Array;
  /**
   * The result lies on the caller's `into`, whose distances may hold anything: each copy zeroes
   * the distances of the entries it writes (thickness 0), while the other threads still search,
   * rather than one pass over all of them once the search is over. Memory grown in its place
   * (fresh, zeroed) needs none.
   */
  private zero = false;

  constructor(
    private readonly table: Int32Array,
    private readonly ranges: number,
    /** Range r is first segments bounds[r] … bounds[r + 1] − 1. */
    private readonly bounds: Int32Array,
    private readonly m: number,
    /** Each worker slot's lease as laid out for publishing (index 0 unused), or null. */
    private readonly pubs: (PairShare | null)[],
    /** The caller's result buffers (`options.into`), written first, or null: fresh memory. */
    into: PairShare | null = null,
  ) {
    this.mine = new Uint8Array(ranges);
    this.sideAt = new Int32Array(ranges);
    if (into !== null) {
      this.out = into;
      this.cap = Math.min(into.CI.length, into.CJ.length, into.distance.length, into.s.length, into.t.length);
      this.zero = true;
    }
  }

  /** The whole arrays the result lies in (its first {@link finish}ed count entries): `into`'s, or memory grown since. */
  arrays(): PairShare {
    if (this.out === null) this.grow(0);
    return this.out!;
  }

  /** The calling thread finished range r (its contacts found[f0, f0 + n)): copies every range now ready. */
  own(r: number, found: PairShare, folded: number, trace: Float64Array | null = null): void {
    this.mine[r] = 1;
    this.takeFolds(found, folded);
    this.advance(found, trace);
  }

  /** The calling thread's search ended: copies what is ready, then saves its ranges still waiting (its found pairs are scratch another call may reuse). */
  ownDone(found: PairShare, folded: number, trace: Float64Array | null = null): void {
    this.takeFolds(found, folded);
    this.advance(found, trace);
    let n = 0;
    for (let r = this.next; r < this.ranges; r++) if (this.mine[r] === 1) n += this.table[4 * r + 2];
    const side: PairShare = { CI: new Int32Array(n), CJ: new Int32Array(n), distance: new Float64Array(0), s: new Float64Array(n), t: new Float64Array(n) };
    let at = 0;
    for (let r = this.next; r < this.ranges; r++) {
      if (this.mine[r] !== 1) continue;
      const a = this.table[4 * r + 1], b = a + this.table[4 * r + 2];
      side.CI.set(found.CI.subarray(a, b), at);
      side.CJ.set(found.CJ.subarray(a, b), at);
      side.s.set(found.s.subarray(a, b), at);
      side.t.set(found.t.subarray(a, b), at);
      this.sideAt[r] = at;
      at = at + b - a;
    }
    this.side = side;
  }

  /** After the workers answered (shares[k]: slot k's found pairs, for its ranges not published): the rest, and the result's arrays (views), with indices mapped by oa, ob where not null. */
  finish(shares: readonly PairShare[], oa: Int32Array | null, ob: Int32Array | null, trace: Float64Array | null = null): PairShare {
    const T = this.table;
    for (; this.next < this.ranges; this.next++) {
      const r = this.next;
      if (this.mine[r] === 1) this.copy(r, this.side!, this.sideAt[r]);
      else if (Atomics.load(T, 4 * r + 3) === PUBLISHED) this.copy(r, this.pubs[T[4 * r]]!, T[4 * r + 1]);
      else this.copy(r, shares[T[4 * r]], T[4 * r + 1]);
      if (trace !== null) copied(trace, r);
    }
    this.copyFolds(this.folds === null ? 0 : this.folds.CI.length);
    if (this.out === null) this.grow(0);
    const n = this.at, R = this.out!;
    const out: PairShare = { CI: R.CI.subarray(0, n), CJ: R.CJ.subarray(0, n), distance: R.distance.subarray(0, n), s: R.s.subarray(0, n), t: R.t.subarray(0, n) };
    if (oa !== null || ob !== null) {
      for (let k = 0; k < n; k++) {
        if (oa !== null) out.CI[k] = oa[out.CI[k]];
        if (ob !== null) out.CJ[k] = ob[out.CJ[k]];
      }
    }
    return out;
  }

  /** The fold-backs, found[0, folded), saved in (i, j) order (a ring's last fold, with its first segment, is found last). */
  private takeFolds(found: PairShare, folded: number): void {
    if (this.folds !== null) return;
    const order = new Int32Array(folded);
    for (let k = 0; k < folded; k++) order[k] = k;
    const { CI, CJ } = found;
    order.sort((a, b) => CI[a] - CI[b] || CJ[a] - CJ[b]);
    const F: PairShare = { CI: new Int32Array(folded), CJ: new Int32Array(folded), distance: new Float64Array(0), s: new Float64Array(folded), t: new Float64Array(folded) };
    for (let k = 0; k < folded; k++) {
      const q = order[k];
      F.CI[k] = CI[q];
      F.CJ[k] = CJ[q];
      F.s[k] = found.s[q];
      F.t[k] = found.t[q];
    }
    this.folds = F;
  }

  /** Copies ranges in order while the next is ready: the calling thread's (from `found`), or published by a worker. */
  private advance(found: PairShare, trace: Float64Array | null): void {
    const T = this.table;
    for (; this.next < this.ranges; this.next++) {
      const r = this.next;
      if (this.mine[r] === 1) this.copy(r, found, T[4 * r + 1]);
      else if (Atomics.load(T, 4 * r + 3) === PUBLISHED) this.copy(r, this.pubs[T[4 * r]]!, T[4 * r + 1]);
      else return;
      if (trace !== null) copied(trace, r);
    }
  }

  /** Room for `need` contacts in all: the first time, or when short, memory for the estimated total. */
  private grow(need: number): void {
    const covered = Math.min(this.m, this.bounds[Math.min(this.ranges, this.next + 1)]);
    const est = Math.ceil((1.25 * need * this.m) / Math.max(1, covered)) + 1024 + (this.folds === null ? 0 : this.folds.CI.length);
    const cap = Math.max(need, est, Math.ceil(1.25 * this.cap));
    const raw = (bytes: number): ArrayBuffer => Buffer.allocUnsafeSlow(bytes).buffer as ArrayBuffer;
    const R: PairShare = { CI: new Int32Array(raw(4 * cap), 0, cap), CJ: new Int32Array(raw(4 * cap), 0, cap), distance: new Float64Array(cap), s: new Float64Array(raw(8 * cap), 0, cap), t: new Float64Array(raw(8 * cap), 0, cap) };
    const old = this.out;
    if (old !== null) {
      const n = this.at;
      R.CI.set(old.CI.subarray(0, n));
      R.CJ.set(old.CJ.subarray(0, n));
      R.s.set(old.s.subarray(0, n));
      R.t.set(old.t.subarray(0, n));
    }
    this.out = R;
    this.cap = cap;
    this.zero = false;
  }

  /** Copies the fold-backs [fk, fe) to the end of the result. */
  private copyFolds(fe: number): void {
    const F = this.folds;
    if (F === null || fe <= this.fk) return;
    if (this.at + fe - this.fk > this.cap) this.grow(this.at + fe - this.fk);
    const R = this.out!;
    if (this.zero) R.distance.fill(0, this.at, this.at + fe - this.fk);
    for (; this.fk < fe; this.fk++, this.at++) {
      R.CI[this.at] = F.CI[this.fk];
      R.CJ[this.at] = F.CJ[this.fk];
      R.s[this.at] = F.s[this.fk];
      R.t[this.at] = F.t[this.fk];
    }
  }

  /** Copies range r's contacts, src[a, a + n) (n from the table), merging in the fold-backs of its segments. */
  private copy(r: number, src: PairShare, a: number): void {
    const n = this.table[4 * r + 2];
    const F = this.folds;
    const hi = Math.min(this.m, this.bounds[r + 1]);
    let fe = this.fk;
    if (F !== null) while (fe < F.CI.length && F.CI[fe] < hi) fe++;
    const need = this.at + n + fe - this.fk;
    if (need > this.cap) this.grow(need);
    const R = this.out!;
    if (this.zero) R.distance.fill(0, this.at, need);
    if (fe === this.fk) {
      R.CI.set(src.CI.subarray(a, a + n), this.at);
      R.CJ.set(src.CJ.subarray(a, a + n), this.at);
      R.s.set(src.s.subarray(a, a + n), this.at);
      R.t.set(src.t.subarray(a, a + n), this.at);
      this.at += n;
      return;
    }
    const { CI, CJ, s, t } = src;
    const f = F!;
    let at = this.at, fk = this.fk;
    for (let p = a, pe = a + n; p < pe || fk < fe; at++) {
      if (fk < fe && (p === pe || f.CI[fk] < CI[p] || (f.CI[fk] === CI[p] && f.CJ[fk] < CJ[p]))) {
        R.CI[at] = f.CI[fk];
        R.CJ[at] = f.CJ[fk];
        R.s[at] = f.s[fk];
        R.t[at] = f.t[fk];
        fk++;
      } else {
        R.CI[at] = CI[p];
        R.CJ[at] = CJ[p];
        R.s[at] = s[p];
        R.t[at] = t[p];
        p++;
      }
    }
    this.at = at;
    this.fk = fk;
  }
}
