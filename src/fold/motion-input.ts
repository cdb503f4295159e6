/**
 * What foldChain and stretchChain share before and after their search: validating the options
 * and the chain, the start check (an error for a chain already in contact; the pairs within the
 * rounding of the thickness remembered for the exact recheck of the returned pose), and the
 * returned points in the input's layout. Internal (not re-exported from the package).
 */
import { SkewlineInputError } from '../core/primitives.js';
import { EPS } from '../core/eft.js';
import { chainContacts } from '../chain/contacts.js';
import { flattenChain, prepareChains } from '../chain/input.js';
import type { ChainPoints, PreparedChain } from '../chain/input.js';
import { pairWithin } from '../chain/narrow.js';

/** Two segments, by their index in the input (segment k runs from vertex k to vertex k + 1). */
export interface SegmentPair {
  /** The segment that stays (before the joint). */
  i: number;
  /** The segment that moves (or, for a stretch, the stretched one when the other stays). */
  j: number;
}

/** Work counters of folds and stretches, for tests and the benchmark. */
export const foldStats = { pairs: 0, evaluations: 0, fallbacks: 0, nearFallbacks: 0 };

const VQ = new Float64Array(12);
let VI = -1, VJ = -1;

/** A folding or stretching problem, validated (internal, shared with stretch.ts). */
export interface Problem {
  flat: Float64Array;
  dim: number;
  n: number;
  tau: number;
  joint: number;
  C: PreparedChain;
  /**
   * The power of two the input was divided by (1 unless the chain's coordinates reach 2⁵⁰⁰):
   * `flat` and `tau` are in that unit, {@link output} scales back (exact: powers of two).
   */
  unit: number;
  /** Compact segments 0 … F − 1 stay, F … m − 1 move; compact vertex F is the joint. */
  F: number;
  pointsOut: boolean;
}

/** Validates the shared options and prepares the chain. `what` names the function in errors. */
export function problem(points: ChainPoints, options: { dim?: number | undefined; joint: number; thickness?: number | undefined }, what: string): Problem {
  if (options === null || typeof options !== 'object') throw new SkewlineInputError(`${what}: options must be an object`);
  let tau = options.thickness ?? 0;
  if (typeof tau !== 'number' || !Number.isFinite(tau) || tau < 0) {
    throw new SkewlineInputError(`${what}: options.thickness must be a finite length ≥ 0 (got ${String(tau)})`);
  }
  const read = flattenChain(points, options.dim, 'points');
  const dim = read.dim;
  let flat = read.flat;
  if (dim !== 2 && dim !== 3) throw new SkewlineInputError(`${what} works in 2D and 3D (got dimension ${dim})`);
  const n = flat.length / dim;
  const joint = options.joint;
  const last = n - 2; // a stretch names a segment, a fold a vertex with something after it
  if (typeof joint !== 'number' || !Number.isInteger(joint) || joint < 0 || joint > last) {
    const tail = what === 'foldChain' && joint === n - 1 ? ' (the last vertex: nothing lies beyond it to turn)' : '';
    throw new SkewlineInputError(
      `${what}: options.joint must be a ${what === 'stretchChain' ? 'segment' : 'vertex'} index, an integer in [0, ${last}] (got ${String(joint)})${tail}`,
    );
  }
  // Scale-aware: a chain whose coordinates reach 2⁵⁰⁰ is folded in a unit that is a power of
  // two, so that differences, norms and squared distances cannot overflow (issue 19: ±1.7e308).
  let unit = 1;
  let big = tau;
  for (let k = 0; k < flat.length; k++) big = Math.max(big, Math.abs(flat[k]));
  if (big >= 2 ** 500) {
    unit = 2 ** (Math.ceil(Math.log2(big)) - 500);
    const scaled = new Float64Array(flat.length);
    for (let k = 0; k < flat.length; k++) {
      scaled[k] = flat[k] / unit;
      if (scaled[k] * unit !== flat[k]) {
        throw new SkewlineInputError(`${what}: the coordinates span more than doubles can scale exactly (from ${big} down to ${flat[k]})`);
      }
    }
    flat = scaled;
    tau /= unit;
  }
  const C = prepareChains([flat], dim, false);
  if (C.partner !== null) {
    throw new SkewlineInputError(`${what}: the chain is a ring (its last vertex repeats its first); moving part of it would tear it open`);
  }
  let F = 0;
  while (F < C.m && C.orig[F] < joint) F++;
  const pointsOut = !(flat.length === 0 || typeof (points as ArrayLike<unknown>)[0] === 'number' || ArrayBuffer.isView(points));
  return { flat, dim, n, tau, joint, C, unit, F, pointsOut };
}

