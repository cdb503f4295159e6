/**
 * The WebAssembly path of the 3D batch: pairs that live in WebAssembly memory (allocated with
 * {@link allocPairs3}) go through the generated kernel in place (src/batch/seg3.generated.ts, the
 * fast path of closestSegSeg3 with branch-free clamps, then the first certificate of the faithful
 * step, faithfulSegSeg3 of closest/faithful.ts, operation for operation). Where that step certifies the
 * distance, the module gives it; elsewhere it gives the pair's (s, t), from which JavaScript makes
 * the distance faithful exactly as closestSegSeg3 does ({@link finish3}), and the pairs the module
 * hands over (s = NaN) run the whole JavaScript kernel, so results are identical to the
 * JavaScript path.
 */
import { SEG3_WASM } from './seg3.generated.js';
import { SkewlineInputError, describeValue } from '../core/primitives.js';
import { distanceFromParams3 } from '../closest/segment-kernels.js';

interface Resident {
  seg3: (p: number, n: number, o: number) => void;
  /** The same, two pairs per step (SIMD); n must be even. */
  seg3x2: (p: number, n: number, o: number) => void;
  /** Room for the parameters (s, t of each pair), after the pairs. */
  out: Float64Array;
  capacity: number;
}

const RESIDENT = new WeakMap<ArrayBufferLike, Resident>();
/** Pairs per call of the kernel (see residentDistances3). */
const CHUNK = 8192;
let compiled: WebAssembly.Module | null = null;

function decode(b64: string): Uint8Array<ArrayBuffer> {
  if (typeof Buffer !== 'undefined') return Uint8Array.from(Buffer.from(b64, 'base64'));
  return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
}

/** Bytes a pair takes in WebAssembly memory: 12 coordinates and its (s, t). */
const PAIR_BYTES = 112;

/** Largest pair count one allocation can hold: 112 bytes a pair within 32-bit WebAssembly memory. */
export const MAX_RESIDENT_PAIRS = Math.floor((2 ** 32 - 65536) / PAIR_BYTES);

/**
 * A zeroed Float64Array for n 3D segment pairs (12 numbers each: a0, a1, b0, b1) that lives in
 * a WebAssembly memory of its own. Fill it like any Float64Array; {@link segmentDistances} on
 * it (dim 3) then runs a WebAssembly kernel in place, without copying — the fastest path in
 * skewline. Other functions accept it as an ordinary Float64Array. Each call makes a new
 * memory (n·112 bytes), which is never grown, so the array stays valid.
 * @throws SkewlineInputError if n is not an integer in [0, MAX_RESIDENT_PAIRS].
 */
export function allocPairs3(n: number): Float64Array {
  if (!Number.isInteger(n) || n < 0 || n > MAX_RESIDENT_PAIRS) {
    throw new SkewlineInputError(`allocPairs3: n must be an integer from 0 to ${MAX_RESIDENT_PAIRS} (got ${describeValue(n)})`);
  }
  const pages = Math.max(1, Math.ceil((n * PAIR_BYTES) / 65536));
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  compiled ??= new WebAssembly.Module(decode(SEG3_WASM));
  const instance = new WebAssembly.Instance(compiled, { env: { memory } });
  const seg3 = instance.exports.seg3 as Resident['seg3'];
  const seg3x2 = instance.exports.seg3x2 as Resident['seg3x2'];
  RESIDENT.set(memory.buffer, { seg3, seg3x2, out: new Float64Array(memory.buffer, n * 96, 2 * n), capacity: n });
  return new Float64Array(memory.buffer, 0, n * 12);
}

/** m pairs from byte p, results to byte o: pairs of lanes, then an odd last pair alone. */
function run(r: Resident, p: number, m: number, o: number): void {
  const even = m & ~1;
  r.seg3x2(p, even, o);
  if (even < m) r.seg3(p + 96 * even, 1, o + 16 * even);
}

/**
 * Distances res[first … first + m) of the pairs from the module's results `st` (pair first + i at
 * st[2i], st[2i + 1]): −d where the module certified the faithful distance d itself (d > 0 and
 * s ≥ 0, so the sign tells), else the fast path's (s, t), from which JavaScript makes the
 * distance faithful (s = NaN: the whole JavaScript kernel). Bit for bit what closestSegSeg3 gives.
 */
function finish3(pairs: Float64Array, st: Float64Array, first: number, m: number, res: Float64Array): void {
  for (let i = 0; i < m; i++) {
    const s = st[2 * i];
    res[first + i] = s < 0 ? -s : distanceFromParams3(pairs, 12 * (first + i), s, st[2 * i + 1]);
  }
}

/**
 * Distances through the WebAssembly kernel when `pairs` was made by allocPairs3 (or is a prefix
 * of one), into res; returns false (nothing done) for other arrays.
 */
export function residentDistances3(pairs: Float64Array, n: number, res: Float64Array): boolean {
  const r = RESIDENT.get(pairs.buffer);
  if (r === undefined || pairs.byteOffset !== 0 || n > r.capacity) return false;
  // In chunks: V8 compiles WebAssembly with a baseline tier first and swaps in optimised code
  // for later calls (it does not replace a running call), so one huge call would run unoptimised.
  for (let i = 0; i < n; i += CHUNK) {
    const m = Math.min(CHUNK, n - i);
    run(r, 96 * i, m, r.capacity * 96 + 16 * i);
    finish3(pairs, r.out.subarray(2 * i, 2 * (i + m)), i, m, res);
  }
  return true;
}

let scratch: Resident | null = null;
let scratchPairs: Float64Array | null = null;

/**
 * Distances of pairs in an ordinary Float64Array through the WebAssembly kernel, chunk by chunk
 * through a small scratch memory that stays in cache: one extra copy of the data, in exchange
 * for branch-free clamps. Writes the distances into `res`.
 */
export function copiedDistances3(pairs: Float64Array, n: number, res: Float64Array): void {
  if (scratch === null) {
    scratchPairs = allocPairs3(CHUNK);
    scratch = RESIDENT.get(scratchPairs.buffer) ?? null;
  }
  const r = scratch as Resident;
  const buf = scratchPairs as Float64Array;
  for (let i = 0; i < n; i += CHUNK) {
    const m = Math.min(CHUNK, n - i);
    buf.set(pairs.subarray(12 * i, 12 * (i + m)));
    run(r, 0, m, CHUNK * 96);
    finish3(pairs, r.out, i, m, res);
  }
}
