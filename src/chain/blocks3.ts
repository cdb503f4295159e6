/**
 * The broad phase of a one-chain 3D search over blocks of consecutive segments: a uniform grid
 * over the hierarchy's leaves (tree.ts: LEAF consecutive segments each, one box each) instead
 * of the dual traversal of the hierarchy.
 *
 * A chain is spatially coherent, so a block of LEAF consecutive segments has a small box, and
 * a grid whose cells are as large as the largest block box (plus the thickness) puts each block
 * in at most two cells per axis. Pairs of blocks that share a cell and whose boxes come within
 * the thickness are exactly the leaf pairs the traversal finds (the proof is on
 * {@link blockPairs3}), found with no tree above the leaves, no stack and no sorting: a pass to
 * count the cells' blocks (a counting sort into dense cells), a pass to list them, and a pass
 * over the cells.
 *
 * Used when the grid is dense enough to be cheap: at most {@link CELLS_PER_BLOCK} cells per
 * block over the chain's box, and at most {@link PAIRS_PER_BLOCK} block pairs per block to test.
 * Otherwise (a chain that stretches far in all three axes, or one crowded into a few cells)
 * the caller keeps the hierarchy.
 */

import { i32Scratch, releaseHooks } from './scratch.js';
import { LEAF } from './tree.js';

/** Segments per block: the hierarchy's leaf size, so the blocks are its leaves. */
const LEAF3 = LEAF;

/** The grid is used only when its cells number at most this many per block (plus a constant): a dense count array. */
export const CELLS_PER_BLOCK = 32;
/** … and when its cells hold at most this many block pairs to test per block (a crowded grid loses to the hierarchy). */
export const PAIRS_PER_BLOCK = 64;

// Scratch slots (scratch.ts's i32 slots), apart from the 2D and 3D segment grids' (0–13).
const B3_CELLS = 20; // i32: lower then upper cell of each block on x, y, z (6 per block)
const B3_COUNT = 21; // i32: start of each cell's run in the list, then its fill cursor
const B3_ITEMS = 22; // i32: the blocks of each cell, cell after cell; then the start mask of each entry
const B3_RUNS = 25; // i32: where each block's run ends in the pairs sorted by lower block (blockPairsByLower3)

/** The leaf pairs found, (lower block, higher block) after one another; kept between calls. */
let PAIRS = new Int32Array(1 << 16);
releaseHooks.push(() => {
  PAIRS = new Int32Array(1 << 16);
});

/** The higher blocks of the pairs, sorted by lower block ({@link blockPairsByLower3}); kept between calls. */
let PARTNERS = new Int32Array(1 << 15);
releaseHooks.push(() => {
  PARTNERS = new Int32Array(1 << 15);
});

/** The leaf pairs of the last {@link blockPairs3} call: pair k is (out[2k], out[2k + 1]). */
export function blockPairList(): Int32Array {
  return PAIRS;
}

/**
 * The np pairs of {@link blockPairList} (lower blocks below n) regrouped by lower block, a
 * counting sort: returns `ends`, where block q's pairs end, and {@link blockPartnerList3} holds
 * their higher blocks, so that block q's partners are partners[ends[q − 1] … ends[q] − 1]
 * (from 0 for q = 0), in the order the grid listed them. Not re-entrant (module scratch).
 */
export function blockPairsByLower3(np: number, n: number): Int32Array {
  const ends = i32Scratch(B3_RUNS, n + 1).fill(0);
  const pairs = PAIRS;
  for (let k = 0; k < 2 * np; k += 2) ends[pairs[k] + 1]++;
  for (let q = 0; q < n; q++) ends[q + 1] += ends[q];
  // ends[q] is now where block q's run starts; each placed pair moves it on, to the run's end.
  if (PARTNERS.length < np) PARTNERS = new Int32Array(Math.max(np, 2 * PARTNERS.length));
  const out = PARTNERS;
  for (let k = 0; k < 2 * np; k += 2) out[ends[pairs[k]]++] = pairs[k + 1];
  return ends;
}

/** The partners of the last {@link blockPairsByLower3} call. */
export function blockPartnerList3(): Int32Array {
  return PARTNERS;
}

