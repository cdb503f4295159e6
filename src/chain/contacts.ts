/**
 * Contacts of polygonal chains: which pairs of segments come within a thickness of each other
 * (Boes, "Segment Distance": `collisions(p)`), decided exactly, at the scale of millions of
 * segments.
 */
import { SkewlineInputError } from '../core/primitives.js';
import { closestSegSeg2, closestSegSeg3, closestSegSegN } from '../closest/segment-kernels.js';
import { foldsBack, pairWithin } from './narrow.js';
import { flattenChain, prepareChains } from './input.js';
import type { ChainPoints, PreparedChain } from './input.js';
import { LEAF, buildTree, expandTasks, traverse } from './tree.js';
import type { ChainTree } from './tree.js';

/** Options of {@link chainContacts} and {@link chainCollisions}. */
export interface ChainOptions {
  /** Coordinates per vertex; required when `points` is a flat array, checked otherwise. */
  dim?: number;
  /** Two segments are in contact when their exact distance is ≤ thickness (a length ≥ 0; default 0: they share a point). */
  thickness?: number;
  /** Add the segment from the last vertex back to the first (default false). */
  closed?: boolean;
  /** A second chain: report contacts between `points` (i) and this chain (j) instead of within one chain. */
  against?: ChainPoints;
  /** Whether `against` is closed (default: the same as `closed`). */
  againstClosed?: boolean;
}

/**
 * Contacts, one per pair of segments, sorted by i then j. Segment k runs from vertex k to vertex
 * k + 1 (for a closed chain the last one from the last vertex back to the first).
 */
export interface ChainContacts {
  /** Number of contacts. */
  count: number;
  /** First segment of each contact (i < j within one chain; a segment of `points` with `against`). */
  i: Int32Array;
  /** Second segment of each contact (a segment of `against` with `against`). */
  j: Int32Array;
  /** Distance between the two segments: exactly 0 when they share a point, otherwise as computed (a few ulps). */
  distance: Float64Array;
  /** Parameter of the nearest point on segment i (0 at its first vertex, 1 at its second; the middle of a shared piece). */
  s: Float64Array;
  /** Parameter of the nearest point on segment j. */
  t: Float64Array;
}

// Module scratch (not re-entrant): the pair under test, the kernels' output, found pairs.
let Q = new Float64Array(12);
const OUT = new Float64Array(2);
let foundI = new Int32Array(1024);
let foundJ = new Int32Array(1024);
let found = 0;

function record(i: number, j: number): void {
  if (found === foundI.length) {
    const gi = new Int32Array(found * 2);
    gi.set(foundI);
    foundI = gi;
    const gj = new Int32Array(found * 2);
    gj.set(foundJ);
    foundJ = gj;
  }
  foundI[found] = i;
  foundJ[found] = j;
  found++;
}

/** Copies segment i of PA and segment j of PB into Q as a0, a1, b0, b1. */
function load(PA: Float64Array, i: number, PB: Float64Array, j: number, dim: number): void {
  const d2 = 2 * dim;
  const oa = i * dim;
  const ob = j * dim;
  for (let k = 0; k < d2; k++) {
    Q[k] = PA[oa + k];
    Q[d2 + k] = PB[ob + k];
  }
}

/** Kernel distance of the pair in Q (s, t to OUT). */
function distanceQ(dim: number): number {
  return dim === 2 ? closestSegSeg2(Q, 0, OUT, 0) : dim === 3 ? closestSegSeg3(Q, 0, OUT, 0) : closestSegSegN(Q, 0, dim, OUT, 0);
}

function checkThickness(options: ChainOptions | undefined): number {
  const tau = options?.thickness ?? 0;
  if (typeof tau !== 'number' || !Number.isFinite(tau) || tau < 0) {
    throw new SkewlineInputError(`options.thickness must be a finite length ≥ 0 (got ${String(tau)})`);
  }
  return tau;
}

