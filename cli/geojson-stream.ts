/**
 * Chains read from GeoJSON as it streams (see json-stream.ts), kept in one growable
 * Float64Array: a FeatureCollection (on one line or many), a Feature or a bare geometry, a
 * sequence of them (newline-delimited, or RFC 8142 text sequences), or a plain JSON array of
 * points (one chain, as `skewline fold` accepts).
 *
 * Every LineString and every ring of a (Multi)Polygon is a chain. Positions of 2 and 3
 * coordinates may be mixed: the chains are then 3D, and a 2D position gets z = 0. Any other
 * mix (say 3 and 4) is an error naming the feature. A LineString needs 2 positions, a Polygon
 * ring 4 (RFC 7946 §3.1.6); fewer is an error naming the feature.
 *
 * The positions of a LineString, MultiLineString, Polygon or MultiPolygon go to the sink a
 * number at a time, never built as JS arrays, when the geometry's `type` comes before its
 * `coordinates` (and, in a Feature, the Feature's `type` before its `geometry`), as GeoJSON
 * writers put them. When a `type` comes later (keys sorted, say), the coordinates are recorded
 * compactly (8 bytes a number and 1 an array bound, see {@link RecordedCoords}) and handed to
 * the sink when the feature ends. Inside a GeometryCollection a geometry is built whole. All
 * three give the same chains and the same errors: a feature's first error is held until its text
 * ends, so a syntax error later in it is still the one reported.
 */
import { InputError } from './rows.js';
import { JsonStream, STREAMED, type CoordsSink } from './json-stream.js';

/** Where a chain came from, for messages and output. */
export interface ChainWhere {
  /** Index of the feature (or top-level value) among all read. */
  feature?: number | undefined;
  part?: number;
  ring?: number;
}

/** Where each chain came from, by chain number: its feature, part and ring (−1 for none). */
export class ChainOrigins {
  feature = new Int32Array(64);
  private part = new Int32Array(64);
  private ring = new Int32Array(64);

  /** Records where chain k came from (k at most one past the last chain recorded). */
  set(k: number, where: ChainWhere): void {
    if (k >= this.feature.length) {
      const n = Math.max(2 * this.feature.length, k + 1);
      const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
        const b = new Int32Array(n);
        b.set(a);
        return b;
      };
      this.feature = grow(this.feature);
      this.part = grow(this.part);
      this.ring = grow(this.ring);
    }
    this.feature[k] = where.feature ?? -1;
    this.part[k] = where.part ?? -1;
    this.ring[k] = where.ring ?? -1;
  }

  /** Where chain k came from (the fields it has). */
  whereOf(k: number): ChainWhere {
    const w: ChainWhere = {};
    if (this.feature[k] >= 0) w.feature = this.feature[k];
    if (this.part[k] >= 0) w.part = this.part[k];
    if (this.ring[k] >= 0) w.ring = this.ring[k];
    return w;
  }
}

/**
 * Where the readers (readGeojson, the CSV reader of cli/chain.ts) put chains: a
 * {@link CoordStore}, or a sink that keeps less (cli/tile-stream.ts keeps one tile's segments).
 * The readers set `dim` once (0 until then), call `begin` before each chain's numbers, `push`
 * each coordinate, and `promoteTo3` when a 3D position follows 2D ones (GeoJSON).
 */
export interface ChainSink {
  dim: number;
  /** A chain is still being read (a plain array of points): the sink must not be cleared. */
  open: boolean;
  /** Chains begun so far (since the last clear). */
  readonly count: number;
  /** Numbers held (the CSV reader's batches are cut by it). */
  readonly numbers: number;
  begin(where: ChainWhere): void;
  push(x: number): void;
  promoteTo3(): void;
}

/**
 * Chains as the contact writers (ContactWriter, GeojsonContactWriter) read them: chain k's
 * segment i by {@link ChainCoords.segment}, and where each chain came from.
 */
export interface ChainCoords {
  readonly dim: number;
  readonly count: number;
  /** Each chain's feature index, −1 for none. */
  readonly feature: Int32Array;
  whereOf(k: number): ChainWhere;
  /**
   * The array holding segment i of chain k (its closing segment too, for a closed chain):
   * the offsets of its first and second vertex go to at[0] and at[1].
   */
  segment(k: number, i: number, at: number[]): Float64Array;
}

