/**
 * A chain that remembers: {@link createChainFolder} holds a chain in a balanced tree of
 * sub-chains, each node with a rigid transform and a bounding sphere, so that a pivot (the
 * part beyond a joint turned rigidly about it) updates O(log N) nodes and its contact test
 * prunes whole sub-chains. The idea is N. Clisby's SAW-tree ("Efficient implementation of the
 * pivot algorithm for self-avoiding walks", J. Stat. Phys. 140, 2010), carried over to continuous
 * chains with a thickness; the tree here keeps a fixed shape (a segment tree over blocks of
 * vertices, no tree rotations) and applies a pivot to the O(log N) nodes that cover the turning
 * suffix by conjugation.
 *
 * Representation. Vertices sit in leaf blocks of {@link BLOCK} consecutive vertices, in local
 * coordinates. Every node n holds a rigid map T[n] (rotation + translation) from its children's
 * frame into its parent's; the world map of a node is W[n] = W[parent] ∘ T[n], always composed
 * in that order by one function, and a vertex's world coordinates are W[leaf]·x evaluated in
 * doubles. Those doubles are the pose: {@link ChainFolder.points} returns exactly them, and every
 * contact decision is made on exactly them (the exact predicates of src/chain/narrow.ts).
 *
 * A pivot of the vertices beyond joint j by the world rigid map G (rotation Q about p):
 * - each node c of the suffix's canonical cover gets T[c] ← (M⁻¹·G·M) ∘ T[c], with M = W[parent]
 *   (so W[c] becomes G ∘ W[c]); a leaf block cut by the joint has its turning vertices' local
 *   coordinates mapped by L⁻¹·G·L (L = W[leaf]); the nodes above get new spheres (merged from
 *   their children's for the move's test; once it is accepted, those up to 4 levels above the
 *   leaves are taken from their vertices, which are tighter, and the rest merged again); vertices
 *   up to the joint keep their doubles bit for bit (nothing on their path changes);
 * - rotations are re-orthonormalised after each update (one Newton–Schulz step,
 *   R ← R·(3I − RᵀR)/2), so rounding does not accumulate into a scaling: the pose error grows
 *   like a random walk of a few ulps of the chain's size per move (measured in the tests and
 *   stated in the README note);
 * - the contact test runs depth first over node pairs (a node owning fixed segments, one owning
 *   turning segments; a pair is tested before it is pushed), pruning a pair when their world
 *   spheres are farther apart than the thickness plus the near margin below (twice: pairs
 *   within the margin must be found too). It splits the node with the larger sphere, or both
 *   when the two are inner nodes whose radii are within a factor 2 (four pairs tested at once,
 *   which skips testing one child against the other whole node: 5–10% less CPU time per move
 *   on the bench's chains at 1e5 and 1e6), and visits the child nearer the joint along the chain
 *   first, so a rejected move usually stops early
 *   (contacts of a move are mostly near its joint). A leaf's sphere holds its vertices and a
 *   copy of the next block's first vertex, so it holds every segment the block owns (the copy
 *   is turned with the block's frame, and resynced with the vertex at each rebuild of the near
 *   list, so it is off by at most the margin's budget);
 * - leaf pairs filter segment pairs in doubles, each filter sound over its rounding, before the
 *   exact test (pairWithin, foldsBack at the joint): a segment's midpoint against the other
 *   block's sphere, the two midpoints against the half lengths, and in 3D the distance of the
 *   carrying lines (linesApart3), which settles nearly every pair of a thin chain: on a
 *   random walk at thickness 0 the exact test ran 14,000 times a move at 1e6 segments before
 *   and now almost never does;
 * - pairs inside the turning part keep their exact distance in the motion but not in
 *   rounded poses: those found within a margin of the thickness are remembered and rechecked
 *   exactly after every move that turns them; the margin (2⁻²⁴ of the chain's extent) covers the
 *   rounding of 2¹⁷ moves (taken as at most 2⁻⁴² of the extent per move: about 2¹¹ roundings of
 *   a coordinate through a path of rigid maps; the measured change is below 2⁻⁵⁰), after which
 *   the list is rebuilt from the pose. The list is also rebuilt when the chain's extent falls
 *   below a quarter of the one the margin was set with, so the margin follows a chain that
 *   folds up: a rod of 1e7 unit segments starts with a margin of 0.6 (three times a thickness
 *   of 0.2, which made most pairs "near"); folded by 20,000 pivots its extent is about 1.5e5,
 *   and the margin 0.009. Each rebuild costs one chainContacts of the whole chain: at most one
 *   per 2¹⁷ moves, plus one per fourfold shrinking. A remembered pair that an accepted pose puts beyond the
 *   margin leaves the list: from then on it is in the same state as a pair the rebuild left out
 *   (beyond the margin at a pose after the rebuild, so the rounding still to come before the
 *   next rebuild cannot bring it within the thickness). Without this, pairs that were near once
 *   (a chain grown from a rod has many) would be rechecked until the next rebuild.
 * On rejection every changed number is restored, so the pose is unchanged bit for bit.
 *
 * Cost. On a contact-free chain the test visits the node pairs whose spheres overlap. For a
 * self-avoiding walk that is O(log N)-ish (Clisby); for an ideal random walk in 3D the number
 * of segment pairs within a unit distance across the joint grows like √N (two random walks
 * from one point meet about √N times at unit range), and every such pair must be looked at,
 * so no bounding-volume search can be O(log N) there.
 */
import { EPS } from '../core/eft.js';
import { checkOptions, numberOption } from '../core/options.js';
import { SkewlineInputError } from '../core/primitives.js';
import type { VecLike } from '../core/types.js';
import { chainContacts } from '../chain/contacts.js';
import type { ChainContacts } from '../chain/contacts.js';
import { flattenChain } from '../chain/input.js';
import type { ChainPoints } from '../chain/input.js';
import { foldsBack, pairWithin } from '../chain/narrow.js';
import { foldOnTree, newFoldNear } from './folder-fold.js';
import type { FoldNear, FoldTree } from './folder-fold.js';
import type { SegmentPair } from './motion-input.js';
import { stretchChain } from './stretch.js';

/** Vertices per leaf block. */
export const BLOCK = 16;

/** Options of {@link createChainFolder}. */
export interface ChainFolderOptions {
  /** Coordinates per vertex (2 or 3); required when `points` is a flat array. */
  dim?: number | undefined;
  /** Contact distance, as in `chainContacts` (a length ≥ 0; default 0). */
  thickness?: number | undefined;
}

/** A move of {@link ChainFolder}: vertices joint + 1 … n − 1 turn by `angle` about the joint. */
export interface PivotMove {
  /** The joint: a vertex index in [0, n − 2]. */
  joint: number;
  /** Radians, either sign, any size. */
  angle: number;
  /** 3D only: the rotation axis (nonzero; right-hand rule). 2D: counter-clockwise for a positive angle. */
  axis?: VecLike | undefined;
}

/** What {@link ChainFolder.fold} did (foldChain's result without the points: read them with points()). */
export interface FolderFoldResult {
  angle: number;
  blocked: boolean;
  contact: SegmentPair | null;
}

/** What {@link ChainFolder.stretch} did. */
export interface FolderStretchResult {
  length: number;
  blocked: boolean;
  contact: SegmentPair | null;
}

/** A chain held for many moves; see {@link createChainFolder}. */
export interface ChainFolder {
  /** 2 or 3. */
  readonly dim: number;
  /** Number of vertices. */
  readonly count: number;
  /** The contact distance. */
  readonly thickness: number;
  /**
   * foldChain's contract on the current pose: continuous motion, stopping at the first contact
   * (the same blocking pair, an angle within foldChain's bound of it), the held pose turned by
   * the returned angle. Runs on the held tree (src/fold/folder-fold.ts: foldChain's windows and
   * certified advancement over the node spheres), no rebuild; the end pose is checked exactly as
   * a pivot's (which it is not counted as). Edge cases as foldChain's: angle 0 or joint 0 turn
   * freely (the end pose still checked), several turns are one turn's check.
   */
  fold(move: PivotMove): FolderFoldResult;
  /**
   * The Monte Carlo pivot: the end pose only. Accepted (returns true, the pose updated) when the
   * turned chain has no contact as chainContacts defines it, decided exactly on the coordinates
   * points() returns; rejected (false, the pose unchanged bit for bit) otherwise, with the pair
   * in {@link ChainFolder.rejectedBy}. Does not allocate.
   */
  pivot(move: PivotMove): boolean;
  /** The pair that rejected the last pivot (a fold-back at the joint reports (joint − 1, joint)); null after an accepted one. */
  rejectedBy(): SegmentPair | null;
  /** stretchChain on the current pose (the held pose becomes its returned pose). */
  stretch(move: { joint: number; length: number }): FolderStretchResult;
  /** The current pose as a new flat array (dim numbers per vertex), the exact doubles every decision used. */
  points(): Float64Array;
  /**
   * points() without the allocation: the pose of vertices `from` … count − 1 written into `out`
   * (vertex v at out[v·dim …], dim numbers each; the rest of `out` untouched), which is returned.
   * A Float32Array gets the doubles rounded to float. An accepted pivot or fold at joint j moves
   * only vertices j + 1 … count − 1 (vertices 0 … j stay bit for bit), so a view that redraws
   * after moves can pass the smallest such j + 1. `from` = count writes nothing.
   * Throws SkewlineInputError if `out` is not a Float64Array or Float32Array of at least
   * count·dim numbers, or `from` is not an integer in [0, count].
   */
  pointsInto<T extends Float64Array | Float32Array>(out: T, from?: number): T;
  /** chainContacts of the current pose (empty unless a fold or stretch left pairs on one side of its joint). */
  contacts(): ChainContacts;
  /** Moves tried and accepted by pivot() so far. */
  readonly stats: { pivots: number; accepted: number };
}

