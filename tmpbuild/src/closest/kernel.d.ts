/** Slot of s (the parameter of c on a) in the kernel's output array (length ≥ 5 + dim). */
export declare const OUT_S = 0;
/** Slot of t (the parameter of d on b). */
export declare const OUT_T = 1;
/** Slot of the distance. */
export declare const OUT_DIST = 2;
/** Slot of the relation code (0 apart, 1 intersecting, 2 overlapping, 3 parallel, 4 degenerate). */
export declare const OUT_REL = 3;
/** Slot of the flag bits (1: not unique, 2: parallel, 4: degenerate). */
export declare const OUT_FLAGS = 4;
/** d − c starts here (dim numbers). */
export declare const OUT_VEC = 5;
/** Relation codes written to out[OUT_REL]. */
export declare const REL_APART = 0;
export declare const REL_INTERSECTING = 1;
export declare const REL_OVERLAPPING = 2;
export declare const REL_PARALLEL = 3;
export declare const REL_DEGENERATE = 4;
/** Flag bits written to out[OUT_FLAGS]. */
export declare const FLAG_NOT_UNIQUE = 1;
export declare const FLAG_PARALLEL = 2;
export declare const FLAG_DEGENERATE = 4;
/**
 * Closest points of two primitives given on the flat layout: `data[k …]` holds four
 * dim-vectors a0, a1, b0, b1, where a1 is the second point of a segment or line, the
 * direction of a ray, and unused for a point (kinds: POINT, SEGMENT, RAY, LINE of core/exact.ts).
 *
 * Writes to `out`: s, t, distance, relation code, flags, then d − c (dim numbers), and
 * returns the distance. Inputs must be finite (the friendly layer validates); a zero
 * direction is allowed for segments (a point) and must not be passed for rays and lines.
 * Not re-entrant (module-level scratch).
 */
export declare function closestFlat(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array): number;
/**
 * {@link closestFlat} without the return value: a function that returns a double boxes it
 * when it is not inlined (a heap allocation per call), so allocation-free callers use this one.
 */
export declare function closestInto(ka: number, kb: number, dim: number, data: ArrayLike<number>, k: number, out: Float64Array): void;