/** Numbers per block of a {@link CoordStore} (16 MiB). */
const BLOCK = 1 << 21;

/**
 * Chains as runs of coordinates (`dim` per vertex) in blocks of 2²¹ numbers (16 MiB): 8 bytes
 * per coordinate, not a JS array per vertex, and growing never copies what is stored. A chain
 * always lies within one block, so `chain(k)` is a view with no copy: a chain that does not fit
 * in the rest of the current block moves (once, as far as it is read) to a new one, and a chain
 * longer than a block gets a block of its own, grown by doubling while it is read. So the memory
 * is the coordinates plus at most one partly filled block (and one chain's moved prefix per
 * block), never twice the coordinates as when one array is grown by copying. What each chain
 * came from (feature, part, ring) is kept in typed arrays too: some 24 bytes a chain, not an
 * object each (on a million features the objects made the live heap, and with it the heap the
 * collector lets grow between full collections, some hundred megabytes larger).
 */
export class CoordStore implements ChainSink, ChainCoords {
  /** The blocks; the last one (`cur`) is being filled. */
  blocks: Float64Array[];
  /** Numbers in use in each block but the last. */
  private used: number[] = [];
  /** The block being filled, and the numbers in use in it. */
  private cur: Float64Array;
  private curUsed = 0;
  /** Numbers in use in all blocks. */
  numbers = 0;
  dim = 0;
  /** A chain is still being read (a plain array of points): it must not be cleared. */
  open = false;
  /** Chains in store. */
  private chains = 0;
  /** Chain k holds numbers starts[k] … end(k) − 1 of block `block[k]` (k < count; typed arrays with room to grow). */
  starts = new Float64Array(64);
  /** The block of each chain. */
  block = new Int32Array(64);
  /** Where each chain came from (see {@link whereOf}). */
  private readonly origins = new ChainOrigins();

  /** @param blockSize numbers per block (default 2²¹; tests use small ones). */
  constructor(private readonly blockSize = BLOCK) {
    this.cur = new Float64Array(Math.min(1 << 12, blockSize));
    this.blocks = [this.cur];
  }

  /** Starts a new chain. */
  begin(where: ChainWhere): void {
    const k = this.chains;
    if (k === this.starts.length) {
      const grow = <T extends Float64Array | Int32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(2 * k);
        b.set(a);
        return b;
      };
      this.starts = grow(this.starts);
      this.block = grow(this.block);
    }
    this.starts[k] = this.curUsed;
    this.block[k] = this.blocks.length - 1;
    this.origins.set(k, where);
    this.chains++;
  }

  /** Each chain's feature, −1 for none. */
  get feature(): Int32Array {
    return this.origins.feature;
  }

  /** Where chain k came from. */
  whereOf(k: number): ChainWhere {
    return this.origins.whereOf(k);
  }

  /** Appends one number to the last chain. */
  push(x: number): void {
    if (this.curUsed === this.cur.length) this.room();
    this.cur[this.curUsed++] = x;
    this.numbers++;
  }

  /** Makes room for one more number of the last chain. */
  private room(): void {
    const b = this.blocks.length - 1;
    const data = this.cur;
    const k = this.chains - 1;
    const first = k >= 0 && this.block[k] === b ? this.starts[k] : this.curUsed; // where the open chain begins
    const size = this.curUsed - first;
    if (data.length < this.blockSize || first === 0) {
      // The first block (grown up to a full block), or one chain filling its block: double it.
      const next = new Float64Array(Math.max(data.length * 2, 16));
      next.set(data.subarray(0, this.curUsed));
      this.blocks[b] = this.cur = next;
      return;
    }
    // The open chain moves to a new block; this one keeps the chains before it.
    const next = new Float64Array(Math.max(this.blockSize, 2 * size));
    next.set(data.subarray(first, this.curUsed));
    this.used.push(first);
    this.blocks.push(next);
    this.cur = next;
    this.curUsed = size;
    if (k >= 0 && this.block[k] === b) {
      this.block[k] = b + 1;
      this.starts[k] = 0;
    }
  }

  /** Number of chains. */
  get count(): number {
    return this.chains;
  }

  /** End (exclusive) of chain k's numbers in its block `block[k]`. */
  end(k: number): number {
    const b = this.block[k];
    if (k + 1 < this.chains && this.block[k + 1] === b) return this.starts[k + 1];
    return b === this.blocks.length - 1 ? this.curUsed : this.used[b];
  }

  /** Chain k's coordinates (a view, no copy). */
  chain(k: number): Float64Array {
    return this.blocks[this.block[k]].subarray(this.starts[k], this.end(k));
  }

  /** Segment i of chain k (the closing one, n − 1 → 0, for i = n − 1): see {@link ChainCoords.segment}. */
  segment(k: number, i: number, at: number[]): Float64Array {
    const dim = this.dim, f0 = this.starts[k];
    const n = (this.end(k) - f0) / dim;
    at[0] = f0 + i * dim;
    at[1] = f0 + ((i + 1) % n) * dim;
    return this.blocks[this.block[k]];
  }

  /** Vertices in store. */
  get vertices(): number {
    return this.dim === 0 ? 0 : this.numbers / this.dim;
  }

  /** Re-lays every stored vertex from 2 to 3 coordinates, with z = 0 (once, when a 3D position follows 2D ones), a block at a time. */
  promoteTo3(): void {
    const last = this.blocks.length - 1;
    for (let b = 0; b <= last; b++) {
      const data = this.blocks[b], n = (b === last ? this.curUsed : this.used[b]) / 2;
      const next = new Float64Array(Math.max(16, Math.ceil((data.length * 3) / 2)));
      for (let v = 0; v < n; v++) {
        next[3 * v] = data[2 * v];
        next[3 * v + 1] = data[2 * v + 1];
      }
      this.blocks[b] = next;
      if (b === last) this.curUsed = n * 3;
      else this.used[b] = n * 3;
    }
    this.cur = this.blocks[last];
    this.numbers = (this.numbers / 2) * 3;
    for (let k = 0; k < this.chains; k++) this.starts[k] = (this.starts[k] / 2) * 3;
    this.dim = 3;
  }

  /** Forgets every chain (keeps the block being filled and the dimension), for streaming one feature at a time. */
  clear(): void {
    this.blocks = [this.cur];
    this.used = [];
    this.curUsed = 0;
    this.numbers = 0;
    this.chains = 0;
  }
}

