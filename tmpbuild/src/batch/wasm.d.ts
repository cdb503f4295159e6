/** Largest pair count one allocation can hold: 104 bytes a pair within 32-bit WebAssembly memory. */
export declare const MAX_RESIDENT_PAIRS: number;
/**
 * A zeroed Float64Array for n 3D segment pairs (12 numbers each: a0, a1, b0, b1) that lives in
 * a WebAssembly memory of its own. Fill it like any Float64Array; {@link segmentDistances} on
 * it (dim 3) then runs a WebAssembly kernel in place, without copying — the fastest path in
 * skewline. Other functions accept it as an ordinary Float64Array. Each call makes a new
 * memory (n·104 bytes), which is never grown, so the array stays valid.
 * @throws SkewlineInputError if n is not an integer in [0, MAX_RESIDENT_PAIRS].
 */
export declare function allocPairs3(n: number): Float64Array;
/**
 * Runs the WebAssembly kernel when `pairs` was made by allocPairs3 (or is a prefix of one);
 * returns the array of raw results (NaN = finish in JavaScript), or null for other arrays.
 */
export declare function residentDistances3(pairs: Float64Array, n: number): Float64Array | null;
/**
 * Distances of pairs in an ordinary Float64Array through the WebAssembly kernel, chunk by chunk
 * through a small scratch memory that stays in cache: one extra copy of the data, in exchange
 * for branch-free clamps. Writes raw results (NaN = finish in JavaScript) into `res`.
 */
export declare function copiedDistances3(pairs: Float64Array, n: number, res: Float64Array): void;
