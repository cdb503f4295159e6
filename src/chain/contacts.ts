/**
 * Contacts of polygonal chains: which pairs of segments come within a thickness of each other
 * (Boes, "Segment Distance": `collisions(p)`), decided exactly, at the scale of millions of
 * segments.
 */
import { SkewlineInputError } from '../core/primitives.js';
import { checkOptions } from '../core/options.js';
import { closestSegSeg2, closestSegSeg3, closestSegSegN, crossing2, touchingParams2 } from '../closest/segment-kernels.js';
import { intersectsSegments2 } from '../intersect/intersects.js';
import { apart3, contactWithin, foldsBack, narrowStats, tau2Up } from './narrow.js';
import { CROSS_POINT as CROSS_POINT_, UNDECIDED as UNDECIDED_, crossCore as crossCore_ } from './cross-point.js';
import { flattenChain, prepareChains } from './input.js';
import type { ChainPoints, PreparedChain } from './input.js';
import { LEAF, beginTraversal, buildTree, expandTasks, leafBoxes, leafCount, nextLeafPairs, segmentBoxes, segmentBoxesRange, segmentLeafBoxes3 } from './tree.js';
import { blockBoxes3, blockBoxesRange3, blockGrid3, blockGridEntries3, blockPairList, blockPairs3, blockPairsByLower3, blockPairsIn3, blockPartnerList3, useBlockGrid3 } from './blocks3.js';
import { FINE, bandGrid, boxSums, planGrid, planGrid3 } from './grid.js';
import { BOXES_A, BOXES_B, GRID_FILL, SORT_FILL, SORT_START, TREE_LEAVES, f64Scratch, i32Scratch, releaseHooks } from './scratch.js';
import type { ChainGrid, ChainGrid3, GridPlan } from './grid.js';
import type { ChainTree } from './tree.js';
import { checkInto, intoShare } from './into.js';
import type { IntoTarget } from './into.js';
import type { StepName } from '../parallel/timeline.js';

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

/** Options of {@link chainContacts} (and chainContactsParallel): {@link ChainOptions} and `into`. */
export interface ChainContactsOptions extends ChainOptions {
  /**
   * Caller-owned result buffers: a previous result (or any `{ count, i, j, distance, s, t }` with
   * Int32Arrays i, j and Float64Arrays distance, s, t) whose arrays receive this call's contacts,
   * so that a search repeated call after call allocates no result and leaves the collector
   * nothing to free. The object returned is `into` itself, its `count` set: entries [0, count)
   * are the contacts, bit for bit those of a call without `into`; entries past `count` are
   * unspecified. When an array holds fewer than `count` entries, all five are replaced by fresh
   * arrays a little longer than `count` (in `into` too, so the next call reuses them). The
   * arrays may not share memory with each other or with the input chains, and one `into` may
   * serve only one call at a time: a call that meets arrays in use by a chainContactsParallel
   * call in flight throws. If a call throws, `into`'s contents are unspecified.
   */
  into?: ChainContacts;
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

// Module scratch (not re-entrant): the pair under test, the kernels' output, found pairs with
// their numbers (computed when the pair is found, while its coordinates are in cache).
let Q = new Float64Array(12);
const OUT = new Float64Array(3);
let foundI: Int32Array = new Int32Array(1024);
let foundJ: Int32Array = new Int32Array(1024);
let foundD: Float64Array = new Float64Array(1024);
let foundS: Float64Array = new Float64Array(1024);
let foundT: Float64Array = new Float64Array(1024);
let found = 0;
releaseHooks.push(() => {
  foundI = new Int32Array(1024);
  foundJ = new Int32Array(1024);
  foundD = new Float64Array(1024);
  foundS = new Float64Array(1024);
  foundT = new Float64Array(1024);
  pairI = new Int32Array(4096);
  pairJ = new Int32Array(4096);
  CELL = new Int32Array(256);
});

function grow(): void {
  const n = found * 2;
  const gi = new Int32Array(n), gj = new Int32Array(n);
  const gd = new Float64Array(n), gs = new Float64Array(n), gt = new Float64Array(n);
  gi.set(foundI);
  gj.set(foundJ);
  gd.set(foundD);
  gs.set(foundS);
  gt.set(foundT);
  foundI = gi;
  foundJ = gj;
  foundD = gd;
  foundS = gs;
  foundT = gt;
}

function record(i: number, j: number, d: number, s: number, t: number): void {
  if (found === foundI.length) grow();
  foundI[found] = i;
  foundJ[found] = j;
  foundD[found] = d;
  foundS[found] = s;
  foundT[found] = t;
  found++;
}

/** Tests the pair loaded in Q (segments i, j) and records it with its numbers when within τ. */
function testQ(i: number, j: number, dim: number, tau: number): void {
  if (contactWithin(Q, dim, tau, OUT)) record(i, j, OUT[2], OUT[0], OUT[1]);
}

/** Records the fold-back pair c, c + 1 (or a ring's last and first) with its numbers. */
function recordFold(P: Float64Array, dim: number, i: number, j: number, tau: number): void {
  if (POINTS) {
    record(i, j, 0, NaN, NaN); // an overlap: its ends are for chainIntersections to find
    return;
  }
  if (dim === 2 && tau === 0 && touchingParams2(P, 2 * i, P, 2 * j, OUT)) {
    record(i, j, 0, OUT[0], OUT[1]);
    return;
  }
  load(P, i, P, j, dim);
  const d = distanceQ(dim);
  record(i, j, tau === 0 ? 0 : d, OUT[0], OUT[1]); // thickness 0: they share a point, exactly
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

/** The options {@link chainContacts} and {@link chainCollisions} accept. */
const CHAIN_KEYS = ['dim', 'thickness', 'closed', 'against', 'againstClosed'] as const;
/** The options {@link chainContacts} accepts. */
const CONTACTS_KEYS = [...CHAIN_KEYS, 'into'] as const;
/** The options {@link multiChainContacts} accepts. */
const MULTI_KEYS = ['dim', 'thickness', 'closed', 'between'] as const;

/**
 * Checks a public chain function's options: only known keys, and each flag (`keys`) absent or
 * a boolean (a string "false" would otherwise read as true or be ignored).
 */
function checkChainOptions(options: unknown, allowed: readonly string[], flags: readonly string[], fn: string): void {
  checkOptions(options, allowed, fn);
  if (options === undefined || options === null) return;
  for (const key of flags) {
    const v = (options as Record<string, unknown>)[key];
    if (v !== undefined && typeof v !== 'boolean') throw new SkewlineInputError(`${fn}: options.${key} must be true or false (got ${typeof v === 'string' ? JSON.stringify(v) : String(v)})`);
  }
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
  const A = prepareChains([fa.flat], fa.dim, options?.closed === true, true);
  if (options?.against === undefined) return { A, B: null, tau };
  const fb = flattenChain(options.against, options.dim ?? fa.dim, 'against');
  if (fb.dim !== fa.dim) throw new SkewlineInputError(`against has dimension ${fb.dim}, points ${fa.dim}`);
  const B = prepareChains([fb.flat], fb.dim, (options.againstClosed ?? options.closed) === true, true);
  return { A, B, tau };
}

/**
 * True when the pairs found by the last {@link findPairs} are already in (i, j) order (the
 * one-thread grid search, {@link gridPairsInOrder}, with no fold-back before them): the sort
 * then only copies them out ({@link sortFound}).
 */
let IN_ORDER = false;

// Leaf-pair state (module scratch): the chains and their segment boxes, the thickness, the
// self/ring rules, and the candidate segments of leaf B that come near leaf A's box.
let PA: Float64Array = new Float64Array(0);
let PB: Float64Array = new Float64Array(0);
let SA: Float64Array = new Float64Array(0);
let SB: Float64Array = new Float64Array(0);
let DIM = 2;
let TAU = 0;
/** τ² rounded up, for the double filter of the 3D narrow phase (narrow.ts, apart3). */
let TAU2 = 0;
let SELF = false;
let RING = false;
let PARTNER: Int32Array = new Int32Array(0);
const candJ = new Int32Array(LEAF);
/**
 * Crossing-point mode (set by {@link contactPairs} for chainIntersections; 2D, thickness 0):
 * each pair is recorded with its crossing point (x, y) in place of (s, t) when the doubles
 * certify a proper crossing and decide the point, and with (NaN, NaN) otherwise (touches,
 * overlaps, undecided points: chainIntersections finishes those).
 */
let POINTS = false;
// Local copies of the imported bindings narrow2 reads once per pair (a loader that compiles ESM to
// getters, as tsx does, makes each read of an imported binding a call).
const crossCore = crossCore_;
const CROSS_POINT = CROSS_POINT_;
const UNDECIDED = UNDECIDED_;
/**
 * In crossing-point mode, the second stage for a proper crossing whose point the doubles left
 * open: fills the NaN coordinates of out for the pair at S[0 … 7] (points.ts, finishPoint), run
 * while the pair is in cache. Set by {@link contactPairs}.
 */
let FINISH: ((S: Float64Array, out: Float64Array) => void) | null = null;
/** The pair handed to FINISH, and how many points crossCore decided in the last search. */
const S8 = new Float64Array(8);
let decidedInSearch = 0;

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
      testQ(i, j, dim, tau);
    }
  }
}

// Candidate pairs of one leaf pair (at most LEAF² of them).
let pairI = new Int32Array(4096);
let pairJ = new Int32Array(4096);
const candI = new Int32Array(LEAF);

/**
 * {@link leafPair} written out for 2D (the hot loop of planar chains). The box tests are
 * branch-free: on a dense chain about half of them pass, a coin toss the branch predictor
 * loses, so each candidate is written unconditionally and the cursor advances by the test's
 * 0 or 1. The surviving pairs then go to the narrow phase; with thickness 0 that is the fused
 * crossing test, which decides nearly every pair in doubles and yields s and t on the way.
 */
function leafPair2(a0: number, a1: number, b0: number, b1: number, boxA: Float64Array, oa: number, boxB: Float64Array, ob: number): void {
  const tau = TAU;
  if (SELF && a0 === b0) {
    // Pairs within one leaf: j ≥ i + 2 only.
    let np = 0;
    for (let i = a0; i < a1; i++) {
      const o = 4 * i;
      const xlo = SA[o], ylo = SA[o + 1], xhi = SA[o + 2], yhi = SA[o + 3];
      for (let j = i + 2; j < a1; j++) {
        const p = 4 * j;
        pairI[np] = i;
        pairJ[np] = j;
        np += +(SB[p] - xhi <= tau) & +(xlo - SB[p + 2] <= tau) & +(SB[p + 1] - yhi <= tau) & +(ylo - SB[p + 3] <= tau);
      }
    }
    narrow2(np);
    return;
  }
  // Differences compared with τ, as the no-drop argument in tree.ts needs (lo_B ≤ hi_A + τ
  // would round differently).
  const Axlo = boxA[oa], Aylo = boxA[oa + 1], Axhi = boxA[oa + 2], Ayhi = boxA[oa + 3];
  let nc = 0;
  for (let j = b0; j < b1; j++) {
    const o = 4 * j;
    candJ[nc] = j;
    nc += +(SB[o] - Axhi <= tau) & +(Axlo - SB[o + 2] <= tau) & +(SB[o + 1] - Ayhi <= tau) & +(Aylo - SB[o + 3] <= tau);
  }
  if (nc === 0) return;
  const Bxlo = boxB[ob], Bylo = boxB[ob + 1], Bxhi = boxB[ob + 2], Byhi = boxB[ob + 3];
  let ni = 0;
  for (let i = a0; i < a1; i++) {
    const o = 4 * i;
    candI[ni] = i;
    ni += +(Bxlo - SA[o + 2] <= tau) & +(SA[o] - Bxhi <= tau) & +(Bylo - SA[o + 3] <= tau) & +(SA[o + 1] - Byhi <= tau);
  }
  let np = 0;
  const self = +SELF;
  for (let a = 0; a < ni; a++) {
    const i = candI[a];
    const o = 4 * i;
    const xlo = SA[o], ylo = SA[o + 1], xhi = SA[o + 2], yhi = SA[o + 3];
    for (let c = 0; c < nc; c++) {
      const j = candJ[c];
      const p = 4 * j;
      pairI[np] = i;
      pairJ[np] = j;
      // Within one chain only j ≥ i + 2 (adjacent pairs are the fold-back test's).
      np += (+(j - i >= 2) | (1 - self)) & +(SB[p] - xhi <= tau) & +(xlo - SB[p + 2] <= tau) & +(SB[p + 1] - yhi <= tau) & +(ylo - SB[p + 3] <= tau);
    }
  }
  narrow2(np);
}

