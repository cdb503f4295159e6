/**
 * `skewline chain --tile i/n` on a file, for one chain or with `--no-between`, in the memory of
 * the tile's share of the segments (not the file's): two passes over the file.
 *
 * 1. {@link BoxScan} reads every vertex and keeps only the bounding box (the tiling is defined
 *    on it, tiles.ts), the dimension, and counts.
 * 2. {@link TileRuns} reads the file again and keeps, of each chain, only the segments whose
 *    boxes inflated by the thickness reach the tile — the segments tileContacts searches — as
 *    runs of consecutive segments, each with its global segment number. Each chain is searched
 *    alone (tiles.ts, preparedTileContacts) and written as soon as the reader hands it over.
 *
 * The runs of a chain go into one prepared chain (src/chain/input.ts, PreparedChain) laid out
 * as the whole chain's would be with the segments between the runs cut out: consecutive runs
 * are joined by a dead gap segment (never searched; a fold-back through it is dropped). So every
 * rule of chainContacts applies as in the whole-chain search:
 * - zero-length segments are dropped first (as prepareChains does), and the runs are runs of the
 *   remaining segments, so segments on either side of a zero-length one stay adjacent;
 * - adjacent segments (consecutive in that numbering) lie in one run and are searched only for a
 *   fold-back; two segments of different runs are at least two apart in both numberings;
 * - a ring (`--closed`, or the first vertex repeated at the end) whose first and last segments
 *   are both kept gets them as ring partners: the gap-free runs at the two ends sit at the ends
 *   of the prepared chain, where the search looks for the ring's partners;
 * - the compact order is the whole chain's order, so the contacts come in the same order, each
 *   pair the same way round, with bitwise the same numbers (the kernels see the same
 *   coordinates).
 *
 * A tile that keeps more than `perTile` segments (2¹⁸ by default) is searched in sub-tiles
 * (tiles.ts, subGrid), each over the runs restricted to the segments that reach it
 * ({@link restrictRuns}); the sub-tiles' contacts are held in memory up to `held`, the rest in
 * a temporary file, and merged in order as they are written — as contactsInTiles does for
 * several chains. So the working memory is one sub-tile's, whatever the tile's size.
 */
import { ChainOrigins, type ChainCoords, type ChainSink, type ChainWhere } from './geojson-stream.js';
import type { PreparedChain } from '../src/chain/input.js';
import type { MultiChainContacts } from '../src/index.js';
import { checkOptions, numberOption } from '../src/core/options.js';
import { HELD_CONTACTS, mergeTiles, preparedTileContacts, subGrid, TILE_SEGMENTS, type Spill, type TileContacts, type TileGrid } from './tiles.js';

/** Thrown by {@link BoxScan} when a chain begins beyond `most` (the caller takes another path). */
export class TooManyChains extends Error {
  constructor() {
    super('more chains than the streamed tile handles');
  }
}

/**
 * Pass 1: the bounding box of every vertex (as tiles.ts boundingBox computes it on the chains
 * read whole, 2D positions promoted to 3D with z = 0), the dimension, the chains and vertices,
 * and the first chain with a number that is not finite. Keeps no coordinates.
 */
export class BoxScan implements ChainSink {
  dim = 0;
  open = false;
  count = 0;
  numbers = 0;
  vertices = 0;
  /** The first chain with a coordinate that is not finite, or −1. */
  bad = -1;
  private lo = new Float64Array(0);
  private hi = new Float64Array(0);
  /** The coordinate of the current vertex next pushed. */
  private q = 0;

  /** @param most chains allowed; beginning one more throws {@link TooManyChains}. */
  constructor(private readonly most = Infinity) {}

  begin(_where: ChainWhere): void {
    if (this.count === this.most) throw new TooManyChains();
    this.count++;
    this.q = 0;
  }

  push(x: number): void {
    if (this.lo.length !== this.dim) this.resize();
    const d = this.q;
    if (x < this.lo[d]) this.lo[d] = x;
    if (x > this.hi[d]) this.hi[d] = x;
    if (x - x !== 0 && this.bad < 0) this.bad = this.count - 1;
    this.numbers++;
    if (++this.q === this.dim) {
      this.q = 0;
      this.vertices++;
    }
  }

  /** The vertices read so far get z = 0. */
  promoteTo3(): void {
    this.dim = 3;
    this.resize();
    if (this.vertices > 0) {
      this.lo[2] = Math.min(this.lo[2], 0);
      this.hi[2] = Math.max(this.hi[2], 0);
    }
  }

  private resize(): void {
    const lo = new Float64Array(this.dim).fill(Infinity), hi = new Float64Array(this.dim).fill(-Infinity);
    lo.set(this.lo.subarray(0, this.dim));
    hi.set(this.hi.subarray(0, this.dim));
    this.lo = lo;
    this.hi = hi;
  }

