/**
 * Peer adapter: three.js `Line3.distanceSqToLine3` (three 0.187, `src/math/Line3.js`; Ericson's
 * ClosestPtSegmentSegment with an absolute EPSILON = 1e-8² on squared lengths and an exact
 * `denom !== 0` parallel test), fed from a Float64Array through reused Line3/Vector3 objects so
 * the comparison measures the algorithm, not allocation.
 */
import { Line3, Vector3 } from 'three';

const LA = new Line3(new Vector3(), new Vector3());
const LB = new Line3(new Vector3(), new Vector3());
const C1 = new Vector3();
const C2 = new Vector3();

/**
 * Distance between the 3-D segments data[k..k+5] and data[k+6..k+11]: the square root of
 * three's squared distance. Not re-entrant (module-level Line3/Vector3 objects).
 */
export function three3(data: Float64Array, k: number): number {
  LA.start.set(data[k], data[k + 1], data[k + 2]);
  LA.end.set(data[k + 3], data[k + 4], data[k + 5]);
  LB.start.set(data[k + 6], data[k + 7], data[k + 8]);
  LB.end.set(data[k + 9], data[k + 10], data[k + 11]);
  return Math.sqrt(LA.distanceSqToLine3(LB, C1, C2));
}

/**
 * Squared distance as three returns it, with the closest points copied into `c` and `d`
 * (3 numbers each) when given. Not re-entrant.
 */
export function three3Sq(data: Float64Array, k: number, c?: number[], d?: number[]): number {
  LA.start.set(data[k], data[k + 1], data[k + 2]);
  LA.end.set(data[k + 3], data[k + 4], data[k + 5]);
  LB.start.set(data[k + 6], data[k + 7], data[k + 8]);
  LB.end.set(data[k + 9], data[k + 10], data[k + 11]);
  const r = LA.distanceSqToLine3(LB, C1, C2);
  if (c) C1.toArray(c);
  if (d) C2.toArray(d);
  return r;
}