/**
 * The narrow phase of the 2D search for the np candidate pairs in pairI, pairJ (boxes within τ,
 * adjacency already excluded). With thickness 0 the fused crossing test decides nearly every
 * pair in doubles and yields s and t on the way; the rest go to the exact predicate. In
 * crossing-point mode ({@link POINTS}) the test is crossCore instead, which also yields the
 * crossing point while the pair is in cache (its second stage, FINISH, where the doubles leave a
 * coordinate open); chainContacts pays one predictable branch for it.
 */
function narrow2(np: number): void {
  const tau = TAU, ring = RING, PI = pairI, PJ = pairJ, pa = PA, pb = PB;
  if (tau === 0) narrowStats.tests += np;
  for (let k = 0; k < np; k++) {
    const i = PI[k], j = PJ[k];
    if (ring && PARTNER[i] === j) continue;
    if (tau === 0 && POINTS) {
      // The crossing point while the pair's coordinates are loaded (cross-point.ts).
      const c = crossCore(pa, 2 * i, pb, 2 * j, OUT);
      if (c === CROSS_POINT) {
        decidedInSearch++;
        record(i, j, 0, OUT[0], OUT[1]);
      } else if (c === UNDECIDED) {
        load(PA, i, PB, j, 2);
        narrowStats.exact++;
        if (intersectsSegments2(Q, 0)) record(i, j, 0, NaN, NaN);
      } else if (c >= 0) {
        // A proper crossing whose point the doubles left open: the next stage, in cache.
        const a = 2 * i, b = 2 * j, S = S8;
        S[0] = pa[a]; S[1] = pa[a + 1]; S[2] = pa[a + 2]; S[3] = pa[a + 3];
        S[4] = pb[b]; S[5] = pb[b + 1]; S[6] = pb[b + 2]; S[7] = pb[b + 3];
        FINISH!(S, OUT);
        record(i, j, 0, OUT[0], OUT[1]);
      }
    } else if (tau === 0) {
      const c = crossing2(pa, 2 * i, pb, 2 * j, OUT);
      if (c === 1) record(i, j, 0, OUT[0], OUT[1]);
      else if (c === -1) {
        load(PA, i, PB, j, 2);
        narrowStats.exact++;
        if (intersectsSegments2(Q, 0)) {
          if (!touchingParams2(pa, 2 * i, pb, 2 * j, OUT)) closestSegSeg2(Q, 0, OUT, 0);
          record(i, j, 0, OUT[0], OUT[1]);
        }
      }
    } else {
      load(PA, i, PB, j, 2);
      testQ(i, j, 2, tau);
    }
  }
}

// A cell's segments, grouped by tag (grid.ts): starting in the cell's column and row (3), in
// its column only (1), in its row only (2), in neither (0).
let CELL = new Int32Array(256);

/**
 * The grid search (thickness 0, one 2D chain): cells [c0, c1) of the grid, every pair of
 * segments listed in a cell tested there when that cell is their reference cell (grid.ts): the
 * OR of their tags is 3. So a cell's segments are grouped by tag, 3, 1, 2, 0, and only the pairs
 * that can qualify are visited: a 3 with everything after it, a 1 with every 2 (on a 1e6-step
 * random walk, 18.3 M pair visits for 6.2 M pairs whose boxes meet). The parallel search's,
 * band by band (its pairs are then sorted), where the whole grid does not fit the room
 * skewline/parallel gives it; one thread searches in chain order ({@link gridPairsInOrder}), and
 * so do the threads of a parallel search by ranges of segments ({@link searchRanges2}).
 */
function gridPairs(g: ChainGrid, c0: number, c1: number): void {
  narrow2(gridPairsLoop(g, c0, c1));
}

/**
 * {@link gridPairs}' loop: returns the candidates still waiting for the narrow phase. Its own
 * function, with nothing after the loop, because V8 compiles the loop while it runs (on-stack
 * replacement) and such code falls back to the interpreter at the first call after the loop
 * that never ran before ("insufficient type feedback for call": par7 and par8 saw about 8 a
 * call at the final narrow2, in some runs); the caller's call is compiled with the caller.
 */
function gridPairsLoop(g: ChainGrid, c0: number, c1: number): number {
  const { start, items } = g;
  const S = SA;
  let PI = pairI, PJ = pairJ;
  let np = 0;
  for (let cell = c0; cell < c1; cell++) {
    const a0 = start[cell], a1 = start[cell + 1];
    const k = a1 - a0;
    if (k < 2) continue;
    if (k > CELL.length) CELL = new Int32Array(2 * k);
    const G = CELL;
    // Group by tag: 3s from the front, 0s from the back, then 1s and 2s in the middle.
    let f = 0, e = k;
    for (let q = a0; q < a1; q++) {
      const t = items[q];
      if ((t & 3) === 3) G[f++] = t >> 2;
      else if ((t & 3) === 0) G[--e] = t >> 2;
    }
    const n3 = f;
    for (let q = a0; q < a1; q++) if ((items[q] & 3) === 1) G[f++] = items[q] >> 2;
    const n31 = f;
    for (let q = a0; q < a1; q++) if ((items[q] & 3) === 2) G[f++] = items[q] >> 2;
    const n312 = f;
    // A 3 with everything after it; a 1 with every 2.
    for (let a = 0; a < n31; a++) {
      const u = G[a];
      const o = 4 * u;
      const xlo = S[o], ylo = S[o + 1], xhi = S[o + 2], yhi = S[o + 3];
      const b0 = a < n3 ? a + 1 : n31, b1 = a < n3 ? k : n312;
      if (np + (b1 - b0) > PI.length) {
        // Room for this row: the buffer holds at least one cell's worth (k), never k².
        narrow2(np);
        np = 0;
        if (b1 - b0 > PI.length) {
          pairI = PI = new Int32Array(k);
          pairJ = PJ = new Int32Array(k);
        }
      }
      for (let b = b0; b < b1; b++) {
        const v = G[b];
        const p = 4 * v;
        const lo = u < v ? u : v;
        PI[np] = lo;
        PJ[np] = u + v - lo;
        np += +(u - v >= 2 || v - u >= 2) & +(S[p] - xhi <= 0) & +(xlo - S[p + 2] <= 0) & +(S[p + 1] - yhi <= 0) & +(ylo - S[p + 3] <= 0);
      }
    }
  }
  return np;
}

/**
 * The one-thread grid search in chain order: the same pairs as {@link gridPairs} over the whole
 * grid (each tested in its reference cell only), found segment by segment, i = 0, 1, 2, …, so
 * that they come out sorted by (i, j) and need no sort. A cell's entries are in segment order
 * (bandGrid fills them so), and a cursor per cell walks them as the segments go by: when
 * segment i reaches a cell, the entries after its own are the segments j > i listed there.
 * Of those, the ones whose tag ORed with i's is 3 have this cell as their reference cell
 * (grid.ts). i's candidates from its few cells are merged by j (an insertion sort of a handful)
 * before the narrow phase, which records the pairs in the order it tests them.
 *
 * It visits every pair of entries of a cell once (27.4 M visits on a 1e6-step random walk,
 * against 18.3 M for gridPairs' grouping by tag), but its output streams out in order: the
 * counting sort by i it saves scattered every contact across memory (about 15 % of
 * chainContacts' time there). Measured on that walk, CPU time, interleaved in one process on a
 * shared 2-core machine: chainContacts 0.93×, chainIntersections 0.93–0.96× of the time with
 * gridPairs and the sort. Grouping each cell by tag as well (four groups, four cursors per
 * cell: exactly gridPairs' 18.3 M visits) was 4 % slower: the short group loops and the
 * 4-per-cell arrays cost more than the visits they save.
 */
function gridPairsInOrder(g: ChainGrid, plan: GridPlan, m: number): void {
  const { nx, start, items } = g;
  const { cx, cy, ex, ey } = plan;
  const S = SA;
  const cells = nx * g.ny;
  const cur = i32Scratch(GRID_FILL, cells);
  cur.set(start.subarray(0, cells));
  let PI = pairI, PJ = pairJ;
  let np = 0;
  for (let i = 0; i < m; i++) {
    const a = cx[i], e = ex[i];
    if (e < a) continue; // dead
    if (np >= FLUSH_AT) {
      narrow2(np);
      np = 0;
    }
    const o = 4 * i;
    const xlo = S[o], ylo = S[o + 1], xhi = S[o + 2], yhi = S[o + 3];
    const b = cy[i], f = ey[i];
    const np0 = np;
    for (let y = b; y <= f; y++) {
      for (let x = a; x <= e; x++) {
        const q = y * nx + x;
        const p = cur[q]++;
        const end = start[q + 1];
        if (np + (end - p) > PI.length) {
          // Room for this cell's entries (the buffer keeps i's candidates so far: they are merged before the narrow phase).
          const n2 = 2 * (np + (end - p));
          const gi = new Int32Array(n2), gj = new Int32Array(n2);
          gi.set(PI.subarray(0, np));
          gj.set(PJ.subarray(0, np));
          pairI = PI = gi;
          pairJ = PJ = gj;
        }
        // An entry is t = 4j + tag: t & −4 is j's box offset in S, t ≥ 4i + 8 says j ≥ i + 2,
        // and the tag must bring the bits that i's tag lacks (their OR is 3). The entry is kept
        // whole and decoded once the segment's few candidates are known.
        const need = 3 & ~(+(x === a) | (2 * +(y === b)));
        const lim = 4 * i + 8;
        for (let r = p + 1; r < end; r++) {
          const t = items[r];
          const w = t & -4;
          PJ[np] = t;
          // The boxes meet: lo ≤ hi compared directly (finite coordinates: the same decision
          // as the sign of the difference that gridPairs and the hierarchy compare with τ).
          np += +((t & need) === need) & +(t >= lim) & +(S[w] <= xhi) & +(xlo <= S[w + 2]) & +(S[w + 1] <= yhi) & +(ylo <= S[w + 3]);
        }
      }
    }
    for (let k = np0; k < np; k++) {
      PI[k] = i;
      PJ[k] >>= 2;
    }
    // i's candidates from several cells: merge them by j (each cell's run is ascending already).
    if ((e > a || f > b) && np - np0 > 1) {
      for (let k = np0 + 1; k < np; k++) {
        const j = PJ[k];
        let q = k - 1;
        while (q >= np0 && PJ[q] > j) {
          PJ[q + 1] = PJ[q];
          q--;
        }
        PJ[q + 1] = j;
      }
    }
  }
  narrow2(np);
}

/**
 * The parallel search in chain order: ranges [bounds[r], bounds[r + 1]) of segments claimed
 * through g.ctl[1], each searched as {@link gridPairsInOrder} searches the whole chain, so its
 * contacts come out sorted by (i, j); the table records where each range's are in this thread's
 * found pairs. Each range starts its cells' cursors afresh ({@link gridPairsRange}).
 */
function searchRanges2(g: WholeGrid2, plan: GridPlan, m: number, slot: number, onRange: ParallelWork['onRange'], markRange: ParallelWork['markRange']): void {
  const B = g.bounds, ranges = B.length - 1;
  for (let r = Atomics.add(g.ctl, 1, 1); r < ranges; r = Atomics.add(g.ctl, 1, 1)) {
    const f0 = found;
    if (markRange !== undefined) markRange(r, true);
    gridPairsRange(g, plan, B[r], Math.min(m, B[r + 1]));
    if (markRange !== undefined) markRange(r, false);
    g.table[4 * r] = slot;
    g.table[4 * r + 1] = f0;
    g.table[4 * r + 2] = found - f0;
    if (onRange !== undefined) onRange(r, foundShare(), f0, found - f0);
  }
}

// Cursors of the whole grid's cells for {@link gridPairsRange}, valid where the cell's stamp is
// the range's (one stamp per range searched by this thread: no clearing between ranges).
let RANGE_CUR = new Int32Array(0);
let RANGE_STAMP = new Int32Array(0);
let stampNow = 0;
releaseHooks.push(() => {
  RANGE_CUR = new Int32Array(0);
  RANGE_STAMP = new Int32Array(0);
  stampNow = 0;
});

