/**
 * The chain folder's continuous fold, driven by the tree it already holds (no rebuild): the
 * search of foldChain (src/fold/fold.ts) carried over to the folder's bounding spheres.
 *
 * A world sphere (centre p, radius ρ) bounds its sub-chain's cylindrical coordinates about the
 * rotation axis through the joint c: with v = p − c split into z = v·k and the distance r_p of p
 * from the axis, every point of the sub-chain has r ∈ [r_p − ρ, r_p + ρ], height in
 * [z − ρ, z + ρ], and angle about the axis within asin(ρ / r_p) of p's angle (everything when
 * r_p ≤ ρ). These are the [rlo, rhi, zlo, zhi, alpha, width] bounds foldChain's hierarchy holds,
 * so its window test (`windowOf`: the angles at which two such bounds can come within the
 * thickness, the turning one rotated) applies to the folder's nodes as they are. The search is
 * foldChain's best-first search by window start (the heap of src/fold/motion-search.ts), over
 * pairs (node owning fixed segments, node owning turning segments) from the root pair down,
 * splitting the larger sphere, and at leaf blocks over segment pairs (each segment bounded by
 * the sphere on its ends); segment pairs are solved by foldChain's certified advancement
 * (`foldPairSolve`, src/fold/advance.ts). A node that owns segments on both sides of the joint
 * serves as both: its sphere holds its fixed segments, and, turned, its turning ones.
 *
 * Two additions keep the search short when contact comes early (the common case on dense
 * chains): every pair's window also starts no earlier than its Lipschitz start — the turning
 * side's points move at most their distance from the axis (or the joint) per radian, so a pair
 * a gap apart at the start cannot come within the thickness before (gap − τ) / speed — taken
 * from the spheres for node pairs, from the segments' spheres when a leaf pair is opened, and
 * from the segment distance when such a pair is popped; and an expanding horizon per segment
 * pair: it is solved up to max(2⁻²⁰, 4·s) from its window start s, and the rest of its window
 * goes back on the heap, so no pair is certified far past a contact found meanwhile.
 *
 * Work order and cost. Most node pairs the search meets are due at once: their spheres are
 * within reach at the start (near the joint, and wherever the chain comes back near itself), or
 * their start is the key being worked on. They go on a stack worked before the heap's next
 * entry, with no heap traffic, and (spheres within reach at the start) no window. A node pair
 * whose Lipschitz start lies beyond the key waits on the heap at that start, and its window is
 * computed only when it is popped (over the range it was met with, so it is the window it would
 * have had): most folds stop before (half block within 10⁻³ rad). On the bench's 1e5 random
 * walk a fold met about 1,100 such pairs and computed all their windows; now it computes a
 * median of 4 (and on the thick chain 6 of about 1,000). The
 * trigonometric bounds of a node are computed only when one of its windows is needed; a
 * segment pair's window only when its Lipschitz start (a distance) does not drop it. Segment
 * spheres are computed once per fold. The per-fold caches are stamped, so nothing is cleared.
 *
 * What the last folds learned (the near-pair cache, {@link FoldNear}). Each fold used to start
 * from the root pair and split every node pair whose spheres are within reach in the pose it
 * starts from: on the bench's thick 1e5 chain about 2,700 such pairs a fold, 90% of them where
 * the chain comes back near itself, the same from one fold to the next. The tree now keeps the
 * pairs of leaf blocks whose spheres are within w (τ plus an eighth of the mean leaf radius) of
 * each other, each on the list of its two leaves' lowest common ancestor, with a lower bound of
 * its segments' distance once one was needed. A fold takes the listed pairs across its joint
 * (the lists of the joint leaf's ancestors): a pair whose bound keeps it beyond reach waits on
 * the heap at its Lipschitz start, unopened (kind LEAFLAZY); the others are opened. Every other
 * pair across the joint is farther than w − dtot apart, so the search from the root is needed
 * only from (w − dtot − τ) / (speed) on: one FAR entry per node of the turning part's cover
 * (three levels below its canonical nodes, each at its own speed), which, popped, searches
 * (root, that node) as before, skipping the listed pairs and splitting pairs within reach
 * without windows. A fold that ends before its FAR entries (about 60% on the thick 1e5 chain,
 * 70% on the walk) never searches from the root. After the fold the cache is kept current: a
 * move that turned the part beyond the joint by at most an eighth of the room is added to dtot;
 * a larger one lists the pairs across the joint anew in the new pose (and their bounds); once
 * dtot has used half the room, the next fold builds the cache again (keeping the bounds it
 * knows, less dtot, that stay beyond τ's reach; a fold takes a bound that the charge has brought
 * down to τ's reach again in its pose, so the bounds do not only decay). Pivots and stretches
 * leave it stale; the second of two folds in a row builds it. Decisions are certified as
 * before: the cache only chooses where the search starts and what it may leave for later, on
 * bounds that hold exactly (test/fold/folder-fold.test.ts checks them on the pose, in rationals
 * where close).
 *
 * The pose. What is certified is the exact rotation of the current pose (the doubles points()
 * returns) about the joint's doubles; the pose the folder then holds is the same move applied to
 * its composed rigid maps (a pivot), within `ecert` of that rotation per vertex: the folder's
 * bound of one move's rounding (2⁻⁴² of the extent, taken as the near list takes it; the tests
 * measure the rotation within 2⁻⁴⁰ of the size, and `ecert` is 4·2⁻⁴² of the extent). So every pair across the joint is certified farther than
 * τ + ecert apart along the exact motion, which keeps the held pose clear of τ.
 *
 * The end pose is checked exactly on the doubles the folder then holds. Pruning (Lipschitz
 * starts, windows) is done at the folder's near margin `wide` (τ plus 2⁻²⁴ of its scale), not at
 * τ: every cross pair the search did not solve is then certified farther than wide + ecert apart
 * up to the returned angle, so in the held pose it is neither in contact nor near (the folder's
 * near list needs no entry for it). The solved pairs (certified at τ + ecert only) are the
 * only cross pairs a blocked fold's end pose tests, exactly, beside what a pivot always tests:
 * the near list of pairs within the turning part that may round into contact, and the fold-back
 * at the joint. A free fold's end pose is checked in full, as a pivot. Either way a failure backs
 * the angle off towards the start as foldChain does. This rests on the same bound of a move's
 * rounding (ecert) as the folder's near list.
 * Internal (not re-exported); not re-entrant (module scratch).
 */
import { EPS as EPS_ } from '../core/eft.js';
import { pairWithin } from '../chain/narrow.js';
import { closestSegSeg2 as segSeg2, closestSegSeg3 as segSeg3 } from '../closest/segment-kernels.js';
import { foldBackAt, foldPairSolve as pairSolve, foldSetup, foldTurnPair, windowOf as windowOf_ } from './fold.js';
import { WIN as WIN_, heapClear, heapPop as heapPop_, heapPush as heapPush_, heapSize as heapSize_ } from './motion-search.js';

// Imports used in the hot loops, bound once: a transpiling loader (tsx, vitest) turns every use
// of an imported binding into a getter call.
const EPS = EPS_;
const WIN = WIN_;
const windowOf = windowOf_;
const foldPairSolve = pairSolve;
const closestSegSeg2 = segSeg2;
const closestSegSeg3 = segSeg3;
const heapPop = heapPop_;
const heapPush = heapPush_;
const heapSize = heapSize_;