/**
 * Every pair of distinct blocks (qa < qb) among the n block boxes `leaves` (six numbers each:
 * x, y, z minima then maxima) whose boxes come within `tau` by the hierarchy's test
 * (`fl(lo_B − hi_A) ≤ τ` and `fl(lo_A − hi_B) ≤ τ` on every axis): written to
 * {@link blockPairList}, and the count returned. The self pairs (q, q) are not listed. Returns
 * −1, writing nothing, when the grid would be too sparse or too crowded to pay (see the module
 * comment), or when a coordinate ± τ/2 or the chain's extent overflows: the caller then
 * traverses the hierarchy. Not re-entrant (module scratch).
 *
 * Why no pair is missed. Let r = fl(τ·(0.5 + 2⁻⁴⁰)) ≥ τ(1 + 2⁻⁵²)/2 (rounding to nearest loses
 * at most a relative 2⁻⁵³). If fl(lo_B − hi_A) ≤ τ then, exactly, lo_B − hi_A ≤ τ + ulp(τ)/2
 * ≤ 2r, so lo_B − r ≤ hi_A + r as real numbers. Rounding to nearest is monotone, so
 * fl(lo_B − r) ≤ fl(hi_A + r); and the cell index F(x) = ⌊fl(fl(x − x₀)·(1/h))⌋ is a chain
 * of monotone steps, so F(fl(lo_B − r)) ≤ F(fl(hi_A + r)). With the same on the other side,
 * the integer ranges of cells the two blocks are listed in overlap on every axis (whatever the
 * cell size h: it only sets the cost), so both are listed in the cell made of the larger lower
 * index on each axis. The pair is tested in that cell only (so once), and there it passes the
 * hierarchy's own test, on the same numbers; a pair the grid lists that fails it is dropped, so
 * the list is exactly the hierarchy's leaf pairs (a parent box contains its children's, so the
 * traversal prunes no pair that passes at the leaves).
 */
export function blockPairs3(leaves: Float64Array, n: number, tau: number): number {
  const cells = blockGrid3(leaves, n, tau);
  return cells < 0 ? -1 : blockPairsIn3(0, cells, leaves, tau);
}

// The grid of the last blockGrid3 (or useBlockGrid3) call: its list entries, and its arrays
// (the scratch slots, or a shared grid's).
let gridEntries = 0;
let gridCount: Int32Array = new Int32Array(0);
let gridItems: Int32Array = new Int32Array(0);

/** Room for a grid over n blocks: [cell counts, list entries] (see {@link blockGrid3}'s `into`). */
export function blockGridRoom3(n: number): [number, number] {
  return [CELLS_PER_BLOCK * n + 4097, 16 * n];
}

/**
 * Points {@link blockPairsIn3} at a grid another thread built with {@link blockGrid3} into
 * shared memory (`into`), with `entries` list entries (from {@link blockGridEntries3}).
 */
export function useBlockGrid3(count: Int32Array, items: Int32Array, entries: number): void {
  gridCount = count;
  gridItems = items;
  gridEntries = entries;
}

/** The list entries of the grid of the last {@link blockGrid3} call. */
export function blockGridEntries3(): number {
  return gridEntries;
}

/**
 * The first half of {@link blockPairs3}: the grid over the n block boxes (module scratch), or
 * −1 where blockPairs3 steps aside; returns the number of cells. Then
 * {@link blockPairsIn3} lists the pairs of any range of cells: each pair belongs to exactly one
 * cell, so disjoint ranges (one thread's each, in a parallel search) list disjoint pairs whose
 * union is blockPairs3's. With `into` (at least {@link blockGridRoom3}(n) numbers each), the
 * cell counts and the list are written there (shared memory, for other threads:
 * {@link useBlockGrid3}) instead of the module scratch. Not re-entrant (module scratch).
 */