/**
 * {@link gridPairsInOrder} for segments [i0, i1) only, over the whole grid g (cells column by
 * column): the same pairs with i in the range, in the same order. A cell's cursor starts, at the
 * range's first visit to it, at the visiting segment's own entry — found by a binary search, as
 * a cell's entries are in chain order — and then walks as gridPairsInOrder's does.
 */
function gridPairsRange(g: WholeGrid2, plan: GridPlan, i0: number, i1: number): void {
  if (RANGE_CUR.length < g.cells) {
    RANGE_CUR = new Int32Array(g.cells);
    RANGE_STAMP = new Int32Array(g.cells);
    stampNow = 0;
  }
  if (stampNow === 0x7fffffff) {
    RANGE_STAMP.fill(0);
    stampNow = 0;
  }
  narrow2(rangeLoop(g, plan, i0, i1, ++stampNow));
}

/** {@link gridPairsRange}'s loop, stamped st: returns the candidates still waiting (nothing after the loop: see gridPairsLoop). */
function rangeLoop(g: WholeGrid2, plan: GridPlan, i0: number, i1: number, st: number): number {
  const { ny, start, items } = g;
  const { cx, cy, ex, ey } = plan;
  const S = SA;
  const cur = RANGE_CUR, stamp = RANGE_STAMP;
  let PI = pairI, PJ = pairJ;
  let np = 0;
  for (let i = i0; i < i1; i++) {
    const a = cx[i], e = ex[i];
    if (e < a) continue; // dead
    if (np >= FLUSH_AT) {
      narrow2(np);
      np = 0;
    }
    const o = 4 * i;
    const xlo = S[o], ylo = S[o + 1], xhi = S[o + 2], yhi = S[o + 3];
    const b = cy[i], f = ey[i];
    const np0 = np;
    const self = 4 * i;
    for (let x = a; x <= e; x++) {
      for (let y = b; y <= f; y++) {
        const q = x * ny + y;
        let p: number;
        if (stamp[q] === st) p = cur[q]++;
        else {
          // The first entry of segment ≥ i (i's own): entries are ascending.
          let lo = start[q], hi = start[q + 1];
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (items[mid] < self) lo = mid + 1;
            else hi = mid;
          }
          p = lo;
          stamp[q] = st;
          cur[q] = p + 1;
        }
        const end = start[q + 1];
        if (np + (end - p) > PI.length) {
          const n2 = 2 * (np + (end - p));
          const gi = new Int32Array(n2), gj = new Int32Array(n2);
          gi.set(PI.subarray(0, np));
          gj.set(PJ.subarray(0, np));
          pairI = PI = gi;
          pairJ = PJ = gj;
        }
        // As in gridPairsInOrder: j ≥ i + 2, the tags OR to 3, the boxes meet.
        const need = 3 & ~(+(x === a) | (2 * +(y === b)));
        const lim = self + 8;
        for (let r = p + 1; r < end; r++) {
          const t = items[r];
          const w = t & -4;
          PJ[np] = t;
          np += +((t & need) === need) & +(t >= lim) & +(S[w] <= xhi) & +(xlo <= S[w + 2]) & +(S[w + 1] <= yhi) & +(ylo <= S[w + 3]);
        }
      }
    }
    for (let k = np0; k < np; k++) {
      PI[k] = i;
      PJ[k] >>= 2;
    }
    if ((e > a || f > b) && np - np0 > 1) {
      for (let k = np0 + 1; k < np; k++) {
        const j = PJ[k];
        let q = k - 1;
        while (q >= np0 && PJ[q] > j) {
          PJ[q + 1] = PJ[q];
          q--;
        }
        PJ[q + 1] = j;
      }
    }
  }
  return np;
}

/** The in-order grid search hands its candidates to the narrow phase once this many are waiting. */
const FLUSH_AT = 2048;

/** {@link leafPair} written out for 3D (the hot loop of space curves). */
function leafPair3(a0: number, a1: number, b0: number, b1: number, boxA: Float64Array, oa: number, boxB: Float64Array, ob: number): void {
  narrow3(leafCandidates3(a0, a1, b0, b1, boxA, oa, boxB, ob, 0));
}

/**
 * The candidate pairs of one 3D leaf pair (as {@link leafPair3}), appended to pairI, pairJ from
 * index np, without the narrow phase; returns the new count. At most LEAF² pairs are added:
 * the caller leaves that much room (so many leaf pairs share one narrow-phase loop).
 */
function leafCandidates3(a0: number, a1: number, b0: number, b1: number, boxA: Float64Array, oa: number, boxB: Float64Array, ob: number, np: number): number {
  const tau = TAU, PI = pairI, PJ = pairJ, SA3 = SA, SB3 = SB;
  if (SELF && a0 === b0) {
    // Pairs within one leaf: j ≥ i + 2 only, no candidate lists (every segment of a leaf is
    // near the leaf's own box: 21 box tests for a full leaf instead of 8 + 8 + 64).
    for (let i = a0; i < a1; i++) {
      const o = 6 * i;
      const xlo = SA3[o], ylo = SA3[o + 1], zlo = SA3[o + 2], xhi = SA3[o + 3], yhi = SA3[o + 4], zhi = SA3[o + 5];
      for (let j = i + 2; j < a1; j++) {
        const p = 6 * j;
        PI[np] = i;
        PJ[np] = j;
        np += +(SB3[p] - xhi <= tau) & +(xlo - SB3[p + 3] <= tau) & +(SB3[p + 1] - yhi <= tau) & +(ylo - SB3[p + 4] <= tau) & +(SB3[p + 2] - zhi <= tau) & +(zlo - SB3[p + 5] <= tau);
      }
    }
    return np;
  }
  const Axlo = boxA[oa], Aylo = boxA[oa + 1], Azlo = boxA[oa + 2], Axhi = boxA[oa + 3], Ayhi = boxA[oa + 4], Azhi = boxA[oa + 5];
  // Branch-free candidate lists, as in leafPair2.
  let nc = 0;
  for (let j = b0; j < b1; j++) {
    const o = 6 * j;
    candJ[nc] = j;
    nc += +(SB3[o] - Axhi <= tau) & +(Axlo - SB3[o + 3] <= tau) & +(SB3[o + 1] - Ayhi <= tau) & +(Aylo - SB3[o + 4] <= tau) & +(SB3[o + 2] - Azhi <= tau) & +(Azlo - SB3[o + 5] <= tau);
  }
  if (nc === 0) return np;
  const Bxlo = boxB[ob], Bylo = boxB[ob + 1], Bzlo = boxB[ob + 2], Bxhi = boxB[ob + 3], Byhi = boxB[ob + 4], Bzhi = boxB[ob + 5];
  let ni = 0;
  for (let i = a0; i < a1; i++) {
    const o = 6 * i;
    candI[ni] = i;
    ni += +(Bxlo - SA3[o + 3] <= tau) & +(SA3[o] - Bxhi <= tau) & +(Bylo - SA3[o + 4] <= tau) & +(SA3[o + 1] - Byhi <= tau) & +(Bzlo - SA3[o + 5] <= tau) & +(SA3[o + 2] - Bzhi <= tau);
  }
  const self = +SELF;
  for (let a = 0; a < ni; a++) {
    const i = candI[a];
    const o = 6 * i;
    const xlo = SA3[o], ylo = SA3[o + 1], zlo = SA3[o + 2], xhi = SA3[o + 3], yhi = SA3[o + 4], zhi = SA3[o + 5];
    for (let c = 0; c < nc; c++) {
      const j = candJ[c];
      const p = 6 * j;
      PI[np] = i;
      PJ[np] = j;
      np += (+(j - i >= 2) | (1 - self)) & +(SB3[p] - xhi <= tau) & +(xlo - SB3[p + 3] <= tau) & +(SB3[p + 1] - yhi <= tau) & +(ylo - SB3[p + 4] <= tau) & +(SB3[p + 2] - zhi <= tau) & +(zlo - SB3[p + 5] <= tau);
    }
  }
  return np;
}

/**
 * The 3D grid search (one chain, any thickness; grid.ts, planGrid3): each live segment, in the
 * grid's order, against the later segments of its own row up to its reach, and against the
 * windows of the four forward neighbour rows (y + 1 in its column; y − 1, y, y + 1 in the next):
 * each pair of segments once. The windows' lower ends only move forward, as the keys do.
 * Candidate pairs pass a branch-free box test (the hierarchy's) and go, as (lower segment,
 * higher segment), to the exact-filtered test ({@link narrow3}).
 */
function gridPairs3(g: ChainGrid3): void {
  const { n, key, reach } = g;
  const nz = g.nz, rowY = g.ny * nz, below = FINE + 2;
  // Key offsets of the four forward rows: (dx, dy) = (0, 1), (1, −1), (1, 0), (1, 1).
  const o0 = nz, o1 = rowY - nz, o2 = rowY, o3 = rowY + nz;
  let l0 = 0, l1 = 0, l2 = 0, l3 = 0;
  let np = 0;
  for (let p = 0; p < n; p++) {
    const k = key[p], r = reach[p];
    while (l0 < n && key[l0] < k + o0 - below) l0++;
    while (l1 < n && key[l1] < k + o1 - below) l1++;
    while (l2 < n && key[l2] < k + o2 - below) l2++;
    while (l3 < n && key[l3] < k + o3 - below) l3++;
    np = scan3(g, p, p + 1, k + r, np);
    np = scan3(g, p, l0, k + o0 + r, np);
    np = scan3(g, p, l1, k + o1 + r, np);
    np = scan3(g, p, l2, k + o2 + r, np);
    np = scan3(g, p, l3, k + o3 + r, np);
  }
  narrow3(np);
}

/**
 * Appends to pairI, pairJ (from index np) the segments at sorted positions q0, q0 + 1, … while
 * their key is at most kmax, whose boxes come within τ of the one at p and that are not its
 * neighbours in the chain (segment numbers at least 2 apart), as (lower segment, higher
 * segment); a full buffer goes to the narrow phase first. Branch-free: each candidate is written
 * and the count moves by the test's 0 or 1. Returns the new count.
 */
function scan3(g: ChainGrid3, p: number, q0: number, kmax: number, np: number): number {
  const { n, key, id, x0, y0, z0, x1, y1, z1 } = g;
  const tau = TAU;
  let PI = pairI, PJ = pairJ;
  const u = id[p];
  const xlo = x0[p], ylo = y0[p], zlo = z0[p], xhi = x1[p], yhi = y1[p], zhi = z1[p];
  for (let q = q0; q < n && key[q] <= kmax; q++) {
    if (np === PI.length) {
      narrow3(np);
      np = 0;
      PI = pairI;
      PJ = pairJ;
    }
    const v = id[q];
    const lo = u < v ? u : v;
    PI[np] = lo;
    PJ[np] = u + v - lo;
    // u − v + 1 ∉ {0, 1, 2}: as an unsigned integer, over 2.
    np += +((u - v + 1) >>> 0 > 2) & +(x0[q] - xhi <= tau) & +(xlo - x1[q] <= tau) & +(y0[q] - yhi <= tau) &
      +(ylo - y1[q] <= tau) & +(z0[q] - zhi <= tau) & +(zlo - z1[q] <= tau);
  }
  return np;
}

/**
 * The narrow phase of the 3D search (hierarchy and grid) for the np candidate pairs in pairI,
 * pairJ (boxes within τ, adjacency excluded): first the filter in doubles ({@link apart3}),
 * which rejects, exactly, the pairs certainly farther than τ (most of them: the boxes of unit
 * segments come within τ far more often than the segments do); the rest take the full test
 * (contactWithin: exact decision, faithful distance, s and t), so a contact's numbers are
 * computed only for contacts and are the same bits as without the filter.
 */
function narrow3(np: number): void {
  const ring = RING, PI = pairI, PJ = pairJ, pa = PA, pb = PB, tau = TAU, tau2 = TAU2;
  let apart = 0;
  for (let k = 0; k < np; k++) {
    const i = PI[k], j = PJ[k];
    if (ring && PARTNER[i] === j) continue;
    if (apart3(pa, i, pb, j, tau2) === 1) {
      apart++;
      continue;
    }
    const qa = 3 * i, qb = 3 * j;
    Q[0] = pa[qa]; Q[1] = pa[qa + 1]; Q[2] = pa[qa + 2]; Q[3] = pa[qa + 3]; Q[4] = pa[qa + 4]; Q[5] = pa[qa + 5];
    Q[6] = pb[qb]; Q[7] = pb[qb + 1]; Q[8] = pb[qb + 2]; Q[9] = pb[qb + 3]; Q[10] = pb[qb + 4]; Q[11] = pb[qb + 5];
    testQ(i, j, 3, tau);
  }
  narrowStats.tests += apart;
  narrowStats.apart += apart;
}