function prepare(points: ChainPoints, options: ChainOptions | undefined): { A: PreparedChain; B: PreparedChain | null; tau: number } {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new SkewlineInputError('options must be an object');
  }
  const tau = checkThickness(options);
  const fa = flattenChain(points, options?.dim, 'points');
  const A = prepareChains([fa.flat], fa.dim, options?.closed === true);
  if (options?.against === undefined) return { A, B: null, tau };
  const fb = flattenChain(options.against, options.dim ?? fa.dim, 'against');
  if (fb.dim !== fa.dim) throw new SkewlineInputError(`against has dimension ${fb.dim}, points ${fa.dim}`);
  const B = prepareChains([fb.flat], fb.dim, (options.againstClosed ?? options.closed) === true);
  return { A, B, tau };
}

// Leaf-pair state (module scratch): the chains and their segment boxes, the thickness, the
// self/ring rules, and the candidate segments of leaf B that come near leaf A's box.
let PA: Float64Array = new Float64Array(0);
let PB: Float64Array = new Float64Array(0);
let SA: Float64Array = new Float64Array(0);
let SB: Float64Array = new Float64Array(0);
let DIM = 2;
let TAU = 0;
let SELF = false;
let RING = false;
let PARTNER: Int32Array = new Int32Array(0);
const candJ = new Int32Array(LEAF);

/**
 * Tests segments [a0, a1) of chain A against [b0, b1) of chain B, where leaf boxes boxA at oa
 * and boxB at ob enclose them: first B's segments near A's leaf box are gathered, then each of
 * A's segments near B's leaf box is tested against those, box first, then exactly. In self mode
 * (PA = PB) adjacent pairs, pairs with j ≤ i and, for rings, the first with the last segment
 * are skipped.
 */
function leafPair(a0: number, a1: number, b0: number, b1: number, boxA: Float64Array, oa: number, boxB: Float64Array, ob: number): void {
  const dim = DIM, tau = TAU, d2 = 2 * dim;
  let nc = 0;
  for (let j = b0; j < b1; j++) {
    const o = j * d2;
    let k = 0;
    while (k < dim && SB[o + k] - boxA[oa + dim + k] <= tau && boxA[oa + k] - SB[o + dim + k] <= tau) k++;
    if (k === dim) candJ[nc++] = j;
  }
  if (nc === 0) return;
  for (let i = a0; i < a1; i++) {
    const o = i * d2;
    let k = 0;
    while (k < dim && boxB[ob + k] - SA[o + dim + k] <= tau && SA[o + k] - boxB[ob + dim + k] <= tau) k++;
    if (k < dim) continue;
    for (let c = 0; c < nc; c++) {
      const j = candJ[c];
      if (SELF && (j - i < 2 || (RING && PARTNER[i] === j))) continue;
      const ob2 = j * d2;
      k = 0;
      while (k < dim && SB[ob2 + k] - SA[o + dim + k] <= tau && SA[o + k] - SB[ob2 + dim + k] <= tau) k++;
      if (k < dim) continue;
      load(PA, i, PB, j, dim);
      if (pairWithin(Q, dim, tau)) record(i, j);
    }
  }
}