const FOLDER_KEYS = ['dim', 'thickness'] as const;
const MOVE_KEYS = ['joint', 'angle', 'axis'] as const;
const STRETCH_KEYS = ['joint', 'length'] as const;
/** Relative slack for bounding spheres (sound over rounding of rigid maps: errors are ~1e-15). */
const SLACK = 2 ** -30;
/** Relative widening of segment lengths used in pruning (covers their drift between refreshes). */
const LEN_SLACK = 2 ** -20;
/** Near-pair margin and per-move rounding bound, relative to the chain's size (see the module notes). */
const NEAR = 2 ** -24;
const PER_MOVE = 2 ** -42;

// Module scratch (not re-entrant).
const VQ = new Float64Array(12);
const GQ = new Float64Array(9); // rotation of the move
const GP = new Float64Array(3); // pivot point
const H = new Float64Array(12); // conjugated move
const TMP = new Float64Array(12);
let stackA: Int32Array = new Int32Array(256);
let stackB: Int32Array = new Int32Array(256);

/** out[oo…] = A[ao…] ∘ B[bo…] for rigid maps stored as 9 rotation entries (row-major) then 3 translation. */
function compose(A: Float64Array, ao: number, B: Float64Array, bo: number, out: Float64Array, oo: number): void {
  for (let r = 0; r < 3; r++) {
    const a0 = A[ao + 3 * r], a1 = A[ao + 3 * r + 1], a2 = A[ao + 3 * r + 2];
    out[oo + 3 * r] = a0 * B[bo] + a1 * B[bo + 3] + a2 * B[bo + 6];
    out[oo + 3 * r + 1] = a0 * B[bo + 1] + a1 * B[bo + 4] + a2 * B[bo + 7];
    out[oo + 3 * r + 2] = a0 * B[bo + 2] + a1 * B[bo + 5] + a2 * B[bo + 8];
    out[oo + 9 + r] = a0 * B[bo + 9] + a1 * B[bo + 10] + a2 * B[bo + 11] + A[ao + 9 + r];
  }
}

/**
 * H = M⁻¹ ∘ G ∘ M for the move G(x) = Q·(x − p) + p and a rigid M (its inverse: the transpose):
 * rotation MᵀQM, translation Mᵀ·(Q·d − d) with d = t_M − p (difference form).
 */
function conjugate(M: Float64Array, mo: number): void {
  // TMP = Q·R_M
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) TMP[3 * r + c] = GQ[3 * r] * M[mo + c] + GQ[3 * r + 1] * M[mo + 3 + c] + GQ[3 * r + 2] * M[mo + 6 + c];
  }
  const dx = M[mo + 9] - GP[0], dy = M[mo + 10] - GP[1], dz = M[mo + 11] - GP[2];
  const ex = GQ[0] * dx + GQ[1] * dy + GQ[2] * dz - dx;
  const ey = GQ[3] * dx + GQ[4] * dy + GQ[5] * dz - dy;
  const ez = GQ[6] * dx + GQ[7] * dy + GQ[8] * dz - dz;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) H[3 * r + c] = M[mo + r] * TMP[c] + M[mo + 3 + r] * TMP[3 + c] + M[mo + 6 + r] * TMP[6 + c];
    H[9 + r] = M[mo + r] * ex + M[mo + 3 + r] * ey + M[mo + 6 + r] * ez;
  }
  // M is a rotation only to rounding: MᵀQM would carry its (1 + δ)² scale into every update
  // (a drift linear in the number of moves); one step towards the nearest rotation removes it.
  orthonormalise(H, 0);
}

/** One Newton–Schulz step towards the nearest rotation: R ← R·(3I − RᵀR)/2 (in place, 9 entries at o). */
function orthonormalise(R: Float64Array, o: number): void {
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const s = R[o + r] * R[o + c] + R[o + 3 + r] * R[o + 3 + c] + R[o + 6 + r] * R[o + 6 + c];
      TMP[3 * r + c] = ((r === c ? 3 : 0) - s) * 0.5;
    }
  }
  for (let r = 0; r < 3; r++) {
    const a0 = R[o + 3 * r], a1 = R[o + 3 * r + 1], a2 = R[o + 3 * r + 2];
    R[o + 3 * r] = a0 * TMP[0] + a1 * TMP[3] + a2 * TMP[6];
    R[o + 3 * r + 1] = a0 * TMP[1] + a1 * TMP[4] + a2 * TMP[7];
    R[o + 3 * r + 2] = a0 * TMP[2] + a1 * TMP[5] + a2 * TMP[8];
  }
}

/** Reads and checks a move's joint, angle and axis into GQ (the rotation); returns the joint. */
function readMove(move: PivotMove, dim: number, n: number, what: string): number {
  checkOptions(move, MOVE_KEYS, what);
  if (move === null || typeof move !== 'object') throw new SkewlineInputError(`${what}: the move must be an object { joint, angle, axis }`);
  const { joint, angle, axis } = move;
  if (typeof joint !== 'number' || !Number.isInteger(joint) || joint < 0 || joint > n - 2) {
    throw new SkewlineInputError(`${what}: joint must be a vertex index with a vertex after it, an integer in [0, ${n - 2}] (got ${String(joint)})`);
  }
  if (typeof angle !== 'number' || !Number.isFinite(angle)) throw new SkewlineInputError(`${what}: angle must be a finite number of radians (got ${String(angle)})`);
  let kx = 0, ky = 0, kz = 1;
  if (dim === 2) {
    if (axis !== undefined) throw new SkewlineInputError(`${what}: axis is for 3D chains; a 2D move turns counter-clockwise for a positive angle`);
  } else {
    if (axis === undefined || axis === null) throw new SkewlineInputError(`${what}: a 3D move needs an axis (a nonzero direction)`);
    const a = axis as ArrayLike<number> & { x?: number; y?: number; z?: number };
    if (typeof a.x === 'number') {
      kx = a.x; ky = a.y as number; kz = a.z as number;
    } else if (a.length === 3) {
      kx = a[0]; ky = a[1]; kz = a[2];
    } else throw new SkewlineInputError(`${what}: axis must have 3 coordinates`);
    const s = Math.max(Math.abs(kx), Math.abs(ky), Math.abs(kz));
    if (!(s > 0) || !Number.isFinite(s)) throw new SkewlineInputError(`${what}: axis must be a finite nonzero direction`);
    kx /= s; ky /= s; kz /= s;
    const l = Math.sqrt(kx * kx + ky * ky + kz * kz);
    kx /= l; ky /= l; kz /= l;
  }
  // Rodrigues' rotation matrix: cos·I + sin·[k]× + (1 − cos)·k·kᵀ.
  const c = Math.cos(angle), s = Math.sin(angle), t = 1 - c;
  GQ[0] = c + t * kx * kx; GQ[1] = t * kx * ky - s * kz; GQ[2] = t * kx * kz + s * ky;
  GQ[3] = t * ky * kx + s * kz; GQ[4] = c + t * ky * ky; GQ[5] = t * ky * kz - s * kx;
  GQ[6] = t * kz * kx - s * ky; GQ[7] = t * kz * ky + s * kx; GQ[8] = c + t * kz * kz;
  return joint;
}

class Folder implements ChainFolder {
  readonly dim: number;
  count = 0;
  readonly thickness: number;
  readonly stats = { pivots: 0, accepted: 0 };
  private nb = 0; // leaf blocks
  private L = 1; // leaves in the padded tree (a power of two); node n's children are 2n, 2n + 1
  private X = new Float64Array(0); // local coordinates, 3 per vertex
  private T = new Float64Array(0); // 12 per node
  private S = new Float64Array(0); // sphere per node: center (local frame, before T) and radius; radius < 0: empty
  private SL = new Float64Array(0); // length of segment k (bounds, refreshed with the near list)
  private W = new Float64Array(0); // world maps, valid where wStamp = epoch
  private WC = new Float64Array(0); // world sphere centers (3 per node), valid with W
  private wStamp = new Int32Array(0);
  private WX = new Float64Array(0); // world coordinates, valid per block where xStamp = epoch
  private xStamp = new Int32Array(0);
  private epoch = 1;
  private poseMoves = 0; // the pose's version (FoldTree.moves): bumped by every move that changes it
  private nearI = new Int32Array(16);
  private nearJ = new Int32Array(16);
  private nearN = 0;
  private newI = new Int32Array(16);
  private newJ = new Int32Array(16);
  private newN = 0;
  private dropQ = new Int32Array(16); // near-list slots found beyond the margin by this move's check
  private dropN = 0;
  private budget = 0;
  private scale = 1;
  // undo log of a pivot
  private saveT = new Float64Array(12 * 64);
  private saveTn = new Int32Array(64);
  private saveTc = 0;
  private saveS = new Float64Array(4 * 128);
  private saveSn = new Int32Array(128);
  private saveSc = 0;
  private saveX = new Float64Array(3 * BLOCK);
  private XN = new Float64Array(0); // per leaf block: the next block's first vertex in this block's frame (a copy, resynced at rebuilds)
  private saveXN = new Float64Array(3);
  private dirty = new Int32Array(128);
  private rejI = -1;
  private rejJ = -1;
  private joint = 0;
  // The cross pairs a blocked fold's end check tests (candN < 0: all, as a pivot; see turnCertified in foldTree).
  private candI: Int32Array = new Int32Array(0);
  private candK: Int32Array = new Int32Array(0);
  private candN = -1;
  private tree: FoldTree | null = null;
  private readonly foldMove: { joint: number; angle: number; axis: VecLike | undefined } = { joint: 0, angle: 0, axis: undefined };

  constructor(flat: Float64Array, dim: number, tau: number) {
    this.dim = dim;
    this.thickness = tau;
    this.load(flat);
  }