export function blockGrid3(leaves: Float64Array, n: number, tau: number, into: { count: Int32Array; items: Int32Array } | null = null): number {
  if (n < 2) return -1;
  const r = tau * (0.5 + 2 ** -40);
  // Each loop below is a function of its own with nothing after its loop but a return: a
  // function whose one hot loop V8 compiles on the fly (on-stack replacement) keeps that code
  // for the next call, and code after the loop that had not run when it was compiled has no
  // type feedback, so it fell back to the interpreter at the loop's exit on every call and was
  // compiled again (`node --trace-deopt`: bailouts at this function's three loop exits, about
  // one recompile every two calls of the 1e6-step 3D walk, 2–7 ms of compiler CPU each).
  const b = gridBounds3(leaves, n, r);
  const x0 = b[0], y0 = b[1], z0 = b[2], x1 = b[3], y1 = b[4], z1 = b[5], ext = b[6];
  // Overflow anywhere (a coordinate near ±1.8e308) or a zero extent: leave it to the hierarchy.
  if (!(ext > 0 && ext < Infinity && x1 - x0 < Infinity && y1 - y0 < Infinity && z1 - z0 < Infinity)) return -1;
  const inv = 1 / ext;
  if (!(inv > 0 && inv < Infinity)) return -1;
  const nx = Math.floor((x1 - x0) * inv) + 1, ny = Math.floor((y1 - y0) * inv) + 1, nz = Math.floor((z1 - z0) * inv) + 1;
  const cells = nx * ny * nz;
  if (!(cells <= CELLS_PER_BLOCK * n + 4096)) return -1;
  // Each block's cell ranges, and the number of blocks in each cell.
  const cr = i32Scratch(B3_CELLS, 6 * n);
  const count = (into === null ? i32Scratch(B3_COUNT, cells + 1) : into.count.subarray(0, cells + 1)).fill(0);
  const tests = gridCount3(leaves, n, r, x0, y0, z0, inv, nx, ny, cr, count);
  // Crowding.
  if (tests > 2 * PAIRS_PER_BLOCK * n) return -1;
  // The list entries: the sum of the counts.
  const entries = gridRunEnds3(count, cells);
  // The list, cell after cell, each cell's blocks in increasing order (gridFill3).
  // An inflated block box is no larger than a cell, so it lies in at most 8 cells; but rounding
  // may stretch one over a third cell on an axis. More than 8 entries a block on average: leave
  // it to the hierarchy. This holds with or without `into`, so threads decide alike.
  if (entries > 8 * n) return -1;
  const items = into === null ? i32Scratch(B3_ITEMS, 2 * entries) : into.items;
  gridFill3(cr, n, nx, ny, count, items, entries);
  useBlockGrid3(count, items, entries);
  return cells;
}

/** blockGrid3's bounds: x0, y0, z0, x1, y1, z1 and the largest extent; module scratch, overwritten by the next call. */
const BOUNDS3 = new Float64Array(7);
/** −∞ as a constant: a negation at gridBounds3's entry ran before V8 gave the function type feedback, and bailed out once compiled. */
const NEG_INF = -Infinity;

/**
 * The inflated bounds of the n block boxes (each side moved out by r) and the largest inflated
 * extent of a block on any axis, in {@link BOUNDS3} (returned). Kept current inside the loop,
 * so that nothing after the loop needs type feedback (see blockGrid3).
 */
function gridBounds3(leaves: Float64Array, n: number, r: number): Float64Array {
  const out = BOUNDS3;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = NEG_INF, y1 = NEG_INF, z1 = NEG_INF, ext = 0;
  for (let q = 0, o = 0; q < n; q++, o += 6) {
    const lx = leaves[o] - r, ly = leaves[o + 1] - r, lz = leaves[o + 2] - r;
    const hx = leaves[o + 3] + r, hy = leaves[o + 4] + r, hz = leaves[o + 5] + r;
    x0 = Math.min(x0, lx);
    y0 = Math.min(y0, ly);
    z0 = Math.min(z0, lz);
    x1 = Math.max(x1, hx);
    y1 = Math.max(y1, hy);
    z1 = Math.max(z1, hz);
    ext = Math.max(ext, hx - lx, hy - ly, hz - lz);
    out[0] = x0;
    out[1] = y0;
    out[2] = z0;
    out[3] = x1;
    out[4] = y1;
    out[5] = z1;
    out[6] = ext;
  }
  return out;
}

/**
 * Writes each block's lower then upper cell on x, y, z to `cr` (6 per block) and counts the
 * blocks of each cell into count[c + 1]; returns the block pairs the cells would test,
 * Σ count·(count − 1), summed as the counts grow (a cell's k-th block adds 2(k − 1)).
 */
function gridCount3(leaves: Float64Array, n: number, r: number, x0: number, y0: number, z0: number, inv: number, nx: number, ny: number, cr: Int32Array, count: Int32Array): number {
  let tests = 0;
  for (let q = 0, o = 0; q < n; q++, o += 6) {
    const ax = Math.floor((leaves[o] - r - x0) * inv), ay = Math.floor((leaves[o + 1] - r - y0) * inv), az = Math.floor((leaves[o + 2] - r - z0) * inv);
    const bx = Math.floor((leaves[o + 3] + r - x0) * inv), by = Math.floor((leaves[o + 4] + r - y0) * inv), bz = Math.floor((leaves[o + 5] + r - z0) * inv);
    cr[o] = ax;
    cr[o + 1] = ay;
    cr[o + 2] = az;
    cr[o + 3] = bx;
    cr[o + 4] = by;
    cr[o + 5] = bz;
    for (let z = az; z <= bz; z++) {
      for (let y = ay; y <= by; y++) {
        const row = (z * ny + y) * nx + 1;
        for (let x = ax; x <= bx; x++) tests += 2 * count[row + x]++;
      }
    }
  }
  return tests;
}

