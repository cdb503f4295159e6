/**
 * Worker side of {@link segmentDistancesParallel}: measures one contiguous range of pairs in
 * shared memory and writes the distances into shared memory.
 */
import { parentPort } from 'node:worker_threads';
import { segmentDistances } from '../batch/batch.js';

/** A job: pairs [start, end) of a Float64Array over `input`, results into `output`. */
export interface Job {
  input: SharedArrayBuffer;
  byteOffset: number;
  length: number;
  dim: number;
  start: number;
  end: number;
  output: SharedArrayBuffer;
}

parentPort?.on('message', (job: Job) => {
  try {
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
