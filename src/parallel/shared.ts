/**
 * Input in shared memory: arrays that the parallel functions hand to their workers as they
 * are, with no copy (for a memory-bound batch the copy costs as much as the work).
 */
import { SkewlineInputError } from '../core/primitives.js';

function alloc(n: unknown, per: number, fn: string): Float64Array {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n * per * 8 > Number.MAX_SAFE_INTEGER) {
    throw new SkewlineInputError(`${fn}: n must be an integer ≥ 0 (got ${String(n)})`);
  }
  return new Float64Array(new SharedArrayBuffer(8 * n * per));
}

function checkDim(dim: unknown, lo: number, fn: string): number {
  if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < lo) {
    throw new SkewlineInputError(`${fn}: dim must be an integer ≥ ${lo} (got ${String(dim)})`);
  }
  return dim;
}

/**
 * A zeroed Float64Array for `n` segment pairs in `dim` dimensions (4·dim numbers a pair: a0, a1,
 * b0, b1) on a SharedArrayBuffer. Fill it like any Float64Array; segmentDistancesParallel reads
 * it in place from every worker (an ordinary array is copied into shared memory first, on the
 * calling thread: a serial pass). Every other function accepts it as an ordinary array.
 * @throws SkewlineInputError if n is not an integer ≥ 0 or dim not an integer ≥ 1 (or the
 * engine cannot allocate that much shared memory: a RangeError).
 */
export function allocSharedPairs(n: number, dim: number): Float64Array {
  const d = checkDim(dim, 1, 'allocSharedPairs');
  return alloc(n, 4 * d, 'allocSharedPairs');
}

/**
 * A zeroed Float64Array for a chain of `n` vertices in `dim` dimensions (x, y[, z …] per vertex)
 * on a SharedArrayBuffer. chainContactsParallel(points, { dim }) on it shares it with its workers
 * as it is — provided the chain needs no rewriting (open, no repeated consecutive vertex: the
 * common case); otherwise the compact form is built and copied once as for an ordinary array.
 * @throws SkewlineInputError if n is not an integer ≥ 0 or dim not an integer ≥ 2.
 */
export function allocSharedChain(n: number, dim: number): Float64Array {
  const d = checkDim(dim, 2, 'allocSharedChain');
  return alloc(n, d, 'allocSharedChain');
}