/** A share of a parallel search: work items are claimed through a shared counter. */
export interface ParallelWork {
  /** Int32Array over a SharedArrayBuffer; element 0 is the next unclaimed item. */
  counter: Int32Array;
  /** How many work items to cut the search into (every worker must use the same number). */
  want: number;
  /** This share also holds the fold-backs of adjacent segments (exactly one share must). */
  folds?: boolean;
  /** Boxes built together: the threads fill these shared arrays chunk by chunk, then each builds the small upper levels itself. */
  build?: SharedBuild;
  /** The 2D grid's plan, shared by the threads (skewline/parallel), in place of planGrid. */
  plan?: (seg: Float64Array, m: number, dead: Uint8Array | null, bands: number) => GridPlan | null;
  /**
   * Makes this thread's share of the pairs it found (views of the module scratch, unsorted,
   * valid until the next search; m: segments of A) in place of the default, the pairs sorted
   * into fresh arrays.
   */
  share?: (found: PairShare, m: number) => PairShare;
  /**
   * The whole 2D grid over the plan, built by the threads together in shared memory (cells column
   * by column: cell (x, y) at x·ny + y; entries 4j + tag in chain order), for the search in chain
   * order by ranges of segments ({@link searchRanges2}); or null where it does not fit (the
   * search then takes bands of columns). `ctl[1]` is the next range to claim; `table` gets, per
   * range, this thread's slot, where the range's contacts start in its found pairs and how many
   * (and a fourth number for skewline/parallel: where they are now).
   */
  wholeGrid?: (plan: GridPlan) => WholeGrid2 | null;
  /** This thread's slot in the table (0: the calling thread). */
  slot?: number;
  /** Set by the search: true when it searched by ranges of segments (its share is then the found pairs in the order found, fold-backs first). */
  ranged?: boolean;
  /** Fold-backs at the front of this thread's share (set by the search). */
  folded?: number;
  /**
   * Memory to record this thread's pairs into, in place of the module's (skewline/parallel: a
   * worker's lease, so that a range of the search in chain order is published where it was
   * found); the module's own arrays are back once the search returns. When it runs out, the pairs
   * move to fresh memory of the module's, as they would.
   */
  found?: PairShare;
  /** Called after each range r this thread searched in chain order: its n contacts are found[f0, f0 + n) (views valid until the next record). */
  onRange?: (r: number, found: PairShare, f0: number, n: number) => void;
  /** Stamps this thread's steps into a call's timeline (skewline/parallel's probe, timeline.ts), when set. */
  mark?: (step: StepName) => void;
  /** Stamps range r's start (first) or end in the timeline, when set. */
  markRange?: (r: number, first: boolean) => void;
}

/** The whole 2D grid of a parallel search by ranges of segments (ParallelWork.wholeGrid). */
export interface WholeGrid2 {
  ny: number;
  cells: number;
  start: Int32Array;
  items: Int32Array;
  ctl: Int32Array;
  table: Int32Array;
  /** Range r (a work item) is segments bounds[r] … bounds[r + 1] − 1 (the same in every thread). */
  bounds: Int32Array;
}

/**
 * In a shared build's counter: set to 1 by a thread that finds, in a chain prepared by
 * {@link quickPrepare} (not validated), a coordinate that is not finite or a repeated vertex.
 * Every thread then stops after the build, and the caller prepares the chain properly.
 */
export const UNCHECKED_BAD = 4;

/**
 * The shared part of a parallel build: segment boxes (m·2·dim numbers) and leaf boxes
 * ({@link leafCount}(m)·2·dim) of A, and of B with `against`, over SharedArrayBuffers; the
 * counters [next chunk of A, (unused), next chunk of B, (unused), {@link UNCHECKED_BAD}] and a
 * done flag per chunk ({@link buildChunks}(A.m) for A, then B's), all zero at the start.
 */
export interface SharedBuild {
  segA: Float64Array;
  leavesA: Float64Array;
  segB: Float64Array | null;
  leavesB: Float64Array | null;
  counter: Int32Array;
  done: Int32Array;
  /**
   * One 3D chain's block grid, built once by the first thread to claim it (state: [claimed,
   * ready, cells, entries], zero at the start; count and items: {@link blockGridRoom3} numbers);
   * and the turns that may fold back, listed with the block boxes (folds: m numbers, each build
   * chunk's from its first segment on; nfold: how many in each chunk).
   */
  grid3?: { state: Int32Array; count: Int32Array; items: Int32Array; folds: Int32Array; nfold: Int32Array };
  /**
   * The first phase of the 2D grid's shared plan (skewline/parallel, grid-plan.ts), done with
   * A's boxes while they are in cache: each chunk of `chunk` segments (a divisor of the build's
   * chunk) gets its {@link boxSums} at part[stride·c] and its flag done[c] set.
   */
  sums?: { part: Float64Array; stride: number; chunk: number; done: Int32Array };
}

/**
 * Are vertices c0 … c1 finite, and no two consecutive ones equal (segments c0 … c1 − 1 of
 * positive length)? One loop a function, with nothing after it. With both loops in one function,
 * V8 compiled the first while it ran (on-stack replacement) before the code after it had type
 * feedback, kept that code, and sent the rest back to the interpreter on each call
 * (`node --trace-deopt`: 14 bailouts a call of the 1e6-step planar walk's parallel search).
 */
function cleanRange(P: Float64Array, dim: number, c0: number, c1: number): boolean {
  return allFinite(P, c0 * dim, (c1 + 1) * dim) && noRepeat(P, dim, c0, c1);
}

/** Are P[k0 … k1 − 1] all finite? */
function allFinite(P: Float64Array, k0: number, k1: number): boolean {
  let bad = 0;
  for (let k = k0; k < k1; k++) bad |= +(P[k] - P[k] !== 0);
  return bad === 0;
}

/** No two consecutive vertices of c0 … c1 equal? */
function noRepeat(P: Float64Array, dim: number, c0: number, c1: number): boolean {
  let repeats = 0;
  for (let c = c0; c < c1; c++) {
    let k = 0;
    while (k < dim && P[c * dim + k] === P[(c + 1) * dim + k]) k++;
    repeats += +(k === dim);
  }
  return repeats === 0;
}

/**
 * The prepared form of a plain open chain without a pass over it, for a parallel search that
 * validates while it builds (the threads check their chunks: {@link UNCHECKED_BAD}): a flat
 * Float64Array with a valid `dim`, not closed, no `against`, not a ring (first vertex ≠ last),
 * at least two vertices. Null for anything else (prepare it the usual way). Checks the options
 * as chainContacts does. Not part of the public API.
 */
export function quickPrepare(points: ChainPoints, options?: ChainOptions): { A: PreparedChain; tau: number } | null {
  if (options !== undefined && (options === null || typeof options !== 'object')) return null;
  const tau = checkThickness(options);
  const dim = options?.dim;
  if (!(points instanceof Float64Array) || options?.closed === true || options?.against !== undefined) return null;
  if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 2 || points.length % dim !== 0) return null;
  const n = points.length / dim;
  if (n < 3) return null;
  let ring = true;
  for (let k = 0; k < dim; k++) if (points[k] !== points[(n - 1) * dim + k]) ring = false;
  if (ring) return null;
  const m = n - 1;
  const none = new Int32Array(0);
  return { A: { P: points, dim, m, partner: null, dead: null, orig: none, chain: none, start: Int32Array.of(0, m + 1), segments: Int32Array.of(m), identity: true, checked: false }, tau };
}

/** Segments per chunk of a shared build (a multiple of LEAF). */
const BUILD_CHUNK = 1 << 15;

/** Chunks of a shared build over m segments. */
export function buildChunks(m: number): number {
  return Math.ceil(m / BUILD_CHUNK);
}

/**
 * This thread's part of a shared build of chain C's boxes: claims chunks of segments and writes
 * their boxes (and, with `withLeaves`, their leaves' boxes) into the shared arrays; then builds
 * itself every chunk not yet marked done. It never waits: a chunk another thread is still on (or
 * that a dead worker left) is built twice, with the same bits, and the build is complete when
 * the function returns. counter[at] is the next chunk to claim; `done` flags the finished ones.
 */
function sharedBoxes(C: PreparedChain, seg: Float64Array, leaves: Float64Array, withLeaves: boolean, counter: Int32Array, at: number, done: Int32Array, doneAt: number, sums: SharedBuild['sums'] = undefined): void {
  const { dim, m } = C;
  const chunks = Math.ceil(m / BUILD_CHUNK);
  if (m === 0 && withLeaves) leafBoxes(seg, dim, 0, 0, 1, leaves); // the one empty leaf (every thread writes the same)
  for (let c = Atomics.add(counter, at, 1); c < chunks; c = Atomics.add(counter, at, 1)) boxChunk(C, seg, leaves, withLeaves, counter, c, done, doneAt, sums);
  for (let c = 0; c < chunks; c++) if (Atomics.load(done, doneAt + c) === 0) boxChunk(C, seg, leaves, withLeaves, counter, c, done, doneAt, sums);
}

// The chunks of the shared builds are built by module functions, not by closures made afresh on
// each call: V8 compiled such closures again on every call (`node --trace-opt`), on a compiler
// thread that, on two cores, takes its time from the search.

/** Chunk c of {@link sharedBoxes}: its segments' boxes (and leaves' with `withLeaves`), validated if unchecked, then flagged done. */
function boxChunk(C: PreparedChain, seg: Float64Array, leaves: Float64Array, withLeaves: boolean, counter: Int32Array, c: number, done: Int32Array, doneAt: number, sums: SharedBuild['sums']): void {
  const { P, dim, m, dead } = C;
  const c0 = c * BUILD_CHUNK, c1 = Math.min(m, c0 + BUILD_CHUNK);
  if (C.checked === false && !cleanRange(P, dim, c0, c1)) Atomics.store(counter, UNCHECKED_BAD, 1);
  segmentBoxesRange(P, dim, c0, c1, dead, seg);
  if (withLeaves) leafBoxes(seg, dim, m, c0 / LEAF, Math.min(leafCount(m), Math.ceil(c1 / LEAF)), leaves);
  if (sums !== undefined) chunkSums(seg, dead, c0, c1, sums);
  Atomics.store(done, doneAt + c, 1);
}

/** The grid plan's first phase for the plan chunks within segments [c0, c1) (see SharedBuild.sums). */
function chunkSums(seg: Float64Array, dead: Uint8Array | null, c0: number, c1: number, sums: NonNullable<SharedBuild['sums']>): void {
  const { part, stride, chunk, done } = sums;
  for (let k = c0; k < c1; k += chunk) {
    boxSums(seg, dead, k, Math.min(c1, k + chunk), part, stride * (k / chunk));
    Atomics.store(done, k / chunk, 1);
  }
}

/**
 * Where the last {@link chainContacts} call spent its time (for the benchmark; not part of the
 * public API): reading and validating the input, building the hierarchy, the search (traversal
 * and narrow phase, interleaved), sorting, and computing distance, s and t of each contact.
 */
export const chainStats = { readMs: 0, buildMs: 0, searchMs: 0, sortMs: 0, numbersMs: 0 };

/**
 * Which broad phase the search uses (for the tests and the benchmark; not part of the public
 * API): 'auto' takes the grid for crowded planar chains at thickness 0 (grid.ts), the block
 * grid over the hierarchy's leaves for one 3D chain where it pays (blocks3.ts; `last` says
 * 'blocks') and the hierarchy otherwise; 'tree' always the hierarchy; 'grid' also the 3D grid for one 3D chain
 * (grid.ts, planGrid3: same results bit for bit; kept for measurement, as it was slower than the
 * hierarchy on the 3D chains measured). `last` tells which one the last search ran.
 */
export const searchMode: { broad: 'auto' | 'tree' | 'grid'; last: 'tree' | 'grid' | 'blocks' | '' } = { broad: 'auto', last: '' };