  /** (Re)builds the tree from a flat pose: every node's map the identity, vertices in world coordinates. */
  private load(flat: Float64Array): void {
    const dim = this.dim;
    const n = flat.length / dim;
    this.count = n;
    const nb = Math.ceil(n / BLOCK);
    let L = 1;
    while (L < nb) L *= 2;
    this.nb = nb;
    this.L = L;
    if (this.X.length < 3 * n) {
      this.X = new Float64Array(3 * n);
      this.WX = new Float64Array(3 * n);
    }
    if (this.T.length < 12 * 2 * L) {
      this.T = new Float64Array(24 * L);
      this.W = new Float64Array(24 * L);
      this.WC = new Float64Array(6 * L);
      this.S = new Float64Array(8 * L);
      this.wStamp = new Int32Array(2 * L);
      this.xStamp = new Int32Array(L);
    }
    this.X.fill(0, 0, 3 * n);
    for (let v = 0; v < n; v++) for (let c = 0; c < dim; c++) this.X[3 * v + c] = flat[v * dim + c];
    const T = this.T;
    for (let k = 1; k < 2 * L; k++) {
      T.fill(0, 12 * k, 12 * k + 12);
      T[12 * k] = T[12 * k + 4] = T[12 * k + 8] = 1;
    }
    if (this.SL.length < n) this.SL = new Float64Array(n);
    if (this.XN.length < 3 * L) this.XN = new Float64Array(3 * L);
    for (let b = 0; b + 1 < nb; b++) for (let c = 0; c < 3; c++) this.XN[3 * b + c] = this.X[3 * (b + 1) * BLOCK + c];
    for (let b = 0; b < L; b++) this.leafSphere(b);
    // (merged only: rebuildNear below takes them from the vertices)
    for (let k = L - 1; k >= 1; k--) this.innerSphere(k, false);
    this.epoch++;
    this.poseMoves++;
    this.rebuildNear();
  }

  /** A bound on every world coordinate's magnitude now: the root sphere's (the root's map is the identity). */
  private extent(): number {
    const S = this.S;
    return Math.max(Math.abs(S[4]) + Math.abs(S[5]) + Math.abs(S[6]) + S[7], this.thickness, Number.MIN_VALUE);
  }

  /** The sphere of leaf block b from its local coordinates and its copy of the next block's first vertex. */
  private leafSphere(b: number): void {
    const S = this.S, o = 4 * (this.L + b), X = this.X;
    const v0 = b * BLOCK, v1 = Math.min(this.count, v0 + BLOCK);
    if (v0 >= v1) {
      S[o + 3] = -1;
      return;
    }
    let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
    for (let v = v0; v < v1; v++) {
      const x = X[3 * v], y = X[3 * v + 1], z = X[3 * v + 2];
      if (x < lx) lx = x;
      if (x > hx) hx = x;
      if (y < ly) ly = y;
      if (y > hy) hy = y;
      if (z < lz) lz = z;
      if (z > hz) hz = z;
    }
    // the copy of the next block's first vertex: the sphere holds every segment the block owns
    const next = v1 < this.count, XN = this.XN;
    if (next) {
      const x = XN[3 * b], y = XN[3 * b + 1], z = XN[3 * b + 2];
      if (x < lx) lx = x;
      if (x > hx) hx = x;
      if (y < ly) ly = y;
      if (y > hy) hy = y;
      if (z < lz) lz = z;
      if (z > hz) hz = z;
    }
    // the smallest sphere's centre (or the box's, when that one's sphere is not larger)
    let np = 0;
    for (let v = v0; v < v1; v++, np += 3) {
      DPTS[np] = X[3 * v];
      DPTS[np + 1] = X[3 * v + 1];
      DPTS[np + 2] = X[3 * v + 2];
    }
    if (next) {
      DPTS[np++] = XN[3 * b];
      DPTS[np++] = XN[3 * b + 1];
      DPTS[np++] = XN[3 * b + 2];
    }
    tightCentre(DPTS, np, lx + (hx - lx) / 2, ly + (hy - ly) / 2, lz + (hz - lz) / 2, 0);
    const cx = BALL[0], cy = BALL[1], cz = BALL[2];
    let r = 0;
    for (let q = 0; q < np; q += 3) {
      const dx = DPTS[q] - cx, dy = DPTS[q + 1] - cy, dz = DPTS[q + 2] - cz;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (d > r) r = d;
    }
    S[o] = cx;
    S[o + 1] = cy;
    S[o + 2] = cz;
    S[o + 3] = r * (1 + SLACK) + SLACK * (Math.abs(cx) + Math.abs(cy) + Math.abs(cz));
  }

  /**
   * The sphere of inner node k (its frame): from its vertices up to level DIRECT (see
   * directSphere), else the sphere enclosing its children's spheres mapped by their T.
   */
  private innerSphere(k: number, direct = true): void {
    const S = this.S, o = 4 * k;
    const a = 2 * k, b = 2 * k + 1;
    const ra = S[4 * a + 3], rb = S[4 * b + 3];
    if (direct && ra >= 0 && lev(k, this.L) <= DIRECT) {
      this.directSphere(k);
      return;
    }
    if (rb < 0 || ra < 0) {
      const c = ra < 0 ? b : a, r = ra < 0 ? rb : ra;
      if (r < 0) {
        S[o + 3] = -1;
        return;
      }
      this.mapCenter(c, S, o);
      S[o + 3] = r * (1 + SLACK) + SLACK * (Math.abs(S[o]) + Math.abs(S[o + 1]) + Math.abs(S[o + 2]));
      return;
    }
    this.mapCenter(a, VQ, 0);
    this.mapCenter(b, VQ, 3);
    const dx = VQ[3] - VQ[0], dy = VQ[4] - VQ[1], dz = VQ[5] - VQ[2];
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    let cx: number, cy: number, cz: number, r: number;
    if (d + rb <= ra) {
      cx = VQ[0]; cy = VQ[1]; cz = VQ[2]; r = ra;
    } else if (d + ra <= rb) {
      cx = VQ[3]; cy = VQ[4]; cz = VQ[5]; r = rb;
    } else {
      r = (d + ra + rb) / 2;
      const f = (r - ra) / d;
      cx = VQ[0] + f * dx; cy = VQ[1] + f * dy; cz = VQ[2] + f * dz;
    }
    S[o] = cx;
    S[o + 1] = cy;
    S[o + 2] = cz;
    S[o + 3] = r * (1 + SLACK) + SLACK * (Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + d);
  }

