import type { VecLike } from '../core/types.js';
/** The result of {@link capsuleSweep}. */
export interface CapsuleHit {
    /** Whether the capsules touch at some t ∈ [0, 1] (decided exactly). */
    hit: boolean;
    /**
     * The first time of contact: 0 if they touch at the start, otherwise the first double t at
     * which the exact capsules touch or overlap (the exact contact time lies in (prev(t), t]).
     * For a contact at a single instant between two doubles (a grazing touch), the double nearest
     * it. 1 when there is no hit.
     */
    time: number;
    /**
     * The contact point at `time`: on the segment between the nearest points c (on A) and d (on B),
     * at the fraction ra / (ra + rb) from c (c itself when both radii are 0). Zeros for a miss.
     */
    point: number[];
    /** The unit vector from A's nearest point towards B's at `time`; zeros when they coincide or for a miss. */
    normal: number[];
}
/**
 * The first contact time of a capsule sweep on validated input, or −1 for no contact in
 * [0, 1]. See the module comment. Allocates only on the exact path.
 */
export declare function capsuleSweepTime(A0: Float64Array, A1: Float64Array, ra: number, M: Float64Array, B0: Float64Array, B1: Float64Array, rb: number): number;
/**
 * The first time t ∈ [0, 1] at which capsule A (segment a0a1, radius ra) translated by t·move
 * touches the resting capsule B (segment b0b1, radius rb), in any dimension ≥ 2 (1 works too).
 * A sphere is a capsule of zero length (a0 = a1). Whether they touch at all is decided exactly,
 * and `time` is the first double at which the exact capsules touch (see {@link CapsuleHit}),
 * so it is within one ulp of the exact first-contact time.
 *
 * Edge cases: capsules touching or overlapping at the start give `time: 0`; touching at
 * exactly ra + rb is a hit; `move` of zero hits only if they touch at the start; radii 0 make
 * segments (then the hit is an exact segment crossing, `normal` zeros at the crossing).
 * Not re-entrant (module-level scratch). Allocates its result; the exact path allocates BigInts.
 * @throws SkewlineInputError on missing or non-finite points, different dimensions, or a radius
 * that is negative or not finite.
 */
export declare function capsuleSweep(a0: VecLike, a1: VecLike, ra: number, move: VecLike, b0: VecLike, b1: VecLike, rb: number): CapsuleHit;
