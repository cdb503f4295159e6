/**
 * Batch queries over flat typed arrays: millions of segment pairs without allocating per
 * pair. Layout: pair after pair, each a0, a1, b0, b1 with `dim` numbers apiece.
 */
import { closestSegSeg2, closestSegSeg3, closestSegSegN } from '../closest/segment-kernels.js';
import { SkewlineInputError, describeValue } from '../core/primitives.js';
export { allocPairs3, MAX_RESIDENT_PAIRS } from './wasm.js';
import { intersectsSegments2, intersectsSegments3 } from '../intersect/intersects.js';
import { copiedDistances3, residentDistances3 } from './wasm.js';

/** From this many 3D pairs on, segmentDistances copies them through WebAssembly (see wasm.ts). */
const COPY_THRESHOLD = 4096;

/** Number of pairs in `pairs`, validating the layout (shared with parallel.ts). */
export function pairCount(pairs: unknown, dim: unknown, fn: string): number {
  if (!(pairs instanceof Float64Array)) {
    const got = ArrayBuffer.isView(pairs) ? (pairs.constructor as { name: string }).name : describeValue(pairs);
    throw new SkewlineInputError(`${fn}: pairs must be a Float64Array (got ${got}; Float64Array.from(...) converts)`);
  }
  if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 1) {
    throw new SkewlineInputError(`${fn}: dim must be a positive integer (got ${describeValue(dim)})`);
  }
  const stride = 4 * dim;
  if (pairs.length % stride !== 0) {
    throw new SkewlineInputError(`${fn}: pairs has ${pairs.length} numbers, not a multiple of 4·dim = ${stride}`);
  }
  return pairs.length / stride;
}

function output(out: Float64Array | undefined, n: number, fn: string): Float64Array {
  if (out === undefined) return new Float64Array(n);
  if (!(out instanceof Float64Array) || out.length < n) {
    throw new SkewlineInputError(`${fn}: out must be a Float64Array of length ≥ ${n}`);
  }
  return out;
}

/**
 * Distances between the segments of each pair: out[i] for pair i. Fast paths for dim 2 and
 * 3, a generic one for any dim ≥ 1; the accuracy of `closestPoints` on every pair: the
 * distance is faithful (the exact distance rounded up or down), exactly 0 when the segments
 * touch. Zero-length segments are points.
 * For dim 3, pairs in an array from {@link allocPairs3} are measured in place by a
 * WebAssembly kernel with the same arithmetic (identical results, faster).
 * @param out - optional Float64Array (length ≥ number of pairs) to fill; returned.
 * @throws SkewlineInputError on a bad layout, a too-short `out`, or a non-finite coordinate
 * (naming the pair); RangeError (naming the pair) for a distance beyond the double range.
 */
export function segmentDistances(pairs: Float64Array, dim: number, out?: Float64Array): Float64Array {
  const n = pairCount(pairs, dim, 'segmentDistances');
  const res = output(out, n, 'segmentDistances');
  if (dim === 3 && residentDistances3(pairs, n, res)) {
    // Pairs in WebAssembly memory (allocPairs3): the module ran in place, JavaScript finished.
  } else if (dim === 3 && n >= COPY_THRESHOLD) copiedDistances3(pairs, n, res);
  else if (dim === 3) for (let i = 0, k = 0; i < n; i++, k += 12) res[i] = closestSegSeg3(pairs, k, null, 0);
  else if (dim === 2) for (let i = 0, k = 0; i < n; i++, k += 8) res[i] = closestSegSeg2(pairs, k, null, 0);
  else for (let i = 0, k = 0; i < n; i++, k += 4 * dim) res[i] = closestSegSegN(pairs, k, dim, null, 0);
  return res;
}

/**
 * Like {@link segmentDistances}, with the parameters: out[3i] = s, out[3i+1] = t,
 * out[3i+2] = distance, where c = a0 + s·(a1 − a0) and d = b0 + t·(b1 − b0) are the nearest
 * points (for a locus of nearest pairs — parallel overlapping segments — the middle of it).
 * @param out - optional Float64Array of length ≥ 3·pairs.
 * @throws SkewlineInputError as {@link segmentDistances}.
 */
export function segmentClosestBatch(pairs: Float64Array, dim: number, out?: Float64Array): Float64Array {
  const n = pairCount(pairs, dim, 'segmentClosestBatch');
  const res = output(out, 3 * n, 'segmentClosestBatch');
  if (dim === 3) for (let i = 0, k = 0; i < n; i++, k += 12) res[3 * i + 2] = closestSegSeg3(pairs, k, res, 3 * i);
  else if (dim === 2) for (let i = 0, k = 0; i < n; i++, k += 8) res[3 * i + 2] = closestSegSeg2(pairs, k, res, 3 * i);
  else for (let i = 0, k = 0; i < n; i++, k += 4 * dim) res[3 * i + 2] = closestSegSegN(pairs, k, dim, res, 3 * i);
  return res;
}

/**
 * Exact yes/no per pair: out[i] = 1 when the segments of pair i share a point, else 0
 * (dim 2 and 3 by filtered orientation predicates; any other dim by exact arithmetic).
 * Agrees with `segmentDistances(...)[i] === 0` on every input.
 * @param out - optional Uint8Array of length ≥ number of pairs.
 * @throws SkewlineInputError on a bad layout or a non-finite coordinate.
 */
export function segmentIntersectsBatch(pairs: Float64Array, dim: number, out?: Uint8Array): Uint8Array {
  const n = pairCount(pairs, dim, 'segmentIntersectsBatch');
  if (out !== undefined && (!(out instanceof Uint8Array) || out.length < n)) {
    throw new SkewlineInputError(`segmentIntersectsBatch: out must be a Uint8Array of length ≥ ${n}`);
  }
  const res = out ?? new Uint8Array(n);
  const stride = 4 * dim;
  for (let i = 0, k = 0; i < n; i++, k += stride) {
    for (let j = 0; j < stride; j++) {
      if (!Number.isFinite(pairs[k + j])) {
        throw new SkewlineInputError(`segmentIntersectsBatch: pair ${i}: coordinate ${j} is not finite (got ${pairs[k + j]})`);
      }
    }
    res[i] = dim === 2 ? +intersectsSegments2(pairs, k) : dim === 3 ? +intersectsSegments3(pairs, k) : +(closestSegSegN(pairs, k, dim, null, 0) === 0);
  }
  return res;
}
