/**
 * `--tile i/n`: a spatial partition of the input's bounding box into n tiles, so that n runs
 * (on n machines) together report every contact exactly once.
 *
 * The tiles form a g₀ × g₁ grid (g₀·g₁ = n) over the two widest axes of the bounding box of
 * every vertex, the factorisation chosen so the cells are as square as it allows (a prime n
 * gives slabs). The outer cut lines are ±∞, so every point of space lies in exactly one tile.
 * The cuts are computed from the bounding box alone, in the same order of operations in
 * every run, so every run agrees on them bit for bit.
 *
 * A contact's reference point R is the minimum corner of the intersection of the two segments'
 * boxes, each inflated by the thickness τ: R_d = max(min(a_d, b_d) − τ, min(c_d, e_d) − τ), each
 * term rounded once. A contact belongs to the tile whose half-open cell [cut_k, cut_{k+1})
 * holds R on both grid axes. R lies inside both inflated boxes (a contact's segments are within
 * τ on every axis, and rounding is monotonic), so a run that searches only the segments whose
 * inflated boxes reach its tile finds every contact it must report; the others it finds on the
 * way are dropped.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from './rows.js';
import { checkOptions, numberOption } from '../src/core/options.js';
import { prepareChains, type PreparedChain } from '../src/chain/input.js';
import { searchShare } from '../src/chain/contacts.js';
import type { MultiChainContacts } from '../src/index.js';

/** Tile i of n. */
export interface Tile {
  i: number;
  n: number;
}

/**
 * Parses `i/n` (integers, 0 ≤ i < n, n ≤ 2³⁰).
 * @throws InputError naming the problem.
 */
export function parseTile(text: string): Tile {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (m === null) throw new InputError(`--tile must be i/n with integers 0 ≤ i < n (got '${text}')`);
  const i = Number(m[1]), n = Number(m[2]);
  if (n < 1 || n > 2 ** 30) throw new InputError(`--tile: n must be between 1 and 2^30 (got ${m[2]})`);
  if (i >= n) throw new InputError(`--tile: i must be below n (got ${i}/${n})`);
  return { i, n };
}

/** The grid of tiles: two axes, their cut lines (cut[0] = −∞, cut[g] = +∞) and the cell of tile i. */
export interface TileGrid {
  axis0: number;
  axis1: number;
  cut0: Float64Array;
  cut1: Float64Array;
  /** Tile i's cell on each axis. */
  k0: number;
  k1: number;
}

/** Cut lines lo … hi in g equal parts, −∞ and +∞ outside, never decreasing. */
function cuts(lo: number, hi: number, g: number): Float64Array {
  const c = new Float64Array(g + 1);
  c[0] = -Infinity;
  c[g] = Infinity;
  // (1 − f)·lo + f·hi: each term is at most max(|lo|, |hi|), so nothing overflows at ±1.7e308.
  for (let k = 1; k < g; k++) c[k] = Math.max(c[k - 1], lo * ((g - k) / g) + hi * (k / g));
  return c;
}

/**
 * The tile grid for the bounding box `lo`, `hi` (per axis) and tile `t`. Deterministic: it
 * depends on `lo`, `hi`, `n` only.
 */
export function tileGrid(lo: Float64Array, hi: Float64Array, t: Tile): TileGrid {
  const dim = lo.length;
  // Halved extents cannot overflow; the two widest axes (the first on ties).
  const ext = Array.from(lo, (l, d) => hi[d] / 2 - l / 2);
  const order = ext.map((_, d) => d).sort((a, b) => ext[b] - ext[a] || a - b);
  const axis0 = order[0], axis1 = dim > 1 ? order[1] : order[0];
  const e0 = ext[axis0], e1 = ext[axis1];
  let g0 = t.n;
  let best = Infinity;
  for (let a = 1; a <= t.n; a++) {
    if (t.n % a !== 0) continue;
    const b = t.n / a;
    // How far from square the cells are (in log ratio); a flat box takes slabs.
    const cost = e1 === 0 ? (b === 1 ? 0 : Infinity) : Math.abs(Math.log(e0 / a) - Math.log(e1 / b));
    if (cost < best) {
      best = cost;
      g0 = a;
    }
  }
  const g1 = t.n / g0;
  return { axis0, axis1, cut0: cuts(lo[axis0], hi[axis0], g0), cut1: cuts(lo[axis1], hi[axis1], g1), k0: t.i % g0, k1: Math.floor(t.i / g0) };
}