/** What the fold needs of the folder's tree (src/fold/folder.ts): read-only views and the move. */
export interface FoldTree {
  readonly dim: number;
  /** Vertices. */
  readonly count: number;
  /** Leaf blocks in the padded tree (a power of two); node k's children are 2k and 2k + 1; leaf b is node L + b. */
  readonly L: number;
  /** Vertices per leaf block. */
  readonly block: number;
  readonly thickness: number;
  /** Spheres per node (centre in the node's frame, radius; radius < 0: empty). */
  readonly S: Float64Array;
  /** World sphere centres, 3 per node, valid after world(k). */
  readonly WC: Float64Array;
  /** World vertex coordinates, 3 per vertex, valid after vertex(v): the pose. */
  readonly WX: Float64Array;
  /** How far a node's segments may lie outside its sphere (drift of its copies; absolute). */
  readonly reach: number;
  /** The most a move's rounding puts a turned vertex away from the exact rotation (absolute). */
  readonly ecert: number;
  /**
   * The folder's near margin: pairs of an accepted pose within this distance must join its near
   * list (at least the thickness).
   */
  readonly wide: number;
  /**
   * Validity stamps of W/WC per node and of WX per leaf block: current where they equal
   * `epoch` (which does not change while a fold searches), so the search calls world() and
   * vertex() only for what is not.
   */
  readonly wStamp: Int32Array;
  readonly xStamp: Int32Array;
  readonly epoch: number;
  world(k: number): void;
  vertex(v: number): void;
  /** Turns the part beyond `joint` by `angle` if the end pose is free (exactly, as a pivot); false: unchanged. */
  turn(joint: number, angle: number): boolean;
  /**
   * As {@link FoldTree.turn}, but of the pairs across the joint only the n pairs (ci[q], ck[q])
   * are tested (exactly; those within `wide` join the near list): the caller certified every
   * other such pair farther than wide + ecert apart along the exact motion up to `angle`. The
   * fold-back at the joint and the near list are tested as by a pivot.
   */
  turnCertified(joint: number, angle: number, ci: Int32Array, ck: Int32Array, n: number): boolean;
  /** The pair that refused the last turn. */
  refusedI(): number;
  refusedJ(): number;
  /**
   * The pose's version: it changes with every move that changes the held pose (an accepted
   * pivot, a fold's end pose, a stretch), and only then (a rejected move leaves it).
   */
  readonly moves: number;
  /** The near-pair cache the fold keeps for this tree (see {@link FoldNear}); the folder only holds it. */
  readonly near: FoldNear;
  /** Re-reads the tree's fields (epoch, moves, bounds) after a turn changed them. */
  refresh(): void;
}

/**
 * The near leaf pairs of a pose, kept by the fold from one fold to the next (one per folder):
 * every pair of leaf blocks (A ≤ B) whose spheres were within `w` of each other when the pair
 * was last looked at. The invariant: every pair of leaf blocks not listed has its segments
 * farther apart than w − dtot in the held pose (for the pose of version `version`). A fold starts
 * its search from the listed pairs across its joint instead of from the root, and needs the
 * rest (all unlisted) only from (w − dtot − τ) / (the turning part's speed) on. Kept current by
 * the fold: a fold that moves the turning part little adds its bound of the move (its angle
 * times the turning part's distance from the axis, plus the rounding) to dtot (every pair's
 * relative displacement is at most the sum of those of the moves across it); one that moves it
 * more lists the pairs across its joint anew in the pose it leaves. Any other move (a pivot, a
 * stretch) leaves it stale (`version` no longer the tree's): it is built again (a descent of the
 * tree against itself at w) by the second of two folds with no other move between them.
 */
export interface FoldNear {
  /**
   * The pairs, in slots q < n (A[q] < 0: a free slot), each on the list of the tree node that is
   * the lowest common ancestor of its two leaves (head per node, nxt per slot; −1 ends a list):
   * a pair across a joint has its node among the ancestors of the joint's leaf. Free slots are
   * chained through nxt from `free`.
   */
  A: Int32Array;
  B: Int32Array;
  nxt: Int32Array;
  head: Int32Array;
  free: number;
  /**
   * Per pair, once a fold has needed it: a lower bound of its segments' distance (NaN: not yet),
   * and dtot when it was taken (so it holds, less the dtot added since, as long as the pair is listed).
   * A bound that decays to τ's reach through that charge alone is taken again by the next fold
   * that needs it.
   */
  D: Float64Array;
  D0: Float64Array;
  /**
   * Per pair with a bound: the segment pair (SI, SK) the bound leaves out (SI = −1: none), when
   * that pair alone is near: D then bounds every other pair, and the fold refines that one at
   * once instead of opening the leaf pair.
   */
  SI: Int32Array;
  SK: Int32Array;
  n: number;
  /** The pose version the list is current for (−1: none). */
  version: number;
  /** The pose version at the end of the last fold (a build waits for a fold that finds it unchanged). */
  seen: number;
  /** The distance the pairs were listed at (absolute). */
  w: number;
  /** The listing margin above τ (w − τ's bound at the build): the room small moves may use up. */
  room: number;
  /** The relative displacement of the small moves since (absolute). */
  dtot: number;
  /**
   * The pose version at which the small moves used up the room (−1: none): a build at that
   * version keeps the distance bounds it knows (less dtot); after any other move they are void.
   */
  spent: number;
}

/** A new, empty {@link FoldNear} (for a folder to hold). */
export function newFoldNear(): FoldNear {
  return { A: new Int32Array(0), B: new Int32Array(0), nxt: new Int32Array(0), head: new Int32Array(0), free: -1, D: new Float64Array(0), D0: new Float64Array(0), SI: new Int32Array(0), SK: new Int32Array(0), n: 0, version: -1, seen: -1, w: 0, room: 0, dtot: 0, spent: -1 };
}

/** What {@link foldOnTree} did (as foldChain's result, the pose held by the tree). */
export interface TreeFoldResult {
  angle: number;
  blocked: boolean;
  contact: { i: number; j: number } | null;
}

/**
 * Counts since the module was loaded (for the tests; not part of the package's API): node pairs
 * put on the heap at their Lipschitz start with their window not computed (`deferred`), and
 * those the search reached, whose window it then computed (`reached`).
 */
export const treeFoldStats = { deferred: 0, reached: 0, nearBuilds: 0, nearRefreshes: 0, nearFolds: 0, farReached: 0 };

/** For the tests (not part of the package's API): `nearCache` false searches every fold from the root. */
export const foldSwitches = { nearCache: true };

const TWO_PI = 2 * Math.PI;
/** Relative slack of the cylindrical bounds (sphere and frame rounding are ~1e-15). */
const SLACK = 2 ** -30;
/** The first horizon of the search, in radians, and its growth from round to round (up to the requested angle). */
const H0 = 2 ** -20;
const GROW = 4;
/** The most a blocked fold backs off (relative to max(1, |angle|)), as foldChain. */
const RESTART_BUDGET = 2 ** -24;
/** Node and segment pair kinds on the heap (the pLm field). */
const NODES = 0, SEGMENTS = 1, ROUGH = 2, REOPEN = 3, LAZY = 4, FAR = 5, LEAFLAZY = 6;
/**
 * The near-pair cache's listing margin above τ, relative to the mean leaf sphere radius. An eighth
 * rather than a quarter: fewer listed pairs across a joint to scan and bound, for more re-listings
 * and builds; measured faster on the bench's walk (interleaved A/B, median 0.9× at 1e5, 0.8× at
 * 1e6), the thick chain unchanged within the noise.
 */
const NEAR_ROOM = 0.125;
/** A move whose displacement bound is at most this share of the room is absorbed (dtot); a larger one lists the pairs across its joint anew. */
const SMALL_MOVE = 1 / 8;
/** The share of the room dtot may use up before the cache is built again. */
const ROOM_USE = 1 / 2;
/** How many levels below the turning part's canonical cover its FAR entries are taken (each with its own speed). */
const FAR_DEPTH = 3;

