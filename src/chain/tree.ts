/**
 * The broad phase: a bounding-box hierarchy built in chain order, and a dual traversal that
 * hands every pair of segments whose boxes come within the thickness to a callback.
 *
 * Why chain order: consecutive segments of a chain are neighbours in space, so runs of L
 * segments make tight leaves and pairs of runs tight parents, with no sorting at all (the
 * build is one linear pass, the tree is implicit: node i of level k covers leaves
 * i·2^k … (i + 1)·2^k − 1). This is the "hierarchy built in chain order" of the chains issue.
 * Planar chains at thickness 0 that crowd their box take a uniform grid instead (grid.ts); a
 * spatial hash was measured beside both in bench/chain/.
 *
 * Nothing is dropped: for two segments at exact distance δ ≤ τ (the thickness), every axis gap
 * g = lo_B − hi_A satisfies g ≤ δ ≤ τ, and since rounding to nearest is monotone and τ is a
 * double, the computed fl(lo_B − hi_A) ≤ τ too. So the test `fl(lo_B − hi_A) > τ` rejects only
 * pairs whose exact distance exceeds τ — no inflation or outward rounding is needed. Boxes
 * themselves are exact (minima and maxima of input doubles).
 */

import { TREE_LEAVES, TREE_UP, f64Scratch } from './scratch.js';

/** Leaf size: segments per leaf (measured: 8 beats 4 and 16 on walks in 2D and 3D). */
export const LEAF = 8;

/** Boxes per level: level 0 holds the leaves; node stride is 2·dim (dim minima, then dim maxima). */
export interface ChainTree {
  dim: number;
  /** Number of segments. */
  m: number;
  /** Segment boxes: segment c's minima at c·2·dim, its maxima after them. */
  seg: Float64Array;
  levels: Float64Array[];
  counts: number[];
}

/**
 * Builds the hierarchy over segments 0 … m − 1 of the vertex array P (m + 1 vertices), on the
 * given segment boxes or on {@link segmentBoxes}(P, dim, m, dead). With `reuse`, the leaf level
 * (unless given) and the levels above it live in the search's working memory (scratch.ts), so
 * a second tree built with `reuse` overwrites the first: one such tree at a time.
 */
export function buildTree(P: Float64Array, dim: number, m: number, dead: Uint8Array | null = null, boxes: Float64Array | null = null, leaves: Float64Array | null = null, reuse = false): ChainTree {
  const levels: Float64Array[] = [];
  const counts: number[] = [];
  const stride = 2 * dim;
  const seg = boxes ?? segmentBoxes(P, dim, m, dead);
  let n = Math.max(1, Math.ceil(m / LEAF));
  let box = leaves ?? leafBoxes(seg, dim, m, 0, n, reuse ? f64Scratch(TREE_LEAVES, n * stride) : new Float64Array(n * stride));
  levels.push(box);
  counts.push(n);
  // The upper levels hold fewer than n nodes together.
  const upper = reuse ? f64Scratch(TREE_UP, n * stride) : null;
  let at = 0;
  while (n > 1) {
    const up = (n + 1) >> 1;
    const parent = upper !== null ? upper.subarray(at, at + up * stride) : new Float64Array(up * stride);
    at += up * stride;
    for (let q = 0; q < up; q++) {
      const a = 2 * q * stride;
      const o = q * stride;
      if (2 * q + 1 < n) {
        const b = a + stride;
        for (let k = 0; k < dim; k++) {
          parent[o + k] = Math.min(box[a + k], box[b + k]);
          parent[o + dim + k] = Math.max(box[a + dim + k], box[b + dim + k]);
        }
      } else {
        for (let k = 0; k < stride; k++) parent[o + k] = box[a + k];
      }
    }
    levels.push(parent);
    counts.push(up);
    box = parent;
    n = up;
  }
  return { dim, m, seg, levels, counts };
}

/** Number of leaves over m segments (at least one). */
export function leafCount(m: number): number {
  return Math.max(1, Math.ceil(m / LEAF));
}