/** The bounding box of every vertex of the chains. */
export function boundingBox(chains: readonly Float64Array[], dim: number): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(dim).fill(Infinity), hi = new Float64Array(dim).fill(-Infinity);
  for (const f of chains) {
    for (let v = 0; v < f.length; v += dim) {
      for (let d = 0; d < dim; d++) {
        const x = f[v + d];
        if (x < lo[d]) lo[d] = x;
        if (x > hi[d]) hi[d] = x;
      }
    }
  }
  for (let d = 0; d < dim; d++) if (lo[d] > hi[d]) lo[d] = hi[d] = 0; // no vertex
  return { lo, hi };
}

/** Low corner of compact segment c's box on `axis`, inflated by tau. */
function low(P: Float64Array, dim: number, c: number, axis: number, tau: number): number {
  return Math.min(P[c * dim + axis], P[(c + 1) * dim + axis]) - tau;
}

function high(P: Float64Array, dim: number, c: number, axis: number, tau: number): number {
  return Math.max(P[c * dim + axis], P[(c + 1) * dim + axis]) + tau;
}

/** Whether any segment of the chain (its box inflated by tau) reaches the grid's tile. */
function reaches(f: Float64Array, dim: number, tau: number, closed: boolean, grid: TileGrid): boolean {
  const n = f.length / dim;
  const m = n < 2 ? 0 : closed ? n : n - 1;
  const { axis0, axis1 } = grid;
  const lo0 = grid.cut0[grid.k0], hi0 = grid.cut0[grid.k0 + 1], lo1 = grid.cut1[grid.k1], hi1 = grid.cut1[grid.k1 + 1];
  for (let c = 0; c < m; c++) {
    const a = c * dim, b = ((c + 1) % n) * dim;
    const x0 = f[a + axis0], x1 = f[b + axis0], y0 = f[a + axis1], y1 = f[b + axis1];
    if (Math.min(x0, x1) - tau < hi0 && Math.max(x0, x1) + tau >= lo0 && Math.min(y0, y1) - tau < hi1 && Math.max(y0, y1) + tau >= lo1) return true;
  }
  return false;
}

/** Contacts of one prepared set of chains whose reference point lies in the tile (see the module comment). */
function searchTile(A: PreparedChain, tau: number, grid: TileGrid, chainOf: (c: number) => number, out: Parts): void {
  const { P, dim, m, axis0, axis1 } = { ...A, axis0: grid.axis0, axis1: grid.axis1 };
  const lo0 = grid.cut0[grid.k0], hi0 = grid.cut0[grid.k0 + 1], lo1 = grid.cut1[grid.k1], hi1 = grid.cut1[grid.k1 + 1];
  // Segments whose inflated box misses the tile are not searched (marked dead).
  const dead = A.dead ?? new Uint8Array(m);
  for (let c = 0; c < m; c++) {
    if (dead[c] !== 0) continue;
    if (low(P, dim, c, axis0, tau) >= hi0 || high(P, dim, c, axis0, tau) < lo0 || low(P, dim, c, axis1, tau) >= hi1 || high(P, dim, c, axis1, tau) < lo1) dead[c] = 1;
  }
  A.dead = dead;
  const share = searchShare(A, null, tau, { counter: new Int32Array(new SharedArrayBuffer(4)), want: 64, folds: true });
  // Room for every pair found at once: growing by doubling could leave twice the tile's contacts allocated.
  if (out.count + share.CI.length > out.i.length) grow(out, out.count + share.CI.length);
  for (let k = 0; k < share.CI.length; k++) {
    const a = share.CI[k], b = share.CJ[k];
    // A pair with a dead segment is not the tile's (R would lie outside it), nor is a fold-back
    // with a gap between the runs of a chain (cli/tile-stream.ts).
    if (dead[a] !== 0 || dead[b] !== 0) continue;
    const r0 = Math.max(low(P, dim, a, axis0, tau), low(P, dim, b, axis0, tau));
    const r1 = Math.max(low(P, dim, a, axis1, tau), low(P, dim, b, axis1, tau));
    if (r0 < lo0 || r0 >= hi0 || r1 < lo1 || r1 >= hi1) continue;
    if (out.count === out.i.length) grow(out);
    const q = out.count++;
    out.chainI[q] = chainOf(A.chain[a]);
    out.chainJ[q] = chainOf(A.chain[b]);
    out.i[q] = A.orig[a];
    out.j[q] = A.orig[b];
    out.distance[q] = share.distance[k];
    out.s[q] = share.s[k];
    out.t[q] = share.t[k];
  }
}

