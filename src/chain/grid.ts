/**
 * A second broad phase for one case: planar chains at thickness 0 that crowd their bounding box
 * (random walks, scribbles, dense tracks), where every leaf box of the hierarchy overlaps
 * dozens of others. A uniform grid over the chain's box, each segment listed in every cell its
 * box touches (counting sort, no per-cell allocation), and each pair tested in one cell only.
 * Measured on a 2D random walk of 1e6 unit steps: 27 candidate box tests per segment here
 * against about 50 plus the traversal for the hierarchy (bench/chain/chain.bench.ts).
 *
 * Nothing is dropped, nothing is reported twice: cell(x) = ⌊(x − x₀)·(1/h)⌋ is computed the
 * same way for every coordinate and is monotone in x (rounding to nearest is monotone, so are
 * subtracting a constant, scaling by a positive one and ⌊·⌋). Two segments that share a point
 * have boxes with a common x-interval [max lo, min hi], so cell(max lo) = max(cell(lo_a),
 * cell(lo_b)) lies in both segments' cell ranges, and likewise in y: the *reference cell*
 * (max of the cells of the two boxes' minima) holds both, and the pair is tested there only.
 * The box test itself is exact at thickness 0 (the sign of a rounded difference is exact).
 */
import { GRID_CX, GRID_CY, GRID_EX, GRID_EY, GRID_FILL, GRID_ITEMS, GRID_SEGS, GRID_START, i32Scratch } from './scratch.js';

/**
 * The grid's cells, for one band of columns (the whole grid when there is one band): cell
 * (x, y) of the band, x counted from the band's first column, is local cell y·nx + x, and its
 * entries are items[start[c] … start[c + 1]), each 4·segment + tag, where tag bit 0 says the
 * segment's box starts in this cell's column and bit 1 in its row. A pair's reference cell is
 * the cell where both bits are set in the OR of their tags (the larger of two box minima starts
 * there).
 */
export interface ChainGrid {
  /** Columns in this band. */
  nx: number;
  ny: number;
  start: Int32Array;
  items: Int32Array;
}

/**
 * The grid's layout: each segment's cell range (columns cx … ex, rows cy … ey; ex < cx for a
 * dead segment) and the bands of columns the cells are built by, one at a time (bands are the
 * work items of a parallel search; a single band is the whole grid).
 */
export interface GridPlan {
  nx: number;
  ny: number;
  cx: Int32Array;
  cy: Int32Array;
  ex: Int32Array;
  ey: Int32Array;
  bands: number;
  /** Band b holds columns bandCols[b] … bandCols[b + 1] − 1. */
  bandCols: Int32Array;
  /** With several bands: band b's segments (those whose columns meet it) are segs[segStart[b] … segStart[b + 1]), in chain order. */
  segStart: Int32Array | null;
  segs: Int32Array | null;
}

/**
 * Grids with more cells than this many per segment are sparse: the hierarchy does better.
 * Measured from 1e3 to 1e6 segments: random walks have 1.6–3.9 cells per segment and the grid
 * is 1.0–1.24× faster there; integer-grid walks 4–6, a tie; smooth walks 46 and up, where the
 * grid is 2.5–50× slower.
 */
const MAX_CELLS_PER_SEGMENT = 8;
/** … and so are grids whose boxes touch more than this many cells per segment (long segments). */
const MAX_ENTRIES_PER_SEGMENT = 6;

/**
 * Lays out the grid (in the chain search's working memory, scratch.ts: valid until the next
 * call) over the live segments of the 2D segment boxes `seg` (xlo, ylo, xhi, yhi per segment),
 * cut into `bands` bands of columns, or returns null when the chain does not crowd its box (the
 * cell count or the cells touched per segment exceed the limits above). The cell size is 1.25
 * times the segments' mean box half-perimeter, (w + h)/2 averaged: measured best for random
 * walks (0.8 and 1.0 were 5–10 % slower, 1.5 the same).
 */