  /**
   * The sphere of inner node k from its vertices (and its leaves' copies of the next block's
   * first vertex), mapped into k's frame through its descendants' maps: the smallest sphere's
   * centre up to level TIGHT, the box centre above, and the farthest point's distance. A sphere merged from its children's spheres grows faster than
   * the sub-chain: on a random walk of 1e5 unit steps the merged ones are 1.08, 1.14, 1.18 and
   * 1.21 times these at levels 1 to 4. With these, a fold's search on the bench's 1e5 chains
   * meets about a quarter fewer node pairs (measured: 24% on the thick chain, 29% on the
   * walk). Levels up to DIRECT
   * only: an accepted move recomputes about one node a level on each side of its joint, here
   * at most 16 blocks of vertices each.
   */
  private directSphere(k: number): void {
    let np = 0;
    // depth-first over the descendants, each with its map into k's frame (MAPS, 12 per depth)
    const L = this.L;
    let top = 0;
    DSTACK[top++] = 2 * k + 1;
    DSTACK[top++] = 2 * k;
    DDEPTH[0] = DDEPTH[1] = 0;
    const T = this.T, S = this.S, X = this.X, XN = this.XN;
    while (top > 0) {
      top--;
      const c = DSTACK[top], d = DDEPTH[top];
      if (S[4 * c + 3] < 0) continue;
      // MAPS[d] = MAPS[d − 1] ∘ T[c] (the identity before k's children)
      if (d === 0) for (let q = 0; q < 12; q++) MAPS[q] = T[12 * c + q];
      else compose(MAPS, 12 * (d - 1), T, 12 * c, MAPS, 12 * d);
      if (c < L) {
        DSTACK[top] = 2 * c + 1;
        DDEPTH[top++] = d + 1;
        DSTACK[top] = 2 * c;
        DDEPTH[top++] = d + 1;
        continue;
      }
      const blk = c - L, v0 = blk * BLOCK, v1 = Math.min(this.count, v0 + BLOCK), m = 12 * d;
      for (let v = v0; v <= v1; v++) {
        // (v1: the copy of the next block's first vertex, if any)
        if (v === v1 && v1 === this.count) break;
        const P = v === v1 ? XN : X, q = v === v1 ? 3 * blk : 3 * v;
        const x = P[q], y = P[q + 1], z = P[q + 2];
        DPTS[np++] = MAPS[m] * x + MAPS[m + 1] * y + MAPS[m + 2] * z + MAPS[m + 9];
        DPTS[np++] = MAPS[m + 3] * x + MAPS[m + 4] * y + MAPS[m + 5] * z + MAPS[m + 10];
        DPTS[np++] = MAPS[m + 6] * x + MAPS[m + 7] * y + MAPS[m + 8] * z + MAPS[m + 11];
      }
    }
    let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
    for (let q = 0; q < np; q += 3) {
      const x = DPTS[q], y = DPTS[q + 1], z = DPTS[q + 2];
      if (x < lx) lx = x;
      if (x > hx) hx = x;
      if (y < ly) ly = y;
      if (y > hy) hy = y;
      if (z < lz) lz = z;
      if (z > hz) hz = z;
    }
    if (lev(k, L) <= TIGHT) tightCentre(DPTS, np, lx + (hx - lx) / 2, ly + (hy - ly) / 2, lz + (hz - lz) / 2, 0.6);
    else {
      BALL[0] = lx + (hx - lx) / 2;
      BALL[1] = ly + (hy - ly) / 2;
      BALL[2] = lz + (hz - lz) / 2;
    }
    const cx = BALL[0], cy = BALL[1], cz = BALL[2];
    let r2 = 0;
    for (let q = 0; q < np; q += 3) {
      const dx = DPTS[q] - cx, dy = DPTS[q + 1] - cy, dz = DPTS[q + 2] - cz;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 > r2) r2 = d2;
    }
    const o = 4 * k;
    S[o] = cx;
    S[o + 1] = cy;
    S[o + 2] = cz;
    // (the slack also covers the maps' rounding, which differs from the world maps' by a few ulps of the magnitudes)
    S[o + 3] = Math.sqrt(r2) * (1 + SLACK) + SLACK * (Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + (hx - lx) + (hy - ly) + (hz - lz));
  }

  /** The center of node c's sphere in its parent's frame (T[c] applied) into out[o…]. */
  private mapCenter(c: number, out: Float64Array, o: number): void {
    const T = this.T, S = this.S, t = 12 * c, s = 4 * c;
    const x = S[s], y = S[s + 1], z = S[s + 2];
    out[o] = T[t] * x + T[t + 1] * y + T[t + 2] * z + T[t + 9];
    out[o + 1] = T[t + 3] * x + T[t + 4] * y + T[t + 5] * z + T[t + 10];
    out[o + 2] = T[t + 6] * x + T[t + 7] * y + T[t + 8] * z + T[t + 11];
  }

  /** W[k] for the current epoch (composed from the root down: W[1] = T[1], W[k] = W[k/2] ∘ T[k]). */
  private world(k: number): void {
    if (this.wStamp[k] === this.epoch) return;
    if (k === 1) {
      this.W.set(this.T.subarray(12, 24), 12);
    } else {
      const p = k >> 1;
      if (this.wStamp[p] !== this.epoch) this.world(p);
      compose(this.W, 12 * p, this.T, 12 * k, this.W, 12 * k);
    }
    const W = this.W, S = this.S, w = 12 * k, x = S[4 * k], y = S[4 * k + 1], z = S[4 * k + 2];
    this.WC[3 * k] = W[w] * x + W[w + 1] * y + W[w + 2] * z + W[w + 9];
    this.WC[3 * k + 1] = W[w + 3] * x + W[w + 4] * y + W[w + 5] * z + W[w + 10];
    this.WC[3 * k + 2] = W[w + 6] * x + W[w + 7] * y + W[w + 8] * z + W[w + 11];
    this.wStamp[k] = this.epoch;
  }

  /** World coordinates of block b's vertices into WX (for the current epoch). */
  private blockWorld(b: number): void {
    if (this.xStamp[b] === this.epoch) return;
    const leaf = this.L + b;
    this.world(leaf);
    const W = this.W, w = 12 * leaf, X = this.X, WX = this.WX;
    const v1 = Math.min(this.count, (b + 1) * BLOCK);
    for (let v = b * BLOCK; v < v1; v++) {
      const x = X[3 * v], y = X[3 * v + 1], z = X[3 * v + 2];
      WX[3 * v] = W[w] * x + W[w + 1] * y + W[w + 2] * z + W[w + 9];
      WX[3 * v + 1] = W[w + 3] * x + W[w + 4] * y + W[w + 5] * z + W[w + 10];
      WX[3 * v + 2] = W[w + 6] * x + W[w + 7] * y + W[w + 8] * z + W[w + 11];
    }
    this.xStamp[b] = this.epoch;
  }

  /** World coordinates of vertex v (valid in WX afterwards). */
  private vertex(v: number): void {
    this.blockWorld(Math.floor(v / BLOCK));
  }

  points(): Float64Array {
    const n = this.count, dim = this.dim;
    const out = new Float64Array(n * dim);
    for (let b = 0; b < this.nb; b++) this.blockWorld(b);
    for (let v = 0; v < n; v++) for (let c = 0; c < dim; c++) out[v * dim + c] = this.WX[3 * v + c];
    return out;
  }

  pointsInto<T extends Float64Array | Float32Array>(out: T, from = 0): T {
    const n = this.count, dim = this.dim;
    if (!(out instanceof Float64Array || out instanceof Float32Array) || out.length < n * dim) {
      throw new SkewlineInputError(`pointsInto: out must be a Float64Array or Float32Array of at least ${n * dim} numbers (count × dim)`);
    }
    if (!Number.isInteger(from) || from < 0 || from > n) throw new SkewlineInputError(`pointsInto: from must be an integer in [0, ${n}], got ${String(from)}`);
    const WX = this.WX;
    for (let b = Math.floor(from / BLOCK); b < this.nb; b++) this.blockWorld(b);
    if (dim === 3) for (let i = 3 * from; i < 3 * n; i++) out[i] = WX[i];
    else for (let v = from; v < n; v++) for (let c = 0; c < dim; c++) out[v * dim + c] = WX[3 * v + c];
    return out;
  }

  contacts(): ChainContacts {
    return chainContacts(this.points(), { dim: this.dim, thickness: this.thickness });
  }

  rejectedBy(): SegmentPair | null {
    return this.rejI < 0 ? null : { i: this.rejI, j: this.rejJ };
  }

  /** Loads segment i's world ends into VQ[o…] (dim numbers each). */
  private loadSeg(i: number, o: number): void {
    this.loadVertex(i, o);
    this.loadVertex(i + 1, o + this.dim);
  }

  /**
   * Loads vertex v's world coordinates into VQ[o…] (dim numbers): from WX when its block is
   * current, else computed alone, by blockWorld's very expression (so the same doubles) — a
   * remembered near pair needs 4 vertices, not 4 blocks.
   */
  private loadVertex(v: number, o: number): void {
    const dim = this.dim, b = Math.floor(v / BLOCK);
    if (this.xStamp[b] === this.epoch) {
      for (let c = 0; c < dim; c++) VQ[o + c] = this.WX[3 * v + c];
      return;
    }
    const leaf = this.L + b;
    this.world(leaf);
    const W = this.W, w = 12 * leaf, X = this.X;
    const x = X[3 * v], y = X[3 * v + 1], z = X[3 * v + 2];
    VQ[o] = W[w] * x + W[w + 1] * y + W[w + 2] * z + W[w + 9];
    VQ[o + 1] = W[w + 3] * x + W[w + 4] * y + W[w + 5] * z + W[w + 10];
    if (dim === 3) VQ[o + 2] = W[w + 6] * x + W[w + 7] * y + W[w + 8] * z + W[w + 11];
  }

  /** The near-pair list from scratch: pairs of the pose within the margin of the thickness, and hairpins. */
  private rebuildNear(): void {
    this.nearN = 0;
    this.budget = 0;
    this.scale = this.extent();
    const pts = this.points();
    // Segment lengths: rigid moves keep them up to
    // the drift (about 1e-15 relative a move), far inside the 2⁻²⁰ widening, and they are
    // refreshed here, at least every 2¹⁷ moves.
    const SL = this.SL, L = this.L, WX = this.WX;
    for (let v = 0; v + 1 < this.count; v++) {
      const dx = WX[3 * v + 3] - WX[3 * v], dy = WX[3 * v + 4] - WX[3 * v + 1], dz = WX[3 * v + 5] - WX[3 * v + 2];
      const l = Math.sqrt(dx * dx + dy * dy + dz * dz) * (1 + LEN_SLACK);
      SL[v] = l;
    }
    // Resync every block's copy of the next block's first vertex with that vertex's world
    // coordinates (mapped back by the block's world map: Rᵀ·(x − t)), and the spheres with them.
    const XN = this.XN, W = this.W;
    for (let b = 0; b + 1 < this.nb; b++) {
      const leaf = L + b, w = 12 * leaf, v = 3 * (b + 1) * BLOCK;
      this.world(leaf);
      const dx = WX[v] - W[w + 9], dy = WX[v + 1] - W[w + 10], dz = WX[v + 2] - W[w + 11];
      XN[3 * b] = W[w] * dx + W[w + 3] * dy + W[w + 6] * dz;
      XN[3 * b + 1] = W[w + 1] * dx + W[w + 4] * dy + W[w + 7] * dz;
      XN[3 * b + 2] = W[w + 2] * dx + W[w + 5] * dy + W[w + 8] * dz;
      this.leafSphere(b);
    }
    for (let k = L - 1; k >= 1; k--) this.innerSphere(k);
    this.epoch++; // the world sphere centers are cached per epoch
    const tau = this.thickness;
    const wide = (tau + NEAR * this.scale) * (1 + 4 * EPS);
    const c = chainContacts(pts, { dim: this.dim, thickness: wide });
    for (let k = 0; k < c.count; k++) if (c.j[k] !== c.i[k] + 1) this.addNear(c.i[k], c.j[k], false);
    for (let v = 1; v + 1 < this.count; v++) if (this.hairpin(v)) this.addNear(v - 1, v, false);
  }

  /** Is the turn at vertex v within about 2⁻²⁰ rad of folding back (WX valid for v − 1 … v + 1)? */
  private hairpin(v: number): boolean {
    this.vertex(v - 1);
    this.vertex(v);
    this.vertex(v + 1);
    const WX = this.WX;
    let uu = 0, ww = 0, uw = 0;
    for (let c = 0; c < 3; c++) {
      const u = WX[3 * v - 3 + c] - WX[3 * v + c], w = WX[3 * v + 3 + c] - WX[3 * v + c];
      uu += u * u;
      ww += w * w;
      uw += u * w;
    }
    return uw > 0 && uw * uw >= uu * ww * (1 - 2 ** -40);
  }

  private addNear(i: number, j: number, fresh: boolean): void {
    if (fresh) {
      if (this.newN === this.newI.length) {
        this.newI = grow(this.newI);
        this.newJ = grow(this.newJ);
      }
      this.newI[this.newN] = i;
      this.newJ[this.newN++] = j;
      return;
    }
    for (let k = 0; k < this.nearN; k++) if (this.nearI[k] === i && this.nearJ[k] === j) return;
    if (this.nearN === this.nearI.length) {
      this.nearI = grow(this.nearI);
      this.nearJ = grow(this.nearJ);
    }
    this.nearI[this.nearN] = i;
    this.nearJ[this.nearN++] = j;
  }

  private saveNode(k: number): void {
    if (this.saveTc === this.saveTn.length) {
      this.saveTn = grow(this.saveTn);
      const g = new Float64Array(this.saveT.length * 2);
      g.set(this.saveT);
      this.saveT = g;
    }
    this.saveT.set(this.T.subarray(12 * k, 12 * k + 12), 12 * this.saveTc);
    this.saveTn[this.saveTc++] = k;
  }

  private markDirty(k: number): void {
    for (k >>= 1; k >= 1; k >>= 1) {
      let seen = false;
      for (let q = 0; q < this.saveSc; q++) {
        if (this.saveSn[q] === k) {
          seen = true;
          break;
        }
      }
      if (seen) return;
      if (this.saveSc === this.saveSn.length) {
        this.saveSn = grow(this.saveSn);
        const g = new Float64Array(this.saveS.length * 2);
        g.set(this.saveS);
        this.saveS = g;
        this.dirty = grow(this.dirty);
      }
      this.saveS.set(this.S.subarray(4 * k, 4 * k + 4), 4 * this.saveSc);
      this.saveSn[this.saveSc++] = k;
    }
  }

  /** Block b's copy of the next block's first vertex turned by H (the move in b's frame); the old one saved. */
  private turnCopy(b: number): void {
    const XN = this.XN, o = 3 * b;
    const x = XN[o], y = XN[o + 1], z = XN[o + 2];
    this.saveXN[0] = x;
    this.saveXN[1] = y;
    this.saveXN[2] = z;
    XN[o] = H[0] * x + H[1] * y + H[2] * z + H[9];
    XN[o + 1] = H[3] * x + H[4] * y + H[5] * z + H[10];
    XN[o + 2] = H[6] * x + H[7] * y + H[8] * z + H[11];
  }

  pivot(move: PivotMove): boolean {
    const n = this.count;
    const j = readMove(move, this.dim, n, 'pivot');
    this.stats.pivots++;
    this.rejI = this.rejJ = -1;
    if (move.angle === 0) {
      this.stats.accepted++;
      return true;
    }
    this.joint = j;
    // The pivot point: the joint's world coordinates (the doubles points() returns).
    this.vertex(j);
    GP[0] = this.WX[3 * j];
    GP[1] = this.WX[3 * j + 1];
    GP[2] = this.WX[3 * j + 2];
    const L = this.L;
    this.saveTc = 0;
    this.saveSc = 0;
    const a = j + 1; // first turning vertex
    let sb = Math.floor(a / BLOCK);
    // a leaf block cut by the joint: its turning vertices' local coordinates
    const partial = a % BLOCK !== 0;
    if (partial) {
      const leaf = L + sb;
      this.world(leaf);
      conjugate(this.W, 12 * leaf);
      const v1 = Math.min(n, (sb + 1) * BLOCK);
      const X = this.X;
      this.saveX.set(X.subarray(3 * sb * BLOCK, 3 * v1), 0);
      for (let v = a; v < v1; v++) {
        const x = X[3 * v], y = X[3 * v + 1], z = X[3 * v + 2];
        X[3 * v] = H[0] * x + H[1] * y + H[2] * z + H[9];
        X[3 * v + 1] = H[3] * x + H[4] * y + H[5] * z + H[10];
        X[3 * v + 2] = H[6] * x + H[7] * y + H[8] * z + H[11];
      }
      if (v1 < n) this.turnCopy(sb);
      this.saveS.set(this.S.subarray(4 * leaf, 4 * leaf + 4), 0);
      this.saveSn[0] = leaf;
      this.saveSc = 1;
      this.leafSphere(sb);
      this.markDirty(leaf);
      sb++;
    } else {
      // the joint is the last vertex of block sb − 1: only its copy of vertex a turns
      const leaf = L + sb - 1;
      this.world(leaf);
      conjugate(this.W, 12 * leaf);
      this.turnCopy(sb - 1);
      this.saveS.set(this.S.subarray(4 * leaf, 4 * leaf + 4), 0);
      this.saveSn[0] = leaf;
      this.saveSc = 1;
      this.leafSphere(sb - 1);
      this.markDirty(leaf);
    }
    // the canonical cover of blocks [sb, L): conjugate each node's map (parents' world maps are unchanged by these updates)
    for (let l = sb + L, r = 2 * L; l < r; l >>= 1, r >>= 1) {
      if (l & 1) {
        const c = l++;
        if (this.S[4 * c + 3] < 0) continue;
        this.world(c >> 1);
        conjugate(this.W, 12 * (c >> 1));
        this.saveNode(c);
        compose(H, 0, this.T, 12 * c, TMP, 0);
        for (let q = 0; q < 12; q++) this.T[12 * c + q] = TMP[q];
        orthonormalise(this.T, 12 * c);
        this.markDirty(c);
      }
    }
    // new spheres above, children first (larger indices first)
    const m = this.saveSc;
    const D = this.dirty;
    let dn = 0;
    for (let q = 0; q < m; q++) if (this.saveSn[q] < L) D[dn++] = this.saveSn[q];
    sortDesc(D, dn);
    // (merged for the test of this move; from their vertices once it is accepted, below)
    for (let q = 0; q < dn; q++) this.innerSphere(D[q], false);
    this.epoch++;
    if (this.clear(j)) {
      this.stats.accepted++;
      this.poseMoves++;
      // near pairs this pose put beyond the margin leave the list (slots in increasing order:
      // filled from the end, last first)
      for (let q = this.dropN - 1; q >= 0; q--) {
        const s = this.dropQ[q];
        this.nearI[s] = this.nearI[--this.nearN];
        this.nearJ[s] = this.nearJ[this.nearN];
      }
      for (let q = 0; q < this.newN; q++) this.addNear(this.newI[q], this.newJ[q], false);
      if (j >= 1 && this.hairpin(j)) this.addNear(j - 1, j, false);
      // the spheres this move changed, from their vertices (levels up to DIRECT) and merged
      // above: only for accepted moves (the move was tested on the merged ones: sound, looser)
      for (let q = 0; q < dn; q++) this.innerSphere(D[q]);
      this.epoch++;
      // the rounding of this move, against the margin the near list was built with
      // (A pose that has shrunk to a quarter of the scale the margin was set with is rebuilt
      // too: the margin, and the spheres' widening by it, follow the chain's size down; a chain
      // grown from a long rod would otherwise keep the rod's margin until the budget runs out.)
      const ext = this.extent();
      this.budget += PER_MOVE * ext;
      if (this.budget > (NEAR / 2) * this.scale || ext < this.scale / 4) this.rebuildNear();
      return true;
    }
    // undo, bit for bit
    for (let q = 0; q < this.saveTc; q++) this.T.set(this.saveT.subarray(12 * q, 12 * q + 12), 12 * this.saveTn[q]);
    for (let q = 0; q < this.saveSc; q++) this.S.set(this.saveS.subarray(4 * q, 4 * q + 4), 4 * this.saveSn[q]);
    if (partial) {
      const b = Math.floor(a / BLOCK);
      const v1 = Math.min(n, (b + 1) * BLOCK);
      this.X.set(this.saveX.subarray(0, 3 * (v1 - b * BLOCK)), 3 * b * BLOCK);
    }
    const jb = Math.floor(j / BLOCK);
    if ((jb + 1) * BLOCK < n) this.XN.set(this.saveXN, 3 * jb);
    this.epoch++;
    return false;
  }

  /** Is the pose (just turned at joint j) free of contacts? Leaves the offender in rejI, rejJ; newly near pairs in newI/newJ. */
  private clear(j: number): boolean {
    const n = this.count, m = n - 1, dim = this.dim, tau = this.thickness;
    this.newN = 0;
    this.dropN = 0;
    const wide = (tau + NEAR * this.scale) * (1 + 4 * EPS);
    // the fold-back at the joint
    if (j >= 1) {
      this.vertex(j - 1);
      this.vertex(j);
      this.vertex(j + 1);
      for (let k = 0; k < 3; k++) for (let c = 0; c < dim; c++) VQ[k * dim + c] = this.WX[3 * (j - 1 + k) + c];
      if (foldsBack(VQ, dim, 0, 1, 2)) {
        this.rejI = j - 1;
        this.rejJ = j;
        return false;
      }
    }
    // remembered near pairs inside the turning part
    for (let q = 0; q < this.nearN; q++) {
      const i = this.nearI[q], k = this.nearJ[q];
      if (i < j) continue;
      if (k === i + 1) {
        for (let t = 0; t < 3; t++) this.loadVertex(i + t, t * dim);
        if (foldsBack(VQ, dim, 0, 1, 2)) {
          this.rejI = i;
          this.rejJ = k;
          return false;
        }
        continue;
      }
      this.loadSeg(i, 0);
      this.loadSeg(k, 2 * dim);
      if (pairWithin(VQ, dim, tau)) {
        this.rejI = i;
        this.rejJ = k;
        return false;
      }
      if (!pairWithin(VQ, dim, wide)) {
        if (this.dropN === this.dropQ.length) this.dropQ = grow(this.dropQ);
        this.dropQ[this.dropN++] = q;
      }
    }
    if (j === 0) return true;
    if (this.candN >= 0) return this.candidatesClear(tau, wide);
    // fixed segments 0 … j − 1 (owned by vertices 0 … j − 1) against turning ones j … m − 1
    const L = this.L;
    // Spheres hold the segments their nodes own, up to the drift of the copies of next-block
    // vertices since the last rebuild (each copy and the vertex itself drift at most the budget,
    // which stays below NEAR / 2 of the scale); pairs within `wide` must be found (they join
    // the near list), so nodes are apart beyond wide + NEAR · scale.
    const reachOf = wide + NEAR * this.scale;
    // Depth-first over node pairs (A owning fixed segments, B turning ones); a pair is tested
    // before it is pushed. A pair (A, A) is a node the joint cuts: its children's pairs are the
    // child the joint cuts (if any) with itself, and the fixed-side child against the other.
    let sp = 0;
    stackA[sp] = 1;
    stackB[sp++] = 1;
    const S = this.S;
    while (sp > 0) {
      sp--;
      const A = stackA[sp], B = stackB[sp];
      const leafA = A >= L, leafB = B >= L;
      if (leafA && leafB) {
        if (!this.leafPairs(A - L, B - L, j, m, tau, wide)) return false;
        continue;
      }
      if (sp + 3 > stackA.length) {
        stackA = grow(stackA);
        stackB = grow(stackB);
      }
      if (A === B) {
        const l = 2 * A, r = l + 1;
        const lr = lev(r, L), r0 = ((r << lr) - L) * BLOCK; // r's first segment
        // (the cut child is pushed last, so popped first: the search reaches the pairs nearest
        // the joint first, where most contacts of a rejected move are)
        if (r0 < m && !this.apart(l, r, reachOf)) {
          stackA[sp] = l; stackB[sp++] = r;
        }
        if (r0 > j) {
          stackA[sp] = l; stackB[sp++] = l; // the joint cuts l (l's first segment, A's, is fixed)
        } else if (r0 < j) {
          stackA[sp] = r; stackB[sp++] = r; // the joint cuts r (A owns turning segments)
        }
        continue;
      }
      // Two inner nodes of about one size: both split at once (four pairs, each tested before
      // it is pushed), which skips testing the pairs of one child with the other whole node.
      const ra = S[4 * A + 3], rb = S[4 * B + 3];
      if (!leafA && !leafB && ra <= 2 * rb && rb <= 2 * ra) {
        if (sp + 5 > stackA.length) {
          stackA = grow(stackA);
          stackB = grow(stackB);
        }
        const a1 = 2 * A, b1 = 2 * B;
        const la = lev(a1 + 1, L), lb = lev(b1 + 1, L);
        const a2 = ((a1 + 1) << la) * BLOCK - L * BLOCK < j ? a1 + 1 : 0; // owns fixed segments
        const b0 = ((b1 + 1) << lb) * BLOCK - L * BLOCK > j ? b1 : 0; // owns turning segments
        const b2 = b1 + 1;
        if (!this.apart(a1, b2, reachOf)) {
          stackA[sp] = a1; stackB[sp++] = b2;
        }
        if (a2 !== 0 && !this.apart(a2, b2, reachOf)) {
          stackA[sp] = a2; stackB[sp++] = b2;
        }
        if (b0 !== 0 && !this.apart(a1, b0, reachOf)) {
          stackA[sp] = a1; stackB[sp++] = b0;
        }
        if (a2 !== 0 && b0 !== 0 && !this.apart(a2, b0, reachOf)) {
          stackA[sp] = a2; stackB[sp++] = b0;
        }
        continue;
      }
      // Split the larger: its children that own segments of their side; the child nearer the
      // joint along the chain is pushed last (popped first).
      if (leafB || (!leafA && ra >= rb)) {
        // A's first child always owns fixed segments; the second when it starts before j
        const c = 2 * A;
        if (!this.apart(c, B, reachOf)) {
          stackA[sp] = c; stackB[sp++] = B;
        }
        const lc = lev(c + 1, L);
        if (((c + 1) << lc) * BLOCK - L * BLOCK < j && !this.apart(c + 1, B, reachOf)) {
          stackA[sp] = c + 1; stackB[sp++] = B;
        }
      } else {
        // B's second child owns turning segments when it is not empty; the first when it ends after j
        const c = 2 * B;
        if (!this.apart(A, c + 1, reachOf)) {
          stackA[sp] = A; stackB[sp++] = c + 1;
        }
        const lc = lev(c + 1, L);
        if (((c + 1) << lc) * BLOCK - L * BLOCK > j && !this.apart(A, c, reachOf)) {
          stackA[sp] = A; stackB[sp++] = c;
        }
      }
    }
    return true;
  }

  /**
   * The cross pairs of a blocked fold's end pose that its search left uncertified (candI, candK):
   * false on a contact (the pair in rejI, rejJ); those within `wide` join newI/newJ.
   */
  private candidatesClear(tau: number, wide: number): boolean {
    const dim = this.dim;
    for (let q = 0; q < this.candN; q++) {
      const i = this.candI[q], k = this.candK[q];
      this.loadSeg(i, 0);
      this.loadSeg(k, 2 * dim);
      if (!pairWithin(VQ, dim, wide)) continue;
      if (pairWithin(VQ, dim, tau)) {
        this.rejI = i;
        this.rejJ = k;
        return false;
      }
      this.addNear(i, k, true);
    }
    return true;
  }

  /** Are nodes A and B's world spheres certainly farther apart than `extra`? */
  private apart(A: number, B: number, extra: number): boolean {
    const S = this.S;
    const ra = S[4 * A + 3], rb = S[4 * B + 3];
    if (ra < 0 || rb < 0) return true;
    // (the stamps checked here: world() is recursive, so not inlined, and most are current)
    const ep = this.epoch, ws = this.wStamp;
    if (ws[A] !== ep) this.world(A);
    if (ws[B] !== ep) this.world(B);
    const WC = this.WC;
    const ax = WC[3 * A], ay = WC[3 * A + 1], az = WC[3 * A + 2];
    const bx = WC[3 * B], by = WC[3 * B + 1], bz = WC[3 * B + 2];
    const dx = bx - ax, dy = by - ay, dz = bz - az;
    const reach = ra + rb + extra;
    const slack = SLACK * (reach + Math.abs(ax) + Math.abs(ay) + Math.abs(az) + Math.abs(bx) + Math.abs(by) + Math.abs(bz));
    const lim = reach + slack;
    return dx * dx + dy * dy + dz * dz > lim * lim * (1 + 8 * EPS);
  }

  /**
   * Segment pairs of leaf blocks a (fixed owners < j) and b (turning owners ≥ j): false on a
   * contact (the pair in rejI, rejJ); pairs within `wide` but not within τ join newI/newJ.
   * Three filters before the exact test, each sound over rounding: a segment lies within half
   * its length of its midpoint, so (1) a segment whose midpoint is farther from the other
   * block's sphere than that sphere's reach plus its half length cannot meet the block, and
   * (2) a pair whose midpoints are farther apart than the half lengths plus `wide` is not
   * within `wide`; (3) in 3D, the distance of the two carrying lines bounds the segments'
   * distance from below (linesApart3).
   */
  private leafPairs(a: number, b: number, j: number, m: number, tau: number, wide: number): boolean {
    const dim = this.dim, WX = this.WX;
    const i0 = a * BLOCK, i1 = Math.min(j, (a + 1) * BLOCK);
    const k0 = Math.max(j, b * BLOCK), k1 = Math.min(m, (b + 1) * BLOCK);
    const ep = this.epoch, xs = this.xStamp;
    if (xs[a] !== ep) this.blockWorld(a);
    if (i1 === (a + 1) * BLOCK && xs[a + 1] !== ep) this.blockWorld(a + 1);
    if (xs[b] !== ep) this.blockWorld(b);
    if (k1 === (b + 1) * BLOCK && k1 < this.count && xs[b + 1] !== ep) this.blockWorld(b + 1);
    const LA = this.L + a, LB = this.L + b, WC = this.WC, S = this.S, SL = this.SL;
    const reachOf = wide + NEAR * this.scale; // as in clear()
    let nk = 0;
    {
      const cx = WC[3 * LA], cy = WC[3 * LA + 1], cz = WC[3 * LA + 2];
      const r = S[4 * LA + 3] + reachOf;
      const sl = SLACK * (Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + r);
      for (let k = k0; k < k1; k++) {
        const q = 3 * k;
        const mx = (WX[q] + WX[q + 3]) * 0.5, my = (WX[q + 1] + WX[q + 4]) * 0.5, mz = (WX[q + 2] + WX[q + 5]) * 0.5;
        const dx = mx - cx, dy = my - cy, dz = mz - cz, h = SL[k] * 0.5, rr = (r + h) * (1 + SLACK) + sl;
        if (dx * dx + dy * dy + dz * dz > rr * rr) continue;
        CAND[nk] = k;
        CM[3 * nk] = mx;
        CM[3 * nk + 1] = my;
        CM[3 * nk + 2] = mz;
        CH[nk++] = h;
      }
    }
    if (nk === 0) return true;
    const cx = WC[3 * LB], cy = WC[3 * LB + 1], cz = WC[3 * LB + 2];
    const rB = S[4 * LB + 3] + reachOf;
    const slB = SLACK * (Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + rB);
    for (let i = i0; i < i1; i++) {
      const p = 3 * i;
      const mx = (WX[p] + WX[p + 3]) * 0.5, my = (WX[p + 1] + WX[p + 4]) * 0.5, mz = (WX[p + 2] + WX[p + 5]) * 0.5;
      const hi = SL[i] * 0.5;
      {
        const dx = mx - cx, dy = my - cy, dz = mz - cz, rr = (rB + hi) * (1 + SLACK) + slB;
        if (dx * dx + dy * dy + dz * dz > rr * rr) continue;
      }
      const li = hi + wide;
      const sli = SLACK * (Math.abs(mx) + Math.abs(my) + Math.abs(mz) + li);
      for (let t = 0; t < nk; t++) {
        const k = CAND[t];
        if (k === i + 1) continue; // the fold-back at the joint is tested apart
        const dx = CM[3 * t] - mx, dy = CM[3 * t + 1] - my, dz = CM[3 * t + 2] - mz;
        const reach = (li + CH[t]) * (1 + SLACK) + sli; // (the slack covers the midpoints' rounding)
        if (dx * dx + dy * dy + dz * dz > reach * reach) continue;
        const q = 3 * k;
        if (dim === 3 && linesApart3(WX, p, q, wide)) continue;
        for (let c = 0; c < dim; c++) {
          VQ[c] = WX[p + c];
          VQ[dim + c] = WX[p + 3 + c];
          VQ[2 * dim + c] = WX[q + c];
          VQ[3 * dim + c] = WX[q + 3 + c];
        }
        if (!pairWithin(VQ, dim, wide)) continue;
        if (pairWithin(VQ, dim, tau)) {
          this.rejI = i;
          this.rejJ = k;
          return false;
        }
        this.addNear(i, k, true);
      }
    }
    return true;
  }

  /** The world spheres of every node (see {@link folderSpheres}). */
  spheres(): { L: number; block: number; reach: number; centre: Float64Array; radius: Float64Array } {
    const L = this.L, centre = new Float64Array(6 * L), radius = new Float64Array(2 * L);
    for (let k = 1; k < 2 * L; k++) {
      radius[k] = this.S[4 * k + 3];
      if (radius[k] < 0) continue;
      this.world(k);
      for (let c = 0; c < 3; c++) centre[3 * k + c] = this.WC[3 * k + c];
    }
    return { L, block: BLOCK, reach: NEAR * this.scale, centre, radius };
  }

  foldNear(): { near: FoldNear; current: boolean; block: number } | null {
    const t = this.tree;
    return t === null ? null : { near: t.near, current: t.near.version === this.poseMoves, block: BLOCK };
  }

  fold(move: PivotMove): FolderFoldResult {
    const j = readMove(move, this.dim, this.count, 'fold');
    const a = move.axis as (ArrayLike<number> & { x?: number; y?: number; z?: number }) | undefined;
    const axis = this.dim === 2 || a === undefined ? null : typeof a.x === 'number' ? [a.x, a.y as number, a.z as number] : a;
    // the end pose is applied and checked as a pivot, which is not counted as one
    const pivots = this.stats.pivots, accepted = this.stats.accepted, ri = this.rejI, rj = this.rejJ;
    this.foldMove.axis = move.axis;
    const r = foldOnTree(this.foldTree(), j, move.angle, axis);
    this.stats.pivots = pivots;
    this.stats.accepted = accepted;
    this.rejI = ri;
    this.rejJ = rj;
    return r;
  }

  /**
   * The tree as folder-fold.ts sees it: one object per folder, its views and bounds refreshed
   * for each fold (a load replaces the arrays).
   */
  private foldTree(): FoldTree {
    const t = (this.tree ??= {
      dim: this.dim, count: 0, L: 0, block: BLOCK, thickness: this.thickness,
      S: this.S, WC: this.WC, WX: this.WX, reach: 0, ecert: 0, wide: 0,
      wStamp: this.wStamp, xStamp: this.xStamp, epoch: 0,
      world: (k) => this.world(k),
      vertex: (v) => this.vertex(v),
      turn: (joint, angle) => this.turnFold(joint, angle),
      turnCertified: (joint, angle, ci, ck, n) => {
        this.candI = ci;
        this.candK = ck;
        this.candN = n;
        try {
          return this.turnFold(joint, angle);
        } finally {
          this.candN = -1;
        }
      },
      refusedI: () => this.rejI,
      refusedJ: () => this.rejJ,
      moves: 0,
      near: newFoldNear(),
      refresh: () => {
        this.foldTree();
      },
    });
    const m = t as { -readonly [K in keyof FoldTree]: FoldTree[K] };
    m.count = this.count;
    m.L = this.L;
    m.S = this.S;
    m.WC = this.WC;
    m.WX = this.WX;
    m.wStamp = this.wStamp;
    m.xStamp = this.xStamp;
    m.epoch = this.epoch;
    m.moves = this.poseMoves;
    m.reach = NEAR * this.scale;
    // the folder's bound of one move's rounding (PER_MOVE of the extent, see the module
    // notes), for coordinates up to 4 times the extent once turned
    m.ecert = 4 * PER_MOVE * this.extent();
    // the near margin, as clear() takes it
    m.wide = (this.thickness + NEAR * this.scale) * (1 + 4 * EPS);
    return t;
  }

  /** The fold's end pose, applied and checked as a pivot (about the axis of the fold in progress). */
  private turnFold(joint: number, angle: number): boolean {
    const mv = this.foldMove;
    mv.joint = joint;
    mv.angle = angle;
    return this.pivot(mv);
  }

  stretch(move: { joint: number; length: number }): FolderStretchResult {
    checkOptions(move, STRETCH_KEYS, 'stretch');
    const r = stretchChain(this.points(), { dim: this.dim, joint: move.joint, length: move.length, thickness: this.thickness });
    this.load(r.points);
    return { length: r.length, blocked: r.blocked, contact: r.contact };
  }
}