/** The tile's contacts so far, in typed arrays grown by doubling. */
interface Parts {
  count: number;
  chainI: Int32Array;
  i: Int32Array;
  chainJ: Int32Array;
  j: Int32Array;
  distance: Float64Array;
  s: Float64Array;
  t: Float64Array;
}

function parts(n: number): Parts {
  return { count: 0, chainI: new Int32Array(n), i: new Int32Array(n), chainJ: new Int32Array(n), j: new Int32Array(n), distance: new Float64Array(n), s: new Float64Array(n), t: new Float64Array(n) };
}

/** Makes room for at least `need` contacts (and doubles at least). */
function grow(p: Parts, need = 0): void {
  const q = parts(Math.max(1024, p.i.length * 2, need));
  q.chainI.set(p.chainI);
  q.i.set(p.i);
  q.chainJ.set(p.chainJ);
  q.j.set(p.j);
  q.distance.set(p.distance);
  q.s.set(p.s);
  q.t.set(p.t);
  Object.assign(p, { ...q, count: p.count });
}

/**
 * The contacts of `multiChainContacts(chains, { dim, thickness, closed, between })` whose
 * reference point lies in tile `t` of the chains' bounding box, in the same order and with
 * bitwise the same numbers. Over t.i = 0 … t.n − 1 the results partition the whole result.
 * The chains must be valid (finite, `dim` per vertex). Not re-entrant (the search's module scratch).
 */
export function tileContacts(chains: readonly Float64Array[], dim: number, tau: number, closed: boolean, between: boolean, t: Tile): MultiChainContacts {
  const { lo, hi } = boundingBox(chains, dim);
  const grid = tileGrid(lo, hi, t);
  const out = parts(0);
  // Only the chains with a segment near the tile are prepared (memory and time ∝ the tile's share).
  const kept: number[] = [];
  for (let k = 0; k < chains.length; k++) if (reaches(chains[k], dim, tau, closed, grid)) kept.push(k);
  if (between) searchTile(prepareChains(kept.map((k) => chains[k]), dim, closed), tau, grid, (c) => kept[c], out);
  else for (const k of kept) searchTile(prepareChains([chains[k]], dim, closed, true), tau, grid, () => k, out);
  const n = out.count;
  return {
    count: n,
    chainI: out.chainI.subarray(0, n),
    i: out.i.subarray(0, n),
    chainJ: out.chainJ.subarray(0, n),
    j: out.j.subarray(0, n),
    distance: out.distance.subarray(0, n),
    s: out.s.subarray(0, n),
    t: out.t.subarray(0, n),
  };
}

/**
 * The contacts whose reference point lies in `grid`'s tile, of chains prepared one by one
 * (each searched alone, as `tileContacts` does without `between`): chain `chains[k]` of the
 * result is `index[k]`. A prepared chain may hold runs of its segments separated by dead gap
 * segments (cli/tile-stream.ts); pairs with a gap are never reported. Not re-entrant.
 */
export function preparedTileContacts(chains: readonly PreparedChain[], index: readonly number[], tau: number, grid: TileGrid): MultiChainContacts {
  const out = parts(0);
  for (let k = 0; k < chains.length; k++) searchTile(chains[k], tau, grid, () => index[k], out);
  return view(out, 0, out.count);
}

