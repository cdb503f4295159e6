/**
 * Working memory of the chain search, kept between calls: on a million segments the search
 * needs some 80 MB of boxes, grid cells and sort counters, and fresh memory costs a page fault
 * per 4 KiB on first touch (measured: about 45 ms per 88 MB here), more than a pass over it.
 * Each slot grows to the largest call so far; {@link releaseChainMemory} hands it all back.
 */

/** Slots: one array each, never two live uses of one slot. */
export const BOXES_A = 0;
export const BOXES_B = 1;
export const GRID_CX = 0;
export const GRID_CY = 1;
export const GRID_EX = 2;
export const GRID_EY = 3;
export const GRID_START = 4;
export const GRID_FILL = 5;
export const GRID_ITEMS = 6;
export const SORT_START = 7;
export const SORT_FILL = 8;
export const GRID_SEGS = 9;


let f64: (Float64Array | undefined)[] = [];
let i32: (Int32Array | undefined)[] = [];

/** A Float64Array view of n elements in slot `slot` (contents undefined). */
export function f64Scratch(slot: number, n: number): Float64Array {
  let a = f64[slot];
  if (a === undefined || a.length < n) f64[slot] = a = new Float64Array(Math.max(n, Math.ceil((a?.length ?? 0) * 1.25)));
  return a.subarray(0, n);
}

/** An Int32Array view of n elements in slot `slot` (contents undefined). */
export function i32Scratch(slot: number, n: number): Int32Array {
  let a = i32[slot];
  if (a === undefined || a.length < n) i32[slot] = a = new Int32Array(Math.max(n, Math.ceil((a?.length ?? 0) * 1.25)));
  return a.subarray(0, n);
}

/**
 * Frees the working memory that chainContacts, chainCollisions, multiChainContacts and
 * chainIntersections keep between calls (it grows to the largest chain searched so far: about
 * 80–100 bytes per segment, plus 32 bytes per contact found). The next call allocates afresh.
 * Worker threads of skewline/parallel keep their own until the pool is closed.
 */
export function releaseChainMemory(): void {
  f64 = [];
  i32 = [];
  releaseHooks.forEach((f) => f());
}

/** Other modules' scratch to drop with {@link releaseChainMemory}. */
export const releaseHooks: (() => void)[] = [];

// Slots of the 3D grid (grid.ts, planGrid3), apart from the 2D grid's.
export const G3_CELL = 10; // i32: cell column, then row, then layer of each live segment (3 arrays in one)
export const G3_PERM = 11; // i32: a permutation of the live segments, and its sorted successor (2 arrays in one)
export const G3_COUNT = 12; // i32: counting-sort buckets
export const G3_ID = 13; // i32: segment of each sorted position
export const G3_KEY = 2; // f64: cell key of each sorted position
export const G3_REACH = 4; // f64: key reach of each sorted position's window
export const G3_BOX = 3; // f64: boxes in sorted order, six arrays (x, y, z minima, then maxima) in one

// Slots of the hierarchy of a one-chain search (tree.ts, buildTree with `reuse`).
export const TREE_LEAVES = 5; // f64: leaf boxes
export const TREE_UP = 6; // f64: the levels above the leaves, one after another