/**
 * The boxes of leaves q0 … q1 − 1 (leaf q: segments q·LEAF … min(q·LEAF + LEAF, m) − 1) from the
 * segment boxes `seg`, written to `box` (the whole leaf level; a range of it is one thread's
 * part of a parallel build). An empty leaf (m = 0) gets an empty box.
 */
export function leafBoxes(seg: Float64Array, dim: number, m: number, q0: number, q1: number, box: Float64Array): Float64Array {
  if (dim === 3) {
    leafBoxes3(seg, m, q0, q1, box);
    return box;
  }
  const stride = 2 * dim;
  for (let q = q0; q < q1; q++) {
    const c0 = q * LEAF;
    const c1 = Math.min(c0 + LEAF, m);
    const o = q * stride;
    for (let k = 0; k < dim; k++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let c = c0; c < c1; c++) {
        const a = seg[c * stride + k], b = seg[c * stride + dim + k];
        if (a < lo) lo = a;
        if (b > hi) hi = b;
      }
      box[o + k] = lo;
      box[o + dim + k] = hi;
    }
  }
  return box;
}

/** {@link leafBoxes} written out for 3D (the same minima and maxima). */
function leafBoxes3(seg: Float64Array, m: number, q0: number, q1: number, box: Float64Array): void {
  for (let q = q0; q < q1; q++) {
    const c0 = q * LEAF;
    const c1 = Math.min(c0 + LEAF, m);
    let xlo = Infinity, ylo = Infinity, zlo = Infinity, xhi = -Infinity, yhi = -Infinity, zhi = -Infinity;
    for (let o = 6 * c0; o < 6 * c1; o += 6) {
      xlo = Math.min(xlo, seg[o]);
      ylo = Math.min(ylo, seg[o + 1]);
      zlo = Math.min(zlo, seg[o + 2]);
      xhi = Math.max(xhi, seg[o + 3]);
      yhi = Math.max(yhi, seg[o + 4]);
      zhi = Math.max(zhi, seg[o + 5]);
    }
    const o = 6 * q;
    box[o] = xlo;
    box[o + 1] = ylo;
    box[o + 2] = zlo;
    box[o + 3] = xhi;
    box[o + 4] = yhi;
    box[o + 5] = zhi;
  }
}

/**
 * The boxes of segments 0 … m − 1 of the vertex array P (dim minima, then dim maxima each).
 * Segments flagged in `dead` get an empty box (+∞ minima, −∞ maxima): every box test rejects them.
 * Written to `into` (m·2·dim numbers) when given.
 */
export function segmentBoxes(P: Float64Array, dim: number, m: number, dead: Uint8Array | null, into: Float64Array | null = null): Float64Array {
  return segmentBoxesRange(P, dim, 0, m, dead, into ?? new Float64Array(m * 2 * dim));
}

/** {@link segmentBoxes} for segments c0 … c1 − 1 only (one thread's part of a parallel build), into `seg`. */
export function segmentBoxesRange(P: Float64Array, dim: number, c0: number, c1: number, dead: Uint8Array | null, seg: Float64Array): Float64Array {
  const stride = 2 * dim;
  if (dim === 3) segBoxes3(P, c0, c1, seg);
  else if (dim === 2) segBoxes2(P, c0, c1, seg);
  else for (let c = c0; c < c1; c++) {
    const o = c * stride;
    const v = c * dim;
    for (let k = 0; k < dim; k++) {
      // Branch-free exact select (the order of p and q is a coin toss along a random chain,
      // so a branch mispredicts half the time): with b ∈ {0, 1}, b·p + (1 − b)·q is p or q exactly.
      const p = P[v + k], q = P[v + dim + k];
      const b = +(p < q);
      seg[o + k] = b * p + (1 - b) * q;
      seg[o + dim + k] = b * q + (1 - b) * p;
    }
  }
  if (dead !== null) {
    for (let c = c0; c < c1; c++) {
      if (dead[c] === 0) continue;
      for (let k = 0; k < dim; k++) {
        seg[c * stride + k] = Infinity;
        seg[c * stride + dim + k] = -Infinity;
      }
    }
  }
  return seg;
}