/**
 * Segments per tile of {@link contactsInTiles} by default. The search's working memory is some
 * 170 bytes a segment (boxes, grid, the prepared copy, the pairs found): about 45 MB a tile.
 * Smaller tiles cost little more time (on 10.7M vertices of random walks, tiles of 2¹⁸, 2¹⁹ and
 * 2²⁰ segments took the same CPU time within 4%) but repeat the segments on their borders.
 */
export const TILE_SEGMENTS = 1 << 18;

/** Contacts held in memory by default before the tiles' contacts go to a temporary file (40 bytes each: 40 MB). */
export const HELD_CONTACTS = 1 << 20;

/** Bytes of the merge's read windows over all spilled tiles together (each gets at least 512 contacts). */
const WINDOWS_BYTES = 32 << 20;

/** A tile's contacts, sorted: in memory, or in a temporary file read back a window at a time. */
export interface TileContacts {
  readonly count: number;
  /** Contacts from … from + n − 1 (views, valid until the next call). */
  read(from: number, n: number): MultiChainContacts;
}

/** The seven arrays of a contact list, in the order they are laid out in a spill file, with their element sizes. */
const FIELDS = ['chainI', 'i', 'chainJ', 'j', 'distance', 's', 't'] as const;
const SIZES = [4, 4, 4, 4, 8, 8, 8];

function view(r: MultiChainContacts, from: number, n: number): MultiChainContacts {
  return {
    count: n,
    chainI: r.chainI.subarray(from, from + n), i: r.i.subarray(from, from + n), chainJ: r.chainJ.subarray(from, from + n), j: r.j.subarray(from, from + n),
    distance: r.distance.subarray(from, from + n), s: r.s.subarray(from, from + n), t: r.t.subarray(from, from + n),
  };
}

/**
 * A temporary file that holds tiles' contacts (a folder made with mkdtemp under `dir`, removed
 * by {@link Spill.close}, also after an error). Each tile's seven arrays are appended one after
 * another; reading a window of one tile is seven positioned reads into one reused buffer per
 * tile (as large as the merge asks for).
 */
export class Spill {
  private fd = -1;
  private folder = '';
  private end = 0;
  constructor(private readonly dir: string = tmpdir()) {}

  /**
   * Writes `r`'s contacts; returns them as a source read back from the file.
   * @throws Error naming the folder and the reason when the file cannot be made or written
   * (a full disk: ENOSPC).
   */
  put(r: MultiChainContacts): TileContacts {
    const base = this.end, count = r.count;
    try {
      if (this.fd < 0) {
        this.folder = mkdtempSync(join(this.dir, 'skewline-contacts-'));
        this.fd = openSync(join(this.folder, 'contacts.bin'), 'w+');
      }
      for (let f = 0; f < FIELDS.length; f++) {
        const a = r[FIELDS[f]];
        writeAll(this.fd, new Uint8Array(a.buffer, a.byteOffset, count * SIZES[f]), this.end);
        this.end += count * SIZES[f];
      }
    } catch (e) {
      // Named as what it is (not the input, which a bare errno error would be taken for).
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new Error(`cannot write the temporary file of contacts in '${this.dir}' (${why}; set TMPDIR to a folder with room: 40 bytes a contact)`, { cause: e });
    }
    const fd = this.fd;
    let buf = parts(0);
    return {
      count,
      read(from: number, n: number): MultiChainContacts {
        if (buf.i.length < n) buf = parts(n);
        let at = base;
        for (let f = 0; f < FIELDS.length; f++) {
          const a = buf[FIELDS[f]];
          readAll(fd, new Uint8Array(a.buffer, a.byteOffset, n * SIZES[f]), at + from * SIZES[f]);
          at += count * SIZES[f];
        }
        return view(buf, 0, n);
      },
    };
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.end;
  }

  /** Closes and removes the file (idempotent). */
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    if (this.folder !== '') rmSync(this.folder, { recursive: true, force: true });
    this.folder = '';
  }
}

function writeAll(fd: number, b: Uint8Array, at: number): void {
  for (let k = 0; k < b.length; ) k += writeSync(fd, b, k, b.length - k, at + k);
}

