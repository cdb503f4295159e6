/**
 * The 2D grid's plan (src/chain/grid.ts, planGrid) built once for all the threads of a parallel
 * chain search, in shared memory, chunk by chunk by whoever claims the chunks — as the segment
 * boxes are — instead of by every thread for itself (a pass over every segment per thread: on a
 * 1e6-step random walk each thread spent 35–45 ms of CPU on it against 600 for the whole search).
 *
 * Three phases over chunks of segments, each chunk claimed from a counter:
 * 1. the chunk's bounds, the sum of its boxes' half-perimeters and its live segments;
 * 2. (after all of 1, reduced in chunk order by every thread: the same cell size everywhere)
 *    each segment's cell range, the chunk's cell entries and how many of its segments meet each
 *    band of columns;
 * 3. (after all of 2: every thread computes where each chunk's segments go in each band's list)
 *    the chunk's segments into the band lists, in chain order.
 * No thread ever waits for another: once its claims run out, a thread builds itself every chunk
 * of the phase not yet marked done (a late or dead worker's chunk is built twice, with the same
 * bits). So the plan is complete, and the same, in every thread that returns from it — whatever
 * the number of threads, and the same as planGrid's but for the cell size's last bits (the sum
 * is taken chunk by chunk): the contacts found do not depend on the grid.
 */
import { CELL_SCALE, MAX_CELLS_PER_SEGMENT, MAX_ENTRIES_PER_SEGMENT, boxSums, planGrid } from '../chain/grid.js';
import type { GridPlan } from '../chain/grid.js';
import type { WholeGrid2 } from '../chain/contacts.js';
import type { StepName } from './timeline.js';

/** Segments per chunk of the plan. */
const CHUNK = 1 << 14;
/** Numbers per chunk in `part`: x₀, y₀, x₁, y₁, Σ half-perimeters, live segments, cell entries. */
const PART = 7;

/** The shared memory of one plan (all zero at the start; typed arrays over SharedArrayBuffers). */
export interface SharedGridPlan {
  /** Segments, and the most bands of columns the plan has room for. */
  m: number;
  bands: number;
  /** Next chunk to claim in phases 1, 2, 3. */
  ctl: Int32Array;
  /** Done flags: phase p's chunk c at p·chunks + c. */
  done: Int32Array;
  /** {@link PART} numbers per chunk. */
  part: Float64Array;
  /** Cell ranges: cx, cy, ex, ey, m each, one after the other. */
  ranges: Int32Array;
  /** Segments of chunk c that meet band b, at c·bands + b. */
  counts: Int32Array;
  /** The band lists, one after the other (room for `segs.length` entries; a plan needing more is built per thread). */
  segs: Int32Array;
  /** Cell entries of chunk c in band b, at c·bands + b (where each band's cells go in the whole grid's `items`). */
  ecounts: Int32Array;
  /**
   * The whole grid, built band by band in shared memory for the search by ranges of segments
   * ({@link sharedWholeGrid}), or null (the search then takes bands of columns as work items):
   * `ctl` [next band to build, next range of segments to search], a done flag per band, cell
   * starts and entries (rooms: a grid that needs more is not built), the ranges' table, and
   * the segments per range (the search's work items).
   */
  whole: { bounds: Int32Array; ctl: Int32Array; done: Int32Array; start: Int32Array; items: Int32Array; table: Int32Array } | null;
  /** Where each band's entries start in the whole grid (bands + 1; set per thread by {@link sharedGridPlan}). */
  entryStart?: Int32Array;
}

/** Chunks of a plan over m segments. */
function chunksOf(m: number): number {
  return Math.max(1, Math.ceil(m / CHUNK));
}

/**
 * The shared memory of a plan over m segments cut into at most `bands` bands, from `alloc` (bytes → a
 * SharedArrayBuffer of at least that many bytes, zeroed where the plan writes no value first:
 * only `ctl`, `done` must be zero). Band lists get room for 2m + 64 entries: a segment meets
 * more than one band only where its box spans a band boundary.
 */