  /** The bounding box (`dim` axes, 2 when no vertex was read; 0 to 0 on an axis without a vertex). */
  box(): { lo: Float64Array; hi: Float64Array } {
    const dim = this.dim || 2;
    const lo = new Float64Array(dim), hi = new Float64Array(dim);
    for (let d = 0; d < dim; d++) {
      const a = d < this.lo.length ? this.lo[d] : Infinity, b = d < this.hi.length ? this.hi[d] : -Infinity;
      if (a > b) continue; // no vertex: 0 to 0
      lo[d] = a;
      hi[d] = b;
    }
    return { lo, hi };
  }
}

/** A growable Float64Array, Int32Array or Uint8Array (doubling). */
function grown<T extends Float64Array | Int32Array | Uint8Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(need, 2 * a.length, 64));
  b.set(a);
  return b;
}

/** Does the box of x0…x1 × y0…y1 (either order), inflated by tau, reach the cell (k0, k1) of `grid`? As tiles.ts searchTile decides it, bit for bit. */
function reaches(x0: number, x1: number, y0: number, y1: number, tau: number, grid: TileGrid): boolean {
  const lo0 = grid.cut0[grid.k0], hi0 = grid.cut0[grid.k0 + 1], lo1 = grid.cut1[grid.k1], hi1 = grid.cut1[grid.k1 + 1];
  return !(Math.min(x0, x1) - tau >= hi0 || Math.max(x0, x1) + tau < lo0 || Math.min(y0, y1) - tau >= hi1 || Math.max(y0, y1) + tau < lo1);
}

/**
 * A chain's kept runs, built one segment of positive length at a time, in chain order (see the
 * module comment for the layout). Reused from chain to chain.
 */
class Runs {
  private P = new Float64Array(0);
  private orig = new Int32Array(0);
  private dead = new Uint8Array(0);
  /** Vertices and segments (gaps included) so far. */
  V = 0;
  M = 0;
  /** Segments of positive length seen. */
  seen = 0;
  /** Whether the first and the latest of them were kept. */
  private firstKept = false;
  private lastKept = false;
  dim = 2;

  reset(dim: number): void {
    this.dim = dim;
    this.V = this.M = this.seen = 0;
    this.firstKept = this.lastKept = false;
  }

  /** The segment numbered `n` from sa[a …] to sb[b …] (offsets of `dim` numbers), kept when `keep`. */
  add(sa: Float64Array, a: number, sb: Float64Array, b: number, n: number, keep: boolean): void {
    const after = this.lastKept;
    if (this.seen++ === 0) this.firstKept = keep;
    this.lastKept = keep;
    if (!keep) return;
    if (this.V === 0) this.vertex(sa, a);
    else if (!after) {
      // A new run: a dead gap from the last run's end to this segment's start.
      this.vertex(sa, a);
      this.segment(this.orig[this.M - 1], 1);
    }
    this.vertex(sb, b);
    this.segment(n, 0);
  }

  /** The next segment kept starts a new run (it does not follow the latest one). */
  cut(): void {
    this.lastKept = false;
  }

  private vertex(src: Float64Array, a: number): void {
    const dim = this.dim;
    this.P = grown(this.P, (this.V + 1) * dim);
    for (let d = 0; d < dim; d++) this.P[this.V * dim + d] = src[a + d];
    this.V++;
  }

  private segment(n: number, dead: number): void {
    this.orig = grown(this.orig, this.M + 1);
    this.dead = grown(this.dead, this.M + 1);
    this.orig[this.M] = n;
    this.dead[this.M] = dead;
    this.M++;
  }

  /**
   * The runs as a prepared chain (exact-size copies), or null when none was kept. `ring`: the
   * chain's first and last segments are neighbours (they become ring partners when both were
   * kept); `segments`: the chain's number of segments.
   */
  build(ring: boolean, segments: number): PreparedChain | null {
    const M = this.M, dim = this.dim;
    if (M === 0) return null;
    let partner: Int32Array | null = null;
    if (ring && this.firstKept && this.lastKept) {
      partner = new Int32Array(M).fill(-1);
      partner[0] = M - 1;
      partner[M - 1] = 0;
    }
    return {
      P: this.P.slice(0, (M + 1) * dim),
      dim,
      m: M,
      partner,
      dead: this.dead.slice(0, M),
      orig: this.orig.slice(0, M),
      chain: new Int32Array(M),
      start: Int32Array.of(0, M + 1),
      segments: Int32Array.of(segments),
    };
  }
}

/**
 * The runs of `A` (built by {@link TileRuns}) restricted to the segments that reach the cell
 * (k0, k1) of `grid`, inflated by tau — the same layout, for a sub-tile. Null when none does.
 */