/**
 * For the tests (not part of the package's API): the folder's node spheres in world coordinates
 * (node k's children are 2k and 2k + 1, leaf block b is node L + b; radius < 0: empty), the
 * vertices per block, and the reach: how far the first vertex of the block after a node may lie
 * outside its sphere (the node holds a copy of it that drifts by up to that much).
 */
export function folderSpheres(folder: ChainFolder): { L: number; block: number; reach: number; centre: Float64Array; radius: Float64Array } {
  if (!(folder instanceof Folder)) throw new SkewlineInputError('folderSpheres: not a folder made by createChainFolder');
  return folder.spheres();
}

/**
 * For the tests (not part of the package's API): the near-pair cache the folder's folds keep
 * (src/fold/folder-fold.ts, FoldNear) and whether it is current for the held pose; null before
 * the first fold.
 */
export function folderFoldNear(folder: ChainFolder): { near: FoldNear; current: boolean; block: number } | null {
  if (!(folder instanceof Folder)) throw new SkewlineInputError('folderFoldNear: not a folder made by createChainFolder');
  return folder.foldNear();
}

/** The level of node k above the leaves (0 for a leaf) in a tree with L leaves (a power of two): log₂ L − ⌊log₂ k⌋. */
function lev(k: number, L: number): number {
  return Math.clz32(k) - Math.clz32(L);
}