// Module scratch (not re-entrant).
const FRAME = new Float64Array(9);
const C = new Float64Array(3);
const AXIS = new Float64Array(3);
const Q4 = new Float64Array(12);
const RQ = new Float64Array(12);
const Q5 = new Float64Array(12); // leafLow's segment pair
let NC = new Float64Array(0); // per node: [rlo, rhi, zlo, zhi, alpha, width], valid where ncStamp = stamp
let ncStamp = new Int32Array(0);
let nrStamp = new Int32Array(0); // NC's radial and axial bounds only, valid where nrStamp = stamp
let stamp = 0;
const TOP = new Float64Array(6); // the heap entry being worked on
const SEGF = new Float64Array(6 * 64); // cylindrical bounds of a leaf block's segments
const SEGM = new Float64Array(6 * 64);
let SG = new Float64Array(0); // per segment, this fold: sphere centre, radius, reach from the joint (valid where sgStamp = stamp)
let sgStamp = new Int32Array(0);
const KS = new Int32Array(64); // turning segments of a leaf pair that can reach the fixed block
const LIPK = new Float64Array(64); // and their Lipschitz starts against it
let CZ3 = 0; // the joint's third coordinate (0 in 2D)
// The distance beyond which a pair is pruned: wide + ecert (as fold.ts's window test). Pairs are
// solved at τ + ecert (foldPairSolve); pruning at the folder's near margin `wide` instead
// certifies every pruned pair beyond it, so the end pose need test only the solved ones.
let TAUB = 0;
// The segment pairs solved (certified at τ + ecert only): the cross pairs a blocked fold's end pose tests.
let CI = new Int32Array(64);
let CK = new Int32Array(64);
let CN = 0;
// Node pairs due now (their start is the key being worked on): worked before the heap's next entry.
let DA = new Int32Array(256);
let DB = new Int32Array(256);
let DE = new Float64Array(256);
let DN = 0;
// Node pairs on the heap at their Lipschitz start, their window not yet computed (kind LAZY):
// the key the pair was met at, by index (the heap entry's mi field).
let LZ = new Float64Array(256);
let LN = 0;
// The near-pair cache (FoldNear): the listed pairs across this fold's joint (pushed at the
// start), which the search from the root that starts at FAR skips. From FAR on (FARMODE), the
// nodes over their first blocks have markF = stamp and those over their second blocks markT =
// stamp: a node pair (a, b) without both marks holds no listed pair, so its segments are
// farther apart than FARGAP (w − dtot), whatever its spheres say.
let XA = new Int32Array(64);
let XB = new Int32Array(64);
let XN = 0;
let markF = new Int32Array(0);
let markT = new Int32Array(0);
let FARMODE = false;
let FARGAP = 0;
// the turning part's cover (turningCover), whose nodes wait on the heap as FAR entries
let TN = new Int32Array(64);
let TNN = 0;
// the slots the last refresh listed
let NEWQ = new Int32Array(64);
let NEWN = 0;
// the stack of the near-pair descents
let NSA = new Int32Array(256);
let NSB = new Int32Array(256);

/**
 * Cylindrical bounds about the axis of the sphere (px, py, pz; rho) into out[o … o + 6):
 * r ∈ [rlo, rhi], z ∈ [zlo, zhi], angle within [alpha, alpha + width] (width ≥ 2π: any); the
 * radial and axial ones only (no trigonometry) when `angular` is false.
 */
function cylOf(px: number, py: number, pz: number, rho: number, out: Float64Array, o: number, angular = true): void {
  const vx = px - C[0], vy = py - C[1], vz = pz - CZ3;
  const x = vx * FRAME[0] + vy * FRAME[1] + vz * FRAME[2];
  const y = vx * FRAME[3] + vy * FRAME[4] + vz * FRAME[5];
  const z = vx * FRAME[6] + vy * FRAME[7] + vz * FRAME[8];
  const rc = Math.sqrt(x * x + y * y);
  // rounding of p, c, the frame and the products: far below 2⁻³⁰ of the magnitudes involved
  const r = rho + SLACK * (rho + Math.abs(px) + Math.abs(py) + Math.abs(pz) + Math.abs(C[0]) + Math.abs(C[1]) + Math.abs(CZ3));
  out[o] = rc > r ? rc - r : 0;
  out[o + 1] = rc + r;
  out[o + 2] = z - r;
  out[o + 3] = z + r;
  if (!angular) return;
  if (rc <= r * (1 + SLACK)) {
    out[o + 4] = 0;
    out[o + 5] = 4 * Math.PI;
    return;
  }
  const hw = Math.asin(r / rc) * (1 + 16 * EPS) + 16 * EPS;
  out[o + 4] = Math.atan2(y, x) - hw;
  out[o + 5] = 2 * hw >= TWO_PI ? 4 * Math.PI : 2 * hw;
}

let T: FoldTree;
// The tree's stamps and the epoch of the pose being searched (see FoldTree.wStamp).
let WST: Int32Array = new Int32Array(0);
let XST: Int32Array = new Int32Array(0);
let EPOCH = 0;
let BLK = 16;

/** Vertex v's world coordinates in T.WX. */
function vertexAt(v: number): void {
  if (XST[(v / BLK) | 0] !== EPOCH) T.vertex(v);
}
let J = 0; // the joint
let M = 0; // segments (count − 1)
let BEST = 0, BI = -1, BK = -1;

/** Node k's cylindrical bounds in NC (computed once per fold). */
function nodeCyl(k: number): void {
  if (ncStamp[k] === stamp) return;
  if (WST[k] !== EPOCH) T.world(k);
  const WC = T.WC, S = T.S;
  cylOf(WC[3 * k], WC[3 * k + 1], WC[3 * k + 2], S[4 * k + 3] + T.reach, NC, 6 * k);
  ncStamp[k] = nrStamp[k] = stamp;
}

/** Node k's radial and axial bounds in NC[6k … 6k + 4) (its speed, NC[6k + 1]; no trigonometry). */
function nodeRadial(k: number): void {
  if (nrStamp[k] === stamp) return;
  if (WST[k] !== EPOCH) T.world(k);
  const WC = T.WC, S = T.S;
  cylOf(WC[3 * k], WC[3 * k + 1], WC[3 * k + 2], S[4 * k + 3] + T.reach, NC, 6 * k, false);
  nrStamp[k] = stamp;
}

/** Segment range [lo, hi) node k owns (segment v is owned by vertex v's block). */
function ownLo(k: number): number {
  const l = Math.clz32(k) - Math.clz32(T.L);
  return ((k << l) - T.L) * T.block;
}
function ownHi(k: number): number {
  const l = Math.clz32(k) - Math.clz32(T.L);
  return Math.min(M, (((k + 1) << l) - T.L) * T.block);
}
/** Does node k own a segment before the joint (a fixed one)? */
function hasFixed(k: number): boolean {
  const lo = ownLo(k);
  return lo < J && lo < ownHi(k) && T.S[4 * k + 3] >= 0;
}
/** Does node k own a segment at or after the joint (a turning one)? */
function hasTurning(k: number): boolean {
  const hi = ownHi(k);
  return hi > J && ownLo(k) < hi && T.S[4 * k + 3] >= 0;
}

/**
 * The pair (a fixed-side node, b turning-side node), met while working on parameter s (the
 * least key on the heap) with window end e: dropped if its window starts at or after the best
 * so far; else put on the stack of pairs due now (its start is s), or on the heap at its start.
 * The start is the later of the Lipschitz start and the window's start. The window (which needs
 * trigonometry) is only computed when the Lipschitz start does not settle it: a pair whose
 * spheres are within TAUB at the start (most pairs the search meets, those near the joint) is
 * due at once when s = 0, as its window then starts at 0.
 */