/** {@link leafPair} written out for 2D (the hot loop of planar chains). */
function leafPair2(a0: number, a1: number, b0: number, b1: number, boxA: Float64Array, oa: number, boxB: Float64Array, ob: number): void {
  const tau = TAU;
  let nc = 0;
  for (let j = b0; j < b1; j++) {
    const o = 4 * j;
    // Differences compared with τ, as the no-drop argument in tree.ts needs (lo_B ≤ hi_A + τ
    // would round differently).
    if (SB[o] - boxA[oa + 2] <= tau && boxA[oa] - SB[o + 2] <= tau && SB[o + 1] - boxA[oa + 3] <= tau && boxA[oa + 1] - SB[o + 3] <= tau) candJ[nc++] = j;
  }
  if (nc === 0) return;
  const Bxlo = boxB[ob], Bylo = boxB[ob + 1], Bxhi = boxB[ob + 2], Byhi = boxB[ob + 3];
  for (let i = a0; i < a1; i++) {
    const o = 4 * i;
    const xlo = SA[o], ylo = SA[o + 1], xhi = SA[o + 2], yhi = SA[o + 3];
    if (Bxlo - xhi > tau || xlo - Bxhi > tau || Bylo - yhi > tau || ylo - Byhi > tau) continue;
    for (let c = 0; c < nc; c++) {
      const j = candJ[c];
      if (SELF && (j - i < 2 || (RING && PARTNER[i] === j))) continue;
      const p = 4 * j;
      if (SB[p] - xhi > tau || xlo - SB[p + 2] > tau || SB[p + 1] - yhi > tau || ylo - SB[p + 3] > tau) continue;
      const qa = 2 * i, qb = 2 * j;
      Q[0] = PA[qa]; Q[1] = PA[qa + 1]; Q[2] = PA[qa + 2]; Q[3] = PA[qa + 3];
      Q[4] = PB[qb]; Q[5] = PB[qb + 1]; Q[6] = PB[qb + 2]; Q[7] = PB[qb + 3];
      if (pairWithin(Q, 2, tau)) record(i, j);
    }
  }
}

/** {@link leafPair} written out for 3D (the hot loop of space curves). */
function leafPair3(a0: number, a1: number, b0: number, b1: number, boxA: Float64Array, oa: number, boxB: Float64Array, ob: number): void {
  const tau = TAU;
  const Axlo = boxA[oa], Aylo = boxA[oa + 1], Azlo = boxA[oa + 2], Axhi = boxA[oa + 3], Ayhi = boxA[oa + 4], Azhi = boxA[oa + 5];
  let nc = 0;
  for (let j = b0; j < b1; j++) {
    const o = 6 * j;
    if (SB[o] - Axhi <= tau && Axlo - SB[o + 3] <= tau && SB[o + 1] - Ayhi <= tau && Aylo - SB[o + 4] <= tau && SB[o + 2] - Azhi <= tau && Azlo - SB[o + 5] <= tau) candJ[nc++] = j;
  }
  if (nc === 0) return;
  const Bxlo = boxB[ob], Bylo = boxB[ob + 1], Bzlo = boxB[ob + 2], Bxhi = boxB[ob + 3], Byhi = boxB[ob + 4], Bzhi = boxB[ob + 5];
  for (let i = a0; i < a1; i++) {
    const o = 6 * i;
    const xlo = SA[o], ylo = SA[o + 1], zlo = SA[o + 2], xhi = SA[o + 3], yhi = SA[o + 4], zhi = SA[o + 5];
    if (Bxlo - xhi > tau || xlo - Bxhi > tau || Bylo - yhi > tau || ylo - Byhi > tau || Bzlo - zhi > tau || zlo - Bzhi > tau) continue;
    for (let c = 0; c < nc; c++) {
      const j = candJ[c];
      if (SELF && (j - i < 2 || (RING && PARTNER[i] === j))) continue;
      const p = 6 * j;
      if (SB[p] - xhi > tau || xlo - SB[p + 3] > tau || SB[p + 1] - yhi > tau || ylo - SB[p + 4] > tau || SB[p + 2] - zhi > tau || zlo - SB[p + 5] > tau) continue;
      const qa = 3 * i, qb = 3 * j;
      Q[0] = PA[qa]; Q[1] = PA[qa + 1]; Q[2] = PA[qa + 2]; Q[3] = PA[qa + 3]; Q[4] = PA[qa + 4]; Q[5] = PA[qa + 5];
      Q[6] = PB[qb]; Q[7] = PB[qb + 1]; Q[8] = PB[qb + 2]; Q[9] = PB[qb + 3]; Q[10] = PB[qb + 4]; Q[11] = PB[qb + 5];
      if (pairWithin(Q, 3, tau)) record(i, j);
    }
  }
}

