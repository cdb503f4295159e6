/** motion: moving objects over one step — closest approach of moving points, exact sphere and capsule sweeps, the gem's path test, capsule distance, a bouncing ball. */
export { closestApproach, sphereSweep, pathsWithin, capsuleDistance } from './sweep.js';
export type { Approach, SphereHit } from './sweep.js';
export { capsuleSweep } from './capsule.js';
export type { CapsuleHit } from './capsule.js';
export { bounceBall } from './ball.js';
export type { Ball, BallHit, BounceResult, BounceOptions, Walls } from './ball.js';
