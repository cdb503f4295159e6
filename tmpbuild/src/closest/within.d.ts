import type { VecLike } from '../core/types.js';
/**
 * True exactly when the segments a0a1 and b0b1 (any dimension; zero length allowed) come within
 * distance r ≥ 0 of each other: `r = 0` asks whether they share a point.
 * @throws SkewlineInputError on bad points, different dimensions, or r not a finite number ≥ 0.
 */
export declare function segmentsWithin(a0: VecLike, a1: VecLike, b0: VecLike, b1: VecLike, r: number): boolean;
/**
 * {@link segmentsWithin} on the flat layout: four dim-vectors a0, a1, b0, b1 from data[k].
 * Inputs must be finite (not checked). Not re-entrant (module-level scratch).
 */
export declare function segmentsWithinFlat(data: ArrayLike<number>, k: number, dim: number, r: number): boolean;
/** Sign of num/den − r² for a double r ≥ 0, exactly (den > 0). */
export declare function compareWithSquare(num: bigint, den: bigint, r: number): number;
