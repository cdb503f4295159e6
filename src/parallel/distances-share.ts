/**
 * One thread's part of segmentDistancesParallel, run alike by the calling thread and the
 * workers: claim a chunk of pairs from the shared counter, measure it straight into the shared
 * output, repeat. (An earlier version measured into private memory and copied each chunk out,
 * for fear that writes into shared memory were slow: measured here, they are not, and the copy
 * was a pass over the output.)
 */
import { segmentDistances } from '../batch/batch.js';
import { SkewlineInputError } from '../core/primitives.js';

/** Pairs per claimed chunk: 16,384 pairs (1.5 MB of 3D input, 128 KB of output) amortise a claim many times over. */
export const CHUNK = 16384;

/** A distance job: chunks of pairs of a Float64Array over `input`, results into `output`. */
export interface DistanceJob {
  kind: 'distances';
  input: SharedArrayBuffer;
  byteOffset: number;
  length: number;
  dim: number;
  /** Number of pairs. */
  n: number;
  output: SharedArrayBuffer;
  /** Where the distances start in `output` (bytes). */
  outOffset: number;
  /** Int32Array over it: element 0 is the next unclaimed chunk. */
  counter: SharedArrayBuffer;
}


/**
 * Measures chunks until none is left; on a bad pair stops and returns the chunk and the error,
 * whose message names the pair's index in the whole batch. The first failing chunk of all
 * threads is the one the serial function would report (chunks are claimed in increasing order).
 */
export function distanceChunks(job: DistanceJob): { chunk: number; error: Error } | null {
  const all = new Float64Array(job.input, job.byteOffset, job.length);
  const out = new Float64Array(job.output, job.outOffset, job.n);
  const counter = new Int32Array(job.counter);
  const stride = 4 * job.dim;
  const chunks = Math.ceil(job.n / CHUNK);
  for (let c = Atomics.add(counter, 0, 1); c < chunks; c = Atomics.add(counter, 0, 1)) {
    const start = c * CHUNK, end = Math.min(job.n, start + CHUNK);
    try {
      segmentDistances(all.subarray(start * stride, end * stride), job.dim, out.subarray(start, end));
    } catch (e) {
      const err = e as Error;
      // The kernels name the offset within the chunk: make it the offset within the batch.
      const message = err.message.replace(/index (\d+)/, (_, k: string) => `index ${Number(k) + start * stride}`);
      return { chunk: c, error: err instanceof SkewlineInputError ? new SkewlineInputError(`segmentDistancesParallel: ${message}`) : new Error(message) };
    }
  }
  return null;
}
