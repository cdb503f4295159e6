/**
 * The WebAssembly path of the 3D batch: pairs that live in WebAssembly memory (allocated with
 * {@link allocPairs3}) are measured in place by the generated kernel (src/batch/seg3.generated.ts,
 * the same arithmetic as closestSegSeg3 with branch-free clamps). Pairs it hands over (NaN)
 * are finished by the JavaScript kernel, so results are identical to the JavaScript path.
 */
import { SEG3_WASM } from './seg3.generated.js';
import { SkewlineInputError } from '../core/primitives.js';
const RESIDENT = new WeakMap();
/** Pairs per call of the kernel (see residentDistances3). */
const CHUNK = 8192;
let compiled = null;
function decode(b64) {
    if (typeof Buffer !== 'undefined')
        return Uint8Array.from(Buffer.from(b64, 'base64'));
    return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
}
/** Largest pair count one allocation can hold: 104 bytes a pair within 32-bit WebAssembly memory. */
export const MAX_RESIDENT_PAIRS = Math.floor((2 ** 32 - 65536) / 104);
/**
 * A zeroed Float64Array for n 3D segment pairs (12 numbers each: a0, a1, b0, b1) that lives in
 * a WebAssembly memory of its own. Fill it like any Float64Array; {@link segmentDistances} on
 * it (dim 3) then runs a WebAssembly kernel in place, without copying — the fastest path in
 * skewline. Other functions accept it as an ordinary Float64Array. Each call makes a new
 * memory (n·104 bytes), which is never grown, so the array stays valid.
 * @throws SkewlineInputError if n is not an integer in [0, MAX_RESIDENT_PAIRS].
 */
export function allocPairs3(n) {
    if (!Number.isInteger(n) || n < 0 || n > MAX_RESIDENT_PAIRS) {
        throw new SkewlineInputError(`allocPairs3: n must be an integer from 0 to ${MAX_RESIDENT_PAIRS} (got ${String(n)})`);
    }
    const pages = Math.max(1, Math.ceil((n * 104) / 65536));
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    compiled ??= new WebAssembly.Module(decode(SEG3_WASM));
    const instance = new WebAssembly.Instance(compiled, { env: { memory } });
    const seg3 = instance.exports.seg3;
    const seg3x2 = instance.exports.seg3x2;
    RESIDENT.set(memory.buffer, { seg3, seg3x2, out: new Float64Array(memory.buffer, n * 96, n), capacity: n });
    return new Float64Array(memory.buffer, 0, n * 12);
}
/** m pairs from byte p, results to byte o: pairs of lanes, then an odd last pair alone. */
function run(r, p, m, o) {
    const even = m & ~1;
    r.seg3x2(p, even, o);
    if (even < m)
        r.seg3(p + 96 * even, 1, o + 8 * even);
}
/**
 * Runs the WebAssembly kernel when `pairs` was made by allocPairs3 (or is a prefix of one);
 * returns the array of raw results (NaN = finish in JavaScript), or null for other arrays.
 */
export function residentDistances3(pairs, n) {
    const r = RESIDENT.get(pairs.buffer);
    if (r === undefined || pairs.byteOffset !== 0 || n > r.capacity)
        return null;
    // In chunks: V8 compiles WebAssembly with a baseline tier first and swaps in optimised code
    // for later calls (it does not replace a running call), so one huge call would run unoptimised.
    for (let i = 0; i < n; i += CHUNK)
        run(r, 96 * i, Math.min(CHUNK, n - i), r.capacity * 96 + 8 * i);
    return r.out;
}
let scratch = null;
let scratchPairs = null;
/**
 * Distances of pairs in an ordinary Float64Array through the WebAssembly kernel, chunk by chunk
 * through a small scratch memory that stays in cache: one extra copy of the data, in exchange
 * for branch-free clamps. Writes raw results (NaN = finish in JavaScript) into `res`.
 */
export function copiedDistances3(pairs, n, res) {
    if (scratch === null) {
        scratchPairs = allocPairs3(CHUNK);
        scratch = RESIDENT.get(scratchPairs.buffer) ?? null;
    }
    const r = scratch;
    const buf = scratchPairs;
    for (let i = 0; i < n; i += CHUNK) {
        const m = Math.min(CHUNK, n - i);
        buf.set(pairs.subarray(12 * i, 12 * (i + m)));
        run(r, 0, m, CHUNK * 96);
        res.set(r.out.subarray(0, m), i);
    }
}