/** A share of a parallel search: work items are claimed through a shared counter. */
export interface ParallelWork {
  /** Int32Array over a SharedArrayBuffer; element 0 is the next unclaimed item. */
  counter: Int32Array;
  /** How many work items to cut the search into (every worker must use the same number). */
  want: number;
}

/**
 * Where the last {@link chainContacts} call spent its time (for the benchmark; not part of the
 * public API): reading and validating the input, building the hierarchy, the search (traversal
 * and narrow phase, interleaved), sorting, and computing distance, s and t of each contact.
 */
export const chainStats = { readMs: 0, buildMs: 0, searchMs: 0, sortMs: 0, numbersMs: 0 };

/**
 * Finds every pair in contact, as compact segment indices, into foundI/foundJ (unsorted).
 */
function findPairs(A: PreparedChain, B: PreparedChain | null, tau: number, work: ParallelWork | null = null): void {
  found = 0;
  const tasksOf = (ta: ChainTree, tb: ChainTree): Int32Array | null => (work === null ? null : expandTasks(ta, tb, tau, work.want));
  const claim = work === null ? null : (): number => Atomics.add(work.counter, 0, 1);
  const dim = A.dim;
  if (Q.length < 4 * dim) Q = new Float64Array(4 * dim);
  DIM = dim;
  TAU = tau;
  PA = A.P;
  if (B === null) {
    const m = A.m;
    const ring = A.partner !== null;
    PB = PA;
    SELF = true;
    RING = ring;
    if (ring) PARTNER = A.partner!;
    // Adjacent pairs: only a fold-back counts (in a parallel search, the main thread's part).
    for (let k = 0; work === null && k + 1 < A.start.length; k++) {
      const first = A.start[k], end = A.start[k + 1] - 1; // segments [first, end)
      for (let c = first; c + 1 < end; c++) if (foldsBack(PA, dim, c, c + 1, c + 2)) record(c, c + 1);
      if (ring && end - first > 2 && A.partner![first] === end - 1 && foldsBack(PA, dim, end - 1, end, first + 1)) record(first, end - 1);
    }
    const tb0 = performance.now();
    const tree = buildTree(PA, dim, m, A.dead);
    chainStats.buildMs = performance.now() - tb0;
    SA = SB = tree.seg;
    const leaves = tree.levels[0];
    const stride = 2 * dim;
    const lp = dim === 2 ? leafPair2 : dim === 3 ? leafPair3 : leafPair;
    const tasks = tasksOf(tree, tree);
    traverse(tree, tree, tau, (qa, qb) => {
      lp(qa * LEAF, Math.min(qa * LEAF + LEAF, m), qb * LEAF, Math.min(qb * LEAF + LEAF, m), leaves, qa * stride, leaves, qb * stride);
    }, (q) => {
      // Pairs within one leaf: j ≥ i + 2 only.
      const e = Math.min(q * LEAF + LEAF, m);
      const d2 = 2 * dim;
      for (let i = q * LEAF; i < e; i++) {
        const o = i * d2;
        for (let j = i + 2; j < e; j++) {
          if (ring && PARTNER[i] === j) continue;
          const ob = j * d2;
          if (dim === 2) {
            if (SA[ob] - SA[o + 2] > tau || SA[o] - SA[ob + 2] > tau || SA[ob + 1] - SA[o + 3] > tau || SA[o + 1] - SA[ob + 3] > tau) continue;
          } else if (dim === 3) {
            if (SA[ob] - SA[o + 3] > tau || SA[o] - SA[ob + 3] > tau || SA[ob + 1] - SA[o + 4] > tau || SA[o + 1] - SA[ob + 4] > tau || SA[ob + 2] - SA[o + 5] > tau || SA[o + 2] - SA[ob + 5] > tau) continue;
          } else {
            let k = 0;
            while (k < dim && SA[ob + k] - SA[o + dim + k] <= tau && SA[o + k] - SA[ob + dim + k] <= tau) k++;
            if (k < dim) continue;
          }
          load(PA, i, PA, j, dim);
          if (pairWithin(Q, dim, tau)) record(i, j);
        }
      }
    }, tasks, claim);
    return;
  }
  PB = B.P;
  SELF = false;
  RING = false;
  const tb0 = performance.now();
  const ta = buildTree(PA, dim, A.m, A.dead);
  const tb = buildTree(PB, dim, B.m, B.dead);
  chainStats.buildMs = performance.now() - tb0;
  SA = ta.seg;
  SB = tb.seg;
  const la = ta.levels[0], lb = tb.levels[0];
  const stride = 2 * dim;
  const lp = dim === 2 ? leafPair2 : dim === 3 ? leafPair3 : leafPair;
  traverse(ta, tb, tau, (qa, qb) => {
    lp(qa * LEAF, Math.min(qa * LEAF + LEAF, A.m), qb * LEAF, Math.min(qb * LEAF + LEAF, B.m), la, qa * stride, lb, qb * stride);
  }, null, tasksOf(ta, tb), claim);
}