export function planGrid(seg: Float64Array, m: number, dead: Uint8Array | null, bands = 1): GridPlan | null {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, sum = 0, live = 0;
  for (let c = 0, o = 0; c < m; c++, o += 4) {
    if (dead !== null && dead[c] !== 0) continue;
    const xl = seg[o], yl = seg[o + 1], xh = seg[o + 2], yh = seg[o + 3];
    if (xl < x0) x0 = xl;
    if (yl < y0) y0 = yl;
    if (xh > x1) x1 = xh;
    if (yh > y1) y1 = yh;
    sum += xh - xl + (yh - yl);
    live++;
  }
  if (live < 64 || m >= 2 ** 29) return null;
  const h = 1.25 * (sum / (2 * live));
  if (!(h > 0) || !Number.isFinite(h)) return null;
  const inv = 1 / h;
  const wx = (x1 - x0) * inv, wy = (y1 - y0) * inv;
  if (!(wx * wy <= MAX_CELLS_PER_SEGMENT * m) || wx > 2 ** 30 || wy > 2 ** 30) return null;
  const nx = Math.floor(wx) + 1, ny = Math.floor(wy) + 1;
  const cx = i32Scratch(GRID_CX, m), cy = i32Scratch(GRID_CY, m), ex = i32Scratch(GRID_EX, m), ey = i32Scratch(GRID_EY, m);
  let entries = 0;
  for (let c = 0, o = 0; c < m; c++, o += 4) {
    if (dead !== null && dead[c] !== 0) {
      cx[c] = cy[c] = ey[c] = 0;
      ex[c] = -1; // no cells
      continue;
    }
    const a = Math.floor((seg[o] - x0) * inv), b = Math.floor((seg[o + 1] - y0) * inv);
    const e = Math.floor((seg[o + 2] - x0) * inv), f = Math.floor((seg[o + 3] - y0) * inv);
    cx[c] = a;
    cy[c] = b;
    ex[c] = e;
    ey[c] = f;
    entries += (e - a + 1) * (f - b + 1);
  }
  if (entries > MAX_ENTRIES_PER_SEGMENT * m) return null;
  bands = Math.max(1, Math.min(bands, nx));
  const bandCols = new Int32Array(bands + 1);
  for (let b = 0; b <= bands; b++) bandCols[b] = Math.floor((b * nx) / bands);
  if (bands === 1) return { nx, ny, cx, cy, ex, ey, bands, bandCols, segStart: null, segs: null };
  // Each segment into every band its columns meet (a counting sort; most meet one).
  const bandOf = new Int32Array(nx);
  for (let b = 0; b < bands; b++) bandOf.fill(b, bandCols[b], bandCols[b + 1]);
  const segStart = new Int32Array(bands + 1);
  for (let c = 0; c < m; c++) {
    if (ex[c] < cx[c]) continue;
    for (let b = bandOf[cx[c]]; b <= bandOf[ex[c]]; b++) segStart[b + 1]++;
  }
  for (let b = 0; b < bands; b++) segStart[b + 1] += segStart[b];
  const fill = segStart.slice(0, bands);
  const segs = i32Scratch(GRID_SEGS, segStart[bands]);
  for (let c = 0; c < m; c++) {
    if (ex[c] < cx[c]) continue;
    for (let b = bandOf[cx[c]]; b <= bandOf[ex[c]]; b++) segs[fill[b]++] = c;
  }
  return { nx, ny, cx, cy, ex, ey, bands, bandCols, segStart, segs };
}

/** Builds the cells of band `b` of the plan (in working memory: valid until the next call). */
export function bandGrid(plan: GridPlan, b: number): ChainGrid {
  const { ny, cx, cy, ex, ey, segStart, segs } = plan;
  const c0 = plan.bandCols[b], c1 = plan.bandCols[b + 1], nx = c1 - c0;
  const k0 = segStart === null ? 0 : segStart[b], k1 = segStart === null ? cx.length : segStart[b + 1];
  const start = i32Scratch(GRID_START, nx * ny + 1).fill(0);
  let entries = 0;
  for (let k = k0; k < k1; k++) {
    const c = segs === null ? k : segs[k];
    const a = Math.max(cx[c], c0) - c0, e = Math.min(ex[c], c1 - 1) - c0;
    if (e < a) continue;
    const f = ey[c];
    for (let y = cy[c]; y <= f; y++) for (let x = a; x <= e; x++) start[y * nx + x + 1]++;
    entries += (e - a + 1) * (f - cy[c] + 1);
  }
  for (let q = 0; q < nx * ny; q++) start[q + 1] += start[q];
  const fill = i32Scratch(GRID_FILL, nx * ny);
  fill.set(start.subarray(0, nx * ny));
  const items = i32Scratch(GRID_ITEMS, entries);
  for (let k = k0; k < k1; k++) {
    const c = segs === null ? k : segs[k];
    const a = Math.max(cx[c], c0) - c0, e = Math.min(ex[c], c1 - 1) - c0;
    const ax = cx[c] - c0, b0 = cy[c];
    for (let y = b0; y <= ey[c]; y++) {
      for (let x = a; x <= e; x++) items[fill[y * nx + x]++] = 4 * c + +(x === ax) + 2 * +(y === b0);
    }
  }
  return { nx, ny, start, items };
}