/**
 * Prefix sums of the counts: count[c + 1] becomes the end of cell c's run in the list (count[0]
 * is 0). Returns the list's length, count[cells] (kept in the loop; see blockGrid3).
 */
function gridRunEnds3(count: Int32Array, cells: number): number {
  let total = 0; // count[0], which no block increments
  for (let c = 0; c < cells; c++) total = count[c + 1] += count[c];
  return total;
}

/**
 * Lists the blocks of each cell in `items`, cell after cell, each cell's blocks in increasing
 * order; count[c] moves to the end of cell c's run, which is the start of cell c + 1's.
 * Beside each entry (at items[entries + at]), the axes on which its block starts in that cell
 * (bit 0: x, 1: y, 2: z): a pair belongs to the cell of the larger lower index on each axis,
 * that is, to the one cell where on every axis one of the two starts (their masks' union is 7).
 * Read in list order, the masks spare the pair loop a random read for each pair it skips.
 */
function gridFill3(cr: Int32Array, n: number, nx: number, ny: number, count: Int32Array, items: Int32Array, entries: number): void {
  for (let q = 0, o = 0; q < n; q++, o += 6) {
    const ax = cr[o], ay = cr[o + 1], az = cr[o + 2], bx = cr[o + 3], by = cr[o + 4], bz = cr[o + 5];
    for (let z = az; z <= bz; z++) {
      for (let y = ay; y <= by; y++) {
        const row = (z * ny + y) * nx;
        const myz = (+(y === ay) << 1) | (+(z === az) << 2);
        for (let x = ax; x <= bx; x++) {
          const at = count[row + x]++;
          items[at] = q;
          items[entries + at] = myz | +(x === ax);
        }
      }
    }
  }
}

/**
 * The block pairs of cells c0 … c1 − 1 of the grid of the last {@link blockGrid3} (or
 * {@link useBlockGrid3}) call, on the same `leaves` and `tau`, written to {@link blockPairList};
 * returns their count.
 */
export function blockPairsIn3(c0: number, c1: number, leaves: Float64Array, tau: number): number {
  const count = gridCount, entries = gridEntries, items = gridItems;
  // Pairs per cell: cell c's run is [count[c − 1], count[c]) now (count[−1] = 0).
  let out = PAIRS;
  let np = 0;
  // The count returned is kept in the loop: code after a loop that V8 compiled on the fly had no
  // type feedback and was sent back to the interpreter on every call (the parallel search calls
  // this once a work item: `node --trace-deopt`, 54 bailouts a call of the 1e6-step 3D walk).
  let pairs = 0;
  for (let c = c0, start = c0 === 0 ? 0 : count[c0 - 1]; c < c1; c++) {
    const end = count[c];
    const a0 = start;
    start = end;
    if (end - a0 < 2) continue;
    for (let p = a0; p < end; p++) {
      if (out.length < np + 2 * (end - p)) {
        // Room for this entry's pairs (two numbers each).
        const grown = new Int32Array(Math.max(2 * out.length, np + 2 * (end - p)));
        grown.set(out.subarray(0, np));
        PAIRS = out = grown;
      }
      const a = items[p], ma = items[entries + p];
      const oa = 6 * a;
      const lx = leaves[oa], ly = leaves[oa + 1], lz = leaves[oa + 2], hx = leaves[oa + 3], hy = leaves[oa + 4], hz = leaves[oa + 5];
      for (let s = p + 1; s < end; s++) {
        if ((ma | items[entries + s]) !== 7) continue; // the pair belongs to another cell
        const b = items[s];
        const ob = 6 * b;
        out[np] = a;
        out[np + 1] = b;
        // The hierarchy's test (tree.ts, boxesNear), branch-free.
        np += 2 * (+(leaves[ob] - hx <= tau) & +(lx - leaves[ob + 3] <= tau) & +(leaves[ob + 1] - hy <= tau) &
          +(ly - leaves[ob + 4] <= tau) & +(leaves[ob + 2] - hz <= tau) & +(lz - leaves[ob + 5] <= tau));
      }
    }
    pairs = np >> 1;
  }
  return pairs;
}

/*
 * minMaxSelect. The block boxes take each minimum as b·x + (1 − b)·lo with b = [x < lo] (and
 * each maximum alike): for finite numbers that is x + 0 or 0 + lo, the same number as
 * Math.min(lo, x) up to the sign of a zero (which no box test sees: fl(a − b) and a comparison
 * with τ ≥ 0 do not depend on it). Measured a third faster than Math.min and Math.max, which V8
 * compiles with NaN and signed-zero handling. A coordinate that is not finite makes the pass
 * return −1 whatever the boxes hold.
 */