/**
 * Finds every pair in contact, as compact segment indices, into foundI/foundJ (unsorted).
 */
function findPairs(A: PreparedChain, B: PreparedChain | null, tau: number, work: ParallelWork | null = null): void {
  found = 0;
  IN_ORDER = false;
  const tasksOf = (ta: ChainTree, tb: ChainTree): Int32Array | null => (work === null ? null : expandTasks(ta, tb, tau, work.want));
  const claim = work === null ? null : (): number => Atomics.add(work.counter, 0, 1);
  const dim = A.dim;
  if (Q.length < 4 * dim) Q = new Float64Array(4 * dim);
  DIM = dim;
  TAU = tau;
  TAU2 = tau2Up(tau);
  PA = A.P;
  if (B === null) {
    const m = A.m;
    const ring = A.partner !== null;
    PB = PA;
    SELF = true;
    RING = ring;
    if (ring) PARTNER = A.partner!;
    const tb0 = performance.now();
    const shared = work?.build ?? null;
    if (work !== null && shared !== null && shared.grid3 !== undefined && dim === 3 && A.dead === null && searchMode.broad !== 'tree') {
      // One 3D chain: the block boxes built together, then the block grid's cells shared out.
      sharedBlocks3(A, shared);
      if (shared.counter[UNCHECKED_BAD] !== 0) return;
      // A ring's fold-backs on one thread; an open chain's with the work items.
      const open = A.partner === null;
      if (!open && work.folds === true) foldBacks(A, tau);
      searchShared3(m, shared, work, claim!, open);
      return;
    }
    // Leaves are built together unless the grid may take over (it needs segment boxes only).
    const sharedLeaves = shared !== null && !(dim === 2 && tau === 0);
    if (shared !== null) {
      work?.mark?.('boxes0');
      sharedBoxes(A, shared.segA, shared.leavesA, sharedLeaves, shared.counter, 0, shared.done, 0, dim === 2 && tau === 0 ? shared.sums : undefined);
      work?.mark?.('boxes1');
      if (shared.counter[UNCHECKED_BAD] !== 0) return; // the caller validates and starts over
    }
    // Adjacent pairs: only a fold-back counts (in a parallel search, one share's part).
    if (work === null || work.folds === true) foldBacks(A, tau);
    work?.mark?.('folds');
    // The 3D grid only on request: measured slower than the hierarchy on every 3D family tried
    // (bench/chain/chain.bench.ts; issue 16 notes).
    if (dim === 3 && work === null && searchMode.broad === 'grid') {
      const g3 = planGrid3(PA, m, A.dead, tau, true);
      if (g3 !== null) {
        chainStats.buildMs = performance.now() - tb0;
        searchMode.last = 'grid';
        gridPairs3(g3);
        return;
      }
    }
    const fused = dim === 3 && work === null && A.dead === null; // boxes written with the leaves below
    const boxes = shared !== null ? shared.segA : fused ? f64Scratch(BOXES_A, m * 6) : segmentBoxes(PA, dim, m, A.dead, f64Scratch(BOXES_A, m * 2 * dim));
    SA = SB = boxes;
    if (dim === 2 && m <= SMALL_CHAIN && work === null) {
      // A short planar chain (most rings of a map): all pairs, no hierarchy to build.
      chainStats.buildMs = performance.now() - tb0;
      leafPair2(0, m, 0, m, boxes, 0, boxes, 0);
      searchMode.last = 'tree';
      return;
    }
    const plan = dim === 2 && tau === 0 && searchMode.broad !== 'tree' ? (work?.plan ?? planGrid)(boxes, m, A.dead, work === null ? 1 : Math.min(work.want, BANDS)) : null;
    searchMode.last = plan === null ? 'tree' : 'grid';
    if (plan !== null) {
      if (work === null) {
        const grid = bandGrid(plan, 0);
        chainStats.buildMs = performance.now() - tb0;
        IN_ORDER = found === 0; // fold-backs recorded above would come first, out of order
        gridPairsInOrder(grid, plan, m);
      } else {
        work.mark?.('plan');
        const whole = work.wholeGrid === undefined ? null : work.wholeGrid(plan);
        work.mark?.('grid');
        if (whole !== null) {
          work.ranged = true;
          work.folded = found;
          searchRanges2(whole, plan, m, work.slot ?? 0, work.onRange, work.markRange);
          work.mark?.('search');
          return;
        }
        // Work items: bands of columns, each built by the thread that claims it, the most
        // crowded first (so the last claims are small and no thread is left long alone).
        const order = bandsBySize(plan);
        for (let t = claim!(); t < work.want; t = claim!()) {
          if (t >= plan.bands) continue;
          const grid = bandGrid(plan, order[t]);
          gridPairs(grid, 0, grid.nx * grid.ny);
        }
      }
      return;
    }
    let tree: ChainTree;
    if (fused) {
      // Leaf boxes with the segment boxes, in one pass; then the leaf pairs from a grid over
      // the leaves (blocks3.ts) where it pays, else the levels above them (working memory).
      const leaves = f64Scratch(TREE_LEAVES, leafCount(m) * 6);
      segmentLeafBoxes3(PA, m, boxes, leaves);
      searchOne3(m, boxes, leaves, tb0);
      return;
    } else {
      tree = buildTree(PA, dim, m, A.dead, boxes, sharedLeaves ? shared.leavesA : null);
    }
    chainStats.buildMs = performance.now() - tb0;
    searchLeaves(tree, tree, tasksOf(tree, tree), claim);
    return;
  }
  PB = B.P;
  SELF = false;
  RING = false;
  searchMode.last = 'tree';
  const tb0 = performance.now();
  const shared = work?.build ?? null;
  let ta: ChainTree, tb: ChainTree;
  if (shared !== null && shared.segB !== null && shared.leavesB !== null) {
    sharedBoxes(A, shared.segA, shared.leavesA, true, shared.counter, 0, shared.done, 0);
    sharedBoxes(B, shared.segB, shared.leavesB, true, shared.counter, 2, shared.done, buildChunks(A.m));
    ta = buildTree(PA, dim, A.m, A.dead, shared.segA, shared.leavesA);
    tb = buildTree(PB, dim, B.m, B.dead, shared.segB, shared.leavesB);
  } else {
    ta = buildTree(PA, dim, A.m, A.dead, segmentBoxes(PA, dim, A.m, A.dead, f64Scratch(BOXES_A, A.m * 2 * dim)));
    tb = buildTree(PB, dim, B.m, B.dead, segmentBoxes(PB, dim, B.m, B.dead, f64Scratch(BOXES_B, B.m * 2 * dim)));
  }
  chainStats.buildMs = performance.now() - tb0;
  SA = ta.seg;
  SB = tb.seg;
  searchLeaves(ta, tb, tasksOf(ta, tb), claim);
}

/**
 * The search of one 3D chain with no gaps, once its segment and leaf boxes are built (search
 * state set as by findPairs, fold-backs recorded): the leaf pairs from the block grid
 * ({@link blockPairs3}) where it pays, else from the hierarchy built on the same leaves.
 */
function searchOne3(m: number, boxes: Float64Array | null, leaves: Float64Array, tb0: number): void {
  const nl = leafCount(m);
  const np = searchMode.broad === 'tree' ? -1 : blockPairs3(leaves, nl, TAU);
  if (np >= 0) {
    chainStats.buildMs = performance.now() - tb0;
    searchMode.last = 'blocks';
    grouped = found;
    searchBlocksInOrder(m, nl, leaves, np);
    return;
  }
  const seg = boxes ?? segmentBoxes(PA, 3, m, null, f64Scratch(BOXES_A, m * 6));
  SA = SB = seg;
  const tree = buildTree(PA, 3, m, null, seg, leaves, true);
  chainStats.buildMs = performance.now() - tb0;
  searchMode.last = 'tree';
  searchLeaves(tree, tree, null, null);
}

/**
 * This thread's part of a shared build of the block boxes of one 3D chain with no gaps (as
 * {@link sharedBoxes}, chunk by chunk, never waiting; no segment boxes), validating an
 * unchecked chain on the way ({@link UNCHECKED_BAD}).
 */
function sharedBlocks3(C: PreparedChain, shared: SharedBuild): void {
  const { m } = C, { counter, done, leavesA } = shared;
  const chunks = Math.ceil(m / BUILD_CHUNK);
  if (m === 0) leafBoxes(new Float64Array(0), 3, 0, 0, 1, leavesA);
  for (let c = Atomics.add(counter, 0, 1); c < chunks; c = Atomics.add(counter, 0, 1)) blockChunk3(C, shared, c);
  for (let c = 0; c < chunks; c++) if (Atomics.load(done, c) === 0) blockChunk3(C, shared, c);
}

/** Chunk c of {@link sharedBlocks3}: its blocks' boxes and turns that may fold back, validated if unchecked, then flagged done. */
function blockChunk3(C: PreparedChain, shared: SharedBuild, c: number): void {
  const { P, m } = C, g = shared.grid3!;
  const nl = leafCount(m), per = BUILD_CHUNK / LEAF;
  const nf = blockBoxesRange3(P, m, c * per, Math.min(nl, c * per + per), shared.leavesA, g.folds, c * BUILD_CHUNK);
  if (C.checked === false && nf < 0) Atomics.store(shared.counter, UNCHECKED_BAD, 1);
  g.nfold[c] = Math.max(nf, 0);
  Atomics.store(shared.done, c, 1);
}

/**
 * A parallel search of one 3D chain with no gaps once its block boxes are built (search state
 * set as by findPairs). The first thread to claim it builds the block grid ({@link blockGrid3})
 * into shared memory, while the others start on the work that needs no grid: work items of the
 * counter build.counter[3], each the pairs within blocks [t·nl/want, (t + 1)·nl/want), then with
 * `folds` (an open chain) one item a build chunk, the fold-backs among the turns its build listed
 * (foldsBack's sign condition, {@link blockBoxesRange3}). A thread that
 * finds the grid not ready when those run out builds it for itself (the same grid: it never
 * waits). Then the work items of `claim`, each the block pairs of cells
 * [t·cells/want, (t + 1)·cells/want). Every leaf pair once over all threads, so the same pairs as
 * {@link searchOne3}. Where the grid steps aside, the hierarchy on the same leaves, its node
 * pairs claimed as work items, less the pairs within a leaf (done already).
 */
function searchShared3(m: number, shared: SharedBuild, work: ParallelWork, claim: () => number, folds: boolean): void {
  const nl = leafCount(m), want = work.want, leaves = shared.leavesA, g = shared.grid3!;
  const built = Atomics.add(g.state, 0, 1) === 0 ? buildSharedGrid3(leaves, nl, g) : -2;
  // Items t < want: the pairs within blocks; then one a build chunk: its turns that may fold back.
  const items = want + (folds ? Math.ceil(m / BUILD_CHUNK) : 0);
  for (let t = Atomics.add(shared.counter, 3, 1); t < items; t = Atomics.add(shared.counter, 3, 1)) {
    if (t < want) searchBlocks(m, Math.floor((t * nl) / want), Math.floor(((t + 1) * nl) / want), leaves, 0);
    else foldsOfChunk(g.folds, (t - want) * BUILD_CHUNK, g.nfold[t - want]);
  }
  const cells = built === -2 ? sharedGrid3(leaves, nl, g) : built;
  if (cells < 0) {
    const seg = SA = SB = segmentBoxes(PA, 3, m, null, f64Scratch(BOXES_A, m * 6));
    const tree = buildTree(PA, 3, m, null, seg, leaves);
    searchMode.last = 'tree';
    searchLeaves(tree, tree, expandTasks(tree, tree, TAU, want), claim, true);
    return;
  }
  searchMode.last = 'blocks';
  for (let t = claim(); t < want; t = claim()) {
    const np = blockPairsIn3(Math.floor((t * cells) / want), Math.floor(((t + 1) * cells) / want), leaves, TAU);
    searchBlocks(m, 0, 0, leaves, np);
  }
}

// searchShared3's steps that one thread of a call takes and another does not (who builds the
// grid is a race) are functions of their own, and so is its one hot loop (the fold-backs): in
// one function, V8 compiled it on the fly inside that loop, then threw the code back to the
// interpreter at the branch this thread had not taken before, and compiled it again, on most
// calls (`node --trace-opt --trace-deopt`: 5–15 ms of a compiler thread's CPU a call of the
// 1e6-step 3D walk, which on two cores comes out of the search's own time).

