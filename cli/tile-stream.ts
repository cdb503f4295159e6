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
 */
import type { ChainCoords, ChainSink, ChainWhere } from './geojson-stream.js';
import type { PreparedChain } from '../src/chain/input.js';
import type { MultiChainContacts } from '../src/index.js';
import { preparedTileContacts, type TileGrid } from './tiles.js';

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

/**
 * Pass 2: each chain's segments that reach the tile, as runs (see the module comment), searched
 * and handed to the writer a batch of chains at a time ({@link TileRuns.contacts}). As the
 * writers' {@link ChainCoords}, chain k is the k-th chain begun since the last
 * {@link TileRuns.clear}, and its segment i is found among the kept ones (only those are asked
 * for: every contact of the tile is between kept segments).
 */
export class TileRuns implements ChainSink, ChainCoords {
  open = false;
  count = 0;
  /** Numbers kept (with one for each chain begun, so that chains far from the tile also end a CSV batch). */
  numbers = 0;
  /** Each chain's feature (−1: none), part and ring. */
  feature = new Int32Array(64);
  private part = new Int32Array(64);
  private ring = new Int32Array(64);
  /** Each chain's kept runs, or null when none of its segments reaches the tile. */
  private chains: (PreparedChain | null)[] = [];

  // The chain being read.
  private reading = false;
  private readonly first: Float64Array;
  private readonly prev: Float64Array;
  private readonly vtx: Float64Array;
  private q = 0;
  /** Vertices of the chain so far. */
  private nv = 0;
  /** Its segments of positive length so far. */
  private mk = 0;
  /** Whether its first and its latest segment of positive length were kept. */
  private firstKept = false;
  private lastKept = false;
  /** The kept runs so far: vertices (V of them), segments (M: orig, dead) with their gaps. */
  private P = new Float64Array(0);
  private orig = new Int32Array(0);
  private dead = new Uint8Array(0);
  private V = 0;
  private M = 0;
  // The tile's cell on its two axes.
  private readonly lo0: number;
  private readonly hi0: number;
  private readonly lo1: number;
  private readonly hi1: number;

  /**
   * @param dim the input's dimension (from pass 1: 2D GeoJSON positions read after it is 3 get
   *   z = 0 from the reader, as in the whole read after its promotion)
   */
  constructor(
    public dim: number,
    private readonly tau: number,
    private readonly closed: boolean,
    private readonly grid: TileGrid,
  ) {
    this.first = new Float64Array(Math.max(dim, 3));
    this.prev = new Float64Array(Math.max(dim, 3));
    this.vtx = new Float64Array(Math.max(dim, 3));
    this.lo0 = grid.cut0[grid.k0];
    this.hi0 = grid.cut0[grid.k0 + 1];
    this.lo1 = grid.cut1[grid.k1];
    this.hi1 = grid.cut1[grid.k1 + 1];
  }

  begin(where: ChainWhere): void {
    this.finish();
    const k = this.count++;
    if (k === this.feature.length) {
      this.feature = grown(this.feature, k + 1);
      this.part = grown(this.part, k + 1);
      this.ring = grown(this.ring, k + 1);
    }
    this.feature[k] = where.feature ?? -1;
    this.part[k] = where.part ?? -1;
    this.ring[k] = where.ring ?? -1;
    this.numbers++;
    this.reading = true;
    this.q = 0;
    this.nv = 0;
    this.mk = 0;
    this.firstKept = this.lastKept = false;
    this.V = this.M = 0;
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

  whereOf(k: number): ChainWhere {
    const w: ChainWhere = {};
    if (this.feature[k] >= 0) w.feature = this.feature[k];
    if (this.part[k] >= 0) w.part = this.part[k];
    if (this.ring[k] >= 0) w.ring = this.ring[k];
    return w;
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

  /** The kept chains' contacts in the tile (chain numbers local to this batch), finishing the chain being read. */
  contacts(): MultiChainContacts {
    this.finish();
    const list: PreparedChain[] = [], index: number[] = [];
    this.chains.forEach((A, k) => {
      if (A === null) return;
      list.push(A);
      index.push(k);
    });
    return preparedTileContacts(list, index, this.tau, this.grid);
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

  /**
   * Segment a → b, number `n` of the chain: dropped when of zero length; kept when its box,
   * inflated by τ, reaches the tile (the test of tiles.ts searchTile, bit for bit).
   */
  private edge(a: Float64Array, b: Float64Array, n: number): void {
    if (this.same(a, b)) return;
    const { axis0, axis1 } = this.grid, tau = this.tau;
    const x0 = a[axis0], x1 = b[axis0], y0 = a[axis1], y1 = b[axis1];
    const reach = !(Math.min(x0, x1) - tau >= this.hi0 || Math.max(x0, x1) + tau < this.lo0 || Math.min(y0, y1) - tau >= this.hi1 || Math.max(y0, y1) + tau < this.lo1);
    const after = this.lastKept;
    if (this.mk++ === 0) this.firstKept = reach;
    this.lastKept = reach;
    if (!reach) return;
    const dim = this.dim;
    if (this.V === 0) this.vertex(a);
    else if (!after) {
      // A new run: a dead gap from the last run's end to this segment's start.
      this.vertex(a);
      this.seg(this.orig[this.M - 1], 1);
    }
    this.vertex(b);
    this.seg(n, 0);
    this.numbers += dim;
  }

  private vertex(v: Float64Array): void {
    const dim = this.dim;
    this.P = grown(this.P, (this.V + 1) * dim);
    for (let d = 0; d < dim; d++) this.P[this.V * dim + d] = v[d];
    this.V++;
  }

  private seg(n: number, dead: number): void {
    this.orig = grown(this.orig, this.M + 1);
    this.dead = grown(this.dead, this.M + 1);
    this.orig[this.M] = n;
    this.dead[this.M] = dead;
    this.M++;
  }

  /** Ends the chain being read: its closing segment (`closed`), its ring partners, its prepared runs. */
  private finish(): void {
    if (!this.reading) return;
    this.reading = false;
    const n = this.nv, dim = this.dim;
    if (this.closed && n >= 2) this.edge(this.prev, this.first, n - 1);
    const M = this.M;
    if (M === 0) {
      this.chains.push(null);
      return;
    }
    // A ring as prepareChains sees it: two segments or more, closed or its first vertex repeated at the end.
    const ring = this.mk >= 2 && (this.closed || this.same(this.first, this.prev));
    let partner: Int32Array | null = null;
    if (ring && this.firstKept && this.lastKept) {
      partner = new Int32Array(M).fill(-1);
      partner[0] = M - 1;
      partner[M - 1] = 0;
    }
    this.chains.push({
      P: this.P.slice(0, (M + 1) * dim),
      dim,
      m: M,
      partner,
      dead: this.dead.slice(0, M),
      orig: this.orig.slice(0, M),
      chain: new Int32Array(M),
      start: Int32Array.of(0, M + 1),
      segments: Int32Array.of(n < 2 ? 0 : this.closed ? n : n - 1),
    });
  }
}