/** Inner nodes up to this level (above the leaves) get their spheres from their vertices (directSphere). */
const DIRECT = 4;
/**
 * Leaves and inner nodes up to this level get the smallest sphere of their points (tightCentre);
 * from there to DIRECT, the box centre's. Each level adds about 4% fewer sphere pairs on the
 * 1e6 walk, and costs time on every accepted move: levels 3 and 4 made the thick chain's pivot
 * at 1e5 1.1× slower (median), with the walk's no faster than at 2.
 */
const TIGHT = 2;
// directSphere's scratch: its descendants' stack and depths, their maps into the node's frame, the mapped points
const DSTACK = new Int32Array(2 * DIRECT + 4);
const DDEPTH = new Int32Array(2 * DIRECT + 4);
const MAPS = new Float64Array(12 * (DIRECT + 1));
const DPTS = new Float64Array(3 * ((BLOCK + 1) << DIRECT));
const BALL = new Float64Array(4); // a ball's centre and squared radius (enclose, tightCentre)
const SUP = new Float64Array(12); // up to 4 support points (enclose)
const MORD = new Int32Array((BLOCK + 1) << DIRECT); // the point order (enclose's move-to-front)

/**
 * Into BALL[0…2]: the centre of the smallest sphere holding the np / 3 points of P (stride 3),
 * found among the points farther than `far` times the box sphere's radius from the box centre
 * (bx, by, bz); or the box centre itself when that one's farthest point is nearer (a guard for
 * degenerate point sets). Callers take the radius as the farthest point's distance from this
 * centre, so any centre gives a sound sphere; this one only makes it tighter. On 17-point
 * blocks of a unit-step random walk the smallest sphere is about 7% smaller than the box
 * centre's (2.39 against 2.57 on average), and on the 1e6 walk a pivot then meets 8–14% fewer
 * sphere pairs and 19% fewer leaf pairs. The near points rarely hold the smallest sphere up:
 * leaving out those within 0.6 of the radius cut the time of 272 walk points by a third, and
 * changed the pivot's counts by under 0.1%.
 */
