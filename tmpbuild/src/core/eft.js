/**
 * Error-free transformations in double precision (JavaScript has no fused multiply-add).
 *
 * Sources: T. J. Dekker, "A floating-point technique for extending the available precision"
 * (1971) for the splitting product; J. R. Shewchuk, "Adaptive Precision Floating-Point
 * Arithmetic and Fast Robust Geometric Predicates" (1997), §2, for two-product's error term.
 * Valid while no intermediate overflows: |a|, |b| below about 2^995.
 */
/** Dekker's splitter 2^27 + 1: splits a double into two halves of 26 significant bits. */
export const SPLITTER = 134217729;
/** The rounding error of a·b: a·b = fl(a·b) + productError(a, b, fl(a·b)) exactly. */
export function productError(a, b, p) {
    let c = SPLITTER * a;
    const ah = c - (c - a);
    const al = a - ah;
    c = SPLITTER * b;
    const bh = c - (c - b);
    const bl = b - bh;
    return al * bl - (p - ah * bh - al * bh - ah * bl);
}
/**
 * a·d − b·c to within a few units in the last place of the result, even under total
 * cancellation (where the plain evaluation has no correct digits): both products are split
 * into value + error exactly, the leading parts cancel exactly when close (Sterbenz), and the
 * error terms are added back.
 */
export function det2(a, d, b, c) {
    const p = a * d;
    const q = b * c;
    return p - q + (productError(a, d, p) - productError(b, c, q));
}
/** The unit roundoff of binary64, 2⁻⁵³. */
export const EPS = 2 ** -53;