function pushNodes(a: number, b: number, s: number, e: number): void {
  if (!hasFixed(a) || !hasTurning(b)) return;
  // (the search from the root, from FAR on: the listed leaf pairs were pushed at the start)
  if (FARMODE && a >= T.L && b >= T.L && markF[a] === stamp && markT[b] === stamp && listed(a - T.L, b - T.L)) return;
  if (a === b) {
    due(a, b, e);
    return;
  }
  // Lipschitz from the start: the turning node's points move at most rhi (their distance from
  // the axis) per radian, so the pair stays farther than TAUB until (gap at 0 − TAUB) / rhi.
  if (WST[a] !== EPOCH) T.world(a);
  if (WST[b] !== EPOCH) T.world(b);
  const WC = T.WC, S = T.S;
  const dx = WC[3 * b] - WC[3 * a], dy = WC[3 * b + 1] - WC[3 * a + 1], dz = WC[3 * b + 2] - WC[3 * a + 2];
  const ra = S[4 * a + 3] + T.reach, rb = S[4 * b + 3] + T.reach;
  const mag = ra + rb + Math.abs(WC[3 * a]) + Math.abs(WC[3 * a + 1]) + Math.abs(WC[3 * a + 2]) + Math.abs(WC[3 * b]) + Math.abs(WC[3 * b + 1]) + Math.abs(WC[3 * b + 2]);
  let gap = Math.sqrt(dx * dx + dy * dy + dz * dz) - ra - rb - SLACK * mag;
  if (FARMODE && (markF[a] !== stamp || markT[b] !== stamp) && FARGAP > gap) gap = FARGAP;
  if (gap <= TAUB && (s === 0 || FARMODE)) {
    // the spheres are within TAUB now: so are the cylindrical bounds, the window starts at 0
    // (from FAR on, at a key s > 0, the pair is split without its window: sound, the window
    // would only prune)
    due(a, b, e);
    return;
  }
  nodeRadial(b);
  const lip = (gap - TAUB) / (NC[6 * b + 1] * (1 + SLACK));
  if (lip >= BEST || lip > e) return;
  if (lip > s) {
    // not before lip: its window (trigonometry) waits until then, and most folds stop first
    if (LN === LZ.length) {
      const g = new Float64Array(2 * LN);
      g.set(LZ);
      LZ = g;
    }
    LZ[LN] = s;
    heapPush(a, b, LAZY, LN++, lip, e);
    treeFoldStats.deferred++;
    return;
  }
  windowed(a, b, s, e, lip, s);
}

/**
 * The node pair (a, b) by its window in [s0, e] (s0: the key it was met at) and its Lipschitz
 * start lip: dropped, due now (its start is s, the key being worked on), or on the heap at its
 * start.
 */
function windowed(a: number, b: number, s0: number, e: number, lip: number, s: number): void {
  nodeCyl(a);
  nodeCyl(b);
  if (!windowOf(NC, 6 * a, NC, 6 * b, s0, e) || !(WIN[0] < BEST)) return;
  let ns = WIN[0];
  if (lip > ns) ns = lip;
  if (!(ns < BEST && ns <= WIN[1])) return;
  if (ns <= s) due(a, b, WIN[1]);
  else heapPush(a, b, NODES, 0, ns, WIN[1]);
}

/** Puts the node pair (a, b) on the stack of pairs due now, with window end e. */
function due(a: number, b: number, e: number): void {
  if (DN === DA.length) {
    const ga = new Int32Array(2 * DN), gb = new Int32Array(2 * DN), ge = new Float64Array(2 * DN);
    ga.set(DA);
    gb.set(DB);
    ge.set(DE);
    DA = ga;
    DB = gb;
    DE = ge;
  }
  DA[DN] = a;
  DB[DN] = b;
  DE[DN++] = e;
}

/**
 * Segment v as a sphere on its ends (world coordinates), cached for the fold in SG[5v…]:
 * centre, radius (rounding allowed for), and an upper bound of its points' distance from the
 * joint (their speed per radian). Returns the offset 5v.
 */
function segSphere(v: number): number {
  const o = 5 * v;
  if (sgStamp[v] === stamp) return o;
  sgStamp[v] = stamp;
  vertexAt(v);
  vertexAt(v + 1);
  const X = T.WX, p = 3 * v, sp = SG;
  const ax = X[p], ay = X[p + 1], az = X[p + 2], bx = X[p + 3], by = X[p + 4], bz = X[p + 5];
  const dx = bx - ax, dy = by - ay, dz = bz - az;
  const h = 0.5 * Math.sqrt(dx * dx + dy * dy + dz * dz);
  const cx = ax + 0.5 * dx, cy = ay + 0.5 * dy, cz = az + 0.5 * dz;
  const r = h * (1 + SLACK) + SLACK * (Math.abs(ax) + Math.abs(ay) + Math.abs(az) + Math.abs(bx) + Math.abs(by) + Math.abs(bz));
  sp[o] = cx;
  sp[o + 1] = cy;
  sp[o + 2] = cz;
  sp[o + 3] = r;
  const ex = cx - C[0], ey = cy - C[1], ez = cz - CZ3;
  sp[o + 4] = (Math.sqrt(ex * ex + ey * ey + ez * ez) + r) * (1 + SLACK) + SLACK * (Math.abs(C[0]) + Math.abs(C[1]) + Math.abs(CZ3));
  return o;
}

/**
 * Segment pairs of leaf blocks a (fixed side) and b (turning side) onto the heap, at their
 * Lipschitz start from the segments' spheres: the turning segment's points move at most their
 * distance from the joint per radian, so a pair whose spheres are a gap apart stays beyond TAUB
 * until (gap − TAUB) / speed. Their windows and a sharper start are found when they are popped
 * ({@link refine}).
 */