export function allocGridPlan(m: number, bands: number, alloc: (bytes: number) => SharedArrayBuffer, range = 0, most = range, threads = 1): SharedGridPlan {
  const chunks = chunksOf(m);
  const bounds = range > 0 ? rangeBounds(m, range, most, threads) : null;
  const i32 = (n: number): Int32Array => new Int32Array(alloc(4 * n), 0, n);
  return {
    m, bands,
    ctl: new Int32Array(new SharedArrayBuffer(12)),
    done: new Int32Array(new SharedArrayBuffer(12 * chunks)),
    part: new Float64Array(alloc(8 * PART * chunks), 0, PART * chunks),
    ranges: i32(4 * m),
    counts: i32(chunks * bands),
    segs: i32(2 * m + 64),
    ecounts: i32(chunks * bands),
    whole: bounds !== null
      ? {
          bounds,
          ctl: new Int32Array(new SharedArrayBuffer(8)),
          done: new Int32Array(new SharedArrayBuffer(4 * bands)),
          start: i32(WHOLE_CELLS * m + 1024),
          items: i32(MAX_ENTRIES_PER_SEGMENT * m),
          table: new Int32Array(new SharedArrayBuffer(16 * (bounds.length - 1))),
        }
      : null,
  };
}

/**
 * Where the threads building the shared segment boxes (src/chain/contacts.ts, SharedBuild.sums)
 * write the plan's first phase, chunk by chunk, with each chunk's boxes still in cache: a pass
 * over every box the less (on the 1e6-step planar walk, boxSums alone took 10 ms of one thread's
 * CPU over boxes no longer in cache).
 */
export function planSums(S: SharedGridPlan): { part: Float64Array; stride: number; chunk: number; done: Int32Array } {
  return { part: S.part, stride: PART, chunk: CHUNK, done: S.done };
}

/** Room for the whole grid's cells, per segment: planGrid takes grids of up to MAX_CELLS_PER_SEGMENT·m cells and a row and a column more (a grid needing more room is searched by bands; 1.1 a segment on a 1e6-step random walk, 6.1 on a 60,000-step integer-grid walk). */
const WHOLE_CELLS = 9;

/**
 * The ranges of the search in chain order over m segments (range r: segments bounds[r] …
 * bounds[r + 1] − 1; at least one range), on shared memory, cut by guided self-scheduling
 * (C. D. Polychronopoulos and D. J. Kuck, "Guided self-scheduling", IEEE Trans. Computers 36(12),
 * 1987): each range takes 1/(2·threads) of the segments still unassigned, but no more than `most`
 * and no fewer than `least`. Each range costs a start (its cells' cursors are found afresh: on the
 * 1e6-step planar walk, one thread over ranges of 16,384 segments searched 4% slower than over
 * one range), so early ranges are long; the last ones are short, so that the threads end close
 * together. most = least gives ranges of `least` segments.
 */
export function rangeBounds(m: number, least: number, most: number, threads: number): Int32Array {
  const out: number[] = [0];
  let at = 0;
  while (at < m) {
    const size = Math.max(least, Math.min(most, Math.ceil((m - at) / (2 * threads))));
    at = Math.min(m, at + size);
    out.push(at);
  }
  if (out.length === 1) out.push(0); // no segment: one empty range
  const bounds = new Int32Array(new SharedArrayBuffer(4 * out.length));
  bounds.set(out);
  return bounds;
}

/**
 * What a chunk of each phase needs (one object a call). The chunks are built by module
 * functions, not by closures made afresh each call: V8 compiled those closures again on every
 * call (`node --trace-opt`: about 4 compilations and 10 ms of a compiler thread's CPU a call of
 * the 1e6-step planar walk), which on two cores comes out of the search's own time.
 */
interface PhaseWork {
  S: SharedGridPlan;
  seg: Float64Array;
  dead: Uint8Array | null;
  m: number;
  x0: number;
  y0: number;
  inv: number;
  cx: Int32Array;
  cy: Int32Array;
  ex: Int32Array;
  ey: Int32Array;
  bands: number;
  bandOf: Int32Array;
  /** Phase 2's band counts of one chunk (scratch), and its cell entries per band. */
  mine: Int32Array;
  ents: Int32Array;
  /** The bands' first columns (bands + 1). */
  cols: Int32Array;
  /** Phase 3: where chunk c's segments of band b go, at c·bands + b. */
  at: Int32Array;
  segs: Int32Array;
}

/**
 * Empty calls of boxSums before this thread's first shared build (see sharedGridPlan). V8 gives
 * a function its type feedback only after a few calls (lazy feedback allocation), and compiles
 * a hot loop while it runs (on-stack replacement), keeping that code for later calls. A first
 * call that runs one long loop is compiled before the code after its loop has ever recorded
 * feedback, and that code is then thrown back to the interpreter at the loop's end on every
 * call (`node --trace-deopt`: about 30 bailouts a call in boxSums on the 1e6-step planar walk,
 * in some runs). Empty calls first run the code after the loop with feedback recorded: one
 * empty call did not do it (the bailouts came back), 64 did in every run tried (25). This is
 * our reading of V8's behaviour, checked only by counting the bailouts.
 */