function readAll(fd: number, b: Uint8Array, at: number): void {
  for (let k = 0; k < b.length; ) {
    const got = readSync(fd, b, k, b.length - k, at + k);
    if (got === 0) throw new Error('skewline: the temporary contacts file ended early');
    k += got;
  }
}

/** How {@link contactsInTiles} cuts the work and where it keeps the contacts. */
export interface TilePlan {
  /** Segments per tile (default {@link TILE_SEGMENTS}). */
  perTile?: number;
  /** Contacts held in memory; beyond, tiles go to `spill` (default {@link HELD_CONTACTS}). */
  held?: number;
  /** Where tiles over the budget go (without one, everything stays in memory). */
  spill?: Spill;
  /**
   * Only the contacts of this tile of the input (`--tile i/n`, as {@link tileContacts} reports
   * them): the tile's cell is cut into sub-tiles of about `perTile` segments each.
   */
  within?: Tile;
}

/**
 * Every contact of `multiChainContacts(chains, { dim, thickness: tau, closed, between: true })`,
 * searched one tile at a time so that the search's working memory (segment boxes, grid or
 * hierarchy, the pairs found) is that of one tile, not of the whole input: the input's box is
 * cut into n = ⌈segments / `perTile`⌉ tiles as `--tile i/n` cuts it, and tile i reports the
 * contacts whose reference point lies in it (the module comment), so each contact comes from
 * exactly one tile, with bitwise the numbers of the whole search. Each tile's contacts come in
 * the order of multiChainContacts, in typed arrays of their exact size (40 bytes a contact)
 * while fewer than `held` are held, else written to `plan.spill`; {@link mergeTiles} puts them
 * together in that order. The chains are given by `chain(k)` (k < count), valid (finite, `dim`
 * per vertex). Not re-entrant (the search's module scratch).
 *
 * @throws SkewlineInputError for an unknown key of `plan`, a `perTile` outside [1, 2³¹] or a
 * negative `held`.
 *
 * Which chains a tile searches is decided from each chain's box (inflated by tau) in one pass:
 * a chain whose box reaches several tiles is searched in each (its segments outside a tile are
 * skipped there), a chain of fewer than two vertices in none.
 */
