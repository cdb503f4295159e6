/**
 * Shared types of skewline. Every primitive is stored as plain `Float64Array`s so the
 * kernels can read it without conversion.
 */
/** An `{x, y}`, `{x, y, z}` or `{x, y, z, w}` record: three.js's Vector2/3/4 and the like. */
export interface XYZLike {
    /** First coordinate. */
    readonly x: number;
    /** Second coordinate. */
    readonly y: number;
    /** Third coordinate (3D and 4D). */
    readonly z?: number;
    /** Fourth coordinate (4D; needs z). */
    readonly w?: number;
}
/**
 * Anything that reads like a vector of numbers: `number[]`, `Float64Array`, `Float32Array`, …,
 * or an {@link XYZLike} object such as a three.js `Vector3`.
 */
export type VecLike = ArrayLike<number> | XYZLike;
/** The four kinds of primitive. */
export type Kind = 'point' | 'segment' | 'line' | 'ray';
/**
 * A point, segment, line or ray in R^dim (dim ≥ 1 is stored, dim ≥ 2 is what skewline is for).
 *
 * Parametrisation (the meaning of `s` and `t` in results):
 * - point:   X(s) = p0, s = 0;
 * - segment: X(s) = p0 + s·(p1 − p0), s ∈ [0, 1]; a zero-length segment (p0 = p1) is valid;
 * - line:    X(s) = p0 + s·(p1 − p0), s ∈ ℝ (the infinite line through p0 and p1, p0 ≠ p1);
 * - ray:     X(s) = p0 + s·dir, s ≥ 0, where `dir` is the user's direction (not normalised).
 *
 * `p1` is the second point for segments and lines and `p0` again for points and rays;
 * `dir` is p1 − p0 rounded for segments and lines, the exact direction for rays, zeros for points.
 * Build primitives with {@link point}, {@link segment}, {@link line} and {@link ray}, which validate.
 */
export interface Primitive {
    /** What it is. */
    readonly kind: Kind;
    /** Its dimension (the length of p0, p1 and dir). */
    readonly dim: number;
    /** The first point (a ray's origin). */
    readonly p0: Float64Array;
    /** The second point of a segment or line; p0 again for points and rays. */
    readonly p1: Float64Array;
    /** p1 − p0 rounded for segments and lines, the direction for rays, zeros for points. */
    readonly dir: Float64Array;
}
/**
 * What a pair of primitives is, from the exact (not rounded) input:
 * - `intersecting`: they share exactly one point, or they are collinear and touch at one point;
 * - `overlapping`: collinear, sharing a piece of positive length (or a line/ray sharing a ray);
 * - `parallel`: both have a direction, the directions are exactly parallel, and they share no point;
 * - `degenerate`: a zero-length segment is involved and they share no point;
 * - `apart`: none of the above (skew, or crossing lines whose pieces miss each other).
 *
 * `intersecting` or `overlapping` holds exactly when `distance === 0`.
 */
export type Relation = 'intersecting' | 'overlapping' | 'parallel' | 'degenerate' | 'apart';
/** The result of {@link closestPoints}. Arrays are fresh and owned by the caller. */
export interface ClosestResult {
    /** The point of `a` nearest to `b`. */
    c: number[];
    /** The point of `b` nearest to `a`. */
    d: number[];
    /** The midpoint of c and d (Rhodes' P). */
    p: number[];
    /**
     * The displacement from c to d, computed in difference form (it may differ from
     * `d − c` evaluated on the rounded c and d by a rounding error, and is the more accurate).
     * For two rays, (c, vector) is the ray–ray Q&A's "shortest ray": |vector| is the distance.
     */
    vector: number[];
    /** |vector|, within 8·2⁻⁵³·S of the exact minimum distance (see README). 0 exactly when they share a point. */
    distance: number;
    /** distance², computed without under/overflow where distance itself is representable. */
    distanceSq: number;
    /** Parameter of c on a (see {@link Primitive}). */
    s: number;
    /** Parameter of d on b. */
    t: number;
    /** What the pair is. */
    relation: Relation;
    /** Alias of {@link relation}, the name used in the documents. */
    tag: Relation;
    /** False when the nearest pair is not unique (parallel with overlapping shadows, overlap): c, d are then the middle of the locus. */
    unique: boolean;
    /** True when the directions of a and b are exactly parallel (both must have one). */
    parallel: boolean;
    /** True when a zero-length segment is involved. */
    degenerate: boolean;
}