/** Builds the block grid into the shared memory `g` (this thread claimed it) and publishes it; its cell count, or −1. */
function buildSharedGrid3(leaves: Float64Array, nl: number, g: NonNullable<SharedBuild['grid3']>): number {
  const cells = blockGrid3(leaves, nl, TAU, g);
  g.state[2] = cells;
  g.state[3] = blockGridEntries3();
  Atomics.store(g.state, 1, 1);
  return cells;
}

/** The block grid another thread built into `g` once it is ready, else one built here (the same grid: no thread waits); its cell count, or −1. */
function sharedGrid3(leaves: Float64Array, nl: number, g: NonNullable<SharedBuild['grid3']>): number {
  if (Atomics.load(g.state, 1) !== 1) return blockGrid3(leaves, nl, TAU);
  const cells = g.state[2];
  if (cells >= 0) useBlockGrid3(g.count, g.items, g.state[3]);
  return cells;
}

/** Records the fold-backs among the n turns listed in F from f0 on (foldsBack's sign condition passed). */
function foldsOfChunk(F: Int32Array, f0: number, n: number): void {
  const P = PA;
  for (let k = f0; k < f0 + n; k++) {
    const c = F[k];
    if (foldsBack(P, 3, c, c + 1, c + 2)) recordFold(P, 3, c, c + 1, TAU);
  }
}

/**
 * chainContacts' search for a plain open 3D chain given as a Float64Array ({@link quickPrepare}'s
 * case), with no pass before the search: validation, the zero-length check, the fold-backs'
 * sign condition and the block boxes in one pass over the vertices ({@link blockBoxes3}); the
 * segment boxes only if the hierarchy is needed. False, having recorded nothing, when that pass
 * finds a coordinate that is not finite or a repeated vertex: the caller then prepares the chain
 * the usual way (which names the fault or drops the zero-length segment) and searches again.
 */
function quickSearch3(A: PreparedChain, tau: number): boolean {
  const tb0 = performance.now();
  const m = A.m, P = A.P;
  const leaves = f64Scratch(TREE_LEAVES, leafCount(m) * 6);
  const folds = i32Scratch(FOLDS3, m);
  const nf = blockBoxes3(P, m, leaves, folds);
  if (nf < 0) return false;
  found = 0;
  IN_ORDER = false;
  if (Q.length < 12) Q = new Float64Array(12);
  DIM = 3;
  TAU = tau;
  TAU2 = tau2Up(tau);
  PA = PB = P;
  SELF = true;
  RING = false;
  for (let k = 0; k < nf; k++) {
    const c = folds[k];
    if (foldsBack(P, 3, c, c + 1, c + 2)) recordFold(P, 3, c, c + 1, tau);
  }
  searchOne3(m, null, leaves, tb0);
  return true;
}

/** Scratch slot (i32) of the fold-back candidates of {@link quickSearch3}. */
const FOLDS3 = 24;

/** Chains of at most this many planar segments are searched all pairs (measured on land-10m's small rings). */
const SMALL_CHAIN = 24;

/** The bands of a plan, the most segments first (ties by band: the same order in every thread). */
function bandsBySize(plan: GridPlan): Int32Array {
  const at = plan.segStart, order = new Int32Array(plan.bands);
  for (let b = 0; b < plan.bands; b++) order[b] = b;
  if (at === null) return order;
  return order.sort((a, b) => at[b + 1] - at[b] - (at[a + 1] - at[a]) || a - b);
}

/** Bands of grid columns a parallel search is cut into (work items; fewer, and the last ones to finish leave a thread idle, more, and each repeats the fixed cost of building its cells). */
const BANDS = 16;

/**
 * Turns per call of foldBacks2 / foldBacks3. One call over a whole chain ran one long loop once
 * a search, which V8 compiles on the fly (on-stack replacement) and not at the function's entry:
 * when that code went stale (its entry had run before the function had type feedback), each
 * search ran the loop in the interpreter until it was compiled again, boxing two or three
 * doubles a turn (a sampling heap profile of the two-thread search on the 1e6-step planar walk:
 * 5.2 MB of garbage a call in foldBacks2, in 2 runs of 3). Called once per chunk, the function
 * is compiled from its entry like any hot function.
 */
const FOLD_CHUNK = 4096;

/** Records the fold-backs of adjacent segments within each chain of A (and of each ring's last with its first). */
function foldBacks(A: PreparedChain, tau: number): void {
  const P = A.P, dim = A.dim;
  for (let k = 0; k + 1 < A.start.length; k++) {
    const first = A.start[k], end = A.start[k + 1] - 1; // segments [first, end)
    // In chunks of FOLD_CHUNK turns (the same turns in the same order): see FOLD_CHUNK.
    if (dim === 3) for (let c = first; c + 1 < end; c += FOLD_CHUNK) foldBacks3(P, c, Math.min(c + FOLD_CHUNK + 1, end), tau);
    else if (dim === 2) for (let c = first; c + 1 < end; c += FOLD_CHUNK) foldBacks2(P, c, Math.min(c + FOLD_CHUNK + 1, end), tau);
    else for (let c = first; c + 1 < end; c++) if (foldsBack(P, dim, c, c + 1, c + 2)) recordFold(P, dim, c, c + 1, tau);
    if (A.partner !== null && end - first > 2 && A.partner[first] === end - 1 && foldsBack(P, dim, end - 1, end, first + 1)) recordFold(P, dim, first, end - 1, tau);
  }
}

/**
 * The fold-backs of segments c, c + 1 for first ≤ c, c + 2 ≤ end of a 2D chain: as
 * {@link foldBacks3}, foldsBack's sign condition inline over a window of three vertices, and
 * foldsBack itself only for the turns that pass it (one in four on a random walk).
 */
function foldBacks2(P: Float64Array, first: number, end: number, tau: number): void {
  if (end - first < 2) return;
  let o = 2 * first;
  let ax = P[o], ay = P[o + 1], vx = P[o + 2], vy = P[o + 3];
  for (let c = first; c + 1 < end; c++, o += 2) {
    const bx = P[o + 4], by = P[o + 5];
    const same = +(+(ax > vx) - +(ax < vx) === +(bx > vx) - +(bx < vx)) & +(+(ay > vy) - +(ay < vy) === +(by > vy) - +(by < vy));
    if (same === 1 && foldsBack(P, 2, c, c + 1, c + 2)) recordFold(P, 2, c, c + 1, tau);
    ax = vx;
    ay = vy;
    vx = bx;
    vy = by;
  }
}

/**
 * The fold-backs of segments c, c + 1 for first ≤ c, c + 2 ≤ end of a 3D chain: foldsBack's
 * necessary sign condition (each coordinate of a − v and b − v has the same sign, exactly) tried
 * inline over a window of three vertices kept in registers, and foldsBack itself only for the
 * turns that pass it (one in eight on a random walk).
 */
function foldBacks3(P: Float64Array, first: number, end: number, tau: number): void {
  if (end - first < 2) return;
  let o = 3 * first;
  let ax = P[o], ay = P[o + 1], az = P[o + 2], vx = P[o + 3], vy = P[o + 4], vz = P[o + 5];
  for (let c = first; c + 1 < end; c++, o += 3) {
    const bx = P[o + 6], by = P[o + 7], bz = P[o + 8];
    const same = +(+(ax > vx) - +(ax < vx) === +(bx > vx) - +(bx < vx)) & +(+(ay > vy) - +(ay < vy) === +(by > vy) - +(by < vy)) &
      +(+(az > vz) - +(az < vz) === +(bz > vz) - +(bz < vz));
    if (same === 1 && foldsBack(P, 3, c, c + 1, c + 2)) recordFold(P, 3, c, c + 1, tau);
    ax = vx;
    ay = vy;
    az = vz;
    vx = bx;
    vy = by;
    vz = bz;
  }
}

// Leaf pairs of the traversal, a batch at a time.
const LEAF_PAIRS = new Int32Array(2 * 4096);

/**
 * Runs the traversal of ta against tb (ta === tb: within one chain) and the leaf-pair test on
 * every near pair of leaves (a leaf with itself for the pairs within it, unless `skipSelf`: 3D,
 * done already).
 */
function searchLeaves(ta: ChainTree, tb: ChainTree, tasks: Int32Array | null, claim: (() => number) | null, skipSelf = false): void {
  const dim = DIM, stride = 2 * dim;
  const la = ta.levels[0], lb = tb.levels[0];
  const mA = ta.m, mB = tb.m;
  beginTraversal(ta, tb, TAU, tasks, claim);
  const buf = LEAF_PAIRS;
  for (let n = nextLeafPairs(buf); n > 0; n = nextLeafPairs(buf)) {
    if (dim === 2) {
      for (let k = 0; k < 2 * n; k += 2) {
        const qa = buf[k], qb = buf[k + 1];
        leafPair2(qa * LEAF, Math.min(qa * LEAF + LEAF, mA), qb * LEAF, Math.min(qb * LEAF + LEAF, mB), la, qa * 4, lb, qb * 4);
      }
    } else if (dim === 3) {
      for (let k = 0; k < 2 * n; k += 2) {
        const qa = buf[k], qb = buf[k + 1];
        if (skipSelf && qa === qb) continue;
        leafPair3(qa * LEAF, Math.min(qa * LEAF + LEAF, mA), qb * LEAF, Math.min(qb * LEAF + LEAF, mB), la, qa * 6, lb, qb * 6);
      }
    } else {
      for (let k = 0; k < 2 * n; k += 2) {
        const qa = buf[k], qb = buf[k + 1];
        leafPair(qa * LEAF, Math.min(qa * LEAF + LEAF, mA), qb * LEAF, Math.min(qb * LEAF + LEAF, mB), la, qa * stride, lb, qb * stride);
      }
    }
  }
}

// Boxes of one block's segments, or of the candidates of a block pair (module scratch, in cache).
const BOX_A = new Float64Array(6 * LEAF);
const BOX_B = new Float64Array(6 * LEAF);

/** Writes the box of segment c of the 3D vertices P to box at o (branch-free, as tree.ts's segment boxes: the same numbers). */
function segBox3(P: Float64Array, c: number, box: Float64Array, o: number): void {
  const v = 3 * c;
  const x0 = P[v], y0 = P[v + 1], z0 = P[v + 2], x1 = P[v + 3], y1 = P[v + 4], z1 = P[v + 5];
  const bx = +(x0 < x1), by = +(y0 < y1), bz = +(z0 < z1);
  box[o] = bx * x0 + (1 - bx) * x1;
  box[o + 1] = by * y0 + (1 - by) * y1;
  box[o + 2] = bz * z0 + (1 - bz) * z1;
  box[o + 3] = bx * x1 + (1 - bx) * x0;
  box[o + 4] = by * y1 + (1 - by) * y0;
  box[o + 5] = bz * z1 + (1 - bz) * z0;
}

/**
 * {@link leafCandidates3} for blocks qa ≤ qb of one 3D chain (PA, m segments, block boxes
 * `leaves`) without stored segment boxes: the same tests on the same numbers, so the same
 * candidate pairs, appended to pairI, pairJ from index np; returns the new count.
 *
 * A segment's box comes within τ of a block's box on one side of one axis when one of its two
 * vertices does: fl(min(p, q) − h) = min(fl(p − h), fl(q − h)), as rounding is monotone (and the
 * same for h − max(p, q)). So each vertex of one block gets a 6-bit mask of the sides it passes
 * against the other block's box, and a segment passes the six tests when its two vertices'
 * masks together hold all six bits: 9 vertices read instead of 8 boxes of 6 numbers. Only the
 * segments that pass get their boxes, for the segment-pair tests.
 */