export function restrictRuns(A: PreparedChain, tau: number, grid: TileGrid, runs = new Runs()): PreparedChain | null {
  const { P, dim, m, dead } = A;
  const { axis0, axis1 } = grid;
  runs.reset(dim);
  for (let c = 0; c < m; c++) {
    if (dead![c] !== 0) {
      runs.cut(); // a gap: the segments on either side are not neighbours
      continue;
    }
    const a = c * dim, b = a + dim;
    runs.add(P, a, P, b, A.orig[c], reaches(P[a + axis0], P[b + axis0], P[a + axis1], P[b + axis1], tau, grid));
  }
  // A's first and last segments are the chain's own exactly when A has ring partners.
  return runs.build(A.partner !== null, A.segments[0]);
}

/** How {@link TileRuns} cuts a large tile and where it keeps the contacts (as tiles.ts TilePlan). */
export interface TileRunsPlan {
  /** Kept segments per sub-tile (default TILE_SEGMENTS). */
  perTile?: number;
  /** Contacts held in memory; beyond, sub-tiles go to `spill` (default HELD_CONTACTS). */
  held?: number;
  spill?: Spill;
}

/**
 * Pass 2: each chain's segments that reach the tile, as runs (see the module comment), searched
 * and handed to the writer a batch of chains at a time ({@link TileRuns.write}). As the
 * writers' {@link ChainCoords}, chain k is the k-th chain begun since the last
 * {@link TileRuns.clear}, and its segment i is found among the kept ones (only those are asked
 * for: every contact of the tile is between kept segments).
 */
export class TileRuns implements ChainSink, ChainCoords {
  open = false;
  count = 0;
  /** Numbers kept (with one for each chain begun, so that chains far from the tile also end a CSV batch). */
  numbers = 0;
  /** Where each chain came from. */
  private readonly origins = new ChainOrigins();
  /** Each chain's kept runs, or null when none of its segments reaches the tile. */
  private chains: (PreparedChain | null)[] = [];
  private readonly runs = new Runs();

  // The chain being read.
  private reading = false;
  private readonly first: Float64Array;
  private readonly prev: Float64Array;
  private readonly vtx: Float64Array;
  private q = 0;
  /** Vertices of the chain so far. */
  private nv = 0;
  private readonly perTile: number;
  private readonly held: number;

  /**
   * @param dim the input's dimension (from pass 1: 2D GeoJSON positions read after it is 3 get
   *   z = 0 from the reader, as in the whole read after its promotion)
   * @param lo, hi the input's bounding box (pass 1), on which `grid` was made
   * @throws SkewlineInputError for an unknown key of `plan`, a `perTile` outside [1, 2³¹] or a
   *   negative `held`.
   */
  constructor(
    public dim: number,
    private readonly tau: number,
    private readonly closed: boolean,
    private readonly grid: TileGrid,
    private readonly lo: Float64Array,
    private readonly hi: Float64Array,
    private readonly plan: TileRunsPlan = {},
  ) {
    this.first = new Float64Array(Math.max(dim, 3));
    this.prev = new Float64Array(Math.max(dim, 3));
    this.vtx = new Float64Array(Math.max(dim, 3));
    checkOptions(plan, ['perTile', 'held', 'spill'], 'TileRuns');
    this.perTile = numberOption(plan as Record<string, unknown>, 'perTile', 'TileRuns', 1, 2 ** 31, TILE_SEGMENTS);
    this.held = numberOption(plan as Record<string, unknown>, 'held', 'TileRuns', 0, Infinity, HELD_CONTACTS);
  }

  begin(where: ChainWhere): void {
    this.finish();
    const k = this.count++;
    this.origins.set(k, where);
    this.numbers++;
    this.reading = true;
    this.q = 0;
    this.nv = 0;
    this.runs.reset(this.dim);
  }

  push(x: number): void {
    this.vtx[this.q++] = x;
    if (this.q < this.dim) return;
    this.q = 0;
    if (this.nv > 0) this.edge(this.prev, this.vtx, this.nv - 1);
    else this.first.set(this.vtx);
    this.prev.set(this.vtx);
    this.nv++;
  }

  /** Never needed: pass 1 gave the final dimension and the reader pads 2D positions. */
  promoteTo3(): void {
    throw new Error('skewline: internal error: the tile pass met a dimension pass 1 did not');
  }

  /** Each chain's feature, −1 for none. */
  get feature(): Int32Array {
    return this.origins.feature;
  }

  whereOf(k: number): ChainWhere {
    return this.origins.whereOf(k);
  }