/** A feature's `id` and `properties` as read (undefined when absent). */
export interface FeatureInfo {
  id: unknown;
  properties: Record<string, unknown> | undefined;
}

/** A feature (or a top-level geometry) read completely: its chains are `first` … `end − 1` of the store. */
export interface ReadFeature {
  index: number;
  info: FeatureInfo;
  first: number;
  end: number;
}

/** What the GeoJSON reader reports besides the chains. */
export interface GeojsonEvents {
  /**
   * Features completed by the last chunk, in order. The callee may clear the store
   * ({@link CoordStore.clear}) afterwards unless `store.open` (a plain array of points is still
   * being read).
   */
  features?(list: ReadFeature[]): void | Promise<void>;
  /** Coordinates read a number at a time (default true); false builds every feature as JS values first. */
  stream?: boolean;
}

/** The geometries whose coordinates stream, with how deep their chains lie (0: the coordinates array is the chain). */
const STREAMABLE: Record<string, number> = { LineString: 0, MultiLineString: 1, Polygon: 1, MultiPolygon: 2 };

/** An input error found while a feature's coordinates streamed: thrown when the feature ends. */
interface Held {
  path: string;
  what: string;
}

/**
 * One geometry's `coordinates` read as it streams (a {@link CoordsSink}): each chain begun in
 * the sink when its array opens, each position pushed when it closes, with the checks and
 * messages of readGeojson's array path in the same order (a chain's count before its
 * positions). The first error is kept in {@link held}, and what follows it is skipped.
 */
class StreamedCoords implements CoordsSink {
  depth = 1;
  /** Depth of the chains' arrays (the positions' is one more). */
  private chain = 0;
  private min = 2;
  private what = '';
  private name = '';
  private prefix = '';
  private featureIndex = 0;
  /** Elements seen so far in the open array at each depth. */
  private readonly seen = new Int32Array(4);
  /** Depth of the innermost open array. */
  private at = -1;
  /** The position being read: its numbers (`n` elements, the first that is not a number at `bad`). */
  private pos = new Float64Array(4);
  private n = 0;
  private bad = -1;
  private badText = '';
  /** The first error in the chain being read (reported unless the chain is too short). */
  private chainHeld: Held | undefined;
  held: Held | undefined;
  /** The geometry and the object it came from (the feature, or itself), to check at the end that no member was given twice. */
  geometry: Record<string, unknown> = {};
  item: Record<string, unknown> = {};
  type = '';
  /** The store's chain count when the feature began. */
  first = 0;

