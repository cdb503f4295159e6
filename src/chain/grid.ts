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
import { G3_BOX, G3_CELL, G3_COUNT, G3_ID, G3_KEY, G3_PERM, G3_REACH, GRID_CX, GRID_CY, GRID_EX, GRID_EY, GRID_FILL, GRID_ITEMS, GRID_SEGS, GRID_START, f64Scratch, i32Scratch } from './scratch.js';

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
export const MAX_CELLS_PER_SEGMENT = 8;
/** … and so are grids whose boxes touch more than this many cells per segment (long segments). */
export const MAX_ENTRIES_PER_SEGMENT = 6;
/** The cell size over the segments' mean box half-perimeter (see planGrid). */
export const CELL_SCALE = 1.25;

/** planGrid's bounds and sums (6 numbers, written by {@link boxSums}). */
const BOUNDS = new Float64Array(6);

/**
 * Writes to out[o … o + 5] the bounds x0, y0, x1, y1 of the live segments k0 … k1 − 1 among the
 * 2D boxes `seg` (xlo, ylo, xhi, yhi per segment), the sum of their half-perimeters and how many
 * are live (±Infinity bounds and zeros when none is). Shared by {@link planGrid} and the parallel
 * plan (src/parallel/grid-plan.ts), which runs it a chunk at a time.
 */
export function boxSums(seg: Float64Array, dead: Uint8Array | null, k0: number, k1: number, out: Float64Array, o: number): void {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, sum = 0, live = 0;
  for (let k = k0, q = 4 * k0; k < k1; k++, q += 4) {
    if (dead !== null && dead[k] !== 0) continue;
    const xl = seg[q], yl = seg[q + 1], xh = seg[q + 2], yh = seg[q + 3];
    if (xl < x0) x0 = xl;
    if (yl < y0) y0 = yl;
    if (xh > x1) x1 = xh;
    if (yh > y1) y1 = yh;
    sum += xh - xl + (yh - yl);
    live++;
  }
  out[o] = x0;
  out[o + 1] = y0;
  out[o + 2] = x1;
  out[o + 3] = y1;
  out[o + 4] = sum;
  out[o + 5] = live;
}

/**
 * Writes the cell range [cx, ex] × [cy, ey] of segments k0 … k1 − 1 (boxes in `seg`, 4 numbers a
 * segment, cells of side 1 / inv from (x0, y0)) and returns how many cell entries they make; a dead
 * segment gets the empty range cx = 0, ex = −1. Shared by {@link planGrid} and the parallel plan
 * (src/parallel/grid-plan.ts), which runs it a chunk at a time.
 */
export function cellRanges(
  seg: Float64Array, dead: Uint8Array | null, k0: number, k1: number, x0: number, y0: number, inv: number,
  cx: Int32Array, cy: Int32Array, ex: Int32Array, ey: Int32Array,
): number {
  let entries = 0;
  for (let k = k0, o = 4 * k0; k < k1; k++, o += 4) {
    if (dead !== null && dead[k] !== 0) {
      cx[k] = cy[k] = ey[k] = 0;
      ex[k] = -1; // no cells
      continue;
    }
    const a = Math.floor((seg[o] - x0) * inv), b = Math.floor((seg[o + 1] - y0) * inv);
    const e = Math.floor((seg[o + 2] - x0) * inv), f = Math.floor((seg[o + 3] - y0) * inv);
    cx[k] = a;
    cy[k] = b;
    ex[k] = e;
    ey[k] = f;
    entries += (e - a + 1) * (f - b + 1);
  }
  return entries;
}

/**
 * Lays out the grid (in the chain search's working memory, scratch.ts: valid until the next
 * call) over the live segments of the 2D segment boxes `seg` (xlo, ylo, xhi, yhi per segment),
 * cut into `bands` bands of columns, or returns null when the chain does not crowd its box (the
 * cell count or the cells touched per segment exceed the limits above). The cell size is 1.25
 * times the segments' mean box half-perimeter, (w + h)/2 averaged: measured best for random
 * walks (0.8 and 1.0 were 5–10 % slower, 1.5 the same).
 */