const PRIME = new Float64Array(PART);
let primed = false;

/** Claims chunks of phase p and builds each not done yet (phase 1's are done with the boxes: {@link planSums}); then builds every chunk still not done. */
function phase(S: SharedGridPlan, p: number, w: PhaseWork): void {
  const chunks = chunksOf(S.m);
  const done = S.done;
  for (let c = Atomics.add(S.ctl, p, 1); c < chunks; c = Atomics.add(S.ctl, p, 1)) {
    if (Atomics.load(done, p * chunks + c) !== 0) continue;
    buildChunk(p, c, w);
    Atomics.store(done, p * chunks + c, 1);
  }
  for (let c = 0; c < chunks; c++) {
    if (Atomics.load(done, p * chunks + c) === 0) {
      buildChunk(p, c, w);
      Atomics.store(done, p * chunks + c, 1);
    }
  }
}

/** Chunk c of phase p (segments c·CHUNK … ). */
function buildChunk(p: number, c: number, w: PhaseWork): void {
  const k0 = c * CHUNK, k1 = Math.min(w.m, k0 + CHUNK);
  if (p === 0) {
    boxSums(w.seg, w.dead, k0, k1, w.S.part, PART * c);
  } else if (p === 1) {
    // Counted here and written at the end: a chunk built twice at once writes the same values.
    w.mine.fill(0);
    w.ents.fill(0);
    const entries = rangesAndBands(w, k0, k1);
    w.S.counts.set(w.mine, c * w.S.bands);
    w.S.ecounts.set(w.ents, c * w.S.bands);
    w.S.part[PART * c + 6] = entries;
  } else {
    listBands(w, k0, k1, w.at.slice(c * w.bands, (c + 1) * w.bands));
  }
}

/**
 * Phase 2 in one pass: the cell ranges of segments k0 … k1 − 1 (as src/chain/grid.ts' cellRanges
 * computes them: one pass instead of cellRanges and then a count; a grid that differs only in its
 * cells finds the same contacts), and w.mine[b] += those that meet band b, w.ents[b] += their cells in it; returns
 * their cell entries.
 */
function rangesAndBands(w: PhaseWork, k0: number, k1: number): number {
  const { seg, dead, x0, y0, inv, cx, cy, ex, ey, bandOf, mine, ents, cols } = w;
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
    const rows = f - b + 1;
    entries += (e - a + 1) * rows;
    for (let q = bandOf[a], qe = bandOf[e]; q <= qe; q++) {
      mine[q]++;
      ents[q] += (Math.min(e, cols[q + 1] - 1) - Math.max(a, cols[q]) + 1) * rows;
    }
  }
  return entries;
}

/** Phase 3: segments k0 … k1 − 1 into the lists of the bands they meet, band b's from fill[b] on. */
function listBands(w: PhaseWork, k0: number, k1: number, fill: Int32Array): void {
  const { cx, ex, bandOf, segs } = w;
  for (let k = k0; k < k1; k++) {
    if (ex[k] < cx[k]) continue;
    for (let q = bandOf[cx[k]], qe = bandOf[ex[k]]; q <= qe; q++) segs[fill[q]++] = k;
  }
}

/** Band b holds columns ⌊b·nx/bands⌋ … ⌊(b + 1)·nx/bands⌋ − 1, as in planGrid. */
function bandColumns(nx: number, bands: number): Int32Array {
  const cols = new Int32Array(bands + 1);
  for (let b = 0; b <= bands; b++) cols[b] = Math.floor((b * nx) / bands);
  return cols;
}

/** The band of each column (cols from {@link bandColumns}). */
function bandTable(cols: Int32Array, bands: number, nx: number): Int32Array {
  const of = new Int32Array(nx);
  for (let b = 0; b < bands; b++) of.fill(b, cols[b], cols[b + 1]);
  return of;
}

/**
 * This thread's part of the shared plan of the 2D segment boxes `seg` (the shared boxes of the
 * search; xlo, ylo, xhi, yhi per segment), and the plan itself — planGrid's result, the same in
 * every thread — or null when the chain does not crowd its box (planGrid's limits). Every
 * thread must pass the same `bands` (at most the room allocated). Where the band lists would overflow their room, every thread plans for
 * itself (planGrid), as before.
 */