/**
 * One pass over the m + 1 vertices of an open 3D chain P that nobody has validated yet: writes
 * each block's (leaf's) box to `leaves`, the same numbers as tree.ts's segmentLeafBoxes3 (up
 * to the sign of a zero, which no box test sees), and lists in `folds` the turns c (segments c
 * and c + 1) that pass foldsBack's necessary sign condition, returning how many. No segment
 * boxes: the block search reads the vertices. Returns −1 if a coordinate is not finite or two
 * consecutive vertices are equal (a zero-length segment): the caller then prepares the chain
 * the usual way, which names the fault or drops the segment.
 *
 * The sign condition: segments a → v and v → b fold back only if a − v and b − v have the same
 * sign on every axis, that is, if the direction signs of the second segment are those of the
 * first, negated. With each segment's signs coded (s_x + 1) + 3(s_y + 1) + 9(s_z + 1) ∈ 0 … 26,
 * negating the signs maps a code k to 26 − k, and code 13 is a zero-length segment.
 */
export function blockBoxes3(P: Float64Array, m: number, leaves: Float64Array, folds: Int32Array): number {
  return blockBoxesRange3(P, m, 0, Math.ceil(m / LEAF3), leaves, folds, 0);
}

/**
 * The boxes of blocks q0 … q1 − 1 of the m-segment 3D chain P, written to `leaves` (the same
 * numbers as {@link blockBoxes3}'s), and the turns c (segments c and c + 1) whose second segment
 * is in these blocks that pass foldsBack's sign condition, written to `folds` from index `at`
 * (as blockBoxes3 lists them): one thread's part of a shared build, the same bits whoever writes
 * it. Returns how many turns it listed, or −1 if a vertex of these blocks is not finite or two
 * consecutive ones are equal (a zero-length segment).
 */
export function blockBoxesRange3(P: Float64Array, m: number, q0: number, q1: number, leaves: Float64Array, folds: Int32Array, at: number): number {
  const s0 = q0 * LEAF3;
  let v = 3 * s0;
  let px = P[v], py = P[v + 1], pz = P[v + 2];
  // The sign code of the segment before the range (−1: none).
  let prev = -1;
  if (s0 > 0) {
    const x = P[v - 3], y = P[v - 2], z = P[v - 1];
    prev = 13 + +(x < px) - +(px < x) + 3 * (+(y < py) - +(py < y)) + 9 * (+(z < pz) - +(pz < z));
  }
  // x − x is 0 for a finite x and NaN otherwise; NaN sticks in the sum.
  let finite = px - px + (py - py) + (pz - pz);
  let zero = 0, nf = at;
  // The result is kept in the loop (as in blockPairsIn3): a parallel build calls this once a
  // chunk, and the comparisons after the loop went back to the interpreter on every call.
  let result = finite === 0 ? 0 : -1;
  for (let q = q0; q < q1; q++) {
    const c1 = Math.min(q * LEAF3 + LEAF3, m);
    let xlo = px, ylo = py, zlo = pz, xhi = px, yhi = py, zhi = pz;
    for (let c = q * LEAF3; c < c1; c++) {
      v += 3;
      const x = P[v], y = P[v + 1], z = P[v + 2];
      finite += x - x + (y - y) + (z - z);
      const code = 13 + +(px < x) - +(x < px) + 3 * (+(py < y) - +(y < py)) + 9 * (+(pz < z) - +(z < pz));
      zero |= +(code === 13);
      folds[nf] = c - 1;
      nf += +(code === 26 - prev);
      prev = code;
      // Minima and maxima by selects (see minMaxSelect).
      let b = +(x < xlo);
      xlo = b * x + (1 - b) * xlo;
      b = +(y < ylo);
      ylo = b * y + (1 - b) * ylo;
      b = +(z < zlo);
      zlo = b * z + (1 - b) * zlo;
      b = +(x > xhi);
      xhi = b * x + (1 - b) * xhi;
      b = +(y > yhi);
      yhi = b * y + (1 - b) * yhi;
      b = +(z > zhi);
      zhi = b * z + (1 - b) * zhi;
      px = x;
      py = y;
      pz = z;
    }
    const o = 6 * q;
    leaves[o] = xlo;
    leaves[o + 1] = ylo;
    leaves[o + 2] = zlo;
    leaves[o + 3] = xhi;
    leaves[o + 4] = yhi;
    leaves[o + 5] = zhi;
    result = finite === 0 && zero === 0 ? nf - at : -1;
  }
  return result;
}