  /** @param dims readGeojson's check of a position's coordinate count (a message, or undefined when it fits) */
  constructor(private readonly store: ChainSink, private readonly dims: (k: number, feature: string) => string | undefined) {}

  /** Starts a geometry of a streamable `type` (`path`: the geometry's path, as `features[3].geometry`). */
  reset(type: string, path: string, feature: number): void {
    this.type = type;
    this.chain = STREAMABLE[type];
    this.depth = this.chain + 1;
    const ring = type === 'Polygon' || type === 'MultiPolygon';
    this.min = ring ? 4 : 2;
    this.what = ring ? 'a Polygon ring' : 'a LineString';
    this.name = `feature ${feature}`;
    this.prefix = `${path}.coordinates`;
    this.featureIndex = feature;
    this.at = -1;
    this.held = this.chainHeld = undefined;
    this.first = this.store.count;
  }

  /** The path of the open array at depth d. */
  private pathOf(d: number): string {
    let p = this.prefix;
    for (let k = 0; k < d; k++) p += `[${this.seen[k] - 1}]`;
    return p;
  }

  open(depth: number): void {
    if (depth > 0) this.seen[depth - 1]++;
    this.seen[depth] = 0;
    this.at = depth;
    if (this.held !== undefined) return;
    if (depth === this.chain) {
      this.chainHeld = undefined;
      const feature = this.featureIndex;
      const s = this.seen;
      if (this.type === 'LineString') this.store.begin({ feature });
      else if (this.type === 'MultiLineString') this.store.begin({ feature, part: s[0] - 1 });
      else if (this.type === 'Polygon') this.store.begin({ feature, ring: s[0] - 1 });
      else this.store.begin({ feature, part: s[0] - 1, ring: s[1] - 1 });
    } else if (depth > this.chain) {
      this.n = 0;
      this.bad = -1;
    }
  }

  num(x: number): void {
    const d = this.at;
    this.seen[d]++;
    if (this.held !== undefined) return;
    if (d === this.depth) {
      if (this.n === this.pos.length) {
        const p = new Float64Array(2 * this.n);
        p.set(this.pos);
        this.pos = p;
      }
      this.pos[this.n++] = x;
    } else this.misplaced(d, x);
  }

  value(v: unknown): void {
    const d = this.at;
    this.seen[d]++;
    if (this.held !== undefined) return;
    if (d === this.depth) {
      if (this.bad < 0) {
        this.bad = this.n;
        this.badText = JSON.stringify(v);
      }
      this.num(0); // its place (seen counted once more: undone)
      this.seen[d]--;
    } else this.misplaced(d, v);
  }

  /** A value that is not an array where an array is expected, at depth d < depth. */
  private misplaced(d: number, _v: unknown): void {
    const path = `${this.pathOf(d)}[${this.seen[d] - 1}]`;
    if (d === this.chain) this.chainHeld ??= { path, what: 'expected a position [x, y(, z)]' };
    else this.held = { path, what: d === this.chain - 1 ? 'expected an array of positions' : 'expected an array of rings' };
  }

  close(depth: number): void {
    this.at = depth - 1;
    if (this.held !== undefined) return;
    if (depth === this.chain) {
      const got = this.seen[depth];
      if (got < this.min) this.held = { path: this.pathOf(depth), what: `${this.what} needs at least ${this.min} positions (got ${got}; ${this.name})` };
      else this.held = this.chainHeld;
    } else if (depth === this.depth && this.chainHeld === undefined) {
      const path = this.pathOf(depth);
      if (this.n < 2) this.chainHeld = { path, what: 'expected a position [x, y(, z)]' };
      else if (this.bad >= 0) this.chainHeld = { path: `${path}[${this.bad}]`, what: `not a finite number (${this.badText})` };
      else {
        const what = this.dims(this.n, this.name);
        if (what !== undefined) {
          this.chainHeld = { path, what };
          return;
        }
        const store = this.store, pos = this.pos;
        let k = 0;
        for (; k < this.n; k++) store.push(pos[k]);
        for (; k < store.dim; k++) store.push(0);
      }
    }
  }
}