let nearI: Int32Array = new Int32Array(0);
let nearJ: Int32Array = new Int32Array(0);
let nearCount = 0;

/**
 * The start check: chainContacts with the thickness widened by `margin` (the most a pose can
 * move a vertex, twice). A pair in exact contact (≤ τ) with one segment on each side (before
 * segment `joint` / moving or changing) is an error naming it; a pair in contact on one side
 * (both before the joint, or both moving: `moves`) is left alone, since the motion cannot
 * change it (issue 17). Pairs within
 * τ + margin that both move keep their distance in the motion but not exactly in a rounded
 * pose, so they are remembered (nearI, nearJ: input segment indices) and checked exactly on the
 * returned pose; pairs that both stay never change, and pairs across the joint are certified.
 */
export function startCheck(pr: Problem, margin: number, what: string, moves: (k: number) => boolean): void {
  const { flat, dim, tau } = pr;
  const wide = tau + margin > tau ? (tau + margin) * (1 + 4 * EPS) : tau;
  const start = chainContacts(flat, { dim, thickness: wide });
  nearCount = 0;
  if (nearI.length < start.count) {
    nearI = new Int32Array(start.count);
    nearJ = new Int32Array(start.count);
  }
  let hits = 0, fi = -1, fj = -1;
  for (let k = 0; k < start.count; k++) {
    const i = start.i[k], j = start.j[k];
    for (let c = 0; c < 2 * dim; c++) {
      VQ[c] = flat[i * dim + c];
      VQ[2 * dim + c] = flat[j * dim + c];
    }
    const sameSide = j < pr.joint || moves(i);
    if (wide === tau || j === i + 1 || pairWithin(VQ, dim, tau)) {
      if (sameSide) continue;
      if (hits++ === 0) {
        fi = i;
        fj = j;
      }
    } else if (moves(i) && moves(j)) {
      nearI[nearCount] = i;
      nearJ[nearCount++] = j;
    }
  }
  if (hits > 0) {
    throw new SkewlineInputError(
      `${what}: the chain is already in contact at the start: segments ${fi} and ${fj} ` +
        `are within the thickness (${tau * pr.unit})${hits > 1 ? ` (and ${hits - 1} more pairs)` : ''}`,
    );
  }
}

/** Are the remembered near pairs (both moving) still clear of τ in the returned pose `out`? Leaves an offender for {@link nearOffender}. */
export function nearFree(out: Float64Array, dim: number, tau: number): boolean {
  for (let k = 0; k < nearCount; k++) {
    const i = nearI[k], j = nearJ[k];
    for (let c = 0; c < 2 * dim; c++) {
      VQ[c] = out[i * dim + c];
      VQ[2 * dim + c] = out[j * dim + c];
    }
    if (pairWithin(VQ, dim, tau)) {
      VI = i;
      VJ = j;
      return false;
    }
  }
  return true;
}

/** The returned points in the input's layout: the flat array itself for flat input, else arrays of numbers (internal). */
export function output(pr: Problem, flat: Float64Array): Float64Array | number[][] {
  if (pr.unit !== 1) {
    for (let k = 0; k < flat.length; k++) {
      flat[k] *= pr.unit;
      if (!Number.isFinite(flat[k])) throw new SkewlineInputError(`the moved chain leaves the range of doubles (vertex ${Math.floor(k / pr.dim)})`);
    }
  }
  if (!pr.pointsOut) return flat;
  const out: number[][] = [];
  for (let k = 0; k < pr.n; k++) out.push(Array.from(flat.subarray(k * pr.dim, (k + 1) * pr.dim)));
  return out;
}

/** The pair {@link nearFree} last found in contact (input segment indices). */
export function nearOffender(): SegmentPair {
  return { i: VI, j: VJ };
}
