import type { VecLike } from '../core/types.js';
/** The ball given to {@link bounceBall}. */
export interface Ball {
    /** The centre, [x, y] or {x, y}. */
    position: VecLike;
    /** The velocity, in units per second. */
    velocity: VecLike;
    /** The radius, a finite number ≥ 0. */
    radius: number;
}
/** One bounce within a step. */
export interface BallHit {
    /** Seconds from the start of the step. */
    time: number;
    /** The index of the wall. */
    wall: number;
    /** The point of the wall the ball touches (the nearest point of the wall segment to the centre). */
    point: number[];
    /** The unit contact normal, from `point` towards the ball's centre. */
    normal: number[];
    /** The ball's centre at the bounce. */
    position: number[];
    /** The velocity after the bounce. */
    velocity: number[];
}
/** The result of {@link bounceBall}. */
export interface BounceResult {
    /** The centre at the end of the step. */
    position: number[];
    /** The velocity at the end of the step. */
    velocity: number[];
    /** The bounces in order of time. */
    hits: BallHit[];
}
/** Options of {@link bounceBall}. */
export interface BounceOptions {
    /** The coefficient of restitution in [0, 1]: the normal speed is multiplied by it at a bounce. Default 1. */
    restitution?: number;
    /** The most bounces in one step (default 1,024); see {@link bounceBall} for what happens there. */
    maxHits?: number;
}
/** Walls as `[[x0, y0], [x1, y1]][]` or a flat Float64Array x0, y0, x1, y1 per wall. */
export type Walls = readonly (readonly [VecLike, VecLike])[] | Float64Array;
/**
 * The sign of |(px, py) − wall| − r, exactly: 1 outside (distance > r), 0 touching, −1 inside.
 * A filtered floating-point distance first, exact BigInt where the filter cannot decide.
 */
export declare function wallGapSign(px: number, py: number, W: ArrayLike<number>, k: number, r: number, floatOnly?: boolean): number;
/**
 * Moves a ball for one time step `dt` among fixed walls in 2D, bouncing off them: the ball flies
 * straight between bounces and reflects off the contact normal (the wall's face, or the
 * direction from a wall's end when it hits the end: corners and free-standing walls). Walls are
 * two-sided segments, may touch, cross, meet at any angle or have zero length (a post).
 *
 * Guarantees (see the module comment for how): every "does the ball reach this wall during this
 * flight" is decided exactly; the ball never ends a step, nor stops at a bounce, at an exact
 * distance below `radius` from any wall (margin 0: the distance is ≥ radius exactly), so a ball
 * inside a closed table never leaves it. With restitution 1 the speed changes only by rounding
 * (about one ulp per bounce). Contacts where the ball touches a wall while moving away from it
 * or along it are not bounces.
 *
 * Edge cases: `dt = 0` or a zero velocity return the ball unchanged. A ball exactly touching a
 * wall at the start is fine. After `maxHits` bounces in one step (default 1,024: a ball wedged
 * between two walls, or absurd speeds in a tiny pocket; at 1,000 table widths per second a ball
 * between two walls half a width apart bounces about 70 times a step) the ball stops for the rest of the step
 * where it is — outside every wall, with its velocity after the last bounce — so the step always
 * ends; the last hit's time then tells how far the step got.
 * Not re-entrant (module-level scratch). Allocates its result; walls given as arrays are copied
 * into a Float64Array on every call (pass a Float64Array to avoid that).
 * @throws SkewlineInputError on a bad ball, walls or options, and when the ball starts
 * overlapping a wall (its centre closer than `radius`): the message names the wall.
 */
export declare function bounceBall(ball: Ball, walls: Walls, dt: number, options?: BounceOptions): BounceResult;