  /** Segment i of chain k, a kept one (its two vertices are consecutive in the runs' array). */
  segment(k: number, i: number, at: number[]): Float64Array {
    const A = this.chains[k];
    // The first compact segment numbered i or more (gaps carry the number of the segment before them).
    const orig = A?.orig;
    let a = 0, b = orig?.length ?? 0;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (orig![m] < i) a = m + 1;
      else b = m;
    }
    if (A === null || A === undefined || a === orig!.length || orig![a] !== i || A.dead![a] !== 0) {
      throw new Error(`skewline: internal error: segment ${i} of chain ${k} is not kept`);
    }
    at[0] = a * this.dim;
    at[1] = (a + 1) * this.dim;
    return A.P;
  }

  /**
   * Searches the chains read since the last clear (finishing the one being read) and hands
   * their contacts in the tile to `emit` in order, `batch` at a time (chain numbers local to
   * this batch of chains: chain k is the k-th begun). The kept segments are searched in one go,
   * or over sub-tiles when more than `perTile` (see the module comment). Not re-entrant.
   */
  async write(batch: number, emit: (r: MultiChainContacts) => Promise<void> | void): Promise<void> {
    this.finish();
    const list: PreparedChain[] = [], index: number[] = [];
    let segments = 0;
    this.chains.forEach((A, k) => {
      if (A === null) return;
      list.push(A);
      index.push(k);
      segments += A.m;
    });
    if (list.length === 0) return;
    const { grid, n } = segments > this.perTile ? subGrid(this.lo, this.hi, this.grid, Math.ceil(segments / this.perTile)) : { grid: this.grid, n: 1 };
    const g0 = grid.cut0.length - 1;
    const lists: TileContacts[] = [];
    let inMemory = 0;
    const runs = new Runs();
    for (let t = 0; t < n; t++) {
      let r: MultiChainContacts;
      if (n === 1) r = preparedTileContacts(list, index, this.tau, grid);
      else {
        const cell = { ...grid, k0: t % g0, k1: Math.floor(t / g0) };
        const sub: PreparedChain[] = [], subIndex: number[] = [];
        list.forEach((A, q) => {
          const B = restrictRuns(A, this.tau, cell, runs);
          if (B === null) return;
          sub.push(B);
          subIndex.push(index[q]);
        });
        r = preparedTileContacts(sub, subIndex, this.tau, cell);
      }
      const c = r.count;
      if (c === 0) continue;
      if (this.plan.spill !== undefined && inMemory + c > this.held) {
        lists.push(this.plan.spill.put(r));
        continue;
      }
      inMemory += c;
      // Exact size: the slack is not kept while the other sub-tiles are searched.
      const kept: MultiChainContacts = {
        count: c,
        chainI: r.chainI.slice(), i: r.i.slice(), chainJ: r.chainJ.slice(), j: r.j.slice(),
        distance: r.distance.slice(), s: r.s.slice(), t: r.t.slice(),
      };
      lists.push({ count: c, read: (from, m) => view(kept, from, m) });
    }
    await mergeTiles(lists, batch, emit);
  }

  /** Forgets every chain (after its contacts are written). */
  clear(): void {
    this.finish();
    this.chains = [];
    this.count = 0;
    this.numbers = 0;
  }

  /** Is the vertex at a equal to the one at b (every coordinate)? */
  private same(a: Float64Array, b: Float64Array): boolean {
    for (let d = 0; d < this.dim; d++) if (a[d] !== b[d]) return false;
    return true;
  }

  /** Segment a → b, number `n` of the chain: dropped when of zero length, kept when it reaches the tile. */
  private edge(a: Float64Array, b: Float64Array, n: number): void {
    if (this.same(a, b)) return;
    const { axis0, axis1 } = this.grid;
    const keep = reaches(a[axis0], b[axis0], a[axis1], b[axis1], this.tau, this.grid);
    this.runs.add(a, 0, b, 0, n, keep);
    if (keep) this.numbers += this.dim;
  }

  /** Ends the chain being read: its closing segment (`closed`), its ring partners, its prepared runs. */
  private finish(): void {
    if (!this.reading) return;
    this.reading = false;
    const n = this.nv;
    if (this.closed && n >= 2) this.edge(this.prev, this.first, n - 1);
    // A ring as prepareChains sees it: two segments or more, closed or its first vertex repeated at the end.
    const ring = this.runs.seen >= 2 && (this.closed || this.same(this.first, this.prev));
    this.chains.push(this.runs.build(ring, n < 2 ? 0 : this.closed ? n : n - 1));
  }
}

/** Contacts from … from + n − 1 of r (views). */
function view(r: MultiChainContacts, from: number, n: number): MultiChainContacts {
  return {
    count: n,
    chainI: r.chainI.subarray(from, from + n), i: r.i.subarray(from, from + n), chainJ: r.chainJ.subarray(from, from + n), j: r.j.subarray(from, from + n),
    distance: r.distance.subarray(from, from + n), s: r.s.subarray(from, from + n), t: r.t.subarray(from, from + n),
  };
}