export function sharedGridPlan(S: SharedGridPlan, seg: Float64Array, m: number, dead: Uint8Array | null, bands: number, mark?: (step: StepName) => void): GridPlan | null {
  if (m !== S.m || bands > S.bands) throw new Error('skewline/parallel: a shared grid plan of another search (an internal error)');
  const chunks = chunksOf(m);
  const part = S.part;
  const none = new Int32Array(0);
  const w: PhaseWork = { S, seg, dead, m, x0: 0, y0: 0, inv: 0, cx: none, cy: none, ex: none, ey: none, bands: 0, bandOf: none, mine: none, ents: none, cols: none, at: none, segs: none };
  // Phase 1: bounds, Σ half-perimeters and live segments per chunk.
  if (!primed) {
    for (let k = 0; k < 64; k++) boxSums(seg, dead, 0, 0, PRIME, 0);
    primed = true;
  }
  phase(S, 0, w);
  mark?.('plan1');
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, sum = 0, live = 0;
  for (let c = 0, q = 0; c < chunks; c++, q += PART) {
    x0 = Math.min(x0, part[q]);
    y0 = Math.min(y0, part[q + 1]);
    x1 = Math.max(x1, part[q + 2]);
    y1 = Math.max(y1, part[q + 3]);
    sum += part[q + 4];
    live += part[q + 5];
  }
  // planGrid's limits.
  if (live < 64 || m >= 2 ** 29) return null;
  const h = CELL_SCALE * (sum / (2 * live));
  if (!(h > 0) || !Number.isFinite(h)) return null;
  const inv = 1 / h;
  const wx = (x1 - x0) * inv, wy = (y1 - y0) * inv;
  if (!(wx * wy <= MAX_CELLS_PER_SEGMENT * m) || wx > 2 ** 30 || wy > 2 ** 30) return null;
  const nx = Math.floor(wx) + 1, ny = Math.floor(wy) + 1;
  bands = Math.max(1, Math.min(bands, nx));
  const cols = bandColumns(nx, bands);
  const bandOf = bandTable(cols, bands, nx);
  const { ranges, counts } = S;
  const cx = ranges.subarray(0, m), cy = ranges.subarray(m, 2 * m), ex = ranges.subarray(2 * m, 3 * m), ey = ranges.subarray(3 * m, 4 * m);
  // Phase 2: cell ranges, cell entries, and band counts per chunk.
  Object.assign(w, { x0, y0, inv, cx, cy, ex, ey, bands, bandOf, mine: new Int32Array(bands), ents: new Int32Array(bands), cols });
  phase(S, 1, w);
  mark?.('plan2');
  let entries = 0;
  for (let c = 0; c < chunks; c++) entries += part[PART * c + 6];
  if (entries > MAX_ENTRIES_PER_SEGMENT * m) return null;
  // Where each chunk's segments go in each band's list: bands in order, chunks in order within.
  const segStart = new Int32Array(bands + 1);
  const at = new Int32Array(chunks * bands);
  let total = 0;
  for (let b = 0; b < bands; b++) {
    segStart[b] = total;
    for (let c = 0; c < chunks; c++) {
      at[c * bands + b] = total;
      total += counts[c * S.bands + b];
    }
  }
  segStart[bands] = total;
  const entryStart = new Int32Array(bands + 1);
  for (let b = 0; b < bands; b++) {
    let n = 0;
    for (let c = 0; c < chunks; c++) n += S.ecounts[c * S.bands + b];
    entryStart[b + 1] = entryStart[b] + n;
  }
  S.entryStart = entryStart;
  if (total > S.segs.length) return planGrid(seg, m, dead, bands);
  const segs = S.segs.subarray(0, total);
  // Phase 3: the band lists.
  w.at = at;
  w.segs = segs;
  phase(S, 2, w);
  return { nx, ny, cx, cy, ex, ey, bands, bandCols: cols, segStart, segs };
}

/**
 * The whole grid of a shared plan (the plan from {@link sharedGridPlan} in this thread), built
 * together in shared memory: its cells column by column (cell (x, y) at x·ny + y, so a band of
 * columns is a run of cells and of entries), each band built by the thread that claims it, and
 * each cell's entries in chain order (4j + tag, as bandGrid's). A band is built from its list of
 * segments with its counts in this thread's memory, then written at the place the plan gives it:
 * a band built twice (a thread whose claims ran out builds every band not yet done, and never
 * waits) writes the same bits. Null when the plan is not the shared one or the grid needs more
 * room than was allocated: the search then takes bands of columns.
 */