/**
 * Sorts the found pairs by compact (i, j) — which is the order of (chain, input index) — with a
 * counting sort on i and an insertion sort of each i's few partners.
 */
function sortedPairs(mA: number): { CI: Int32Array; CJ: Int32Array } {
  const n = found;
  if (n === 0) return { CI: new Int32Array(0), CJ: new Int32Array(0) };
  const start = new Int32Array(mA + 1);
  for (let k = 0; k < n; k++) start[foundI[k] + 1]++;
  for (let c = 0; c < mA; c++) start[c + 1] += start[c];
  const CI = new Int32Array(n);
  const CJ = new Int32Array(n);
  const fill = start.slice(0, mA);
  for (let k = 0; k < n; k++) {
    const at = fill[foundI[k]]++;
    CI[at] = foundI[k];
    CJ[at] = foundJ[k];
  }
  for (let c = 0; c < mA; c++) {
    const a = start[c], b = start[c + 1];
    if (b - a > 32) CJ.subarray(a, b).sort();
    else {
      for (let k = a + 1; k < b; k++) {
        const x = CJ[k];
        let q = k - 1;
        while (q >= a && CJ[q] > x) {
          CJ[q + 1] = CJ[q];
          q--;
        }
        CJ[q + 1] = x;
      }
    }
  }
  return { CI, CJ };
}

/** Distance, s and t of each (compact) pair. */
function pairNumbers(A: PreparedChain, B: PreparedChain, CI: Int32Array, CJ: Int32Array, tau: number): { distance: Float64Array; s: Float64Array; t: Float64Array } {
  const n = CI.length;
  const distance = new Float64Array(n);
  const s = new Float64Array(n);
  const t = new Float64Array(n);
  const dim = A.dim;
  for (let k = 0; k < n; k++) {
    load(A.P, CI[k], B.P, CJ[k], dim);
    const d = distanceQ(dim);
    distance[k] = tau === 0 ? 0 : d; // thickness 0: they share a point, exactly
    s[k] = OUT[0];
    t[k] = OUT[1];
  }
  return { distance, s, t };
}