/** Segment boxes in 3D, written out (the same exact selects as the general loop). */
function segBoxes3(P: Float64Array, c0: number, c1: number, seg: Float64Array): void {
  for (let c = c0, v = 3 * c0, o = 6 * c0; c < c1; c++, v += 3, o += 6) {
    const x0 = P[v], y0 = P[v + 1], z0 = P[v + 2], x1 = P[v + 3], y1 = P[v + 4], z1 = P[v + 5];
    const bx = +(x0 < x1), by = +(y0 < y1), bz = +(z0 < z1);
    seg[o] = bx * x0 + (1 - bx) * x1;
    seg[o + 1] = by * y0 + (1 - by) * y1;
    seg[o + 2] = bz * z0 + (1 - bz) * z1;
    seg[o + 3] = bx * x1 + (1 - bx) * x0;
    seg[o + 4] = by * y1 + (1 - by) * y0;
    seg[o + 5] = bz * z1 + (1 - bz) * z0;
  }
}

/**
 * The segment boxes of segments 0 … m − 1 of a 3D chain with no dead segments, and its leaf
 * boxes, in one pass (the leaf boxes from the segment boxes still in registers, instead of a
 * second pass over 48 bytes a segment): the same numbers as {@link segmentBoxes} then
 * {@link leafBoxes}. `leaves` holds {@link leafCount}(m)·6 numbers.
 */
export function segmentLeafBoxes3(P: Float64Array, m: number, seg: Float64Array, leaves: Float64Array): void {
  const n = leafCount(m);
  for (let q = 0; q < n; q++) {
    const c1 = Math.min(q * LEAF + LEAF, m);
    let xlo = Infinity, ylo = Infinity, zlo = Infinity, xhi = -Infinity, yhi = -Infinity, zhi = -Infinity;
    for (let c = q * LEAF, v = 3 * c, o = 6 * c; c < c1; c++, v += 3, o += 6) {
      const x0 = P[v], y0 = P[v + 1], z0 = P[v + 2], x1 = P[v + 3], y1 = P[v + 4], z1 = P[v + 5];
      const bx = +(x0 < x1), by = +(y0 < y1), bz = +(z0 < z1);
      const lx = bx * x0 + (1 - bx) * x1, ly = by * y0 + (1 - by) * y1, lz = bz * z0 + (1 - bz) * z1;
      const hx = bx * x1 + (1 - bx) * x0, hy = by * y1 + (1 - by) * y0, hz = bz * z1 + (1 - bz) * z0;
      seg[o] = lx;
      seg[o + 1] = ly;
      seg[o + 2] = lz;
      seg[o + 3] = hx;
      seg[o + 4] = hy;
      seg[o + 5] = hz;
      xlo = Math.min(xlo, lx);
      ylo = Math.min(ylo, ly);
      zlo = Math.min(zlo, lz);
      xhi = Math.max(xhi, hx);
      yhi = Math.max(yhi, hy);
      zhi = Math.max(zhi, hz);
    }
    const o = 6 * q;
    leaves[o] = xlo;
    leaves[o + 1] = ylo;
    leaves[o + 2] = zlo;
    leaves[o + 3] = xhi;
    leaves[o + 4] = yhi;
    leaves[o + 5] = zhi;
  }
}

/**
 * The hierarchy of a 3D chain with no dead segments, built in the search's working memory:
 * {@link segmentLeafBoxes3} into `seg` (m·6 numbers) and the scratch leaf level, then the levels
 * above ({@link buildTree} with `reuse`: one such tree at a time).
 */
export function buildTree3(P: Float64Array, m: number, seg: Float64Array): ChainTree {
  const leaves = f64Scratch(TREE_LEAVES, leafCount(m) * 6);
  segmentLeafBoxes3(P, m, seg, leaves);
  return buildTree(P, 3, m, null, seg, leaves, true);
}

