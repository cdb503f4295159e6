/** Neighbouring doubles, without allocating (module-level scratch). */
const f = new Float64Array(1);
const i = new BigInt64Array(f.buffer);
/** The next double above x ≥ 0 (finite). */
export function nextUp(x) {
    if (x === 0)
        return Number.MIN_VALUE;
    f[0] = x;
    i[0] += x > 0 ? 1n : -1n;
    return f[0];
}
/** The next double below x > 0 (finite); −MIN_VALUE for 0. */
export function nextDown(x) {
    if (x === 0)
        return -Number.MIN_VALUE;
    f[0] = x;
    i[0] += x > 0 ? -1n : 1n;
    return f[0];
}