/**
 * Every pair of segments of a polygonal chain (or of two chains, with `options.against`) whose
 * exact distance is at most `options.thickness`.
 *
 * What counts (the chains issue's definition):
 * - two non-adjacent segments (|i − j| ≥ 2, and for a closed chain not the first with the last)
 *   are in contact when their exact distance is ≤ thickness; with thickness 0 (the default),
 *   when they share a point — crossings, touching vertices, T-junctions and collinear overlaps
 *   all count. A pair exactly at the thickness is in, one an ulp farther is out: every decision
 *   the floating-point distance cannot vouch for is made in exact rational arithmetic;
 * - adjacent segments always share their vertex and count only when they fold back over each
 *   other (the chain reverses along itself: a shared piece of positive length), whatever the
 *   thickness;
 * - a repeated consecutive vertex makes a zero-length segment: it is never reported, and the
 *   segments on either side of it count as adjacent;
 * - a GeoJSON ring (the first vertex repeated at the end) behaves as a closed ring: its first
 *   and last segment are adjacent. With `closed: true` a repeated closing vertex is allowed
 *   (the zero-length closing segment is dropped);
 * - with `against`, every pair (segment i of `points`, segment j of `against`) is tested, no
 *   adjacency applies, and i, s refer to `points`.
 *
 * Cost: a bounding-box hierarchy in chain order (linear build, no sorting) and a dual
 * traversal, then a filtered exact test per pair whose boxes come within the thickness:
 * about n log n for chains that do not crowd one spot. Memory O(n) in typed arrays.
 * Not re-entrant (module scratch).
 *
 * @param points a flat array (x, y[, z …] per vertex, with `options.dim`) or an array of points
 *   (arrays, typed arrays or `{x, y[, z]}` objects).
 * @throws SkewlineInputError for a non-finite coordinate (naming the vertex), mixed dimensions,
 *   a flat array without `dim`, or a thickness that is not a finite number ≥ 0.
 */
export function chainContacts(points: ChainPoints, options?: ChainOptions): ChainContacts {
  const t0 = performance.now();
  const { A, B, tau } = prepare(points, options);
  const t1 = performance.now();
  findPairs(A, B, tau);
  const t2 = performance.now();
  const other = B ?? A;
  const { CI, CJ } = sortedPairs(A.m);
  const t3 = performance.now();
  const { distance, s, t } = pairNumbers(A, other, CI, CJ, tau);
  const n = CI.length;
  const i = new Int32Array(n);
  const j = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    i[k] = A.orig[CI[k]];
    j[k] = other.orig[CJ[k]];
  }
  const t4 = performance.now();
  chainStats.readMs = t1 - t0;
  chainStats.searchMs = t2 - t1;
  chainStats.sortMs = t3 - t2;
  chainStats.numbersMs = t4 - t3;
  return { count: n, i, j, distance, s, t };
}

/**
 * Boes' `collisions(p)`: 1 for each segment of `points` that is in contact (as defined by
 * {@link chainContacts}, same options) with any other segment, 0 otherwise. Its length is the
 * number of segments of `points` (n − 1, or n for a closed chain); with `against`, it flags the
 * segments of `points` that touch `against`.
 */
export function chainCollisions(points: ChainPoints, options?: ChainOptions): Uint8Array {
  const { A, B, tau } = prepare(points, options);
  findPairs(A, B, tau);
  const flags = new Uint8Array(A.segments[0]);
  for (let k = 0; k < found; k++) {
    flags[A.orig[foundI[k]]] = 1;
    if (B === null) flags[A.orig[foundJ[k]]] = 1;
  }
  return flags;
}

/**
 * The sorted contact pairs as compact indices, and the prepared chains, for the other chain
 * queries (crossing points). Not part of the public API.
 */
export function contactPairs(points: ChainPoints, options?: ChainOptions): { A: PreparedChain; B: PreparedChain; CI: Int32Array; CJ: Int32Array; tau: number } {
  const { A, B, tau } = prepare(points, options);
  findPairs(A, B, tau);
  const { CI, CJ } = sortedPairs(A.m);
  return { A, B: B ?? A, CI, CJ, tau };
}

/** Options of {@link multiChainContacts}. */
export interface MultiChainOptions {
  /** Coordinates per vertex; required when the chains are flat arrays, checked otherwise. */
  dim?: number;
  /** As for {@link chainContacts}. */
  thickness?: number;
  /** Every chain is closed (default false; GeoJSON rings close themselves by repeating their first vertex). */
  closed?: boolean;
  /** Also report contacts between different chains (default true); false: only within each chain. */
  between?: boolean;
}