/** Segment boxes in 2D, written out. */
function segBoxes2(P: Float64Array, c0: number, c1: number, seg: Float64Array): void {
  for (let c = c0, v = 2 * c0, o = 4 * c0; c < c1; c++, v += 2, o += 4) {
    const x0 = P[v], y0 = P[v + 1], x1 = P[v + 2], y1 = P[v + 3];
    const bx = +(x0 < x1), by = +(y0 < y1);
    seg[o] = bx * x0 + (1 - bx) * x1;
    seg[o + 1] = by * y0 + (1 - by) * y1;
    seg[o + 2] = bx * x1 + (1 - bx) * x0;
    seg[o + 3] = by * y1 + (1 - by) * y0;
  }
}

let stack = new Int32Array(4 * 256);

function boxesNear(A: Float64Array, ia: number, B: Float64Array, ib: number, dim: number, tau: number): boolean {
  const oa = ia * 2 * dim;
  const ob = ib * 2 * dim;
  if (dim === 3) {
    return !(B[ob] - A[oa + 3] > tau || A[oa] - B[ob + 3] > tau || B[ob + 1] - A[oa + 4] > tau ||
      A[oa + 1] - B[ob + 4] > tau || B[ob + 2] - A[oa + 5] > tau || A[oa + 2] - B[ob + 5] > tau);
  }
  if (dim === 2) {
    return !(B[ob] - A[oa + 2] > tau || A[oa] - B[ob + 2] > tau || B[ob + 1] - A[oa + 3] > tau || A[oa + 1] - B[ob + 3] > tau);
  }
  for (let k = 0; k < dim; k++) {
    if (B[ob + k] - A[oa + dim + k] > tau || A[oa + k] - B[ob + dim + k] > tau) return false;
  }
  return true;
}

/**
 * Expands the root pair (self, or A against B) breadth-first into at least `want` independent
 * node pairs (fewer if the tree runs out), dropping pairs whose boxes are apart: the work items
 * of a parallel search. Deterministic: the same trees give the same list. Quadruples
 * (level A, index A, level B, index B); a self item has equal halves.
 */
export function expandTasks(A: ChainTree, B: ChainTree, tau: number, want: number): Int32Array {
  if (A.m === 0 || B.m === 0) return new Int32Array(0);
  const isSelf = A === B;
  let items: number[] = [A.levels.length - 1, 0, B.levels.length - 1, 0];
  for (;;) {
    const next: number[] = [];
    let grew = false;
    for (let k = 0; k < items.length; k += 4) {
      const la = items[k], ia = items[k + 1], lb = items[k + 2], ib = items[k + 3];
      if (isSelf && la === lb && ia === ib) {
        if (la === 0) {
          next.push(la, ia, lb, ib);
          continue;
        }
        const c0 = 2 * ia;
        next.push(la - 1, c0, la - 1, c0);
        if (c0 + 1 < A.counts[la - 1]) next.push(la - 1, c0 + 1, la - 1, c0 + 1, la - 1, c0, la - 1, c0 + 1);
        grew = true;
      } else if (!boxesNear(A.levels[la], ia, B.levels[lb], ib, A.dim, tau)) {
        grew = true; // dropped
      } else if (la === 0 && lb === 0) {
        next.push(la, ia, lb, ib);
      } else if (la >= lb) {
        const c0 = 2 * ia;
        next.push(la - 1, c0, lb, ib);
        if (c0 + 1 < A.counts[la - 1]) next.push(la - 1, c0 + 1, lb, ib);
        grew = true;
      } else {
        const c0 = 2 * ib;
        next.push(la, ia, lb - 1, c0);
        if (c0 + 1 < B.counts[lb - 1]) next.push(la, ia, lb - 1, c0 + 1);
        grew = true;
      }
    }
    items = next;
    if (!grew || items.length >= 4 * want) return Int32Array.from(items);
  }
}

// The traversal in progress (module state: one at a time per thread).
let TA: ChainTree | null = null;
let TB: ChainTree | null = null;
let TTAU = 0;
let SP = 0;
let TASKS: Int32Array | null = null;
let CLAIM: (() => number) | null = null;

