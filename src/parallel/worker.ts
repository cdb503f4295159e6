/**
 * Worker side of skewline/parallel: measures one contiguous range of pairs in shared memory
 * ({@link segmentDistancesParallel}), or searches its share of a chain's contacts
 * ({@link chainContactsParallel}).
 */
import { parentPort } from 'node:worker_threads';
import { segmentDistances } from '../batch/batch.js';
import { searchShare } from '../chain/contacts.js';
import type { PreparedChain } from '../chain/input.js';

/** A distance job: pairs [start, end) of a Float64Array over `input`, results into `output`. */
export interface Job {
  kind?: 'distances';
  input: SharedArrayBuffer;
  byteOffset: number;
  length: number;
  dim: number;
  start: number;
  end: number;
  output: SharedArrayBuffer;
}

/** A chain as shared memory: what the search needs of a PreparedChain. */
export interface SharedChain {
  P: SharedArrayBuffer;
  dim: number;
  m: number;
  partner: SharedArrayBuffer | null;
  dead: SharedArrayBuffer | null;
  start: SharedArrayBuffer;
}

/** A chain job: claim work items through `counter` until none are left. */
export interface ChainJob {
  kind: 'chain';
  A: SharedChain;
  B: SharedChain | null;
  tau: number;
  counter: SharedArrayBuffer;
  want: number;
}

function chainOf(c: SharedChain): PreparedChain {
  return {
    P: new Float64Array(c.P).slice(), // a private copy: reads from shared memory take a slower path in V8
    dim: c.dim,
    m: c.m,
    partner: c.partner === null ? null : new Int32Array(c.partner),
    dead: c.dead === null ? null : new Uint8Array(c.dead),
    start: new Int32Array(c.start),
    orig: new Int32Array(0),
    chain: new Int32Array(0),
    segments: new Int32Array(0),
  };
}

parentPort?.on('message', (job: Job | ChainJob) => {
  try {
    if (job.kind === 'chain') {
      const share = searchShare(chainOf(job.A), job.B === null ? null : chainOf(job.B), job.tau, { counter: new Int32Array(job.counter), want: job.want });
      const transfer = [share.CI.buffer, share.CJ.buffer, share.distance.buffer, share.s.buffer, share.t.buffer] as ArrayBuffer[];
      parentPort?.postMessage({ ok: true, share }, transfer);
      return;
    }
    const all = new Float64Array(job.input, job.byteOffset, job.length);
    const stride = 4 * job.dim;
    const pairs = all.subarray(job.start * stride, job.end * stride);
    // Compute into private memory and publish once: many small writes into shared memory
    // (the batch's chunked copies and fix-ups) run on a slower path in V8.
    const local = segmentDistances(pairs, job.dim);
    new Float64Array(job.output, job.start * 8, job.end - job.start).set(local);
    parentPort?.postMessage({ ok: true });
  } catch (e) {
    const err = e as Error;
    parentPort?.postMessage({ ok: false, name: err.name, message: err.message });
  }
});