function blockCandidates3(qa: number, qb: number, m: number, leaves: Float64Array, np: number): number {
  const P = PA, tau = TAU, PI = pairI, PJ = pairJ, BA = BOX_A, BB = BOX_B;
  const a0 = qa * LEAF, a1 = Math.min(a0 + LEAF, m);
  if (qa === qb) {
    // Pairs within one block, j ≥ i + 2 (as leafCandidates3).
    const k = a1 - a0;
    for (let c = 0; c < k; c++) segBox3(P, a0 + c, BA, 6 * c);
    for (let i = 0; i < k; i++) {
      const o = 6 * i;
      const xlo = BA[o], ylo = BA[o + 1], zlo = BA[o + 2], xhi = BA[o + 3], yhi = BA[o + 4], zhi = BA[o + 5];
      for (let j = i + 2; j < k; j++) {
        const p = 6 * j;
        PI[np] = a0 + i;
        PJ[np] = a0 + j;
        np += +(BA[p] - xhi <= tau) & +(xlo - BA[p + 3] <= tau) & +(BA[p + 1] - yhi <= tau) & +(ylo - BA[p + 4] <= tau) & +(BA[p + 2] - zhi <= tau) & +(zlo - BA[p + 5] <= tau);
      }
    }
    return np;
  }
  const b0 = qb * LEAF, b1 = Math.min(b0 + LEAF, m);
  // B's segments near A's box.
  let o = 6 * qa;
  let Xlo = leaves[o], Ylo = leaves[o + 1], Zlo = leaves[o + 2], Xhi = leaves[o + 3], Yhi = leaves[o + 4], Zhi = leaves[o + 5];
  let v = 3 * b0;
  let prev = +(P[v] - Xhi <= tau) | (+(Xlo - P[v] <= tau) << 1) | (+(P[v + 1] - Yhi <= tau) << 2) | (+(Ylo - P[v + 1] <= tau) << 3) |
    (+(P[v + 2] - Zhi <= tau) << 4) | (+(Zlo - P[v + 2] <= tau) << 5);
  let nc = 0;
  for (let c = b0; c < b1; c++) {
    v += 3;
    const x = P[v], y = P[v + 1], z = P[v + 2];
    const cur = +(x - Xhi <= tau) | (+(Xlo - x <= tau) << 1) | (+(y - Yhi <= tau) << 2) | (+(Ylo - y <= tau) << 3) | (+(z - Zhi <= tau) << 4) | (+(Zlo - z <= tau) << 5);
    candJ[nc] = c;
    nc += +((prev | cur) === 63);
    prev = cur;
  }
  if (nc === 0) return np;
  // A's segments near B's box.
  o = 6 * qb;
  Xlo = leaves[o]; Ylo = leaves[o + 1]; Zlo = leaves[o + 2]; Xhi = leaves[o + 3]; Yhi = leaves[o + 4]; Zhi = leaves[o + 5];
  v = 3 * a0;
  prev = +(P[v] - Xhi <= tau) | (+(Xlo - P[v] <= tau) << 1) | (+(P[v + 1] - Yhi <= tau) << 2) | (+(Ylo - P[v + 1] <= tau) << 3) |
    (+(P[v + 2] - Zhi <= tau) << 4) | (+(Zlo - P[v + 2] <= tau) << 5);
  let ni = 0;
  for (let c = a0; c < a1; c++) {
    v += 3;
    const x = P[v], y = P[v + 1], z = P[v + 2];
    const cur = +(x - Xhi <= tau) | (+(Xlo - x <= tau) << 1) | (+(y - Yhi <= tau) << 2) | (+(Ylo - y <= tau) << 3) | (+(z - Zhi <= tau) << 4) | (+(Zlo - z <= tau) << 5);
    candI[ni] = c;
    ni += +((prev | cur) === 63);
    prev = cur;
  }
  for (let c = 0; c < nc; c++) segBox3(P, candJ[c], BB, 6 * c);
  for (let a = 0; a < ni; a++) {
    const i = candI[a];
    segBox3(P, i, BA, 0);
    const xlo = BA[0], ylo = BA[1], zlo = BA[2], xhi = BA[3], yhi = BA[4], zhi = BA[5];
    for (let c = 0; c < nc; c++) {
      const j = candJ[c];
      const p = 6 * c;
      PI[np] = i;
      PJ[np] = j;
      np += +(j - i >= 2) & +(BB[p] - xhi <= tau) & +(xlo - BB[p + 3] <= tau) & +(BB[p + 1] - yhi <= tau) & +(ylo - BB[p + 4] <= tau) & +(BB[p + 2] - zhi <= tau) & +(zlo - BB[p + 5] <= tau);
    }
  }
  return np;
}

/**
 * The leaf-pair tests of a one-chain 3D search whose leaf pairs came from the block grid
 * ({@link blockPairList}: np pairs qa < qb): each leaf q0 … q1 − 1 with itself (the pairs
 * within it), then each listed pair. Over all of a search's calls, the same leaf pairs, so the
 * same segment pairs, as {@link searchLeaves}.
 */
function searchBlocks(m: number, q0: number, q1: number, leaves: Float64Array, np: number): void {
  // Candidates of many leaf pairs gather in pairI, pairJ; the narrow phase runs when fewer than
  // LEAF² places are left.
  const full = pairI.length - LEAF * LEAF;
  let nc = 0;
  for (let q = q0; q < q1; q++) {
    nc = blockCandidates3(q, q, m, leaves, nc);
    if (nc > full) {
      narrow3(nc);
      nc = 0;
    }
  }
  const list = blockPairList();
  for (let k = 0; k < 2 * np; k += 2) {
    nc = blockCandidates3(list[k], list[k + 1], m, leaves, nc);
    if (nc > full) {
      narrow3(nc);
      nc = 0;
    }
  }
  narrow3(nc);
}

/**
 * {@link searchBlocks} for a whole chain on one thread, block after block: each block with
 * itself, then with its partners of higher number ({@link blockPairsByLower3}). Every candidate
 * of block q has its lower segment i in block q, and the narrow phase records pairs in candidate
 * order, so the pairs it finds come grouped by the block of i, in increasing order of blocks
 * ({@link sortGrouped} relies on it).
 */
function searchBlocksInOrder(m: number, nl: number, leaves: Float64Array, np: number): void {
  const full = pairI.length - LEAF * LEAF;
  const ends = blockPairsByLower3(np, nl), partners = blockPartnerList3();
  let nc = 0;
  for (let q = 0, k = 0; q < nl; q++) {
    nc = blockCandidates3(q, q, m, leaves, nc);
    if (nc > full) {
      narrow3(nc);
      nc = 0;
    }
    for (const end = ends[q]; k < end; k++) {
      nc = blockCandidates3(q, partners[k], m, leaves, nc);
      if (nc > full) {
        narrow3(nc);
        nc = 0;
      }
    }
  }
  narrow3(nc);
}

/**
 * Where the pairs found by {@link searchBlocksInOrder} start (those before it are fold-backs),
 * or −1 when the last search did not go through it. chainContacts resets it before searching.
 */
let grouped = -1;

/** Is (i, j) of pair a after that of pair b (lexicographic)? */
function after(I: Int32Array, J: Int32Array, a: number, b: number): boolean {
  return I[a] > I[b] || (I[a] === I[b] && J[a] > J[b]);
}

/**
 * {@link sortPairs} for one chain's pairs found as {@link searchBlocksInOrder} left them: the
 * fold-backs first (pairs 0 … g − 1), then runs of pairs whose i lies in one block, in
 * increasing order of blocks. Each run is put in order of (i, j) in place (an insertion sort; an
 * index sort for a run of over 32 pairs), and the two sorted sequences merged into fresh arrays:
 * no pass over a counter per segment. The same arrays as sortPairs, as each pair occurs once.
 * Fold-backs out of order (a ring's closing pair comes last) leave it all to sortPairs.
 */
function sortGrouped(mA: number, g: number, zero: boolean, into: IntoTarget | null = null): PairShare {
  const n = found, I = foundI, J = foundJ, D = foundD, S = foundS, T = foundT;
  for (let k = 1; k < g; k++) if (after(I, J, k - 1, k)) return sortPairs(mA, [foundShare()], zero, false, into);
  for (let a = g; a < n;) {
    const limit = (Math.floor(I[a] / LEAF) + 1) * LEAF;
    let b = a + 1;
    while (b < n && I[b] < limit) b++;
    if (b - a > 32) {
      sortRun(a, b);
    } else {
      for (let k = a + 1; k < b; k++) {
        if (!after(I, J, k - 1, k)) continue;
        const x = I[k], y = J[k], d = D[k], s = S[k], t = T[k];
        let p = k - 1;
        while (p >= a && (I[p] > x || (I[p] === x && J[p] > y))) {
          I[p + 1] = I[p];
          J[p + 1] = J[p];
          D[p + 1] = D[p];
          S[p + 1] = S[p];
          T[p + 1] = T[p];
          p--;
        }
        I[p + 1] = x;
        J[p + 1] = y;
        D[p + 1] = d;
        S[p + 1] = s;
        T[p + 1] = t;
      }
    }
    a = b;
  }
  const out = resultShare(n, false, zero, into);
  const { CI, CJ, distance: OD, s: OS, t: OT } = out;
  // Merge the fold-backs [0, g) with the rest [g, n).
  let a = 0, b = g, k = 0;
  for (; a < g && b < n; k++) {
    const c = after(I, J, a, b) ? b++ : a++;
    CI[k] = I[c];
    CJ[k] = J[c];
    if (!zero) OD[k] = D[c];
    OS[k] = S[c];
    OT[k] = T[c];
  }
  const rest = a < g ? a : b, end = a < g ? g : n;
  CI.set(I.subarray(rest, end), k);
  CJ.set(J.subarray(rest, end), k);
  if (!zero) OD.set(D.subarray(rest, end), k);
  OS.set(S.subarray(rest, end), k);
  OT.set(T.subarray(rest, end), k);
  return out;
}

/** Puts the found pairs [a, b) in order of (i, j), carrying their numbers (through an index). */
function sortRun(a: number, b: number): void {
  const I = foundI, J = foundJ;
  const idx = Array.from({ length: b - a }, (_, q) => a + q).sort((x, y) => I[x] - I[y] || J[x] - J[y]);
  for (const arr of [foundI, foundJ, foundD, foundS, foundT]) {
    const copy = idx.map((q) => arr[q]);
    arr.set(copy, a);
  }
}

/** The pairs found so far with their numbers, unsorted (views of the module scratch). */
function foundShare(): PairShare {
  return {
    CI: foundI.subarray(0, found), CJ: foundJ.subarray(0, found),
    distance: foundD.subarray(0, found), s: foundS.subarray(0, found), t: foundT.subarray(0, found),
  };
}

/**
 * Sorts the pairs of one or more shares by compact (i, j) — which is the order of (chain, input
 * index) — with a counting sort on i and an insertion sort of each i's few partners, and
 * carries their numbers along. Each pair must occur in exactly one share. With `zero` the
 * distances are all 0 (thickness 0) and are not carried: a fresh array is zeros already.
 * With `shared` the result lives on SharedArrayBuffers (a parallel search's share).
 */
function sortPairs(mA: number, shares: readonly PairShare[], zero = false, shared = false, into: IntoTarget | null = null): PairShare {
  let n = 0;
  for (const p of shares) n += p.CI.length;
  const out = resultShare(n, shared, zero, into);
  if (n > 0) sortRange(shares, 0, mA, zero, out, 0);
  return out;
}

/**
 * The pairs of the last {@link findPairs}, sorted as by {@link sortPairs} into fresh arrays: when
 * the search found them in order already ({@link IN_ORDER}), only copied out.
 */
function sortFound(mA: number, zero: boolean, shared = false, into: IntoTarget | null = null): PairShare {
  const inOrder = IN_ORDER;
  IN_ORDER = false; // for this search's pairs only
  if (!inOrder) return sortPairs(mA, [foundShare()], zero, shared, into);
  const n = found;
  const out = resultShare(n, shared, zero, into);
  out.CI.set(foundI.subarray(0, n));
  out.CJ.set(foundJ.subarray(0, n));
  if (!zero) out.distance.set(foundD.subarray(0, n));
  out.s.set(foundS.subarray(0, n));
  out.t.set(foundT.subarray(0, n));
  return out;
}

/**
 * Where the sorted pairs go: fresh arrays (newShare), or `into`'s (grown if too small; with
 * `zero` its first n distances zeroed, as fresh ones are: thickness 0 does not write them).
 */
function resultShare(n: number, shared: boolean, zero: boolean, into: IntoTarget | null): PairShare {
  return into === null ? newShare(n, shared) : intoShare(into, n, zero);
}