export function planGrid(seg: Float64Array, m: number, dead: Uint8Array | null, bands = 1): GridPlan | null {
  boxSums(seg, dead, 0, m, BOUNDS, 0);
  const x0 = BOUNDS[0], y0 = BOUNDS[1], x1 = BOUNDS[2], y1 = BOUNDS[3], sum = BOUNDS[4], live = BOUNDS[5];
  if (live < 64 || m >= 2 ** 29) return null;
  const h = CELL_SCALE * (sum / (2 * live));
  if (!(h > 0) || !Number.isFinite(h)) return null;
  const inv = 1 / h;
  const wx = (x1 - x0) * inv, wy = (y1 - y0) * inv;
  if (!(wx * wy <= MAX_CELLS_PER_SEGMENT * m) || wx > 2 ** 30 || wy > 2 ** 30) return null;
  const nx = Math.floor(wx) + 1, ny = Math.floor(wy) + 1;
  const cx = i32Scratch(GRID_CX, m), cy = i32Scratch(GRID_CY, m), ex = i32Scratch(GRID_EX, m), ey = i32Scratch(GRID_EY, m);
  const entries = cellRanges(seg, dead, 0, m, x0, y0, inv, cx, cy, ex, ey);
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

/**
 * The 3D grid: the live segments of a 3D chain sorted by the cell of their box's minimum corner
 * in x and y (columns and rows of cells of size h) and by the box's lower z within a row (to a
 * fine layer of h/FINE), with their boxes in that order (structure of arrays). The segments of
 * one row are contiguous and sorted by lower z, and a row's neighbour rows are found by adding
 * a constant to the key.
 */
export interface ChainGrid3 {
  /** Live segments. */
  n: number;
  /** Rows (y) and fine layers (z) of the key, padding included: key offsets of the neighbour rows are (dx·ny + dy)·nz. */
  ny: number;
  nz: number;
  /** Key of each sorted position, ascending: (column·ny + row)·nz + fine layer of the box's lower z. */
  key: Float64Array;
  /**
   * How far up its row (in keys) each sorted position's window reaches: a segment whose box's
   * lower z lies above the fine layer key + reach is more than τ above this one.
   */
  reach: Float64Array;
  /** Segment at each sorted position (ascending within a cell). */
  id: Int32Array;
  /** Boxes in sorted order: minima x0, y0, z0 and maxima x1, y1, z1 of the segment at each position. */
  x0: Float64Array;
  y0: Float64Array;
  z0: Float64Array;
  x1: Float64Array;
  y1: Float64Array;
  z1: Float64Array;
}

/** The grid is abandoned for the hierarchy when the segments of a cell's neighbourhood are this many per segment on average (Σ cell count² / n). */
const MAX_CROWDING3 = 24;

/** Fine layers per cell: rows are sorted by the box's lower z to within h/FINE. */
export const FINE = 8;
/** Fine layers of padding at either end of a row (FINE + 4: the windows' reach below and above, with slack). */
const PAD_Z = FINE + 4;

/**
 * Lays out the 3D grid (in working memory, scratch.ts: valid until the next call) over the live
 * segments of the 3D vertex array P (m segments, `dead` ones skipped) for thickness τ, or returns
 * null when it does not fit the chain: fewer than 64 live segments, more than 16n + 64 cells
 * (fine layers in z) on an axis or 2⁵² keys in all, or — unless `force` — segments of very
 * uneven length (the longest box extent over 4 times the mean) or cells so crowded that the
 * hierarchy does better.
 *
 * The cell size is h = (E + τ)·(1 + 2⁻¹⁰), E the largest box extent on any axis. Why a pair
 * within τ has its two minimum corners in cells at most one apart in x and in y, and lower z
 * at most FINE + 2 fine layers apart: exactly, lo_B − lo_A ≤ (hi_A − lo_A) + τ ≤ E + τ ≤
 * h/(1 + 2⁻¹⁰) (a box gap is at most the distance); the computed coordinate
 * fl(fl(x − x₀)·fl(1/h)) is off from (x − x₀)/h by at most 3.1u·W < 2⁻¹⁸ cells or fine layers
 * (W ≤ 16n + 64 < 2³⁴ of them on the axis), so two computed coordinates differ by less than
 * 1 − 2⁻¹¹ + 2⁻¹⁷ < 1 cell (FINE + 1 fine layers), and their floors by at most 1 (FINE + 1). Above, B's lower z is at most A's upper
 * z + τ, whose fine layer (computed the same way) is at most 1 below B's; `reach` adds 2.
 * So each segment, against the later segments of its own row and the windows
 * [layer − FINE − 2, layer + reach] of the four forward rows (y + 1 in its column; y − 1, y, y + 1
 * in the next), meets every pair once.
 */
export function planGrid3(P: Float64Array, m: number, dead: Uint8Array | null, tau: number, force: boolean): ChainGrid3 | null {
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  let ext = 0, sum = 0, n = 0;
  for (let c = 0, v = 0; c < m; c++, v += 3) {
    if (dead !== null && dead[c] !== 0) continue;
    const ax = P[v], ay = P[v + 1], az = P[v + 2], bx = P[v + 3], by = P[v + 4], bz = P[v + 5];
    const lx = ax < bx ? ax : bx, ly = ay < by ? ay : by, lz = az < bz ? az : bz;
    const ex = Math.abs(bx - ax), ey = Math.abs(by - ay), ez = Math.abs(bz - az);
    if (lx < x0) x0 = lx;
    if (ly < y0) y0 = ly;
    if (lz < z0) z0 = lz;
    if (lx > x1) x1 = lx;
    if (ly > y1) y1 = ly;
    if (lz > z1) z1 = lz;
    const e = ex > ey ? (ex > ez ? ex : ez) : ey > ez ? ey : ez;
    if (e > ext) ext = e;
    sum += e;
    n++;
  }
  if (n < 64 || m >= 2 ** 29 || !(ext <= 4 * (sum / n) || (force && ext - ext === 0))) return null;
  const h = (ext + tau) * (1 + 2 ** -10);
  if (!(h > 0) || !Number.isFinite(h)) return null;
  const inv = 1 / h, invF = 1 / (h / FINE);
  const wx = (x1 - x0) * inv, wy = (y1 - y0) * inv, wz = (z1 - z0) * invF;
  // Rows padded by one on each side, so that y ± 1 never wraps into another column; layers by
  // PAD_Z fine steps, so that no window of a row reaches into the next row.
  const nx = Math.floor(wx) + 1, ny = Math.floor(wy) + 3, nz = Math.floor(wz) + 1 + 2 * PAD_Z;
  const most = 16 * n + 64; // buckets of the counting sorts
  if (!(nx <= most && ny <= most && nz <= most && nx * ny * nz <= 2 ** 52)) return null; // keys exact integers
  const perm = i32Scratch(G3_PERM, 2 * n);
  let a = perm.subarray(0, n), b = perm.subarray(n, 2 * n);
  const key = f64Scratch(G3_KEY, n);
  if (nx * ny * nz <= 2 ** 32) {
    // Keys of 32 bits: an LSD radix sort of (key, segment), 8 bits a pass, reading both in order.
    const kb = i32Scratch(G3_CELL, 2 * n);
    let ka = new Uint32Array(kb.buffer, kb.byteOffset, n), kc = new Uint32Array(kb.buffer, kb.byteOffset + 4 * n, n);
    for (let c = 0, v = 0, k = 0; c < m; c++, v += 3) {
      if (dead !== null && dead[c] !== 0) continue;
      const ax = P[v], ay = P[v + 1], az = P[v + 2], bx = P[v + 3], by = P[v + 4], bz = P[v + 5];
      const cx = Math.floor(((ax < bx ? ax : bx) - x0) * inv);
      const cy = Math.floor(((ay < by ? ay : by) - y0) * inv) + 1;
      const cz = Math.floor(((az < bz ? az : bz) - z0) * invF) + PAD_Z;
      ka[k] = (cx * ny + cy) * nz + cz;
      a[k++] = c;
    }
    const count = i32Scratch(G3_COUNT, 257);
    for (let shift = 0; shift < 32 && 2 ** shift < nx * ny * nz; shift += 8) {
      count.fill(0);
      for (let k = 0; k < n; k++) count[((ka[k] >>> shift) & 255) + 1]++;
      if (count[((ka[0] >>> shift) & 255) + 1] === n) continue; // one digit throughout: nothing moves
      for (let q = 0; q < 256; q++) count[q + 1] += count[q];
      for (let k = 0; k < n; k++) {
        const x = ka[k], at = count[(x >>> shift) & 255]++;
        kc[at] = x;
        b[at] = a[k];
      }
      const t = ka;
      ka = kc;
      kc = t;
      const u = a;
      a = b;
      b = u;
    }
    key.set(ka);
  } else {
    const cell = i32Scratch(G3_CELL, 3 * m);
    for (let c = 0, v = 0, k = 0; c < m; c++, v += 3) {
      if (dead !== null && dead[c] !== 0) continue;
      const ax = P[v], ay = P[v + 1], az = P[v + 2], bx = P[v + 3], by = P[v + 4], bz = P[v + 5];
      cell[c] = Math.floor(((ax < bx ? ax : bx) - x0) * inv);
      cell[m + c] = Math.floor(((ay < by ? ay : by) - y0) * inv) + 1;
      cell[2 * m + c] = Math.floor(((az < bz ? az : bz) - z0) * invF) + PAD_Z;
      a[k++] = c;
    }
    // Stable counting sorts (least significant first): by fine layer, by row, by column.
    countingSort(cell, 2 * m, nz, a, b, n);
    countingSort(cell, m, ny, b, a, n);
    countingSort(cell, 0, nx, a, b, n);
    a = b;
    for (let p = 0; p < n; p++) {
      const c = a[p];
      key[p] = (cell[c] * ny + cell[m + c]) * nz + cell[2 * m + c];
    }
  }
  // a: the segments in key order.
  const id = i32Scratch(G3_ID, n), box = f64Scratch(G3_BOX, 6 * n), reach = f64Scratch(G3_REACH, n);
  const bx0 = box.subarray(0, n), by0 = box.subarray(n, 2 * n), bz0 = box.subarray(2 * n, 3 * n);
  const bx1 = box.subarray(3 * n, 4 * n), by1 = box.subarray(4 * n, 5 * n), bz1 = box.subarray(5 * n, 6 * n);
  let crowd = 0, run = 0, last = -1;
  for (let p = 0; p < n; p++) {
    const c = a[p];
    id[p] = c;
    const k = key[p], fz = k % nz;
    const coarse = k - fz + Math.floor(fz / FINE); // the cell, for the crowding measure
    run = coarse === last ? run + 1 : 1;
    last = coarse;
    crowd += 2 * run - 1; // Σ count² of the cells so far
    const v = 3 * c;
    const ax = P[v], ay = P[v + 1], az = P[v + 2], bx = P[v + 3], by = P[v + 4], bz = P[v + 5];
    const zl = az < bz ? az : bz, zh = az < bz ? bz : az;
    bx0[p] = ax < bx ? ax : bx;
    by0[p] = ay < by ? ay : by;
    bz0[p] = zl;
    bx1[p] = ax < bx ? bx : ax;
    by1[p] = ay < by ? by : ay;
    bz1[p] = zh;
    const up = Math.floor((zh + tau - z0) * invF) + PAD_Z + 2;
    reach[p] = (up < nz - 1 ? up : nz - 1) - fz;
  }
  if (!force && crowd > MAX_CROWDING3 * n) return null;
  return { n, ny, nz, key, reach, id, x0: bx0, y0: by0, z0: bz0, x1: bx1, y1: by1, z1: bz1 };
}

/** Stable counting sort of the n segments in `src` by digit[at + segment] (0 ≤ digit < buckets), into `dst`. */
function countingSort(digit: Int32Array, at: number, buckets: number, src: Int32Array, dst: Int32Array, n: number): void {
  const count = i32Scratch(G3_COUNT, buckets + 1).fill(0);
  for (let k = 0; k < n; k++) count[digit[at + src[k]] + 1]++;
  for (let q = 0; q < buckets; q++) count[q + 1] += count[q];
  for (let k = 0; k < n; k++) {
    const c = src[k];
    dst[count[digit[at + c]]++] = c;
  }
}
