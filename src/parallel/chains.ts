/**
 * chainContactsParallel: one chain search shared by the calling thread and worker threads,
 * work items claimed from a shared counter.
 */
import { chainContacts, mergeShares, prepareShares, searchShare } from '../chain/contacts.js';
import type { ChainContacts, ChainOptions, PairShare } from '../chain/contacts.js';
import type { ChainPoints, PreparedChain } from '../chain/input.js';
import { checkOptions } from '../core/options.js';
import { now, postAll, replyError, serialMs } from './pool.js';
import type { ParallelOptions } from './distances.js';
import type { SharedChain } from './worker.js';
import { threadCount } from './threads.js';
import { parallelStats } from './stats.js';

const KEYS = ['dim', 'thickness', 'closed', 'against', 'againstClosed', 'threads'] as const;

/** Segments per thread below which another thread does not pay for the hierarchy it builds. */
const MIN_SEGMENTS = 50_000;

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
 * `chainContacts` (from 'skewline') with the search split over threads: the same options, and
 * the same result — the same pairs in the same order with bitwise the same distances and
 * parameters (every pair is found by exactly one thread and measured by the same kernel) —
 * under any number of calls in flight. `threads − 1` workers and the calling thread each build
 * the hierarchy (for a crowded planar chain at thickness 0: bands of grid columns, each built by
 * the thread that claims it) and claim work items from a shared counter, so a crowded part of
 * the chain leaves no thread idle; each thread sorts its own contacts and the calling thread
 * merges them. A chain in an array from {@link allocSharedChain} (any SharedArrayBuffer) is
 * shared as it is when it needs no rewriting (open, no repeated vertex); otherwise its compact
 * form is copied once. Without `threads`, a chain of fewer than about 10⁵ segments is searched
 * on the calling thread alone. Node.js only.
 * @throws (rejects with) SkewlineInputError as chainContacts does, for an unknown option or a
 * bad `threads`; an Error if the pool is closed or a worker dies during the call.
 */
export async function chainContactsParallel(points: ChainPoints, options?: ChainOptions & ParallelOptions): Promise<ChainContacts> {
  checkOptions(options, KEYS, 'chainContactsParallel');
  const segments = Math.max(0, vertices(points, options?.dim) - 1);
  const threads = threadCount(options?.threads, segments, MIN_SEGMENTS, 'chainContactsParallel');
  const t0 = now();
  if (threads === 1) {
    const { threads: _, ...rest } = options ?? {};
    const out = chainContacts(points, rest);
    const t1 = now();
    parallelStats.set(1, t1 - t0, t1 - t0);
    return out;
  }
  const { A, B, tau } = prepareShares(points, options);
  const sa = share(A);
  const sb = B === null ? null : share(B);
  const counter = new SharedArrayBuffer(4);
  const want = 64 * threads;
  // threads − 1 workers, and this thread as the last searcher: it builds its own hierarchy while
  // the workers build theirs, then claims work items from the same counter.
  const pending = postAll(threads - 1, { kind: 'chain', A: sa, B: sb, tau, counter, want });
  const mine = searchShare(A, B, tau, { counter: new Int32Array(counter), want, folds: true });
  const replies = await Promise.all(pending);
  for (const r of replies) if (!r.ok) throw replyError(r);
  const shares: PairShare[] = [mine, ...replies.map((r) => r.share!)];
  const out = mergeShares(A, B, shares, tau === 0);
  const t1 = now();
  parallelStats.set(threads, t1 - t0, serialMs(t0, t1, replies));
  return out;
}