function pushSegments(a: number, b: number, s: number, e: number, reopen: boolean): void {
  const B = T.block;
  const i0 = a * B, i1 = Math.min(J, (a + 1) * B, M);
  const k0 = Math.max(J, b * B), k1 = Math.min(M, (b + 1) * B);
  // The leaf pair's horizon: pairs whose Lipschitz start lies in [s, hz) now (below s too when
  // first opened), the rest when it is reopened at hz.
  let hz = s < H0 / GROW ? H0 : GROW * s;
  if (hz > BEST) hz = BEST;
  const lo = reopen ? s : -Infinity;
  // each side's segments that can come near the other block's sphere before hz (the turning
  // block's points move at most its rhi per radian, a turning segment's at most its speed)
  const A = T.L + a, Bn = T.L + b, WC = T.WC, S = T.S;
  if (WST[A] !== EPOCH) T.world(A);
  if (WST[Bn] !== EPOCH) T.world(Bn);
  nodeRadial(Bn);
  const ax = WC[3 * A], ay = WC[3 * A + 1], az = WC[3 * A + 2], ar = S[4 * A + 3] + T.reach;
  const bx = WC[3 * Bn], by = WC[3 * Bn + 1], bz = WC[3 * Bn + 2], br = S[4 * Bn + 3] + T.reach;
  const speedB = NC[6 * Bn + 1] * (1 + SLACK);
  let nk = 0;
  for (let k = k0; k < k1; k++) {
    const mo = segSphere(k);
    const dx = SG[mo] - ax, dy = SG[mo + 1] - ay, dz = SG[mo + 2] - az;
    const gap = Math.sqrt(dx * dx + dy * dy + dz * dz) * (1 - SLACK) - ar - SG[mo + 3] - TAUB - SLACK * (Math.abs(ax) + Math.abs(ay) + Math.abs(az) + ar);
    const lipK = gap / SG[mo + 4];
    if (!(lipK < hz)) continue;
    LIPK[nk] = lipK;
    KS[nk++] = k;
  }
  if (hz < e) heapPush(a + T.L, b + T.L, REOPEN, 0, hz, e);
  if (nk === 0) return;
  for (let i = i0; i < i1; i++) {
    const fo = segSphere(i);
    const fx = SG[fo], fy = SG[fo + 1], fz = SG[fo + 2], fr = SG[fo + 3];
    let lipI: number;
    {
      const dx = fx - bx, dy = fy - by, dz = fz - bz;
      const gap = Math.sqrt(dx * dx + dy * dy + dz * dz) * (1 - SLACK) - br - fr - TAUB - SLACK * (Math.abs(bx) + Math.abs(by) + Math.abs(bz) + br);
      lipI = gap / speedB;
      if (!(lipI < hz)) continue;
    }
    for (let q = 0; q < nk; q++) {
      const k = KS[q];
      if (k === i + 1) continue; // the two segments at the joint: their fold-back is solved apart
      const mo = 5 * k;
      const dx = SG[mo] - fx, dy = SG[mo + 1] - fy, dz = SG[mo + 2] - fz;
      const d2 = dx * dx + dy * dy + dz * dz;
      // most pairs start beyond the horizon: told without a root, with a relative margin far
      // above rounding (so that the root below, at the reopening, finds them at hz or later)
      const reachHz = fr + SG[mo + 3] + TAUB + hz * SG[mo + 4];
      if (d2 * (1 - 2 ** -20) > reachHz * reachHz) continue;
      const gap = Math.sqrt(d2) * (1 - SLACK) - fr - SG[mo + 3] - TAUB;
      // the pair's start: the latest of the three Lipschitz bounds (pair, segment k against
      // block a, segment i against block b); pushed at the opening whose range holds it
      let lip = gap / SG[mo + 4];
      if (LIPK[q] > lip) lip = LIPK[q];
      if (lipI > lip) lip = lipI;
      if (!(lip < hz) || lip < lo) continue; // later, or pushed at an earlier opening
      if (lip <= s) refine(i, k, s, e); // it would be popped next: refined now
      else if (lip <= e) heapPush(i, k, ROUGH, 0, lip, e);
    }
  }
}

/**
 * A segment pair popped at its rough start: its window in [s, e] (cylindrical bounds of the
 * segments' spheres) and its Lipschitz start from the pair's distance in the pose (the kernel
 * is within 8·u of the pair's size of it; 64·u allowed, as foldChain's evaluation); pushed back
 * as ready to solve.
 */
function refine(i: number, k: number, s: number, e: number): void {
  const fo = segSphere(i), mo = segSphere(k);
  // the Lipschitz start first (a distance, no trigonometry): it drops most pairs
  loadPair(i, k, Q4);
  const d = T.dim === 3 ? closestSegSeg3(Q4, 0, null, 0) : closestSegSeg2(Q4, 0, null, 0);
  let size = 0;
  for (let c = 0; c < 4 * T.dim; c++) size += Math.abs(Q4[c]);
  const lip = (d - 64 * EPS * size - TAUB) / SG[mo + 4];
  if (!(lip < BEST) || lip > e) return;
  cylOf(SG[fo], SG[fo + 1], SG[fo + 2], SG[fo + 3], SEGF, 0);
  cylOf(SG[mo], SG[mo + 1], SG[mo + 2], SG[mo + 3], SEGM, 0);
  if (!windowOf(SEGF, 0, SEGM, 0, s, e) || !(WIN[0] < BEST)) return;
  let ns = WIN[0];
  if (lip > ns) ns = lip;
  if (ns < BEST && ns <= WIN[1]) heapPush(i, k, SEGMENTS, 0, ns, WIN[1]);
}

/** Loads segments i (fixed) and k (turning) of the pose into Q4 (dim numbers per vertex). */
function loadPair(i: number, k: number, out: Float64Array): void {
  const dim = T.dim, X = T.WX;
  vertexAt(i);
  vertexAt(i + 1);
  vertexAt(k);
  vertexAt(k + 1);
  for (let c = 0; c < dim; c++) {
    out[c] = X[3 * i + c];
    out[dim + c] = X[3 * i + 3 + c];
    out[2 * dim + c] = X[3 * k + c];
    out[3 * dim + c] = X[3 * k + 3 + c];
  }
}

/**
 * The best-first search on [s0, s1]: the first motion parameter not certified for some pair
 * across the joint, into BEST / BI / BK (BI = −1: all of [s0, BEST) is certified, BEST as given).
 */