/** Op codes of {@link RecordedCoords}: an array at depth d opens (OPEN + d) or closes (CLOSE + d), a number, another value. */
const OPEN = 0, CLOSE = 4, NUM = 8, VALUE = 9;

/** Grows a typed array by doubling, keeping its first `n` elements. */
function doubled<T extends Float64Array | Uint8Array>(a: T, n: number): T {
  const b = new (a.constructor as new (k: number) => T)(2 * a.length);
  b.set(a.subarray(0, n));
  return b;
}

/**
 * A `coordinates` array read before its geometry's type is known, kept as its events: the
 * numbers in a Float64Array and the array bounds as one byte each (some 20 bytes a 2D vertex,
 * not the ~100 of JS arrays). When the feature ends it is replayed into a {@link StreamedCoords}
 * ({@link replay}), or built as JS arrays ({@link built}) for the array path.
 */
class RecordedCoords implements CoordsSink {
  readonly depth = 3;
  private ops = new Uint8Array(256);
  private nOps = 0;
  private nums = new Float64Array(256);
  private nNums = 0;
  private values: unknown[] = [];
  /** The item and the geometry object (the item itself, or its `geometry` member) being recorded. */
  item: Record<string, unknown> = {};
  geometry: Record<string, unknown> = {};

  /** Forgets the record (and the memory of a large one). */
  reset(): void {
    if (this.ops.length > 1 << 16) this.ops = new Uint8Array(256);
    if (this.nums.length > 1 << 16) this.nums = new Float64Array(256);
    this.nOps = this.nNums = 0;
    this.values = [];
    this.item = this.geometry = {};
  }

  private op(c: number): void {
    if (this.nOps === this.ops.length) this.ops = doubled(this.ops, this.nOps);
    this.ops[this.nOps++] = c;
  }

  open(depth: number): void {
    this.op(OPEN + depth);
  }

  num(x: number): void {
    this.op(NUM);
    if (this.nNums === this.nums.length) this.nums = doubled(this.nums, this.nNums);
    this.nums[this.nNums++] = x;
  }

  value(v: unknown): void {
    this.op(VALUE);
    this.values.push(v);
  }

  close(depth: number): void {
    this.op(CLOSE + depth);
  }

  /** The events again, into `cs`, as JsonStream would have sent them: arrays deeper than `cs.depth` built and handed over as values. */
  replay(cs: CoordsSink): void {
    const at = { i: 0, n: 0, v: 0 };
    while (at.i < this.nOps) {
      const c = this.ops[at.i];
      if (c < CLOSE && c > cs.depth) {
        cs.value(this.build(at));
        continue;
      }
      at.i++;
      if (c < CLOSE) cs.open(c);
      else if (c < NUM) cs.close(c - CLOSE);
      else if (c === NUM) cs.num(this.nums[at.n++]);
      else cs.value(this.values[at.v++]);
    }
  }

  /** The whole array, built as JS arrays (what JsonStream would have built). */
  built(): unknown[] {
    return this.build({ i: 0, n: 0, v: 0 });
  }

  /** Builds the array whose open event is at `at.i`, and moves `at` past its close. */
  private build(at: { i: number; n: number; v: number }): unknown[] {
    const stack: unknown[][] = [];
    let root: unknown[] = [];
    do {
      const c = this.ops[at.i++];
      if (c < CLOSE) {
        const a: unknown[] = [];
        if (stack.length > 0) stack[stack.length - 1].push(a);
        else root = a;
        stack.push(a);
      } else if (c < NUM) stack.pop();
      else stack[stack.length - 1].push(c === NUM ? this.nums[at.n++] : this.values[at.v++]);
    } while (stack.length > 0);
    return root;
  }
}

/**
 * Reads GeoJSON chains from a byte stream into `store`.
 * @throws InputError naming the line and the GeoJSON path (`line 3: features[2].geometry.coordinates[0]: …`),
 * or JsonSyntaxError for malformed JSON (line and column).
 */