export function sharedWholeGrid(S: SharedGridPlan, plan: GridPlan): WholeGrid2 | null {
  const W = S.whole, entryStart = S.entryStart;
  const { nx, ny, bands, segStart, segs } = plan;
  if (W === null || entryStart === undefined || segStart === null || segs === null || segs.buffer !== S.segs.buffer) return null;
  const cells = nx * ny;
  if (cells + 1 > W.start.length || entryStart[bands] > W.items.length || bands > W.done.length) return null;
  // The most crowded bands first, so that the last claims are small: a thread whose claims ran
  // out builds again every band still in progress (it never waits), and the last band's
  // build is what both threads lose.
  const order = bySize(entryStart, bands);
  for (let k = Atomics.add(W.ctl, 0, 1); k < bands; k = Atomics.add(W.ctl, 0, 1)) {
    const b = order[k];
    wholeBand(plan, entryStart, W.start, W.items, b);
    Atomics.store(W.done, b, 1);
  }
  for (let b = 0; b < bands; b++) {
    if (Atomics.load(W.done, b) === 0) {
      wholeBand(plan, entryStart, W.start, W.items, b);
      Atomics.store(W.done, b, 1);
    }
  }
  return { ny, cells, start: W.start, items: W.items, ctl: W.ctl, table: W.table, bounds: W.bounds };
}

/** The bands by their entries (entryStart[b + 1] − entryStart[b]), most first; ties by index (the same order in every thread). */
function bySize(entryStart: Int32Array, bands: number): Int32Array {
  // An insertion sort (at most PLAN_BANDS bands), stable: no comparator closure made each call.
  const order = new Int32Array(bands);
  for (let b = 0; b < bands; b++) {
    const n = entryStart[b + 1] - entryStart[b];
    let k = b;
    while (k > 0 && entryStart[order[k - 1] + 1] - entryStart[order[k - 1]] < n) {
      order[k] = order[k - 1];
      k--;
    }
    order[k] = b;
  }
  return order;
}

/** Band b of the whole grid (a module function: a closure made each call is compiled each call). */
function wholeBand(plan: GridPlan, entryStart: Int32Array, start: Int32Array, items: Int32Array, b: number): void {
  const { ny, cx, cy, ex, ey, bandCols: cols } = plan;
  const segStart = plan.segStart!, segs = plan.segs!;
  const c0 = cols[b], c1 = cols[b + 1], n = (c1 - c0) * ny, base = c0 * ny;
  const cnt = new Int32Array(n + 1);
  const k0 = segStart[b], k1 = segStart[b + 1];
  bandCounts(segs, k0, k1, cx, cy, ex, ey, c0, c1, ny, cnt);
  prefixSums(cnt, n, entryStart[b]);
  start.set(cnt, base);
  bandFill(segs, k0, k1, cx, cy, ex, ey, c0, c1, ny, cnt, items);
}

/** cnt[0] = first, then cnt[q + 1] += cnt[q] for q < n (one loop a function: see PRIME). */
function prefixSums(cnt: Int32Array, n: number, first: number): void {
  cnt[0] = first;
  for (let q = 0; q < n; q++) cnt[q + 1] += cnt[q];
}

/** The cells' entry counts of band [c0, c1) (cnt[x·ny + y + 1]; one loop a function: see PRIME). */
function bandCounts(segs: Int32Array, k0: number, k1: number, cx: Int32Array, cy: Int32Array, ex: Int32Array, ey: Int32Array, c0: number, c1: number, ny: number, cnt: Int32Array): void {
  for (let k = k0; k < k1; k++) {
    const c = segs[k];
    const a = Math.max(cx[c], c0) - c0, e = Math.min(ex[c], c1 - 1) - c0, f = ey[c];
    for (let x = a; x <= e; x++) for (let y = cy[c]; y <= f; y++) cnt[x * ny + y + 1]++;
  }
}

/** The band's entries, in chain order, from fill[x·ny + y] on (4j + tag, as bandGrid's). */
function bandFill(segs: Int32Array, k0: number, k1: number, cx: Int32Array, cy: Int32Array, ex: Int32Array, ey: Int32Array, c0: number, c1: number, ny: number, fill: Int32Array, items: Int32Array): void {
  for (let k = k0; k < k1; k++) {
    const c = segs[k];
    const a = Math.max(cx[c], c0) - c0, e = Math.min(ex[c], c1 - 1) - c0, f = ey[c], b0 = cy[c], ax = cx[c] - c0;
    for (let x = a; x <= e; x++) for (let y = b0; y <= f; y++) items[fill[x * ny + y]++] = 4 * c + +(x === ax) + 2 * +(y === b0);
  }
}