export function contactsInTiles(count: number, chain: (k: number) => Float64Array, dim: number, tau: number, closed: boolean, plan: TilePlan = {}): TileContacts[] {
  checkOptions(plan, ['perTile', 'held', 'spill', 'within'], 'contactsInTiles');
  const perTile = numberOption(plan as Record<string, unknown>, 'perTile', 'contactsInTiles', 1, 2 ** 31, TILE_SEGMENTS);
  const held = numberOption(plan as Record<string, unknown>, 'held', 'contactsInTiles', 0, Infinity, HELD_CONTACTS);
  const lo = new Float64Array(dim).fill(Infinity), hi = new Float64Array(dim).fill(-Infinity);
  let segments = 0;
  for (let k = 0; k < count; k++) {
    const f = chain(k);
    const nv = f.length / dim;
    if (nv >= 2) segments += closed ? nv : nv - 1;
    for (let v = 0; v < f.length; v += dim) {
      for (let d = 0; d < dim; d++) {
        const x = f[v + d];
        if (x < lo[d]) lo[d] = x;
        if (x > hi[d]) hi[d] = x;
      }
    }
  }
  for (let d = 0; d < dim; d++) if (lo[d] > hi[d]) lo[d] = hi[d] = 0; // no vertex
  let grid: TileGrid;
  let n: number;
  if (plan.within === undefined) {
    n = Math.max(1, Math.ceil(segments / perTile));
    grid = tileGrid(lo, hi, { i: 0, n });
  } else {
    // Sized by the whole input's segments ÷ its n tiles.
    ({ grid, n } = subGrid(lo, hi, tileGrid(lo, hi, plan.within), Math.ceil(segments / plan.within.n / perTile)));
  }
  const g0 = grid.cut0.length - 1;
  const { axis0, axis1, cut0, cut1 } = grid;
  const L0 = cut0[0], H0 = cut0[g0], L1 = cut1[0], H1 = cut1[cut1.length - 1];
  // The tiles each chain's inflated box reaches (the test of `reaches`, on the whole chain's box).
  const members: number[][] = Array.from({ length: n }, () => []);
  for (let k = 0; k < count; k++) {
    const f = chain(k);
    if (f.length < 2 * dim) continue;
    let min0 = Infinity, max0 = -Infinity, min1 = Infinity, max1 = -Infinity;
    for (let v = 0; v < f.length; v += dim) {
      const x = f[v + axis0], y = f[v + axis1];
      if (x < min0) min0 = x;
      if (x > max0) max0 = x;
      if (y < min1) min1 = y;
      if (y > max1) max1 = y;
    }
    // Outside the whole grid's cell (only with `within`): in no tile.
    if (!(min0 - tau < H0 && max0 + tau >= L0 && min1 - tau < H1 && max1 + tau >= L1)) continue;
    const a0 = firstCell(cut0, min0 - tau), b0 = lastCell(cut0, max0 + tau);
    const a1 = firstCell(cut1, min1 - tau), b1 = lastCell(cut1, max1 + tau);
    for (let q = a1; q <= b1; q++) for (let p = a0; p <= b0; p++) members[q * g0 + p].push(k);
  }
  let inMemory = 0;
  const results: TileContacts[] = [];
  for (let i = 0; i < n; i++) {
    const kept = members[i];
    members[i] = [];
    const out = parts(0);
    if (kept.length > 0) {
      const cell = { ...grid, k0: i % g0, k1: Math.floor(i / g0) };
      searchTile(prepareChains(kept.map((k) => chain(k)), dim, closed), tau, cell, (c) => kept[c], out);
    }
    const c = out.count;
    if (plan.spill !== undefined && inMemory + c > held) {
      results.push(plan.spill.put(out));
      continue;
    }
    inMemory += c;
    // Exact size: the doubling's slack is not kept while the other tiles are searched.
    const r: MultiChainContacts = {
      count: c,
      chainI: out.chainI.slice(0, c), i: out.i.slice(0, c), chainJ: out.chainJ.slice(0, c), j: out.j.slice(0, c),
      distance: out.distance.slice(0, c), s: out.s.slice(0, c), t: out.t.slice(0, c),
    };
    results.push({ count: c, read: (from, m) => view(r, from, m) });
  }
  return results;
}

/**
 * About `n` sub-tiles (at least 1) of the cell of `outer` (its tile), on its two axes, for an
 * input whose bounding box is `lo`, `hi`: their cut lines run from the cell's own (±∞ at the
 * box's edge) through points spread over the part of the box it covers, never decreasing, so
 * the sub-cells partition the cell and each contact of the tile falls in one sub-tile. Sub-tile
 * q is the cell (q mod g₀, ⌊q / g₀⌋) of the returned grid (g₀ = cut0.length − 1); `n` is their
 * number (g₀·g₁ ≥ the n asked for).
 */
export function subGrid(lo: Float64Array, hi: Float64Array, outer: TileGrid, n: number): { grid: TileGrid; n: number } {
  n = Math.max(1, n);
  const g = Math.ceil(Math.sqrt(n));
  const sub = (cut: Float64Array, k: number, axis: number, parts: number): Float64Array => {
    const L = cut[k], H = cut[k + 1];
    const a = Math.max(L, lo[axis]), b = Math.min(H, hi[axis]);
    const c = new Float64Array(parts + 1);
    c[0] = L;
    c[parts] = H;
    for (let q = 1; q < parts; q++) c[q] = Math.min(H, Math.max(c[q - 1], a * ((parts - q) / parts) + b * (q / parts)));
    return c;
  };
  const g1 = Math.ceil(n / g);
  return { grid: { axis0: outer.axis0, axis1: outer.axis1, cut0: sub(outer.cut0, outer.k0, outer.axis0, g), cut1: sub(outer.cut1, outer.k1, outer.axis1, g1), k0: 0, k1: 0 }, n: g * g1 };
}

/** The first cell k of `cut` with cut[k + 1] > x (a box from x up reaches it). */
function firstCell(cut: Float64Array, x: number): number {
  let k = 0;
  while (k + 2 < cut.length && !(cut[k + 1] > x)) k++;
  return k;
}

