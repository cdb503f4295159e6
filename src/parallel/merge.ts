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
import { sortRange } from '../chain/contacts.js';
import type { PairShare } from '../chain/contacts.js';

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
  const n = found.CI.length;
  const { CI: fi, CJ: fj, distance: fd, s: fs, t: ft } = found;
  const off = new Int32Array(R + 1);
  for (let k = 0; k < n; k++) off[(fi[k] >> shift) + 1]++;
  for (let r = 0; r < R; r++) off[r + 1] += off[r];
  const fill = off.slice(0, R);
  const out = arraysOn(lease, n);
  const { CI, CJ, distance: D, s: S, t: T } = out;
  for (let k = 0; k < n; k++) {
    const i = fi[k], at = fill[i >> shift]++;
    CI[at] = i;
    CJ[at] = fj[k];
    if (!zero) D[at] = fd[k];
    S[at] = fs[k];
    T[at] = ft[k];
  }
  return { ...out, off };
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
  sortRange(slices, r * 2 ** shift, Math.min(m, (r + 1) * 2 ** shift), job.zero, out, a0);
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

/**
 * The result of a parallel search in chain order: ranges r = 0, 1, … of `range` first segments,
 * each sorted by (i, j) in the share of the thread that searched it (table: slot, start, count
 * per range), concatenated into `result` in range order — and the fold-backs, the first `folds`
 * pairs of shares[0] (found before the ranges, in any order), merged in where they belong. No
 * distances are copied (thickness 0: `result`'s must be zeros). Indices are mapped to the input's
 * by oa, ob where not null. Returns the count.
 */
export function gatherRanges(shares: readonly PairShare[], table: Int32Array, ranges: number, range: number, folds: number, result: PairShare, oa: Int32Array | null, ob: Int32Array | null): number {
  const { CI: RI, CJ: RJ, s: RS, t: RT } = result;
  const F = shares[0];
  // The fold-backs in (i, j) order (a ring's last fold, with its first segment, is found last).
  const order = new Int32Array(folds);
  for (let k = 0; k < folds; k++) order[k] = k;
  let sorted = true;
  for (let k = 1; k < folds && sorted; k++) sorted = F.CI[k - 1] < F.CI[k] || (F.CI[k - 1] === F.CI[k] && F.CJ[k - 1] < F.CJ[k]);
  if (!sorted) order.sort((a, b) => F.CI[a] - F.CI[b] || F.CJ[a] - F.CJ[b]);
  let at = 0, fk = 0;
  for (let r = 0; r < ranges; r++) {
    const src = shares[table[3 * r]], a = table[3 * r + 1], n = table[3 * r + 2];
    const hi = (r + 1) * range;
    let fe = fk;
    while (fe < folds && F.CI[order[fe]] < hi) fe++;
    if (fe === fk) {
      RI.set(src.CI.subarray(a, a + n), at);
      RJ.set(src.CJ.subarray(a, a + n), at);
      RS.set(src.s.subarray(a, a + n), at);
      RT.set(src.t.subarray(a, a + n), at);
      at += n;
      continue;
    }
    const { CI, CJ, s, t } = src;
    for (let p = a, pe = a + n; p < pe || fk < fe; at++) {
      const f = fk < fe ? order[fk] : -1;
      if (f >= 0 && (p === pe || F.CI[f] < CI[p] || (F.CI[f] === CI[p] && F.CJ[f] < CJ[p]))) {
        RI[at] = F.CI[f];
        RJ[at] = F.CJ[f];
        RS[at] = F.s[f];
        RT[at] = F.t[f];
        fk++;
      } else {
        RI[at] = CI[p];
        RJ[at] = CJ[p];
        RS[at] = s[p];
        RT[at] = t[p];
        p++;
      }
    }
  }
  if (oa !== null || ob !== null) {
    for (let k = 0; k < at; k++) {
      if (oa !== null) RI[k] = oa[RI[k]];
      if (ob !== null) RJ[k] = ob[RJ[k]];
    }
  }
  return at;
}