/** Five arrays for n pairs, on SharedArrayBuffers with `shared`. */
export function newShare(n: number, shared: boolean): PairShare {
  const i32 = (): Int32Array => (shared ? new Int32Array(new SharedArrayBuffer(4 * n)) : new Int32Array(n));
  const f64 = (): Float64Array => (shared ? new Float64Array(new SharedArrayBuffer(8 * n)) : new Float64Array(n));
  return { CI: i32(), CJ: i32(), distance: f64(), s: f64(), t: f64() };
}

/**
 * The sorting of {@link sortPairs} for pairs whose i lies in [lo, hi) (every pair of `shares`
 * must), written to `out` from index `at` on. The part of a parallel merge one thread does.
 */
export function sortRange(shares: readonly PairShare[], lo: number, hi: number, zero: boolean, out: PairShare, at0: number): void {
  const span = hi - lo;
  const start = i32Scratch(SORT_START, span + 1).fill(0);
  for (const p of shares) {
    const pi = p.CI;
    for (let k = 0; k < pi.length; k++) start[pi[k] - lo + 1]++;
  }
  start[0] = at0;
  for (let c = 0; c < span; c++) start[c + 1] += start[c];
  const fill = i32Scratch(SORT_FILL, span);
  fill.set(start.subarray(0, span));
  const { CI, CJ, distance: D, s: S, t: T } = out;
  for (const p of shares) {
    const pi = p.CI, pj = p.CJ, pd = p.distance, ps = p.s, pt = p.t;
    for (let k = 0; k < pi.length; k++) {
      const at = fill[pi[k] - lo]++;
      CI[at] = pi[k];
      CJ[at] = pj[k];
      if (!zero) D[at] = pd[k]; // left untouched, the zeros cost no memory traffic
      S[at] = ps[k];
      T[at] = pt[k];
    }
  }
  for (let c = 0; c < span; c++) {
    const a = start[c], b = start[c + 1];
    if (b - a < 2) continue;
    if (b - a > 32) {
      sortPartners(CJ, D, S, T, a, b);
      continue;
    }
    // Insertion sort of i's few partners (written out: this loop runs once per segment).
    for (let k = a + 1; k < b; k++) {
      const x = CJ[k];
      if (CJ[k - 1] <= x) continue;
      const d = D[k], ss = S[k], tt = T[k];
      let q = k - 1;
      while (q >= a && CJ[q] > x) {
        CJ[q + 1] = CJ[q];
        D[q + 1] = D[q];
        S[q + 1] = S[q];
        T[q + 1] = T[q];
        q--;
      }
      CJ[q + 1] = x;
      D[q + 1] = d;
      S[q + 1] = ss;
      T[q + 1] = tt;
    }
  }
}

/** Puts the pairs [a, b) of one i in order of j, carrying their numbers (for long runs: through an index). */
function sortPartners(CJ: Int32Array, D: Float64Array, S: Float64Array, T: Float64Array, a: number, b: number): void {
  const idx = Array.from({ length: b - a }, (_, q) => a + q).sort((x, y) => CJ[x] - CJ[y]);
  const cj = idx.map((q) => CJ[q]), d = idx.map((q) => D[q]), ss = idx.map((q) => S[q]), tt = idx.map((q) => T[q]);
  CJ.set(cj, a);
  D.set(d, a);
  S.set(ss, a);
  T.set(tt, a);
}

/** The public form of sorted compact pairs: input segment indices (mapped in place). */
function toContacts(A: PreparedChain, B: PreparedChain, sorted: PairShare, into: ChainContacts | null = null): ChainContacts {
  const { CI, CJ } = sorted;
  const n = into === null ? CI.length : into.count;
  const oa = A.orig, ob = B.orig;
  if (n > 0 && !((A.identity === true || identity(oa)) && (B.identity === true || identity(ob)))) {
    for (let k = 0; k < n; k++) {
      CI[k] = oa[CI[k]];
      CJ[k] = ob[CJ[k]];
    }
  }
  if (into !== null) return into; // its arrays hold `sorted`, its count is n (intoShare)
  return { count: n, i: CI, j: CJ, distance: sorted.distance, s: sorted.s, t: sorted.t };
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
 * traversal — or, for a planar chain at thickness 0 that crowds its bounding box (a random
 * walk, a scribble), a uniform grid; for one 3D chain, a uniform grid over its runs of 8
 * segments where that grid is dense enough (blocks3.ts), which finds the same pairs — then a
 * filtered exact test per pair whose boxes come within the thickness: about n log n for chains
 * that do not crowd one spot. Each pair's
 * distance, s and t come from the segment kernel as the pair is found. Memory O(n) in typed
 * arrays; the working memory (boxes, grid, sort counters: about 80–100 bytes per segment and
 * 32 per contact) is kept for the next call — {@link releaseChainMemory} frees it. With
 * `options.into` the contacts go into the caller's arrays and `into` is returned
 * ({@link ChainContactsOptions}); without, the result's arrays are fresh, of length `count`.
 * Not re-entrant (module scratch).
 *
 * @param points a flat array (x, y[, z …] per vertex, with `options.dim`) or an array of points
 *   (arrays, typed arrays or `{x, y[, z]}` objects).
 * @throws SkewlineInputError for a non-finite coordinate (naming the vertex), mixed dimensions,
 *   a flat array without `dim`, a thickness that is not a finite number ≥ 0, an unknown option
 *   key, a `closed` / `againstClosed` that is not a boolean, or an `into` that is not five
 *   arrays of the right types, shares memory with the input or itself, or is in use by a
 *   chainContactsParallel call in flight.
 */
export function chainContacts(points: ChainPoints, options?: ChainContactsOptions): ChainContacts {
  const t0 = performance.now();
  checkChainOptions(options, CONTACTS_KEYS, ['closed', 'againstClosed'], 'chainContacts');
  const into = options?.into === undefined ? null : checkInto(options.into, 'chainContacts', [points, options.against]);
  // A plain open 3D chain: validated while its boxes are built (quickSearch3).
  const quick = options?.dim === 3 && searchMode.broad !== 'grid' ? quickPrepare(points, options) : null;
  let t1 = performance.now();
  let A: PreparedChain, B: PreparedChain | null = null, tau: number;
  grouped = -1;
  if (quick !== null && quickSearch3(quick.A, quick.tau)) ({ A, tau } = quick);
  else {
    ({ A, B, tau } = prepare(points, options));
    t1 = performance.now();
    findPairs(A, B, tau);
  }
  const t2 = performance.now();
  // The 3D block search's pairs come grouped by block (sortGrouped), the 2D grid's in order (sortFound).
  const sorted = grouped >= 0 ? sortGrouped(A.m, grouped, tau === 0, into) : sortFound(A.m, tau === 0, false, into);
  const t3 = performance.now();
  const out = toContacts(A, B ?? A, sorted, into);
  const t4 = performance.now();
  chainStats.readMs = t1 - t0;
  chainStats.searchMs = t2 - t1;
  chainStats.sortMs = t3 - t2;
  chainStats.numbersMs = t4 - t3;
  return out;
}

/**
 * Boes' `collisions(p)`: 1 for each segment of `points` that is in contact (as defined by
 * {@link chainContacts}, same options) with any other segment, 0 otherwise. Its length is the
 * number of segments of `points` (n − 1, or n for a closed chain); with `against`, it flags the
 * segments of `points` that touch `against`.
 */
export function chainCollisions(points: ChainPoints, options?: ChainOptions): Uint8Array {
  checkChainOptions(options, CHAIN_KEYS, ['closed', 'againstClosed'], 'chainCollisions');
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
 * queries (crossing points). With `finish` (a 2D chain at thickness 0) the search computes the
 * crossing points as it goes: X, Y hold the point of each pair that the doubles certify as a
 * proper crossing (its point decided by crossCore or, where that leaves a coordinate open, by
 * `finish`, which fills the NaN coordinates of out for the pair in S), and NaN for the other
 * pairs (touches, overlaps, undecided); `decided` counts the points crossCore decided alone.
 * Without, X and Y are null. With `into` the sorted pairs go where it says (intoShare), else
 * into fresh arrays. Not part of the public API.
 */
export function contactPairs(
  points: ChainPoints, options?: ChainOptions, finish: ((S: Float64Array, out: Float64Array) => void) | null = null,
  into: IntoTarget | null = null,
): { A: PreparedChain; B: PreparedChain; CI: Int32Array; CJ: Int32Array; X: Float64Array | null; Y: Float64Array | null; decided: number; tau: number } {
  const { A, B, tau } = prepare(points, options);
  const fused = finish !== null && A.dim === 2 && tau === 0;
  POINTS = fused;
  FINISH = finish;
  decidedInSearch = 0;
  try {
    findPairs(A, B, tau);
  } finally {
    POINTS = false;
    FINISH = null;
  }
  const { CI, CJ, s, t } = sortFound(A.m, tau === 0, false, into);
  return { A, B: B ?? A, CI, CJ, X: fused ? s : null, Y: fused ? t : null, decided: decidedInSearch, tau };
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
 * @throws SkewlineInputError as {@link chainContacts} does, naming the chain (`chains[k]`); for
 *   an unknown option key, or a `closed` / `between` that is not a boolean.
 */
export function multiChainContacts(chains: readonly ChainPoints[], options: MultiChainOptions = {}): MultiChainContacts {
  if (!Array.isArray(chains)) throw new SkewlineInputError('multiChainContacts: chains must be an array of chains');
  checkChainOptions(options, MULTI_KEYS, ['closed', 'between'], 'multiChainContacts');
  const tau = checkThickness(options);
  const flats: Float64Array[] = [];
  let dim = options.dim;
  for (let k = 0; k < chains.length; k++) {
    const f = flattenChain(chains[k], dim, `chains[${k}]`);
    if (dim !== undefined && f.dim !== dim) throw new SkewlineInputError(`chains[${k}] has dimension ${f.dim}, chains[0] ${dim}`);
    dim = f.dim;
    flats.push(f.flat);
  }
  const parts: { A: PreparedChain; sorted: PairShare }[] = [];
  if (options.between === false) {
    for (const flat of flats) {
      const A = prepareChains([flat], dim ?? 2, options.closed === true, true);
      findPairs(A, null, tau);
      parts.push({ A, sorted: sortFound(A.m, tau === 0) });
    }
  } else {
    const A = prepareChains(flats, dim ?? 2, options.closed === true);
    findPairs(A, null, tau);
    parts.push({ A, sorted: sortFound(A.m, tau === 0) });
  }
  const n = parts.reduce((s, p) => s + p.sorted.CI.length, 0);
  const out = {
    count: n,
    chainI: new Int32Array(n), i: new Int32Array(n), chainJ: new Int32Array(n), j: new Int32Array(n),
    distance: new Float64Array(n), s: new Float64Array(n), t: new Float64Array(n),
  };
  let at = 0;
  parts.forEach(({ A, sorted: num }, p) => {
    const { CI, CJ } = num;
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
 * claims, their contacts and numbers, sorted by (i, j) — or, with `work.share`, as that makes
 * them (skewline/parallel partitions them for its merge). Fold-backs are included in the share whose `work.folds` is set.
 * Not part of the public API.
 */
export function searchShare(A: PreparedChain, B: PreparedChain | null, tau: number, work: ParallelWork): PairShare {
  if (work.found === undefined) {
    findPairs(A, B, tau, work);
    return work.share === undefined ? sortFound(A.m, tau === 0, work.build !== undefined) : work.share(foundShare(), A.m);
  }
  const own = [foundI, foundJ, foundD, foundS, foundT] as const;
  ({ CI: foundI, CJ: foundJ, distance: foundD, s: foundS, t: foundT } = work.found);
  try {
    findPairs(A, B, tau, work);
    return work.share === undefined ? sortFound(A.m, tau === 0, work.build !== undefined) : work.share(foundShare(), A.m);
  } finally {
    // The module's own arrays, or the larger ones the search grew into.
    if (foundI.buffer === work.found.CI.buffer) [foundI, foundJ, foundD, foundS, foundT] = own;
  }
}

/**
 * The main-thread side of a parallel search: validates and prepares the input (as chainContacts
 * does). Not part of the public API.
 */
export function prepareShares(points: ChainPoints, options?: ChainOptions): { A: PreparedChain; B: PreparedChain | null; tau: number } {
  return prepare(points, options);
}

/** Is orig[k] = k for every k (nothing dropped, one chain)? */
function identity(orig: Int32Array): boolean {
  for (let k = 0; k < orig.length; k++) if (orig[k] !== k) return false;
  return true;
}
