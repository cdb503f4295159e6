/** motion: moving objects over one step — closest approach of moving points, exact sphere and capsule sweeps (optionally into a reused target), the gem's path test, capsule distance, a bouncing ball. */
export { closestApproach, sphereSweep, createSweepResult, sweepStats, pathsWithin, capsuleDistance } from './sweep.js';
export type { Approach, SphereHit } from './sweep.js';
export { capsuleSweep, createCapsuleResult, capsuleStats } from './capsule.js';
export type { CapsuleHit } from './capsule.js';
export { bounceBall, bounceBallFlat, HIT_STRIDE } from './ball.js';
export type { Ball, BallHit, BounceResult, BounceOptions, Walls } from './ball.js';
