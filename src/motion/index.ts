/** motion: moving objects over one step — closest approach of moving points, exact sphere sweeps, the gem's path test, capsule distance. */
export { closestApproach, sphereSweep, pathsWithin, capsuleDistance } from './sweep.js';
export type { Approach, SphereHit } from './sweep.js';