function search(s0: number, s1: number, useNear: boolean, rt: number): void {
  heapClear();
  DN = 0;
  LN = 0;
  XN = 0;
  FARMODE = false;
  const L = T.L;
  let root = hasFixed(1) && hasTurning(1);
  if (root && useNear) {
    // Start from the cached near pairs across the joint; every other pair across it is farther
    // than w − dtot apart, so beyond TAUB until sfar (its points move at most rt per radian),
    // and those with their turning segment in the cover's node c until the same over c's speed.
    const nr = T.near;
    const room = (nr.w - nr.dtot - TAUB) * (1 - SLACK);
    const sfar = room / (rt * (1 + SLACK));
    if (sfar > s0) {
      treeFoldStats.nearFolds++;
      const NA = nr.A, NB = nr.B, ND = nr.D, ND0 = nr.D0, NX = nr.nxt, blk = T.block, dtot = nr.dtot;
      const speed = rt * (1 + SLACK);
      for (let c = L + Math.floor(J / blk); c >= 1; c >>= 1) for (let q = nr.head[c]; q >= 0; q = NX[q]) {
        const a = NA[q], b = NB[q];
        if (a * blk >= J || (b + 1) * blk <= J) continue;
        if (XN === XA.length) {
          XA = grown(XA);
          XB = grown(XB);
        }
        XA[XN] = a;
        XB[XN++] = b;
        if (a !== b) {
          // the pair's distance bound (NaN until taken): beyond TAUB, it waits on the heap until its
          // Lipschitz start, unopened. A bound that was beyond TAUB when taken but has fallen to it
          // only through the dtot charged since (builds carry bounds over, less dtot, so without
          // this they only decay) is taken again in this pose: else the pair would be opened by
          // every later fold across it, though its segments may have stayed far apart.
          let lb = ND[q] - (dtot - ND0[q]);
          if (ND[q] !== ND[q] || (lb <= TAUB && ND[q] > TAUB)) {
            ND[q] = leafLow(a, b);
            ND0[q] = dtot;
            nr.SI[q] = LOW_I;
            nr.SK[q] = LOW_K;
            lb = ND[q];
          }
          if (lb > TAUB) {
            const lip = ((lb - TAUB) * (1 - SLACK)) / speed;
            if (lip > s0) {
              if (lip < s1) heapPush(L + a, L + b, LEAFLAZY, 0, lip, s1);
              // the one segment pair the bound leaves out, if it is across the joint: now
              const si = nr.SI[q], sk = nr.SK[q];
              if (si >= 0 && si < J && sk >= J) refine(si, sk, s0, s1);
              continue;
            }
          }
        }
        pushNodes(L + a, L + b, s0, s1);
      }
      for (let q = 0; q < TNN; q++) {
        const c = TN[q], sc = room / (NC[6 * c + 1] * (1 + SLACK));
        if (sc < s1) heapPush(1, c, FAR, 0, sc, s1);
      }
      root = false;
    }
  }
  if (root) heapPush(1, 1, NODES, 0, s0, s1);
  let s = s0;
  for (;;) {
    let a: number, b: number, kind: number, e: number;
    if (DN > 0) {
      // a pair due now: its start is s, the key being worked on
      if (s >= BEST) break;
      DN--;
      a = DA[DN];
      b = DB[DN];
      kind = NODES;
      e = DE[DN] < BEST ? DE[DN] : BEST;
    } else {
      if (heapSize() === 0) break;
      heapPop(TOP);
      s = TOP[4];
      if (s >= BEST) break;
      e = TOP[5] < BEST ? TOP[5] : BEST;
      a = TOP[0];
      b = TOP[1];
      kind = TOP[2];
    }
    if (kind === ROUGH) {
      refine(a, b, s, e);
      continue;
    }
    if (kind === LEAFLAZY) {
      // a listed pair whose distance bound kept it until here
      pushSegments(a - L, b - L, s, e, false);
      continue;
    }
    if (kind === FAR) {
      // the pairs not listed with their turning segment in b may come within reach from here:
      // the search from (root, b)
      if (!FARMODE) {
        FARMODE = true;
        FARGAP = (T.near.w - T.near.dtot) * (1 - SLACK);
        treeFoldStats.farReached++;
        for (let q = 0; q < XN; q++) {
          for (let k = L + XA[q]; k >= 1 && markF[k] !== stamp; k >>= 1) markF[k] = stamp;
          for (let k = L + XB[q]; k >= 1 && markT[k] !== stamp; k >>= 1) markT[k] = stamp;
        }
      }
      pushNodes(1, b, s, e);
      continue;
    }
    if (kind === LAZY) {
      treeFoldStats.reached++;
      // (its window over the range it was met with, so it is the one found there)
      windowed(a, b, LZ[TOP[3]], TOP[5], s, s);
      continue;
    }
    if (kind === SEGMENTS) {
      // the expanding horizon, per pair: solved up to max(H0, GROW·s) at a time, the rest of
      // its window pushed back (so a pair is not certified far past a contact found meanwhile)
      const cap = s < H0 / GROW ? H0 : GROW * s;
      const ec = e < cap ? e : cap;
      loadPair(a, b, Q4);
      if (CN === CI.length) {
        const gi = new Int32Array(2 * CN), gk = new Int32Array(2 * CN);
        gi.set(CI);
        gk.set(CK);
        CI = gi;
        CK = gk;
      }
      CI[CN] = a;
      CK[CN++] = b;
      const r = foldPairSolve(Q4, s, ec);
      if (r < BEST) {
        BEST = r;
        BI = a;
        BK = b;
      } else if (r === Infinity && ec < e) heapPush(a, b, SEGMENTS, 0, ec, e);
      continue;
    }
    const leafA = a >= L, leafB = b >= L;
    if (kind === REOPEN) {
      pushSegments(a - L, b - L, s, e, true);
    } else if (leafA && leafB) {
      pushSegments(a - L, b - L, s, e, false);
    } else if (a === b) {
      pushNodes(2 * a, 2 * a, s, e);
      pushNodes(2 * a, 2 * a + 1, s, e);
      pushNodes(2 * a + 1, 2 * a + 1, s, e);
    } else if (leafB || (!leafA && T.S[4 * a + 3] >= T.S[4 * b + 3])) {
      pushNodes(2 * a, b, s, e);
      pushNodes(2 * a + 1, b, s, e);
    } else {
      pushNodes(a, 2 * b, s, e);
      pushNodes(a, 2 * b + 1, s, e);
    }
  }
  heapClear();
  DN = 0;
  FARMODE = false;
}

// leafLow's segment pair left out of its bound (−1: none)
let LOW_I = -1;
let LOW_K = -1;

/**
 * A lower bound of the distance between the segments of leaf blocks a and b (a ≠ b, both
 * nonempty; adjacent segments apart) in the pose: the larger of (each segment of b against a's
 * sphere) and (each segment of a against b's sphere), their nearest, from the segments'
 * spheres; where that is within TAUB, the nearest of the segment pairs (by their spheres, or
 * where those are within TAUB by the segments' distance) instead (if larger). If one segment
 * pair alone is within TAUB, the bound is the others', and that pair is left in LOW_I, LOW_K
 * (else −1). Uses (and fills) the fold's segment spheres: the pose must be this fold's stamp's.
 */
function leafLow(a: number, b: number): number {
  const B = T.block, L = T.L;
  const A = L + a, Bn = L + b, WC = T.WC, S = T.S;
  if (WST[A] !== EPOCH) T.world(A);
  if (WST[Bn] !== EPOCH) T.world(Bn);
  let best = Infinity;
  for (let side = 0; side < 2; side++) {
    const o = side === 0 ? A : Bn, v0 = (side === 0 ? b : a) * B, v1 = Math.min(M, v0 + B);
    const ox = WC[3 * o], oy = WC[3 * o + 1], oz = WC[3 * o + 2], or = S[4 * o + 3] + T.reach;
    const slack = SLACK * (Math.abs(ox) + Math.abs(oy) + Math.abs(oz) + or);
    let low = Infinity;
    for (let v = v0; v < v1; v++) {
      const mo = segSphere(v);
      const dx = SG[mo] - ox, dy = SG[mo + 1] - oy, dz = SG[mo + 2] - oz;
      const g = Math.sqrt(dx * dx + dy * dy + dz * dz) * (1 - SLACK) - or - SG[mo + 3] - slack;
      if (g < low) low = g;
    }
    if (side === 0 || low > best) best = low;
  }
  LOW_I = LOW_K = -1;
  if (best > TAUB) return best;
  // not enough: the nearest of the segment pairs' spheres (adjacent segments, which the search
  // leaves to the fold-back test, apart)
  const i1 = Math.min(M, (a + 1) * B), k0 = b * B, k1 = Math.min(M, k0 + B);
  let pair = Infinity, pair2 = Infinity, pi = -1, pk = -1;
  for (let i = a * B; i < i1; i++) {
    const fo = 5 * i, fx = SG[fo], fy = SG[fo + 1], fz = SG[fo + 2], fr = SG[fo + 3];
    for (let k = k0; k < k1; k++) {
      if (k === i + 1) continue;
      const mo = 5 * k;
      const dx = SG[mo] - fx, dy = SG[mo + 1] - fy, dz = SG[mo + 2] - fz;
      let g = Math.sqrt(dx * dx + dy * dy + dz * dz) * (1 - SLACK) - fr - SG[mo + 3];
      if (g <= TAUB) {
        // spheres this near: the segments' distance (the kernel is within 8·u of the pair's
        // size of it; 64·u allowed, as refine)
        loadPair(i, k, Q5);
        const d = T.dim === 3 ? closestSegSeg3(Q5, 0, null, 0) : closestSegSeg2(Q5, 0, null, 0);
        let size = 0;
        for (let c = 0; c < 4 * T.dim; c++) size += Math.abs(Q5[c]);
        g = d - 64 * EPS * size;
      }
      if (g < pair) {
        pair2 = pair;
        pair = g;
        pi = i;
        pk = k;
      } else if (g < pair2) {
        pair2 = g;
      }
    }
  }
  if (pair > TAUB || pair2 <= TAUB) return pair > best ? pair : best;
  // one segment pair alone is near: the bound of the others, and that pair apart
  LOW_I = pi;
  LOW_K = pk;
  return pair2 > best ? pair2 : best;
}

/** Is the leaf pair (a, b) one of the listed pairs across the joint (XA, XB)? */
function listed(a: number, b: number): boolean {
  for (let q = 0; q < XN; q++) if (XA[q] === a && XB[q] === b) return true;
  return false;
}

function grownF(x: Float64Array, n: number): Float64Array<ArrayBuffer> {
  const g = new Float64Array(n);
  g.set(x);
  return g;
}

function grown(x: Int32Array): Int32Array<ArrayBuffer> {
  const g = new Int32Array(Math.max(64, 2 * x.length));
  g.set(x);
  return g;
}