function tightCentre(P: Float64Array, np: number, bx: number, by: number, bz: number, far: number): void {
  let rb = 0;
  for (let q = 0; q < np; q += 3) {
    const ux = P[q] - bx, uy = P[q + 1] - by, uz = P[q + 2] - bz;
    rb = Math.max(rb, ux * ux + uy * uy + uz * uz);
  }
  // The points in a fixed shuffle: Welzl's algorithm takes expected linear time on points in
  // random order, and a chain's points in their order grow the ball step by step (272 walk
  // points took 4 times as long).
  const lim = far * far * rb;
  let h = 0x9e3779b9 | 0, m = 0;
  for (let q = 0; q < np; q += 3) {
    const ux = P[q] - bx, uy = P[q + 1] - by, uz = P[q + 2] - bz;
    if (ux * ux + uy * uy + uz * uz < lim) continue;
    h ^= h << 13;
    h ^= h >>> 17;
    h ^= h << 5;
    const k = (h >>> 0) % (m + 1);
    MORD[m] = MORD[k];
    MORD[k] = q / 3;
    m++;
  }
  enclose(P, m, 0);
  const cx = BALL[0], cy = BALL[1], cz = BALL[2];
  let rt = 0;
  for (let q = 0; q < np; q += 3) {
    const tx = P[q] - cx, ty = P[q + 1] - cy, tz = P[q + 2] - cz;
    rt = Math.max(rt, tx * tx + ty * ty + tz * tz);
  }
  if (!(rt < rb)) {
    BALL[0] = bx;
    BALL[1] = by;
    BALL[2] = bz;
  }
}