/** Contacts among several chains, sorted by (chainI, i, chainJ, j), with (chainI, i) before (chainJ, j). */
export interface MultiChainContacts extends ChainContacts {
  /** The chain of segment i. */
  chainI: Int32Array;
  /** The chain of segment j. */
  chainJ: Int32Array;
}

/**
 * Contacts within each of several chains (as {@link chainContacts} defines them: adjacency and
 * ring rules apply within a chain) and, unless `between: false`, between any two of them (every
 * pair of segments from different chains within the thickness). One search over all of them:
 * for a map's rings or a bundle of fibres this is much cheaper than testing chains in pairs.
 * Not re-entrant (module scratch).
 * @throws SkewlineInputError as {@link chainContacts} does, naming the chain (`chains[k]`).
 */
export function multiChainContacts(chains: readonly ChainPoints[], options: MultiChainOptions = {}): MultiChainContacts {
  if (!Array.isArray(chains)) throw new SkewlineInputError('multiChainContacts: chains must be an array of chains');
  const tau = checkThickness(options);
  const flats: Float64Array[] = [];
  let dim = options.dim;
  for (let k = 0; k < chains.length; k++) {
    const f = flattenChain(chains[k], dim, `chains[${k}]`);
    if (dim !== undefined && f.dim !== dim) throw new SkewlineInputError(`chains[${k}] has dimension ${f.dim}, chains[0] ${dim}`);
    dim = f.dim;
    flats.push(f.flat);
  }
  const parts: { A: PreparedChain; CI: Int32Array; CJ: Int32Array }[] = [];
  if (options.between === false) {
    for (const flat of flats) {
      const A = prepareChains([flat], dim ?? 2, options.closed === true);
      findPairs(A, null, tau);
      parts.push({ A, ...sortedPairs(A.m) });
    }
  } else {
    const A = prepareChains(flats, dim ?? 2, options.closed === true);
    findPairs(A, null, tau);
    parts.push({ A, ...sortedPairs(A.m) });
  }
  const n = parts.reduce((s, p) => s + p.CI.length, 0);
  const out = {
    count: n,
    chainI: new Int32Array(n), i: new Int32Array(n), chainJ: new Int32Array(n), j: new Int32Array(n),
    distance: new Float64Array(n), s: new Float64Array(n), t: new Float64Array(n),
  };
  let at = 0;
  parts.forEach(({ A, CI, CJ }, p) => {
    const num = pairNumbers(A, A, CI, CJ, tau);
    for (let k = 0; k < CI.length; k++, at++) {
      out.chainI[at] = options.between === false ? p : A.chain[CI[k]];
      out.chainJ[at] = options.between === false ? p : A.chain[CJ[k]];
      out.i[at] = A.orig[CI[k]];
      out.j[at] = A.orig[CJ[k]];
      out.distance[at] = num.distance[k];
      out.s[at] = num.s[k];
      out.t[at] = num.t[k];
    }
  });
  return out;
}

/** Pairs found by one worker of a parallel search, with their numbers (compact indices). */
export interface PairShare {
  CI: Int32Array;
  CJ: Int32Array;
  distance: Float64Array;
  s: Float64Array;
  t: Float64Array;
}

/**
 * The worker side of a parallel chain search (skewline/parallel): the work items this thread
 * claims, their contacts and numbers. Fold-backs are not included (the caller adds them).
 * Not part of the public API.
 */
export function searchShare(A: PreparedChain, B: PreparedChain | null, tau: number, work: ParallelWork): PairShare {
  findPairs(A, B, tau, work);
  const CI = foundI.slice(0, found);
  const CJ = foundJ.slice(0, found);
  return { CI, CJ, ...pairNumbers(A, B ?? A, CI, CJ, tau) };
}

/**
 * The main-thread side of a parallel search: validates and prepares the input (as chainContacts
 * does). Not part of the public API.
 */