/** The gap between the world spheres of nodes a and b (each widened by the reach): a lower bound of their segments' distance. */
function sphereGap(a: number, b: number): number {
  if (WST[a] !== EPOCH) T.world(a);
  if (WST[b] !== EPOCH) T.world(b);
  const WC = T.WC, S = T.S;
  const dx = WC[3 * b] - WC[3 * a], dy = WC[3 * b + 1] - WC[3 * a + 1], dz = WC[3 * b + 2] - WC[3 * a + 2];
  const ra = S[4 * a + 3] + T.reach, rb = S[4 * b + 3] + T.reach;
  const mag = ra + rb + Math.abs(WC[3 * a]) + Math.abs(WC[3 * a + 1]) + Math.abs(WC[3 * a + 2]) + Math.abs(WC[3 * b]) + Math.abs(WC[3 * b + 1]) + Math.abs(WC[3 * b + 2]);
  return Math.sqrt(dx * dx + dy * dy + dz * dz) - ra - rb - SLACK * mag;
}

/**
 * Lists in nr every pair of leaf blocks (A ≤ B) whose spheres are within w under the root pair
 * (cross: only the pairs across the joint J, a fixed-side block and a turning-side one): the
 * tree's descent against itself, splitting the larger sphere of a pair within w.
 */
function nearDescend(nr: FoldNear, w: number, cross: boolean): void {
  const L = T.L, S = T.S;
  NSA[0] = NSB[0] = 1;
  let n = 1;
  while (n > 0) {
    n--;
    const a = NSA[n], b = NSB[n];
    if (S[4 * a + 3] < 0 || S[4 * b + 3] < 0) continue;
    if (cross && (!hasFixed(a) || !hasTurning(b))) continue;
    if (a !== b && sphereGap(a, b) > w) continue;
    if (a >= L && b >= L) {
      const q = nearAdd(nr, a, b);
      if (cross) {
        if (NEWN === NEWQ.length) NEWQ = grown(NEWQ);
        NEWQ[NEWN++] = q;
      }
      continue;
    }
    if (n + 3 > NSA.length) {
      NSA = grown(NSA);
      NSB = grown(NSB);
    }
    if (a === b) {
      NSA[n] = 2 * a;
      NSB[n++] = 2 * a;
      NSA[n] = 2 * a;
      NSB[n++] = 2 * a + 1;
      NSA[n] = 2 * a + 1;
      NSB[n++] = 2 * a + 1;
    } else if (b >= L || (a < L && S[4 * a + 3] >= S[4 * b + 3])) {
      NSA[n] = 2 * a;
      NSB[n++] = b;
      NSA[n] = 2 * a + 1;
      NSB[n++] = b;
    } else {
      NSA[n] = a;
      NSB[n++] = 2 * b;
      NSA[n] = a;
      NSB[n++] = 2 * b + 1;
    }
  }
}

/** Lists the pair of leaf nodes a ≤ b (its distance bound not known yet); returns its slot. */
function nearAdd(nr: FoldNear, a: number, b: number): number {
  let q = nr.free;
  if (q >= 0) {
    nr.free = nr.nxt[q];
  } else {
    if (nr.n === nr.A.length) {
      nr.A = grown(nr.A);
      nr.B = grown(nr.B);
      nr.nxt = grown(nr.nxt);
      nr.D = grownF(nr.D, nr.A.length);
      nr.D0 = grownF(nr.D0, nr.A.length);
      nr.SI = grown(nr.SI);
      nr.SK = grown(nr.SK);
    }
    q = nr.n++;
  }
  const L = T.L;
  nr.A[q] = a - L;
  nr.B[q] = b - L;
  nr.D[q] = NaN;
  // the lowest common ancestor of the two leaves (at one depth): above their highest differing bit
  const c = a === b ? a : a >> (32 - Math.clz32(a ^ b));
  nr.nxt[q] = nr.head[c];
  nr.head[c] = q;
  return q;
}

/** Builds the near-pair cache of the current pose from scratch (see {@link FoldNear}). */
function nearBuild(nr: FoldNear): void {
  const L = T.L, S = T.S;
  let sum = 0, cnt = 0;
  for (let k = L; k < 2 * L; k++) {
    if (S[4 * k + 3] < 0) continue;
    sum += S[4 * k + 3];
    cnt++;
  }
  nr.room = cnt > 0 ? (NEAR_ROOM * sum) / cnt : 0;
  nr.w = TAUB + nr.room;
  // the distance bounds known now (less the displacement since), for the pairs listed again:
  // only if no move but the folds the cache counted came since
  const known = new Map<number, number>();
  let oldD: Float64Array | null = null, oldSI: Int32Array | null = null, oldSK: Int32Array | null = null;
  if (nr.spent === T.moves && nr.head.length === 2 * L) {
    for (let q = 0; q < nr.n; q++) if (nr.A[q] >= 0 && nr.D[q] === nr.D[q]) known.set(nr.A[q] * L + nr.B[q], q);
    oldD = nr.D.slice(0, nr.n);
    for (let q = 0; q < nr.n; q++) oldD[q] -= nr.dtot - nr.D0[q];
    oldSI = nr.SI.slice(0, nr.n);
    oldSK = nr.SK.slice(0, nr.n);
  }
  nr.dtot = 0;
  nr.n = 0;
  nr.free = -1;
  if (nr.head.length < 2 * L) nr.head = new Int32Array(2 * L);
  nr.head.fill(-1);
  nearDescend(nr, nr.w, false);
  for (let q = 0; q < nr.n; q++) {
    const o = known.get(nr.A[q] * L + nr.B[q]);
    // (a bound that the charge has brought down to TAUB is dropped, to be taken again in the
    // pose of the next fold that needs it: carried over, it would only decay further)
    if (o !== undefined && oldD !== null && oldSI !== null && oldSK !== null && oldD[o] > TAUB) {
      nr.D[q] = oldD[o];
      nr.D0[q] = 0;
      nr.SI[q] = oldSI[o];
      nr.SK[q] = oldSK[o];
    }
  }
  nr.version = T.moves;
  treeFoldStats.nearBuilds++;
}

/**
 * The turning part's cover, finely: the nodes that cover the blocks from the joint's on, each
 * taken FAR_DEPTH levels further down (or to the leaves), into TN (nonempty ones, TNN of them);
 * returns the most a point of a turning segment lies from the axis (its speed per radian), the
 * largest of their radial bounds.
 */
function turningCover(): number {
  let rt = 0;
  TNN = 0;
  const L = T.L, S = T.S;
  for (let l = Math.floor(J / T.block) + L, r = 2 * L; l < r; l >>= 1, r >>= 1) {
    if ((l & 1) === 0) continue;
    const c = l++;
    // c's descendants FAR_DEPTH levels down (fewer above the leaves)
    let lo = c, hi = c + 1;
    for (let d = 0; d < FAR_DEPTH && lo < L; d++) {
      lo *= 2;
      hi *= 2;
    }
    for (let k = lo; k < hi; k++) {
      if (S[4 * k + 3] < 0) continue;
      nodeRadial(k);
      if (TNN === TN.length) TN = grown(TN);
      TN[TNN++] = k;
      if (NC[6 * k + 1] > rt) rt = NC[6 * k + 1];
    }
  }
  return rt;
}

/**
 * Keeps the near-pair cache current after this fold turned the part beyond the joint J by
 * `angle` (its magnitude; the tree's pose has moved): a small move is added to dtot, a larger
 * one lists the pairs across J anew in the new pose (see {@link FoldNear}).
 */