/** The last cell k of `cut` with cut[k] ≤ x (a box up to x reaches it). */
function lastCell(cut: Float64Array, x: number): number {
  let k = cut.length - 2;
  while (k > 0 && !(cut[k] <= x)) k--;
  return k;
}

/** Is contact a of p before contact b of q in the order (chainI, i, chainJ, j)? */
function before(p: MultiChainContacts, a: number, q: MultiChainContacts, b: number): boolean {
  if (p.chainI[a] !== q.chainI[b]) return p.chainI[a] < q.chainI[b];
  if (p.i[a] !== q.i[b]) return p.i[a] < q.i[b];
  if (p.chainJ[a] !== q.chainJ[b]) return p.chainJ[a] < q.chainJ[b];
  return p.j[a] < q.j[b];
}

/**
 * Merges sorted, disjoint contact lists (the tiles of {@link contactsInTiles}) in the order
 * (chainI, i, chainJ, j), `size` contacts at a time: each batch is copied into one reused set of
 * arrays and handed to `emit` (awaited), so the merge holds one batch and one window of each
 * list (by default windows of at most `size` contacts and 32 MB over all lists, 512 contacts
 * at least). A
 * binary heap of the lists' heads: about log₂(lists) comparisons per contact, fewer where one
 * list stays first for a run of contacts.
 */
export async function mergeTiles(
  lists: readonly TileContacts[],
  size: number,
  emit: (batch: MultiChainContacts) => Promise<void> | void,
  windowSize = Math.min(size, Math.max(512, Math.floor(WINDOWS_BYTES / 40 / Math.max(1, lists.length)))),
): Promise<void> {
  const batch = parts(size);
  const L = lists.length;
  const win: MultiChainContacts[] = new Array<MultiChainContacts>(L);
  const base = new Float64Array(L); // index in its list of each window's first contact
  const heads = new Int32Array(L); // next contact within the window
  const heap: number[] = [];
  const load = (x: number, from: number): void => {
    win[x] = lists[x].read(from, Math.min(windowSize, lists[x].count - from));
    base[x] = from;
    heads[x] = 0;
  };
  const less = (x: number, y: number): boolean => before(win[x], heads[x], win[y], heads[y]);
  const down = (k: number): void => {
    for (;;) {
      const l = 2 * k + 1, r = l + 1;
      let m = k;
      if (l < heap.length && less(heap[l], heap[m])) m = l;
      if (r < heap.length && less(heap[r], heap[m])) m = r;
      if (m === k) return;
      [heap[k], heap[m]] = [heap[m], heap[k]];
      k = m;
    }
  };
  for (let x = 0; x < L; x++) {
    if (lists[x].count === 0) continue;
    load(x, 0);
    heap.push(x);
  }
  for (let k = (heap.length >> 1) - 1; k >= 0; k--) down(k);
  const flush = async (c: number): Promise<void> => {
    if (c > 0) await emit(view(batch, 0, c));
  };
  let c = 0;
  while (heap.length > 0) {
    const x = heap[0];
    // Take from this list while it stays first (runs are long: a tile's chains seldom interleave with another's).
    const other = heap.length > 1 ? (heap.length > 2 && less(heap[2], heap[1]) ? heap[2] : heap[1]) : -1;
    let p = win[x];
    do {
      const a = heads[x]++;
      batch.chainI[c] = p.chainI[a];
      batch.i[c] = p.i[a];
      batch.chainJ[c] = p.chainJ[a];
      batch.j[c] = p.j[a];
      batch.distance[c] = p.distance[a];
      batch.s[c] = p.s[a];
      batch.t[c] = p.t[a];
      if (++c === size) {
        await flush(c);
        c = 0;
      }
      if (heads[x] === p.count) {
        const next = base[x] + p.count;
        if (next === lists[x].count) break;
        load(x, next);
        p = win[x];
      }
    } while (other < 0 || less(x, other));
    if (heads[x] === win[x].count) {
      heap[0] = heap[heap.length - 1];
      heap.pop();
    }
    if (heap.length > 0) down(0);
  }
  await flush(c);
}
