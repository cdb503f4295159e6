/** Thrown for invalid input: the message names the argument and what is wrong with it. */
export class SkewlineInputError extends TypeError {
    /** Always `'SkewlineInputError'`. */
    name = 'SkewlineInputError';
}
const AXES = ['x', 'y', 'z', 'w'];
/**
 * Copies `v` into a fresh Float64Array, checking that every coordinate is a finite number.
 *
 * Accepted shapes: an array or typed array of numbers (any length ≥ 1), or an object with
 * numeric `x`, `y` and optionally `z` and `w` properties — three.js's Vector2/3/4, gl-matrix
 * users' `{x, y, z}` records and the like. For objects the dimension is 2 (`x`, `y`), 3 (with
 * `z`) or 4 (with `z` and `w`); a `w` without a `z` is an error.
 * @throws SkewlineInputError if `v` is missing, of neither shape, empty, or holds a non-number,
 * NaN or ±Infinity (the message names `what` and the index or axis).
 */
export function toVector(v, what) {
    if (v === undefined || v === null)
        throw new SkewlineInputError(`${what} is missing`);
    if (typeof v !== 'object') {
        throw new SkewlineInputError(`${what} must be an array of numbers or an {x, y[, z]} object, got ${describe(v)}`);
    }
    if (typeof v.length !== 'number')
        return fromXYZ(v, what);
    const a = v;
    const n = a.length;
    if (n < 1)
        throw new SkewlineInputError(`${what} has no coordinates`);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++)
        out[i] = coordinate(a[i], what, `[${i}]`);
    return out;
}
function fromXYZ(o, what) {
    if (!('x' in o) || !('y' in o)) {
        throw new SkewlineInputError(`${what} must be an array of numbers or an {x, y[, z]} object, got an object without x and y`);
    }
    const hasZ = 'z' in o && o.z !== undefined;
    const hasW = 'w' in o && o.w !== undefined;
    if (hasW && !hasZ)
        throw new SkewlineInputError(`${what} has w but no z`);
    const n = hasW ? 4 : hasZ ? 3 : 2;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++)
        out[i] = coordinate(o[AXES[i]], what, `.${AXES[i]}`);
    return out;
}
function coordinate(x, what, where) {
    if (typeof x !== 'number')
        throw new SkewlineInputError(`${what}${where} is not a number (got ${describe(x)})`);
    if (!Number.isFinite(x))
        throw new SkewlineInputError(`${what}${where} is not finite (got ${x})`);
    return x;
}
function describe(x) {
    if (x === null)
        return 'null';
    if (Array.isArray(x))
        return 'an array';
    if (typeof x === 'string')
        return JSON.stringify(x.length > 20 ? x.slice(0, 20) + '…' : x);
    return typeof x;
}
function sameDim(a, b, what) {
    if (a.length !== b.length) {
        throw new SkewlineInputError(`${what}: points of different dimensions (${a.length} and ${b.length})`);
    }
}
function make(kind, p0, p1, dir) {
    return Object.freeze({ kind, dim: p0.length, p0, p1, dir });
}
function difference(p1, p0) {
    const d = new Float64Array(p0.length);
    for (let i = 0; i < d.length; i++)
        d[i] = p1[i] - p0[i];
    return d;
}
/** A point. @throws SkewlineInputError on missing or non-finite coordinates. */
export function point(p) {
    const q = toVector(p, 'point');
    return make('point', q, q, new Float64Array(q.length));
}
/**
 * The segment from p0 to p1. p0 = p1 is allowed: a zero-length segment behaves as a point
 * and its pairs are tagged `degenerate`.
 * @throws SkewlineInputError on missing, non-finite or different-dimension endpoints.
 */
export function segment(p0, p1) {
    const a = toVector(p0, 'segment p0');
    const b = toVector(p1, 'segment p1');
    sameDim(a, b, 'segment');
    return make('segment', a, b, difference(b, a));
}
/**
 * The infinite line through p0 and p1 (parameter s = 0 at p0, 1 at p1).
 * @throws SkewlineInputError if p0 = p1 (a line needs two distinct points), or on bad coordinates.
 */
export function line(p0, p1) {
    const a = toVector(p0, 'line p0');
    const b = toVector(p1, 'line p1');
    sameDim(a, b, 'line');
    if (a.every((x, i) => x === b[i]))
        throw new SkewlineInputError('line: p0 and p1 are the same point');
    return make('line', a, b, difference(b, a));
}
/**
 * The ray from `origin` along `direction` (not normalised; s is measured in units of it).
 * @throws SkewlineInputError if the direction is zero, or on bad coordinates.
 */
export function ray(origin, direction) {
    const o = toVector(origin, 'ray origin');
    const d = toVector(direction, 'ray direction');
    sameDim(o, d, 'ray');
    if (d.every((x) => x === 0))
        throw new SkewlineInputError('ray: direction is the zero vector');
    return make('ray', o, o, d);
}
/** True if `x` is a primitive made by this module's constructors (or has the same shape). */
export function isPrimitive(x) {
    if (typeof x !== 'object' || x === null)
        return false;
    const k = x.kind;
    return (k === 'point' || k === 'segment' || k === 'line' || k === 'ray') &&
        x.p0 instanceof Float64Array;
}