/**
 * The smallest ball holding points MORD[0…end) of P with the ns points SUP[0…ns) on its
 * boundary: Welzl's algorithm with move-to-front (B. Gärtner, "Fast and robust smallest
 * enclosing balls", ESA 1999), recursion depth at most 4. A point counts as inside up to a
 * relative 2⁻⁴⁰ of the squared radius; that and the support balls' rounding only make the
 * ball a little off the smallest (see tightCentre: the caller's radius covers every point).
 */
function enclose(P: Float64Array, end: number, ns: number): void {
  supportBall(ns);
  if (ns === 4) return;
  for (let i = 0; i < end; i++) {
    const q = 3 * MORD[i];
    const dx = P[q] - BALL[0], dy = P[q + 1] - BALL[1], dz = P[q + 2] - BALL[2];
    if (dx * dx + dy * dy + dz * dz <= BALL[3] * (1 + 2 ** -40)) continue;
    SUP[3 * ns] = P[q];
    SUP[3 * ns + 1] = P[q + 1];
    SUP[3 * ns + 2] = P[q + 2];
    enclose(P, i, ns + 1);
    // move to front
    const t = MORD[i];
    for (let k = i; k > 0; k--) MORD[k] = MORD[k - 1];
    MORD[0] = t;
  }
}

/**
 * BALL: the smallest ball with the ns support points SUP on its boundary (ns ≤ 4; none: empty,
 * squared radius −1). Three points on a line or four in a plane have no such ball; then the
 * ball of the first ns − 1 is kept, which only costs tightness.
 * Circumcentres: p₀ + (|a|²·(b × (a × b)) + |b|²·((a × b) × a)) / (2|a × b|²) for a triangle
 * and p₀ + (|a|²·(b × c) + |b|²·(c × a) + |c|²·(a × b)) / (2 a·(b × c)) for a tetrahedron, with
 * a, b, c the edges from p₀ (difference form).
 */
function supportBall(ns: number): void {
  if (ns === 0) {
    BALL[0] = BALL[1] = BALL[2] = 0;
    BALL[3] = -1;
    return;
  }
  const x0 = SUP[0], y0 = SUP[1], z0 = SUP[2];
  if (ns === 1) {
    BALL[0] = x0; BALL[1] = y0; BALL[2] = z0; BALL[3] = 0;
    return;
  }
  const ax = SUP[3] - x0, ay = SUP[4] - y0, az = SUP[5] - z0, aa = ax * ax + ay * ay + az * az;
  let ox: number, oy: number, oz: number;
  if (ns === 2) {
    ox = ax / 2; oy = ay / 2; oz = az / 2;
  } else {
    const bx = SUP[6] - x0, by = SUP[7] - y0, bz = SUP[8] - z0, bb = bx * bx + by * by + bz * bz;
    const nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx; // a × b
    if (ns === 3) {
      const nn = nx * nx + ny * ny + nz * nz;
      if (!(nn > 2 ** -40 * aa * bb)) {
        supportBall(2);
        return;
      }
      // b × n and n × a
      const px = by * nz - bz * ny, py = bz * nx - bx * nz, pz = bx * ny - by * nx;
      const qx = ny * az - nz * ay, qy = nz * ax - nx * az, qz = nx * ay - ny * ax;
      ox = (aa * px + bb * qx) / (2 * nn); oy = (aa * py + bb * qy) / (2 * nn); oz = (aa * pz + bb * qz) / (2 * nn);
    } else {
      const cx = SUP[9] - x0, cy = SUP[10] - y0, cz = SUP[11] - z0, cc = cx * cx + cy * cy + cz * cz;
      const ux = by * cz - bz * cy, uy = bz * cx - bx * cz, uz = bx * cy - by * cx; // b × c
      const vx = cy * az - cz * ay, vy = cz * ax - cx * az, vz = cx * ay - cy * ax; // c × a
      const det = ax * ux + ay * uy + az * uz;
      if (!(det * det > 2 ** -40 * aa * bb * cc)) {
        supportBall(3);
        return;
      }
      ox = (aa * ux + bb * vx + cc * nx) / (2 * det); oy = (aa * uy + bb * vy + cc * ny) / (2 * det); oz = (aa * uz + bb * vz + cc * nz) / (2 * det);
    }
  }
  BALL[0] = x0 + ox;
  BALL[1] = y0 + oy;
  BALL[2] = z0 + oz;
  BALL[3] = ox * ox + oy * oy + oz * oz;
}

const CAND = new Int32Array(BLOCK);
const CM = new Float64Array(3 * BLOCK); // the candidates' midpoints
const CH = new Float64Array(BLOCK); // and half lengths

/**
 * Are the lines carrying segments p→p+1 and q→q+1 (vertices at X[p…], X[q…], 3D) certainly
 * farther apart than `wide`? Then so are the segments. The lines' distance is |w·n| / |n| with
 * u, v the directions, w = q − p and n = u × v (parallel lines: n = 0, never "apart").
 * Rounding, with u = 2⁻⁵³ and A, B, C the 1-norms of u, v, w: every term of the triple product
 * is a product w·u·v of inputs that carry one rounding each (the differences), formed with at
 * most 5 more roundings and summed with 2, so the computed triple product is within 16·u·A·B·C
 * of the exact one; each component of n within 5·u·A·B, so |n| ≤ fl|n|·(1 + 4u) + 9·u·A·B. The
 * test asks |fl t| > (wide·(fl|n| + 16·u·A·B) + 16·u·A·B·C)·(1 + 16u), whose right side absorbs
 * its own few roundings (all terms are nonnegative). Exported for the tests (not part of the
 * package's API).
 */
export function linesApart3(X: Float64Array, p: number, q: number, wide: number): boolean {
  const ux = X[p + 3] - X[p], uy = X[p + 4] - X[p + 1], uz = X[p + 5] - X[p + 2];
  const vx = X[q + 3] - X[q], vy = X[q + 4] - X[q + 1], vz = X[q + 5] - X[q + 2];
  const wx = X[q] - X[p], wy = X[q + 1] - X[p + 1], wz = X[q + 2] - X[p + 2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const t = Math.abs(wx * nx + wy * ny + wz * nz);
  const AB = (Math.abs(ux) + Math.abs(uy) + Math.abs(uz)) * (Math.abs(vx) + Math.abs(vy) + Math.abs(vz));
  const C = Math.abs(wx) + Math.abs(wy) + Math.abs(wz);
  const nn = Math.sqrt(nx * nx + ny * ny + nz * nz);
  return t > (wide * (nn + 16 * EPS * AB) + 16 * EPS * AB * C) * (1 + 16 * EPS);
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const g = new Int32Array(a.length * 2);
  g.set(a);
  return g;
}

function sortDesc(a: Int32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const x = a[i];
    let k = i - 1;
    while (k >= 0 && a[k] < x) {
      a[k + 1] = a[k];
      k--;
    }
    a[k + 1] = x;
  }
}

/**
 * Makes a {@link ChainFolder}: the chain held for many moves — folds (continuous, as
 * foldChain), Monte Carlo pivots (end pose only, exact, O(log N)-ish on contact-free chains),
 * stretches — with the pose read back on demand.
 *
 * Edge cases: the chain needs at least 2 vertices, no two equal consecutive vertices (a
 * zero-length segment has no direction; foldChain accepts them, the folder does not), must not
 * be a ring (last vertex equal to the first), and must be free of contacts at `thickness`
 * (an error names the first pair); coordinates must stay below 2⁵⁰⁰ in magnitude. A pivot by
 * angle 0 is accepted without change. Not re-entrant (module scratch); one folder's methods
 * must not interleave with another's in one call stack (they do not call each other).
 *
 * @throws SkewlineInputError for an unknown option, bad points, a dimension other than 2 or 3,
 *   a bad thickness, and the cases above.
 */
export function createChainFolder(points: ChainPoints, options?: ChainFolderOptions): ChainFolder {
  checkOptions(options, FOLDER_KEYS, 'createChainFolder');
  const tau = numberOption(options as Record<string, unknown> | undefined, 'thickness', 'createChainFolder', 0, Number.MAX_VALUE, 0);
  const { flat, dim } = flattenChain(points, options?.dim, 'points');
  if (dim !== 2 && dim !== 3) throw new SkewlineInputError(`createChainFolder works in 2D and 3D (got dimension ${dim})`);
  const n = flat.length / dim;
  if (n < 2) throw new SkewlineInputError(`createChainFolder: the chain needs at least 2 vertices (got ${n})`);
  for (let k = 0; k < flat.length; k++) {
    if (!(Math.abs(flat[k]) < 2 ** 500)) throw new SkewlineInputError(`createChainFolder: coordinates must be finite and below 2^500 in magnitude (vertex ${Math.floor(k / dim)}: ${flat[k]})`);
  }
  if (tau >= 2 ** 500) throw new SkewlineInputError(`createChainFolder: options.thickness must be below 2^500 (got ${tau})`);
  for (let v = 0; v + 1 < n; v++) {
    let same = true;
    for (let c = 0; c < dim; c++) if (flat[v * dim + c] !== flat[(v + 1) * dim + c]) same = false;
    if (same) throw new SkewlineInputError(`createChainFolder: vertices ${v} and ${v + 1} are equal (a zero-length segment)`);
  }
  let ring = n > 2;
  for (let c = 0; c < dim; c++) if (flat[c] !== flat[(n - 1) * dim + c]) ring = false;
  if (ring) throw new SkewlineInputError('createChainFolder: the chain is a ring (its last vertex repeats its first); turning part of it would tear it open');
  const start = chainContacts(flat, { dim, thickness: tau });
  if (start.count > 0) {
    throw new SkewlineInputError(`createChainFolder: the chain is in contact: segments ${start.i[0]} and ${start.j[0]} are within the thickness (${tau})${start.count > 1 ? ` (and ${start.count - 1} more pairs)` : ''}`);
  }
  return new Folder(flat, dim, tau);
}