function nearAfter(nr: FoldNear, angle: number, rt: number, ecert: number): void {
  T.refresh();
  EPOCH = T.epoch;
  WST = T.wStamp;
  XST = T.xStamp;
  // every turning point moves by at most angle · rt along its arc, and the held pose lies
  // within ecert of the exact turn
  const d = angle * rt * (1 + 2 * SLACK) + 2 * ecert;
  if (d <= SMALL_MOVE * nr.room) {
    nr.dtot += d;
  } else {
    treeFoldStats.nearRefreshes++;
    // the pairs across J leave (they are on the lists of the joint leaf's ancestors)
    const NA = nr.A, NB = nr.B, NX = nr.nxt, blk = T.block;
    for (let c = T.L + Math.floor(J / blk); c >= 1; c >>= 1) {
      let prev = -1;
      for (let q = nr.head[c]; q >= 0; ) {
        const nq = NX[q];
        if (NA[q] * blk < J && (NB[q] + 1) * blk > J) {
          if (prev < 0) nr.head[c] = nq;
          else NX[prev] = nq;
          NA[q] = -1;
          NX[q] = nr.free;
          nr.free = q;
        } else {
          prev = q;
        }
        q = nq;
      }
    }
    NEWN = 0;
    nearDescend(nr, nr.w, true);
    // the new pairs' distance bounds, in the new pose (the per-fold segment spheres are stale: a new stamp)
    stamp++;
    for (let k = 0; k < NEWN; k++) {
      const q = NEWQ[k];
      if (nr.A[q] === nr.B[q]) continue;
      nr.D[q] = leafLow(nr.A[q], nr.B[q]);
      nr.D0[q] = nr.dtot;
      nr.SI[q] = LOW_I;
      nr.SK[q] = LOW_K;
    }
  }
  nr.version = T.moves;
  if (nr.dtot > ROOM_USE * nr.room) {
    nr.version = -1;
    nr.spent = T.moves;
  }
}

/**
 * The continuous fold at `joint` by `angle` (axis: 3D, raw; null in 2D) on the tree's pose:
 * foldChain's contract — the exact motion certified clear up to the returned angle, the first
 * blocking pair, the returned pose checked exactly — with the pose left in the tree (see the
 * module notes). `axis` must be nonzero and finite (the caller validated the move).
 */
export function foldOnTree(tree: FoldTree, joint: number, angle: number, axis: ArrayLike<number> | null): TreeFoldResult {
  T = tree;
  WST = tree.wStamp;
  XST = tree.xStamp;
  EPOCH = tree.epoch;
  BLK = tree.block;
  J = joint;
  M = tree.count - 1;
  const dim = tree.dim;
  if (angle === 0) return { angle, blocked: false, contact: null };
  const sign = angle > 0 ? 1 : -1;
  const phiMax = Math.min(Math.abs(angle), TWO_PI);
  tree.vertex(joint);
  for (let c = 0; c < dim; c++) C[c] = tree.WX[3 * joint + c];
  CZ3 = dim === 3 ? C[2] : 0;
  if (dim === 3 && axis !== null) for (let c = 0; c < 3; c++) AXIS[c] = axis[c];
  const ax = dim === 3 ? AXIS : null;
  const tau = tree.thickness, ecert = tree.ecert;
  const wide = tree.wide > tau ? tree.wide : tau;
  foldSetup(C, dim, ax, sign, tau, ecert, FRAME, wide);
  TAUB = (wide + ecert) * (1 + 8 * EPS);
  CN = 0;
  // per-fold caches (node bounds, segment spheres), stamped; grown (and all stamps reset) together
  if (NC.length < 6 * 2 * tree.L || sgStamp.length < tree.count) {
    NC = new Float64Array(12 * tree.L);
    ncStamp = new Int32Array(2 * tree.L);
    nrStamp = new Int32Array(2 * tree.L);
    SG = new Float64Array(5 * tree.count);
    sgStamp = new Int32Array(tree.count);
    stamp = 0;
  }
  if (markF.length < 2 * tree.L) {
    markF = new Int32Array(2 * tree.L);
    markT = new Int32Array(2 * tree.L);
    stamp = 0;
    ncStamp.fill(0);
    nrStamp.fill(0);
    sgStamp.fill(0);
  }
  stamp++;

  // the near-pair cache: used where current, built by the second of two folds in a row
  const nr = tree.near;
  let useNear = false;
  if (joint > 0 && foldSwitches.nearCache) {
    if (nr.version !== tree.moves && nr.seen === tree.moves) nearBuild(nr);
    useNear = nr.version === tree.moves;
  }
  const rt = useNear ? turningCover() : 0;

  // the search: the fold-back at the joint first, then best-first over the tree
  BI = BK = -1;
  let fb = Infinity;
  if (joint >= 1) {
    for (let v = 0; v < 3; v++) {
      tree.vertex(joint - 1 + v);
      for (let c = 0; c < dim; c++) Q4[v * dim + c] = tree.WX[3 * (joint - 1 + v) + c];
    }
    fb = foldBackAt(Q4, ax);
  }
  if (joint > 0) {
    BEST = phiMax;
    if (fb < BEST) {
      BEST = fb;
      BI = joint - 1;
      BK = joint;
    }
    search(0, BEST, useNear, rt);
  }
  let blocked = BI >= 0;
  let ci = BI, cj = BK;
  let theta = blocked ? sign * BEST : angle;

  // A blocked pose must be one a next fold can start from (as foldChain): the blocking pair is
  // backed off along the certified path until its distance exceeds τ + 2·ecert in the tree's
  // pose (checked exactly on the Rodrigues pose, which lies within 2·ecert of it, against
  // τ + 4·ecert), within RESTART_BUDGET radians.
  if (blocked && cj !== ci + 1) {
    const restartTau = (tau + 4 * ecert) * (1 + 8 * EPS);
    let back = Math.abs(theta) * 2 ** -44 + 2 ** -52;
    const limit = Math.max(0, Math.abs(theta) - RESTART_BUDGET * Math.max(1, Math.abs(theta)));
    loadPair(ci, cj, Q4);
    for (;;) {
      foldTurnPair(Q4, Math.abs(theta), RQ);
      // the double distance is within 8·u of the pair's size of the exact one (64·u allowed,
      // as in refine): it settles the test but in a band around restartTau, where the exact
      // test decides
      let size = 0;
      for (let c = 0; c < 4 * dim; c++) size += Math.abs(RQ[c]);
      const err = 64 * EPS * size;
      const d = dim === 3 ? closestSegSeg3(RQ, 0, null, 0) : closestSegSeg2(RQ, 0, null, 0);
      if (d - err > restartTau || (d + err > restartTau && !pairWithin(RQ, dim, restartTau)) || Math.abs(theta) - back <= limit) break;
      theta = sign * (Math.abs(theta) - back);
      back *= 2;
    }
  }
  // The end pose, checked exactly (a pivot); on a failure back off towards the start (free).
  let back = Math.abs(theta) * 2 ** -30 + 2 ** -40;
  for (let tries = 0; ; tries++) {
    // A blocked fold: the search certified every cross pair it did not solve beyond wide + ecert
    // up to theta, so the end pose tests only the solved ones (a free one is tested in full).
    if (theta === 0 || (blocked ? tree.turnCertified(joint, theta, CI, CK, CN) : tree.turn(joint, theta))) break;
    ci = tree.refusedI();
    cj = tree.refusedJ();
    blocked = true;
    const mag = Math.abs(theta) - back;
    theta = mag > 0 && tries < 40 ? sign * Math.min(mag, phiMax) : 0;
    back *= 4;
  }
  if (useNear && theta !== 0) nearAfter(nr, Math.abs(theta), rt, ecert);
  else if (theta !== 0) tree.refresh();
  nr.seen = tree.moves;
  return { angle: theta, blocked, contact: blocked ? { i: ci, j: cj } : null };
}