/**
 * Starts a dual traversal of A against B (B === A: one tree against itself), to be drained with
 * {@link nextLeafPairs}. With `tasks` (from {@link expandTasks}) it walks only the work items
 * that `claim` hands out, one at a time (a shared counter in a parallel search).
 * Iterative (an explicit stack of node pairs), so chain length never overflows the call stack.
 */
export function beginTraversal(A: ChainTree, B: ChainTree, tau: number, tasks: Int32Array | null = null, claim: (() => number) | null = null): void {
  TA = A;
  TB = B;
  TTAU = tau;
  SP = 0;
  TASKS = tasks;
  CLAIM = claim;
  if (A.m === 0 || B.m === 0) {
    TASKS = null;
    return;
  }
  if (tasks === null) {
    stack[0] = A.levels.length - 1;
    stack[1] = 0;
    stack[2] = B.levels.length - 1;
    stack[3] = 0;
    SP = 4;
  }
}


/**
 * Writes the next leaf pairs of the traversal begun by {@link beginTraversal} to `out` as
 * (leaf of A, leaf of B) and returns how many it wrote (at most out.length / 2; 0 when the
 * traversal is over). Every pair of leaves whose boxes come within τ comes out once; for a self
 * traversal, as qa < qb, plus (q, q) for each leaf (the pairs within it). Leaf pairs come out in
 * batches so that the caller's narrow phase runs in a tight loop of its own, not in a callback.
 */
export function nextLeafPairs(out: Int32Array): number {
  const A = TA!, B = TB!, tau = TTAU, dim = A.dim;
  const isSelf = A === B;
  // The stack in locals for the loop (module state is slower to touch), written back at the end.
  let st = stack;
  let sp = SP;
  let n = 0;
  const cap = out.length;
  while (n + 2 <= cap) {
    if (sp === 0) {
      if (TASKS === null) break;
      const t = CLAIM!();
      if (4 * t >= TASKS.length) {
        TASKS = null;
        break;
      }
      st[0] = TASKS[4 * t];
      st[1] = TASKS[4 * t + 1];
      st[2] = TASKS[4 * t + 2];
      st[3] = TASKS[4 * t + 3];
      sp = 4;
    }
    const ib = st[--sp];
    const lb = st[--sp];
    const ia = st[--sp];
    const la = st[--sp];
    if (sp + 12 > st.length) {
      // Room for the three pushes below.
      const grown = new Int32Array(st.length * 2);
      grown.set(st);
      stack = st = grown;
    }
    if (isSelf && la === lb && ia === ib) {
      if (la === 0) {
        out[n++] = ia;
        out[n++] = ia;
        continue;
      }
      const c0 = 2 * ia;
      const c1 = c0 + 1;
      st[sp++] = la - 1; st[sp++] = c0; st[sp++] = la - 1; st[sp++] = c0;
      if (c1 < A.counts[la - 1]) {
        st[sp++] = la - 1; st[sp++] = c1; st[sp++] = la - 1; st[sp++] = c1;
        st[sp++] = la - 1; st[sp++] = c0; st[sp++] = la - 1; st[sp++] = c1;
      }
      continue;
    }
    if (!boxesNear(A.levels[la], ia, B.levels[lb], ib, dim, tau)) continue;
    if (la === 0 && lb === 0) {
      out[n++] = ia;
      out[n++] = ib;
    } else if (la >= lb) {
      const c0 = 2 * ia;
      st[sp++] = la - 1; st[sp++] = c0; st[sp++] = lb; st[sp++] = ib;
      if (c0 + 1 < A.counts[la - 1]) {
        st[sp++] = la - 1; st[sp++] = c0 + 1; st[sp++] = lb; st[sp++] = ib;
      }
    } else {
      const c0 = 2 * ib;
      st[sp++] = la; st[sp++] = ia; st[sp++] = lb - 1; st[sp++] = c0;
      if (c0 + 1 < B.counts[lb - 1]) {
        st[sp++] = la; st[sp++] = ia; st[sp++] = lb - 1; st[sp++] = c0 + 1;
      }
    }
  }
  SP = sp;
  return n >> 1;
}