export async function readGeojson(stream: AsyncIterable<unknown>, store: ChainSink, onChunk: (n: number) => void, events: GeojsonEvents = {}): Promise<void> {
  let features = 0;
  /** The top-level plain array of points being read as one chain, if any. */
  let arrayChain = false;
  let queue: ReadFeature[] = [];
  const fail = (line: number, path: string, what: string): never => {
    throw new InputError(`line ${line}: ${path}: ${what}`);
  };
  /** Sets the store's dimension from a position of k coordinates, or promotes it to 3; a message when k does not fit. */
  const dims = (k: number, feature: string): string | undefined => {
    if (store.dim === 0) store.dim = k;
    else if (k !== store.dim) {
      if (k === 3 && store.dim === 2) store.promoteTo3();
      else if (!(k === 2 && store.dim === 3)) return `has ${k} coordinates, earlier positions ${store.dim} (${feature}; only 2 and 3 may mix, 2D positions then get z = 0)`;
    }
    return undefined;
  };
  const position = (p: unknown, path: string, line: number, feature: string): void => {
    if (!Array.isArray(p) || p.length < 2) fail(line, path, 'expected a position [x, y(, z)]');
    const pos = p as unknown[];
    for (let d = 0; d < pos.length; d++) {
      const x = pos[d];
      if (typeof x !== 'number') fail(line, `${path}[${d}]`, `not a finite number (${JSON.stringify(x)})`);
    }
    let k = pos.length;
    const what = dims(k, feature);
    if (what !== undefined) fail(line, path, what);
    for (let d = 0; d < k; d++) store.push(pos[d] as number);
    for (; k < store.dim; k++) store.push(0);
  };
  const line = (coords: unknown, path: string, where: ChainWhere, min: number, what: string, at: number, feature: string): void => {
    if (!Array.isArray(coords)) fail(at, path, 'expected an array of positions');
    const list = coords as unknown[];
    if (list.length < min) fail(at, path, `${what} needs at least ${min} positions (got ${list.length}; ${feature})`);
    store.begin(where);
    for (let k = 0; k < list.length; k++) position(list[k], `${path}[${k}]`, at, feature);
  };
  const geometry = (g: unknown, path: string, feature: number, at: number): void => {
    if (g === null) return; // a Feature without geometry
    if (typeof g !== 'object' || Array.isArray(g)) fail(at, path, 'expected a geometry object');
    const o = g as { type?: unknown; coordinates?: unknown; geometries?: unknown };
    if (o.coordinates === STREAMED && recording && o === recorder.geometry) {
      // Recorded before its type was known: replayed as if streamed now, or built for the array path below.
      recording = false;
      if (typeof o.type === 'string' && Object.hasOwn(STREAMABLE, o.type)) {
        coords.reset(o.type, path, feature);
        recorder.replay(coords);
        recorder.reset();
        if (coords.held !== undefined) fail(at, coords.held.path, coords.held.what);
        return;
      }
      o.coordinates = recorder.built();
      recorder.reset();
    } else if (o.coordinates === STREAMED) {
      // Its chains are in the store already (see StreamedCoords).
      if (coords.held !== undefined) fail(at, coords.held.path, coords.held.what);
      return;
    }
    const name = `feature ${feature}`;
    const list = (what: string): unknown[] => {
      if (!Array.isArray(o.coordinates)) fail(at, `${path}.coordinates`, `expected an array of ${what}`);
      return o.coordinates as unknown[];
    };
    switch (o.type) {
      case 'LineString':
        return line(o.coordinates, `${path}.coordinates`, { feature }, 2, 'a LineString', at, name);
      case 'MultiLineString':
        return list('lines').forEach((l, k) => line(l, `${path}.coordinates[${k}]`, { feature, part: k }, 2, 'a LineString', at, name));
      case 'Polygon':
        return list('rings').forEach((r, k) => line(r, `${path}.coordinates[${k}]`, { feature, ring: k }, 4, 'a Polygon ring', at, name));
      case 'MultiPolygon':
        return list('polygons').forEach((poly, q) => {
          if (!Array.isArray(poly)) fail(at, `${path}.coordinates[${q}]`, 'expected an array of rings');
          (poly as unknown[]).forEach((r, k) => line(r, `${path}.coordinates[${q}][${k}]`, { feature, part: q, ring: k }, 4, 'a Polygon ring', at, name));
        });
      case 'GeometryCollection':
        if (!Array.isArray(o.geometries)) fail(at, `${path}.geometries`, 'expected an array');
        return (o.geometries as unknown[]).forEach((c, k) => geometry(c, `${path}.geometries[${k}]`, feature, at));
      case 'Point':
      case 'MultiPoint':
        return; // no segments
      default:
        fail(at, `${path}.type`, `not a GeoJSON geometry type (${JSON.stringify(o.type)})`);
    }
  };
  /** A Feature, or a geometry standing for one. */
  const feature = (o: unknown, path: string, at: number): void => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) fail(at, path, 'expected a Feature or a geometry');
    const f = o as { type?: unknown; geometry?: unknown; id?: unknown; properties?: unknown };
    const index = features++;
    let first = store.count;
    if (streaming && coords.item === o) {
      // Its coordinates streamed: the members that chose how must not have been given again.
      streaming = false;
      store.open = arrayChain;
      first = coords.first;
      const g = coords.geometry;
      if ((g !== o && (f.type !== 'Feature' || f.geometry !== g)) || g.type !== coords.type || g.coordinates !== STREAMED) {
        fail(at, path === '' ? 'type' : path, "a member ('type', 'geometry' or 'coordinates') is given twice");
      }
    }
    const info: FeatureInfo = { id: undefined, properties: undefined };
    if (f.type === 'Feature') {
      geometry(f.geometry, `${path === '' ? '' : `${path}.`}geometry`, index, at);
      info.id = f.id;
      if (typeof f.properties === 'object' && f.properties !== null && !Array.isArray(f.properties)) info.properties = f.properties as Record<string, unknown>;
    } else geometry(o, path === '' ? 'geometry' : path, index, at);
    queue.push({ index, info, first, end: store.count });
  };
  /** Reads the coordinates of the item being read, while `streaming`. */
  const coords = new StreamedCoords(store, dims);
  let streaming = false;
  /** Records the coordinates of the item being read, while `recording` (its type not known yet). */
  const recorder = new RecordedCoords();
  let recording = false;
  /** After an item or a top-level value: a record it left unused (a member that is not its geometry) is dropped. */
  const ended = (value: unknown): void => {
    if (recording && recorder.item === value) {
      recording = false;
      recorder.reset();
    }
  };
  const json = new JsonStream({
    coordinates(item, geometry, index, inFeatures) {
      const g = geometry ?? item;
      if (events.stream === false || streaming || recording || (geometry !== undefined && 'type' in item && item.type !== 'Feature') || 'coordinates' in g) return undefined;
      const type = g.type;
      const known = 'type' in g && (geometry === undefined || 'type' in item);
      if ('type' in g && (typeof type !== 'string' || !Object.hasOwn(STREAMABLE, type))) return undefined; // not a geometry with chains: built
      if (!known || typeof type !== 'string') {
        recorder.item = item;
        recorder.geometry = g;
        recording = true;
        return recorder;
      }
      const itemPath = index < 0 ? '' : inFeatures ? `features[${index}]` : `[${index}]`;
      coords.reset(type, geometry !== undefined ? `${itemPath === '' ? '' : `${itemPath}.`}geometry` : itemPath === '' ? 'geometry' : itemPath, features);
      coords.item = item;
      coords.geometry = g;
      streaming = true;
      store.open = true;
      return coords;
    },
    item(value, index, inFeatures, at) {
      if (inFeatures) {
        feature(value, `features[${index}]`, at);
        return ended(value);
      }
      // An element of a top-level array: a position (a plain array of points is one chain) or a feature.
      if (Array.isArray(value)) {
        if (!arrayChain) {
          arrayChain = true;
          store.open = true;
          store.begin({});
        }
        return position(value, `[${index}]`, at, 'a plain array of points');
      }
      feature(value, `[${index}]`, at);
      ended(value);
    },
    top(value, _index, at) {
      if (Array.isArray(value)) {
        arrayChain = false;
        store.open = false;
        return;
      }
      const o = value as { type?: unknown; features?: unknown };
      if (typeof value === 'object' && value !== null && o.type === 'FeatureCollection') {
        ended(value);
        if (!Array.isArray(o.features)) fail(at, 'features', 'expected an array');
        return;
      }
      if (typeof value === 'object' && value !== null && 'features' in o) fail(at, 'type', `a document with 'features' must be a FeatureCollection (got ${JSON.stringify(o.type)})`);
      feature(value, '', at);
      ended(value);
    },
  });
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    onChunk(buf.length);
    json.push(buf);
    if (queue.length > 0 && events.features !== undefined) {
      const list = queue;
      queue = [];
      await events.features(list);
    }
  }
  json.end();
  if (queue.length > 0) await events.features?.(queue);
}
