/**
 * The parallel merge of a chain search's shares: the threads' sorted shares (in shared memory)
 * become chainContacts' arrays, each thread placing the contacts of a range of first segments i
 * — no pass over every contact on one thread. Ranges are cut so that each holds about as many
 * contacts, and claimed from a shared counter like the search's work items.
 */
import { sortRange } from '../chain/contacts.js';
import type { PairShare } from '../chain/contacts.js';

/** A merge job: ranges [bounds[r], bounds[r + 1]) of i, claimed through `counter`. */
export interface MergeJob {
  kind: 'merge';
  shares: PairShare[];
  bounds: Int32Array;
  counter: SharedArrayBuffer;
  out: PairShare;
  zero: boolean;
  /** Compact to input segment indices, or null where they are the same. */
  oa: Int32Array | null;
  ob: Int32Array | null;
}

/**
 * Arrays for a share of n pairs laid on one SharedArrayBuffer: `lease` when it holds them
 * (32 bytes a pair; memory of an earlier call, so no fresh page is touched), else a new one.
 * Its contents are undefined: the share's sort writes every element it reads, but the
 * distances at thickness 0, which nothing reads (they are all 0).
 */
export function shareOn(lease: SharedArrayBuffer | null, n: number): PairShare {
  const buf = lease !== null && lease.byteLength >= 32 * n ? lease : new SharedArrayBuffer(32 * n);
  return {
    distance: new Float64Array(buf, 0, n), s: new Float64Array(buf, 8 * n, n), t: new Float64Array(buf, 16 * n, n),
    CI: new Int32Array(buf, 24 * n, n), CJ: new Int32Array(buf, 28 * n, n),
  };
}

/** First index of the sorted `a` whose value is ≥ x. */
function lowerBound(a: Int32Array, x: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Pairs with i < x over all shares. */
function below(shares: readonly PairShare[], x: number): number {
  let n = 0;
  for (const p of shares) n += lowerBound(p.CI, x);
  return n;
}

/**
 * Range bounds over i ∈ [0, m) for `ranges` ranges of about equal contact counts (bisection on
 * the shares' sorted i: ranges · log m · shares · log n steps, nothing per contact).
 */
export function mergeBounds(shares: readonly PairShare[], m: number, ranges: number): Int32Array {
  const total = below(shares, m);
  const bounds = new Int32Array(ranges + 1);
  bounds[ranges] = m;
  for (let r = 1; r < ranges; r++) {
    const target = Math.ceil((r * total) / ranges);
    let lo = bounds[r - 1], hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (below(shares, mid) < target) lo = mid + 1;
      else hi = mid;
    }
    bounds[r] = lo;
  }
  return bounds;
}

/** Claims ranges and places their contacts (sorted by i, j; numbers carried; indices mapped). */
export function mergeRanges(job: MergeJob): void {
  const { shares, bounds, out, oa, ob } = job;
  const counter = new Int32Array(job.counter);
  const ranges = bounds.length - 1;
  for (let r = Atomics.add(counter, 0, 1); r < ranges; r = Atomics.add(counter, 0, 1)) {
    const lo = bounds[r], hi = bounds[r + 1];
    if (hi <= lo) continue;
    const slices: PairShare[] = [];
    let at = 0;
    for (const p of shares) {
      const a = lowerBound(p.CI, lo), b = lowerBound(p.CI, hi);
      at += a;
      if (b > a) slices.push({ CI: p.CI.subarray(a, b), CJ: p.CJ.subarray(a, b), distance: p.distance.subarray(a, b), s: p.s.subarray(a, b), t: p.t.subarray(a, b) });
    }
    let n = 0;
    for (const p of slices) n += p.CI.length;
    if (n === 0) continue;
    sortRange(slices, lo, hi, job.zero, out, at);
    if (oa !== null || ob !== null) {
      const I = out.CI, J = out.CJ;
      for (let k = at; k < at + n; k++) {
        if (oa !== null) I[k] = oa[I[k]];
        if (ob !== null) J[k] = ob[J[k]];
      }
    }
  }
}
