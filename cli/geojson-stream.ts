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
 */
import { InputError } from './rows.js';
import { JsonStream } from './json-stream.js';

/** Where a chain came from, for messages and output. */
export interface ChainWhere {
  /** Index of the feature (or top-level value) among all read. */
  feature?: number | undefined;
  part?: number;
  ring?: number;
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
  /** Where each chain came from (see {@link whereOf}): its feature, part and ring, −1 for none. */
  feature = new Int32Array(64);
  private part = new Int32Array(64);
  private ring = new Int32Array(64);

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
      this.feature = grow(this.feature);
      this.part = grow(this.part);
      this.ring = grow(this.ring);
    }
    this.starts[k] = this.curUsed;
    this.block[k] = this.blocks.length - 1;
    this.feature[k] = where.feature ?? -1;
    this.part[k] = where.part ?? -1;
    this.ring[k] = where.ring ?? -1;
    this.chains++;
  }

  /** Where chain k came from. */
  whereOf(k: number): ChainWhere {
    const w: ChainWhere = {};
    if (this.feature[k] >= 0) w.feature = this.feature[k];
    if (this.part[k] >= 0) w.part = this.part[k];
    if (this.ring[k] >= 0) w.ring = this.ring[k];
    return w;
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
  const position = (p: unknown, path: string, line: number, feature: string): void => {
    if (!Array.isArray(p) || p.length < 2) fail(line, path, 'expected a position [x, y(, z)]');
    const pos = p as unknown[];
    for (let d = 0; d < pos.length; d++) {
      const x = pos[d];
      if (typeof x !== 'number') fail(line, `${path}[${d}]`, `not a finite number (${JSON.stringify(x)})`);
    }
    let k = pos.length;
    if (store.dim === 0) store.dim = k;
    else if (k !== store.dim) {
      if (k === 3 && store.dim === 2) store.promoteTo3();
      else if (!(k === 2 && store.dim === 3)) {
        fail(line, path, `has ${k} coordinates, earlier positions ${store.dim} (${feature}; only 2 and 3 may mix, 2D positions then get z = 0)`);
      }
    }
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
    const first = store.count;
    const info: FeatureInfo = { id: undefined, properties: undefined };
    if (f.type === 'Feature') {
      geometry(f.geometry, `${path === '' ? '' : `${path}.`}geometry`, index, at);
      info.id = f.id;
      if (typeof f.properties === 'object' && f.properties !== null && !Array.isArray(f.properties)) info.properties = f.properties as Record<string, unknown>;
    } else geometry(o, path === '' ? 'geometry' : path, index, at);
    queue.push({ index, info, first, end: store.count });
  };
  const json = new JsonStream({
    item(value, index, inFeatures, at) {
      if (inFeatures) return feature(value, `features[${index}]`, at);
      // An element of a top-level array: a position (a plain array of points is one chain) or a feature.
      if (Array.isArray(value)) {
        if (!arrayChain) {
          arrayChain = true;
          store.open = true;
          store.begin({});
        }
        return position(value, `[${index}]`, at, 'a plain array of points');
      }
      return feature(value, `[${index}]`, at);
    },
    top(value, _index, at) {
      if (Array.isArray(value)) {
        arrayChain = false;
        store.open = false;
        return;
      }
      const o = value as { type?: unknown; features?: unknown };
      if (typeof value === 'object' && value !== null && o.type === 'FeatureCollection') {
        if (!Array.isArray(o.features)) fail(at, 'features', 'expected an array');
        return;
      }
      if (typeof value === 'object' && value !== null && 'features' in o) fail(at, 'type', `a document with 'features' must be a FeatureCollection (got ${JSON.stringify(o.type)})`);
      feature(value, '', at);
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