export function prepareShares(points: ChainPoints, options?: ChainOptions): { A: PreparedChain; B: PreparedChain | null; tau: number } {
  return prepare(points, options);
}

/** The fold-back pairs (adjacent segments only; none between two chains) with their numbers. Not part of the public API. */
export function foldShare(A: PreparedChain, B: PreparedChain | null, tau: number): PairShare {
  found = 0;
  if (B === null) {
    for (let k = 0; k + 1 < A.start.length; k++) {
      const first = A.start[k], end = A.start[k + 1] - 1;
      for (let c = first; c + 1 < end; c++) if (foldsBack(A.P, A.dim, c, c + 1, c + 2)) record(c, c + 1);
      if (A.partner !== null && end - first > 2 && A.partner[first] === end - 1 && foldsBack(A.P, A.dim, end - 1, end, first + 1)) record(first, end - 1);
    }
  }
  if (Q.length < 4 * A.dim) Q = new Float64Array(4 * A.dim);
  const CI = foundI.slice(0, found);
  const CJ = foundJ.slice(0, found);
  return { CI, CJ, ...pairNumbers(A, B ?? A, CI, CJ, tau) };
}

/**
 * Merges the shares of a parallel search into chainContacts' result: the same pairs in the same
 * order with the same numbers as one thread gives (each pair is found by exactly one share, and
 * its numbers come from the same kernel). Not part of the public API.
 */
export function mergeShares(A: PreparedChain, B: PreparedChain | null, shares: readonly PairShare[]): ChainContacts {
  const other = B ?? A;
  const n = shares.reduce((k, p) => k + p.CI.length, 0);
  const start = new Int32Array(A.m + 1);
  for (const p of shares) for (let k = 0; k < p.CI.length; k++) start[p.CI[k] + 1]++;
  for (let c = 0; c < A.m; c++) start[c + 1] += start[c];
  const fill = start.slice(0, A.m);
  const CJ = new Int32Array(n), CI = new Int32Array(n);
  const from = new Int32Array(n); // index into the concatenated shares
  let base = 0;
  for (const p of shares) {
    for (let k = 0; k < p.CI.length; k++) {
      const at = fill[p.CI[k]]++;
      CI[at] = p.CI[k];
      CJ[at] = p.CJ[k];
      from[at] = base + k;
    }
    base += p.CI.length;
  }
  for (let c = 0; c < A.m; c++) {
    if (start[c + 1] - start[c] > 32) {
      // A segment with many partners: sort its slice through an index (rare).
      const idx = Array.from({ length: start[c + 1] - start[c] }, (_, q) => start[c] + q).sort((x, y) => CJ[x] - CJ[y]);
      const cj = idx.map((q) => CJ[q]), fr = idx.map((q) => from[q]);
      CJ.set(cj, start[c]);
      from.set(fr, start[c]);
      continue;
    }
    for (let k = start[c] + 1; k < start[c + 1]; k++) {
      const x = CJ[k], f = from[k];
      let q = k - 1;
      while (q >= start[c] && CJ[q] > x) {
        CJ[q + 1] = CJ[q];
        from[q + 1] = from[q];
        q--;
      }
      CJ[q + 1] = x;
      from[q + 1] = f;
    }
  }
  const all = (key: 'distance' | 's' | 't'): Float64Array => {
    const out = new Float64Array(n);
    let o = 0;
    for (const p of shares) {
      out.set(p[key], o);
      o += p[key].length;
    }
    return out;
  };
  const d = all('distance'), s = all('s'), t = all('t');
  const i = new Int32Array(n), j = new Int32Array(n);
  const distance = new Float64Array(n), ss = new Float64Array(n), tt = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    i[k] = A.orig[CI[k]];
    j[k] = other.orig[CJ[k]];
    distance[k] = d[from[k]];
    ss[k] = s[from[k]];
    tt[k] = t[from[k]];
  }
  return { count: n, i, j, distance, s: ss, t: tt };
}
