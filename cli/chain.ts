/**
 * `skewline chain`: every contact of a chain (or of several chains) read from CSV or GeoJSON.
 *
 * Input of any size: GeoJSON is read by an incremental tokenizer (json-stream.ts) feature by
 * feature, CSV line by line; coordinates go into blocks of typed arrays (8 bytes a coordinate,
 * never copied as they grow: geojson-stream.ts, CoordStore). With `--no-between`, each batch of
 * GeoJSON features, or of complete CSV chains, is searched and written as soon as it is read, so
 * memory stays bounded by the largest feature or chain (plus one batch); otherwise the whole
 * input is needed before any contact is known (a contact may join the first feature and the
 * last): it is read, then one large chain is searched at once (over worker threads), and
 * several chains with contacts between them are searched one spatial tile at a time, the tiles'
 * sorted contacts held in typed arrays or a temporary file and merged in order as they are
 * written (tiles.ts, contactsInTiles): memory is the coordinates plus bounded buffers, and the
 * bytes are those of one search over everything.
 * `--tile i/n` reports only the contacts whose reference point lies in tile i (tiles.ts); with
 * several chains that tile is searched in sub-tiles the same way. On a file with one chain, or
 * with `--no-between`, it reads the file twice (cli/tile-stream.ts): the bounding box, then only
 * the segments that reach the tile, searched chain by chain — memory is the tile's share, not
 * the file's. Standard input (or any pipe or FIFO), which cannot be read twice, is copied to a
 * temporary file under `$TMPDIR` as the first pass reads it (cli/input.ts, Spool), and the
 * second pass reads that copy.
 * `-o` gets the same safe writing as `closest` (a temporary file renamed at the end, nothing
 * left on error).
 */
import { createReadStream, statSync, type ReadStream } from 'node:fs';
import { extname } from 'node:path';
import { readLines, Spool } from './input.js';
import { InputError, parseNumber, splitCsv } from './rows.js';
import { csvField, num } from './output.js';
import { CommandError, failure, openRun, type Io } from './run-rows.js';
import { CoordStore, readGeojson, type ChainCoords, type ChainSink, type FeatureInfo, type ReadFeature } from './geojson-stream.js';
import { JsonSyntaxError } from './json-stream.js';
import { contactsInTiles, mergeTiles, Spill, tileContacts, tileGrid, type Tile, type TileContacts, type TilePlan } from './tiles.js';
import { BoxScan, TileRuns, TooManyChains } from './tile-stream.js';
import { heartbeat } from './heartbeat.js';
import { GeojsonContactWriter } from './contact-geojson.js';
import { chainContacts, multiChainContacts, releaseChainMemory, SkewlineInputError, type MultiChainContacts } from '../src/index.js';
import { orient2Sign } from '../src/intersect/intersects.js';
import { exactClosestFlat, SEGMENT } from '../src/core/exact.js';
import { EPS } from '../src/core/eft.js';
import { chainContactsParallel } from '../src/parallel/index.js';
import { classify2, CONTACT_KIND_NAMES, CROSSING, NO_CONTACT, OVERLAP, T_JUNCTION, VERTEX_TOUCH } from '../src/chain/classify.js';
import { intersectsSegments3 } from '../src/intersect/intersects.js';

/** What `skewline chain` was asked to do. */
export interface ChainCliOptions {
  /** A path, `-` for stdin, or undefined for the bundled example. */
  file: string | undefined;
  input: 'csv' | 'geojson' | undefined;
  thickness: number;
  closed: boolean;
  /** Contacts between different chains too (default true, as multiChainContacts). */
  between: boolean;
  format: 'csv' | 'ndjson' | 'geojson' | undefined;
  output: string | undefined;
  progress: boolean | undefined;
  stats: boolean;
  /** Threads for the search of one large chain (1: none). */
  threads: number;
  /** Report only this tile's contacts. */
  tile: Tile | undefined;
  /**
   * How a search with contacts between chains is cut into tiles and how many contacts it holds
   * in memory before the rest go to a temporary file (tiles.ts; the defaults when absent; tests
   * set small figures to run the tiled path on small inputs).
   */
  tiles?: { perTile?: number; held?: number };
  /**
   * CSV input with `--no-between`: complete chains are searched and written as soon as they hold
   * at least `batch` coordinates together (default {@link CSV_BATCH}; tests set small figures to
   * cut many batches). `false` reads the whole input before the one search, as before streaming
   * (the reference the tests compare the streamed bytes with).
   */
  csvStream?: { batch?: number } | false;
  /**
   * `--tile` on a file, for one chain or with `--no-between`: two passes, the second keeping
   * only the tile's segments (cli/tile-stream.ts). `false` reads the whole input instead, as
   * before (the reference the tests compare the streamed bytes with).
   */
  tileStream?: false;
  /** The folder of the temporary copy of standard input with `--tile` (default `os.tmpdir()`; tests point it elsewhere). */
  spoolDir?: string;
  /**
   * GeoJSON: a geometry's `coordinates` read a number at a time (cli/geojson-stream.ts).
   * `false` builds every feature as JS values first, as before (the reference the tests compare
   * the streamed bytes with).
   */
  coordsStream?: false;
}

/**
 * Coordinates (numbers) of complete CSV chains gathered before they are searched and written
 * with `--no-between` (2¹⁶: 512 KiB of coordinates; a chain longer than that is its own batch).
 */
export const CSV_BATCH = 1 << 16;

/** Segments from which one chain is searched over threads (below, the threads cost more than they save). */
const PARALLEL_FROM = 100_000;

/**
 * A status line on stderr through the phases (reading: bytes and features; searching; writing:
 * contacts written), redrawn at most five times a second.
 */
class Status {
  private last = 0;
  private drawn = false;
  private readonly t0 = Date.now();
  constructor(private readonly err: NodeJS.WritableStream | undefined, private readonly total: number | undefined) {}

  /**
   * Shows `text` and, when the line goes to this process's own stderr, keeps its clock moving
   * during the synchronous work that follows (cli/heartbeat.ts) until the returned function is
   * called.
   */
  busy(text: string): () => void {
    this.show(text, true);
    if (this.err === undefined || this.err !== process.stderr) return () => {};
    return heartbeat(`\rskewline chain: ${text} | `, ' s\x1b[K', this.t0);
  }

  show(text: string, force = false): void {
    if (this.err === undefined) return;
    const now = Date.now();
    if (!force && now - this.last < 200) return;
    this.last = now;
    this.err.write(`\rskewline chain: ${text} | ${((now - this.t0) / 1000).toFixed(1)} s\x1b[K`);
    this.drawn = true;
  }

  /** Reading: bytes, chains read, and (when streaming) contacts written so far. */
  reading(bytes: number, chains: number, written: number | undefined): void {
    const mb = (n: number): string => (n / 1e6).toFixed(1);
    const of = this.total !== undefined && this.total > 0 ? `${mb(bytes)}/${mb(this.total)} MB (${Math.floor((100 * bytes) / this.total)}%)` : `${mb(bytes)} MB`;
    this.show(`reading ${of} | ${chains.toLocaleString('en')} chains${written === undefined ? '' : ` | ${written.toLocaleString('en')} contacts written`}`);
  }

  stop(): void {
    if (this.drawn) this.err?.write('\n');
    this.drawn = false;
  }
}

/**
 * Reads CSV into `store`: `x,y[,z…]` per vertex; an optional header; a `chain` (or `id`) column
 * or blank lines separate chains. A chain is a run of consecutive rows: an id that comes back
 * after another one starts a new chain (chains are never joined across the file), so a chain is
 * complete as soon as the next one begins.
 * @param complete when given, called (and awaited) before a new chain begins whenever the
 *   complete chains in the store hold at least `batch` numbers; it searches and writes them and
 *   clears the store. Its errors pass through as they are (they are not about the current line).
 * @throws InputError `line N: …` for a malformed line.
 */
async function readCsv(stream: AsyncIterable<unknown>, store: ChainSink, onChunk: (n: number) => void, complete?: () => Promise<void>, batch = CSV_BATCH): Promise<void> {
  let open = false;
  let dim = 0;
  let header: string[] | null = null;
  let chainCol = -1;
  let coordCols: number[] = [];
  let names: string[] = [];
  let lastId: string | undefined;
  let first = true;
  let lineNo = 0;
  let completing = false;
  try {
    for await (const { text, no } of readLines(stream, onChunk)) {
      lineNo = no;
      if (text.trim() === '') {
        open = false; // a blank line ends a chain
        continue;
      }
      const fields = splitCsv(text);
      if (first) {
        first = false;
        if (fields.some((f) => f.trim() !== '' && Number.isNaN(Number(f)))) {
          const h = fields.map((f) => f.trim().toLowerCase());
          header = h;
          chainCol = h.findIndex((x) => x === 'chain' || x === 'id');
          coordCols = h.map((_, k) => k).filter((k) => k !== chainCol && h[k] !== '');
          dim = coordCols.length;
          if (dim < 2) throw new InputError(`the header needs at least two coordinate columns (got ${h.join(',')})`);
          names = coordCols.map((k) => `column ${h[k]}`);
          store.dim = dim;
          continue;
        }
        coordCols = fields.map((_, k) => k);
        dim = fields.length;
        if (dim < 2) throw new InputError('a vertex needs at least two coordinates (x,y)');
        names = coordCols.map((k) => `column ${'xyzw'[k] ?? `x${k + 1}`}`);
        store.dim = dim;
      }
      if (fields.length !== (header?.length ?? dim)) {
        throw new InputError(`expected ${header?.length ?? dim} fields (as in the ${header !== null ? 'header' : 'first row'}), found ${fields.length}`);
      }
      if (chainCol >= 0) {
        const id = fields[chainCol];
        if (id !== lastId) open = false;
        lastId = id;
      }
      if (!open) {
        open = true;
        if (complete !== undefined && store.count > 0 && store.numbers >= batch) {
          completing = true;
          await complete();
          completing = false;
        }
        store.begin({});
      }
      for (let k = 0; k < dim; k++) store.push(parseNumber(fields[coordCols[k]], names[k]));
    }
  } catch (e) {
    if (e instanceof InputError && !completing) throw new InputError(`line ${lineNo}: ${e.message}`);
    throw e;
  }
}

/** Input format from the extension, or undefined. */
function formatFromName(file: string): 'csv' | 'geojson' | undefined {
  const ext = extname(file).toLowerCase();
  if (ext === '.csv' || ext === '.txt') return 'csv';
  if (ext === '.geojson' || ext === '.json' || ext === '.ndjson' || ext === '.geojsonl' || ext === '.geojsons' || ext === '.jsonl') return 'geojson';
  return undefined;
}

/**
 * The stream's chunks, after a look at the first non-blank byte: '{', '[' or RS (0x1E) means
 * GeoJSON, anything else CSV, nothing at all undefined (empty input).
 */
async function sniff(stream: AsyncIterable<unknown>): Promise<{ kind: 'csv' | 'geojson' | undefined; chunks: AsyncIterable<Buffer> }> {
  const it = stream[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let kind: 'csv' | 'geojson' | undefined;
  for (;;) {
    const r = await it.next();
    if (r.done === true) break;
    const buf = typeof r.value === 'string' ? Buffer.from(r.value) : (r.value as Buffer);
    head.push(buf);
    let k = 0;
    if (head.length === 1 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) k = 3;
    while (k < buf.length && (buf[k] === 0x20 || buf[k] === 0x09 || buf[k] === 0x0a || buf[k] === 0x0d)) k++;
    if (k < buf.length) {
      kind = buf[k] === 0x7b || buf[k] === 0x5b || buf[k] === 0x1e ? 'geojson' : 'csv';
      break;
    }
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    yield* head;
    for (;;) {
      const r = await it.next();
      if (r.done === true) return;
      yield typeof r.value === 'string' ? Buffer.from(r.value) : (r.value as Buffer);
    }
  }
  return { kind, chunks: chunks() };
}

/** A point on a segment, (1 − s)·a + s·b, computed without overflow (see {@link pointOn}). */
function pointInto(f: Float64Array, a: number, b: number, s: number, dim: number, out: number[]): void {
  for (let k = 0; k < dim; k++) out[k] = pointOn(f[a + k], f[b + k], s);
}

/**
 * The point a + s·(b − a) for 0 ≤ s ≤ 1, exactly a at s = 0 and b at s = 1. The difference form
 * (accurate near the segment's ends) is used whenever b − a is finite; when it overflows
 * (|a|, |b| near the top of the double range with opposite signs) the convex form
 * (1 − s)·a + s·b, whose terms are each at most max(|a|, |b|), gives a finite point.
 */
export function pointOn(a: number, b: number, s: number): number {
  if (s === 0) return a;
  if (s === 1) return b;
  const d = b - a;
  if (d - d === 0) return a + s * d;
  return (1 - s) * a + s * b;
}


/** The pair under classification, 4 points of up to `QN.length / 4` coordinates (module scratch, not re-entrant). */
let QN = new Float64Array(16);

/**
 * The exact kind of the contact between segments a→b and c→e of `data` (offsets of their first
 * coordinates; a wrap-around segment of a ring simply has b before a): `crossing`,
 * `vertex-touch`, `t-junction` or `overlap` (CONTACT_KIND_NAMES) when the two segments share a
 * point, `near` when they do not (a contact within a thickness > 0). Decided by exact
 * predicates, whatever the distance computed: 2D by classify2's four orientation signs; in 3D
 * and more by {@link classifyTouching} once the pair is known to share a point — always so when
 * `touching` (at thickness 0 the search decided it with an exact predicate), else by the exact
 * intersection test intersectsSegments3 (3D), or in 4D and more: a computed distance `dist`
 * above the kernel's error bound 64·u·(|u|₁ + |v|₁ + |w|₁) (the bound the search's narrow phase
 * decides with, src/chain/narrow.ts) is certainly not 0, and the rest go to the exact squared
 * distance (rational arithmetic, which allocates: only pairs within a few ulps of touching). No
 * allocation otherwise. Not re-entrant (module scratch).
 */
export function kindOf(data: Float64Array, dim: number, a: number, b: number, c: number, e: number, touching: boolean, dist: number): string {
  if (dim === 2) {
    const code = classify2(data[a], data[a + 1], data[b], data[b + 1], data[c], data[c + 1], data[e], data[e + 1]);
    return code === NO_CONTACT ? 'near' : CONTACT_KIND_NAMES[code];
  }
  if (QN.length < 4 * dim) QN = new Float64Array(4 * dim);
  const Q = QN;
  for (let k = 0; k < dim; k++) {
    Q[k] = data[a + k];
    Q[dim + k] = data[b + k];
    Q[2 * dim + k] = data[c + k];
    Q[3 * dim + k] = data[e + k];
  }
  if (!touching) {
    if (dim === 3) {
      if (!intersectsSegments3(Q, 0)) return 'near';
    } else {
      let size = 0;
      for (let k = 0; k < dim; k++) size += Math.abs(Q[dim + k] - Q[k]) + Math.abs(Q[3 * dim + k] - Q[2 * dim + k]) + Math.abs(Q[2 * dim + k] - Q[k]);
      if (dist - 64 * EPS * size > 0) return 'near';
      if (exactClosestFlat(SEGMENT, SEGMENT, dim, Q, 0).distanceSq.num !== 0n) return 'near';
    }
  }
  return CONTACT_KIND_NAMES[classifyTouching(Q, dim)];
}

/**
 * Is point p on the line through a and b (or p = a when a = b)? Exactly when b − a and p − a are
 * parallel: every 2 × 2 minor (b − a)ₖ(p − a)ₗ − (b − a)ₗ(p − a)ₖ vanishes, and each is an
 * orientation in the coordinate plane (k, l) — exact orientation signs (in 3D the three
 * components of the cross product). Offsets into `d`.
 */
function onLine(d: Float64Array, dim: number, a: number, b: number, p: number): boolean {
  for (let k = 0; k < dim; k++) {
    for (let l = k + 1; l < dim; l++) {
      if (!collinear2(d[a + k], d[a + l], d[b + k], d[b + l], d[p + k], d[p + l])) return false;
    }
  }
  return true;
}

/** 2²⁵: integers up to this size have exact differences (≤ 2²⁶) and products (≤ 2⁵²). */
const SMALL = 33554432;

/**
 * Are a, b, c collinear in the plane (exactly)? Small integer coordinates (grid and pixel data,
 * where this is the common question and the answer is often yes) are decided in doubles without
 * rounding: every difference and product is exact, and so is the comparison. Anything else goes
 * to orient2Sign, whose filter cannot vouch for a zero and falls to its exact stage.
 */
function collinear2(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  if ((ax | 0) === ax && (ay | 0) === ay && (bx | 0) === bx && (by | 0) === by && (cx | 0) === cx && (cy | 0) === cy &&
    Math.abs(ax) <= SMALL && Math.abs(ay) <= SMALL && Math.abs(bx) <= SMALL && Math.abs(by) <= SMALL && Math.abs(cx) <= SMALL && Math.abs(cy) <= SMALL) {
    return (bx - ax) * (cy - ay) === (by - ay) * (cx - ax);
  }
  return orient2Sign(ax, ay, bx, by, cx, cy) === 0;
}

/** Is point p on the closed segment ab (exact: inside the box of a and b, and on the line)? */
function onSegment(d: Float64Array, dim: number, a: number, b: number, p: number): boolean {
  for (let k = 0; k < dim; k++) {
    const x = d[p + k], u = d[a + k], v = d[b + k];
    if (u < v ? x < u || x > v : x < v || x > u) return false;
  }
  return onLine(d, dim, a, b, p);
}

/** Lexicographic comparison of points p and q of `d`; on a line it is the line's order. */
function lex(d: Float64Array, dim: number, p: number, q: number): number {
  for (let k = 0; k < dim; k++) if (d[p + k] !== d[q + k]) return d[p + k] < d[q + k] ? -1 : 1;
  return 0;
}

/** Are the points at offsets p and q of `d` equal? */
function same(d: Float64Array, dim: number, p: number, q: number): boolean {
  for (let k = 0; k < dim; k++) if (d[p + k] !== d[q + k]) return false;
  return true;
}

/**
 * The kind of two segments Q[0, 2·dim) and Q[2·dim, 4·dim) (any dimension) known to share a
 * point, exactly and in doubles (the same answers as contactKind's integer arithmetic in 3D,
 * which the tests check). All four points on one line (onLine): the common set is an interval
 * of that line, whose order is the lexicographic one — a piece (OVERLAP) or one point.
 * Otherwise the lines are distinct and meet in one point, which is an endpoint of a segment
 * exactly when that endpoint lies on the other segment (onSegment). A zero-length segment
 * counts as its own endpoint.
 */
function classifyTouching(Q: Float64Array, dim: number): number {
  const a0 = 0, a1 = dim, b0 = 2 * dim, b1 = 3 * dim;
  const aPoint = same(Q, dim, a0, a1), bPoint = same(Q, dim, b0, b1);
  const collinear = !aPoint ? onLine(Q, dim, a0, a1, b0) && onLine(Q, dim, a0, a1, b1) : !bPoint ? onLine(Q, dim, b0, b1, a0) : true;
  if (!collinear) {
    const endA = onSegment(Q, dim, b0, b1, a0) || onSegment(Q, dim, b0, b1, a1);
    const endB = onSegment(Q, dim, a0, a1, b0) || onSegment(Q, dim, a0, a1, b1);
    return endA && endB ? VERTEX_TOUCH : endA || endB ? T_JUNCTION : CROSSING;
  }
  const aLo = lex(Q, dim, a0, a1) <= 0 ? a0 : a1, aHi = aLo === a0 ? a1 : a0;
  const bLo = lex(Q, dim, b0, b1) <= 0 ? b0 : b1, bHi = bLo === b0 ? b1 : b0;
  const lo = lex(Q, dim, aLo, bLo) >= 0 ? aLo : bLo, hi = lex(Q, dim, aHi, bHi) <= 0 ? aHi : bHi;
  const c = lex(Q, dim, lo, hi);
  if (c > 0) return NO_CONTACT;
  if (c < 0) return OVERLAP;
  const endA = same(Q, dim, lo, a0) || same(Q, dim, lo, a1), endB = same(Q, dim, lo, b0) || same(Q, dim, lo, b1);
  return endA && endB ? VERTEX_TOUCH : T_JUNCTION;
}

/** Two segments from two blocks of the store, side by side (module scratch, not re-entrant). */
let PAIR = new Float64Array(12);

/**
 * Copies segments a→b of `da` and c→e of `db` (offsets of their first coordinates) into one
 * scratch array, at 0, dim, 2·dim, 3·dim, for the kernels that read both segments from one
 * array (chains in two blocks of the store). Not re-entrant: the array is reused.
 */
export function pairOf(da: Float64Array, a: number, b: number, db: Float64Array, c: number, e: number, dim: number): Float64Array {
  if (PAIR.length < 4 * dim) PAIR = new Float64Array(4 * dim);
  for (let k = 0; k < dim; k++) {
    PAIR[k] = da[a + k];
    PAIR[dim + k] = da[b + k];
    PAIR[2 * dim + k] = db[c + k];
    PAIR[3 * dim + k] = db[e + k];
  }
  return PAIR;
}

/** A parameter s or t (in [0, 1]) as text, its common values without formatting. */
function param(s: number): string {
  return s === 0 ? (Object.is(s, -0) ? '-0' : '0') : s === 1 ? '1' : s === 0.5 ? '0.5' : String(s);
}

/** A finite number as JSON/CSV text; a non-finite one cannot be written (the CLI contract). */
function fin(x: number, what: string): string {
  if (x - x !== 0) throw new CommandError(`a contact's ${what} is not representable (${String(x)}): the input is too close to the top of the double range`);
  return num(x);
}

/**
 * A text per feature index, for the features whose contacts are still to be written: a dense
 * array (a slot of 8 bytes and the string, where a Map entry costs several times the slot), from
 * `offset` on. The readers record features in increasing index; when every recorded one is
 * forgotten (streaming, a batch at a time) the array starts again at the next index, so it holds
 * one batch's features, not every feature read. Exported for its tests.
 */
export class FeatureTexts {
  private texts: (string | undefined)[] = [];
  private offset = 0;
  private live = 0;

  set(index: number, text: string): void {
    if (this.live === 0) {
      this.texts = [];
      this.offset = index;
    }
    let at = index - this.offset;
    if (at < 0) {
      // Out of order (not done by the readers): the array starts earlier.
      this.texts = new Array<string | undefined>(-at).fill(undefined).concat(this.texts);
      this.offset = index;
      at = 0;
    }
    while (this.texts.length < at) this.texts.push(undefined); // features without text in between
    if (this.texts[at] === undefined) this.live++;
    this.texts[at] = text;
  }

  get(index: number): string | undefined {
    return this.texts[index - this.offset];
  }

  delete(index: number): void {
    const at = index - this.offset;
    if (at < 0 || at >= this.texts.length || this.texts[at] === undefined) return;
    this.texts[at] = undefined;
    if (--this.live === 0) this.texts = [];
  }
}

/**
 * Writes contacts as they come, in one of three formats (exported for the output benchmark). Chains are named by their index in the
 * whole input (`chainBase` + the index within the current batch). Features' `id` and
 * `properties` travel with their contacts: `a_id`, `b_id`, and every input property `p` as `a_p`
 * and `b_p` (GeoJSON and NDJSON; CSV gets `a_id`, `b_id` for GeoJSON input).
 */
export class ContactWriter {
  private started = false;
  private written = 0;
  private readonly c: number[] = [];
  private readonly d: number[] = [];
  private readonly cs: string[] = [];
  private readonly ds: string[] = [];
  /** A segment's two vertex offsets. */
  private readonly at = [0, 0];
  /** Per feature: the JSON text of `"a_id":…,"a_p":…` and of the b side (GeoJSON and NDJSON), or the CSV id fields. */
  private readonly featureA = new FeatureTexts();
  private readonly featureB = new FeatureTexts();
  private readonly featureCsv = new FeatureTexts();
  /** The GeoJSON features' writer (cli/contact-geojson.ts), made on first use. */
  private geo: GeojsonContactWriter | undefined;

  constructor(
    private readonly format: 'csv' | 'ndjson' | 'geojson',
    private readonly geojsonInput: boolean,
    private readonly thickness: number,
    private readonly write: (text: string) => void,
    /** Where GeoJSON output goes as bytes (a fresh chunk each call, owned by the callee); without it, as text to `write`. */
    private readonly writeBytes?: (chunk: Uint8Array) => void,
  ) {}

  /** Records a feature's id and properties. */
  feature(index: number, info: FeatureInfo): void {
    if (this.format === 'csv') {
      const id = info.id === undefined || info.id === null ? '' : typeof info.id === 'string' ? csvField(info.id) : csvField(JSON.stringify(info.id));
      this.featureCsv.set(index, id);
      return;
    }
    const side = (p: string): string => {
      let text = '';
      if (info.properties !== undefined) {
        for (const [k, v] of Object.entries(info.properties)) if (v !== undefined && !(k === 'id' && info.id !== undefined)) text += `,${JSON.stringify(`${p}_${k}`)}:${JSON.stringify(v)}`;
      }
      if (info.id !== undefined) text += `,"${p}_id":${JSON.stringify(info.id)}`;
      return text;
    };
    this.featureA.set(index, side('a'));
    this.featureB.set(index, side('b'));
  }

  /** Forgets a feature's id and properties (its contacts are written). */
  forget(index: number): void {
    this.featureA.delete(index);
    this.featureB.delete(index);
    this.featureCsv.delete(index);
  }

  /** The header (CSV) or opening (GeoJSON), once, when the dimension is known. */
  begin(dim: number): void {
    if (this.started) return;
    this.started = true;
    if (this.format === 'csv') {
      const axes = dim <= 4 ? ['x', 'y', 'z', 'w'].slice(0, dim) : Array.from({ length: dim }, (_, k) => `x${k + 1}`);
      this.write(`chain_i,i,chain_j,j,distance,s,t,${axes.map((a) => `c${a}`).join(',')},${axes.map((a) => `d${a}`).join(',')}${this.geojsonInput ? ',a_id,b_id' : ''},kind\n`);
      this.dim = dim;
    } else if (this.format === 'geojson') {
      if (dim !== 2 && dim !== 3) throw new CommandError(`GeoJSON output needs 2D or 3D coordinates (the input has ${dim})`);
      this.write('{"type":"FeatureCollection","features":[');
    }
    this.dim = dim;
  }

  private dim = 0;

  /**
   * Writes the contacts `r` among `store`'s chains; chain k of the store is chain `chainBase + k`
   * of the input. `drain` is awaited every 1,024 contacts (backpressure).
   * @throws CommandError when a number to write is not finite.
   */
  contacts(r: MultiChainContacts, store: ChainCoords, chainBase: number, drain: () => Promise<void>): Promise<void> | undefined {
    if (r.count === 0) return undefined;
    const dim = store.dim;
    if (this.started && dim !== this.dim) {
      throw new InputError(`a feature has ${dim} coordinates after contacts with ${this.dim} were written (mixed 2D and 3D need --between or one dimension throughout)`);
    }
    this.begin(dim);
    return this.loop(r, store, chainBase, drain);
  }

  private async loop(r: MultiChainContacts, store: ChainCoords, chainBase: number, drain: () => Promise<void>): Promise<void> {
    const format = this.format;
    if (format === 'geojson') {
      this.geo ??= new GeojsonContactWriter(this.writeBytes ?? this.write, this.thickness, this.featureA, this.featureB, this.writeBytes !== undefined);
      return this.geo.contacts(r, store, chainBase, drain);
    }
    const dim = store.dim;
    const { c, d, cs, ds } = this;
    const feature = store.feature, at = this.at;
    /** c and d as text (d reuses c's text where they are equal, as at a shared point). */
    const points = (): void => {
      for (let q = 0; q < dim; q++) {
        cs[q] = fin(c[q], 'point');
        ds[q] = d[q] === c[q] && !Object.is(d[q], -0) ? cs[q] : fin(d[q], 'point');
      }
    };
    for (let k = 0; k < r.count; k++) {
      const ci = r.chainI[k], cj = r.chainJ[k];
      const i = r.i[k], j = r.j[k], s = r.s[k], t = r.t[k], dist = r.distance[k];
      // Each chain lies in one array (the two may differ).
      const da = store.segment(ci, i, at);
      const ia = at[0], ib = at[1];
      const db = store.segment(cj, j, at);
      const ja = at[0], jb = at[1];
      pointInto(da, ia, ib, s, dim, c);
      pointInto(db, ja, jb, t, dim, d);
      const fa = feature[ci] < 0 ? undefined : feature[ci], fb = feature[cj] < 0 ? undefined : feature[cj];
      const distance = dist === 0 ? '0' : fin(dist, 'distance');
      const kind = da === db ? kindOf(da, dim, ia, ib, ja, jb, this.thickness === 0, dist) : kindOf(pairOf(da, ia, ib, db, ja, jb, dim), dim, 0, dim, 2 * dim, 3 * dim, this.thickness === 0, dist);
      if (format === 'csv') {
        points();
        let line = `${chainBase + ci},${i},${chainBase + cj},${j},${distance},${param(s)},${param(t)},${cs.join(',')},${ds.join(',')}`;
        if (this.geojsonInput) line += `,${fa === undefined ? '' : this.featureCsv.get(fa) ?? ''},${fb === undefined ? '' : this.featureCsv.get(fb) ?? ''}`;
        this.write(`${line},${kind}\n`);
      } else {
        points();
        let line = `{"chainI":${chainBase + ci},"i":${i},"chainJ":${chainBase + cj},"j":${j},"distance":${distance},"s":${param(s)},"t":${param(t)},"c":[${cs.join(',')}],"d":[${ds.join(',')}],"kind":"${kind}"`;
        if (fa !== undefined) line += this.featureA.get(fa) ?? '';
        if (fb !== undefined) line += this.featureB.get(fb) ?? '';
        this.write(line + '}\n');
      }
      this.written++;
      if ((k & 1023) === 1023) await drain();
    }
  }

  /** Contacts written so far. */
  get count(): number {
    return this.written + (this.geo?.written ?? 0);
  }

  /** Ends the output (an empty input gets the CSV header alone, nothing in NDJSON, an empty FeatureCollection). */
  end(dim: number): void {
    this.begin(dim === 0 ? 2 : dim);
    if (this.format === 'geojson') this.write(this.count > 0 ? '\n]}\n' : ']}\n');
  }
}

/** Contacts per batch handed to the writer by the merge of the tiles. */
const BATCH = 1 << 14;

/**
 * The search of several chains with contacts between them (all of them, or with `--tile` that
 * tile's, as tileContacts reports them), one tile (or sub-tile) at a time (tiles.ts,
 * contactsInTiles): the working memory is one tile's, and the contacts found are held in typed
 * arrays (40 bytes each) up to `plan.held`, the rest in a temporary file, until the tiles are
 * merged into the writer in order.
 */
function searchBetween(store: CoordStore, opts: ChainCliOptions, plan: TilePlan): TileContacts[] {
  const dim = store.dim || 2;
  // The readers admit finite numbers only; checked again here, as the library checks its input.
  for (let k = 0; k < store.count; k++) {
    const f = store.chain(k);
    for (let q = 0; q < f.length; q++) {
      if (f[q] - f[q] !== 0) throw new InputError(`chain ${k}: vertex ${Math.floor(q / dim)} coordinate ${q % dim} is not a finite number (got ${String(f[q])})`);
    }
  }
  return contactsInTiles(store.count, (k) => store.chain(k), dim, opts.thickness, opts.closed, plan);
}

/**
 * The search: one large chain over threads, a tile, or multiChainContacts. `chainBase`: the
 * input's number of the store's first chain (for messages, when the store holds one batch).
 */
async function search(store: CoordStore, opts: ChainCliOptions, between: boolean, chainBase = 0): Promise<MultiChainContacts> {
  const dim = store.dim || 2;
  const flats = Array.from({ length: store.count }, (_, k) => store.chain(k));
  try {
    if (opts.tile !== undefined) {
      for (let k = 0; k < flats.length; k++) {
        const f = flats[k];
        for (let q = 0; q < f.length; q++) if (f[q] - f[q] !== 0) throw new SkewlineInputError(`chains[${k}]: not a finite number`);
      }
      return tileContacts(flats, dim, opts.thickness, opts.closed, between, opts.tile);
    }
    if (flats.length === 1) {
      // One chain: read in place (multiChainContacts would copy it), over threads when large.
      const o = { dim, thickness: opts.thickness, closed: opts.closed };
      const r = opts.threads > 1 && store.vertices > PARALLEL_FROM ? await chainContactsParallel(flats[0], { ...o, threads: opts.threads }) : chainContacts(flats[0], o);
      return { ...r, chainI: new Int32Array(r.count), chainJ: new Int32Array(r.count) };
    }
    return multiChainContacts(flats, { dim, thickness: opts.thickness, closed: opts.closed, between });
  } catch (e) {
    if (e instanceof SkewlineInputError) throw new InputError(e.message.replace(/^chains\[(\d+)\]/, (_, k: string) => `chain ${chainBase + Number(k)}`));
    throw e;
  }
}

/**
 * What the runs did, for the tests: `twoPass`, runs of `--tile` in two passes (a file read
 * twice, or standard input copied and its copy read); `spooled`, those of them that read
 * standard input; `fellBack`, runs of `--tile` whose first pass met a second chain with
 * `--between` and went on with the whole input; `kept`, the coordinates (numbers) the second
 * passes kept, summed over their batches.
 */
export const chainCounters = { twoPass: 0, spooled: 0, fellBack: 0, kept: 0 };

/** Is `path` a regular file (one that can be read twice)? */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * `--tile` in two passes (cli/tile-stream.ts): `chunks` (the input, opened and sniffed) gives
 * the bounding box, then `again()` reads it again (the file, or the copy of standard input that
 * the first pass wrote), keeping each chain's segments that reach the tile, searched (in
 * sub-tiles, their contacts held or spilled as `opts.tiles` says) and written a batch of chains
 * at a time — the bytes of tileContacts' result through the writer.
 * Every input error is met in the first pass, before anything is written. Resolves to the
 * vertices read and the input's dimension.
 * @throws TooManyChains (from the first pass) when a second chain begins and contacts between
 *   chains are asked for: the caller reads the whole input instead.
 */
async function streamTile(
  again: () => Promise<AsyncIterable<unknown>>,
  geojson: boolean,
  chunks: AsyncIterable<Buffer>,
  opts: ChainCliOptions,
  tile: Tile,
  writer: ContactWriter,
  drain: () => Promise<void>,
  onChunk: (n: number) => void,
  onSecondPass: () => void,
  spill: Spill,
): Promise<{ vertices: number; dim: number }> {
  const scan = new BoxScan(opts.between ? 1 : Infinity);
  if (geojson) await readGeojson(chunks, scan, onChunk, { features: () => {}, stream: opts.coordsStream !== false }); // (with a listener, the reader keeps no list of features)
  else await readCsv(chunks, scan, onChunk);
  // The readers admit finite numbers only; checked again, with the message of the whole read's search.
  if (scan.bad >= 0) throw new InputError(`chain ${scan.bad}: not a finite number`);
  const { lo, hi } = scan.box();
  const runs = new TileRuns(scan.dim, opts.thickness, opts.closed, tileGrid(lo, hi, tile), lo, hi, { ...opts.tiles, spill });
  let chainBase = 0;
  const flush = async (): Promise<void> => {
    await runs.write(BATCH, (batch) => writer.contacts(batch, runs, chainBase, drain));
    chainBase += runs.count;
    chainCounters.kept += runs.numbers;
    runs.clear();
  };
  onSecondPass();
  const second = (await sniff(await again())).chunks;
  if (geojson) {
    await readGeojson(second, runs, onChunk, {
      stream: opts.coordsStream !== false,
      features: async (list: ReadFeature[]) => {
        for (const q of list) writer.feature(q.index, q.info);
        if (runs.open) return;
        await flush();
        for (const q of list) writer.forget(q.index);
        await drain();
      },
    });
  } else {
    await readCsv(second, runs, onChunk, async () => {
      await flush();
      await drain();
    });
  }
  await flush();
  return { vertices: scan.vertices, dim: scan.dim };
}

/**
 * Runs the command; resolves to the exit code (0 or 1). Messages go to `io.stderr`.
 * @param bundled the bundled example used when no file is given and nothing is piped.
 */
export async function runChain(opts: ChainCliOptions, io: Io, bundled: string): Promise<number> {
  const started = process.hrtime.bigint();
  const opened = await openRun(opts.file, opts.output, io, bundled, 'coastline.geojson (bundled)');
  if (typeof opened === 'number') return opened;
  const { path, shown, size, sink, unhook } = opened;
  const showBar = opts.progress ?? (io.stderr.isTTY === true && size !== undefined);
  const status = new Status(showBar ? io.stderr : undefined, size);
  let bytes = 0;
  let chainsRead = 0;
  let streamed: ContactWriter | undefined;
  let vertices = 0;
  let contacts: number;
  const store = new CoordStore();
  const spill = new Spill();
  const spool = new Spool(opts.spoolDir);
  try {
    const raw = path === undefined ? io.stdin : createReadStream(path, { highWaterMark: 1 << 16 });
    const onChunk = (n: number): void => {
      bytes += n;
      status.reading(bytes, chainsRead + store.count, streamed?.count);
    };
    let sniffed = await sniff(raw as AsyncIterable<unknown>);
    const format = opts.input ?? (path !== undefined ? formatFromName(path) : undefined) ?? sniffed.kind ?? 'csv';
    const geojson = format === 'geojson';
    const outFormat = opts.format ?? (geojson ? 'geojson' : 'csv');
    const writer = new ContactWriter(outFormat, geojson, opts.thickness, (t) => sink.write(t), (b) => sink.writeBytes(b));
    const drain = (): Promise<void> => sink.drain();
    // `--tile` with one chain, or without contacts between chains: two passes, the second keeping the tile's segments only.
    // A file is read twice; anything else (standard input, a pipe, a FIFO) is copied to a temporary file as the first pass reads it.
    let tiledStream: { vertices: number; dim: number } | undefined;
    if (opts.tile !== undefined && opts.tileStream !== false) {
      const file = path !== undefined && isFile(path) ? path : undefined;
      const again = file !== undefined
        ? () => Promise.resolve(createReadStream(file, { highWaterMark: 1 << 16 }) as AsyncIterable<unknown>)
        : async () => {
          await spool.finish();
          return spool.reread();
        };
      try {
        chainCounters.twoPass++;
        if (file === undefined) chainCounters.spooled++;
        tiledStream = await streamTile(again, geojson, file !== undefined ? sniffed.chunks : spool.tee(sniffed.chunks), opts, opts.tile, writer, drain, (n) => {
          bytes += n;
          status.reading(bytes, 0, writer.count);
        }, () => {
          bytes = 0; // the second pass: the bar starts again
        }, spill);
      } catch (e) {
        if (!(e instanceof TooManyChains)) throw e;
        chainCounters.fellBack++;
        // Several chains with contacts between them: the whole input, as below (read again: the
        // file, or what the copy holds followed by the rest of the pipe).
        bytes = 0;
        if (file !== undefined) {
          (raw as ReadStream).destroy();
          sniffed = await sniff(createReadStream(file, { highWaterMark: 1 << 16 }) as AsyncIterable<unknown>);
        } else sniffed = { kind: sniffed.kind, chunks: spool.replay() };
      }
    }
    // Without contacts between chains, each batch of GeoJSON features or of complete CSV chains is searched and written as it is read.
    const streaming = !opts.between && opts.tile === undefined && (geojson || opts.csvStream !== false);
    if (streaming) streamed = writer;
    let chainBase = 0;
    /** Searches and writes the store's chains (the input's chains chainBase, chainBase + 1, …), then clears the store. */
    const flush = async (): Promise<void> => {
      vertices += store.vertices;
      const r = await search(store, opts, false, chainBase);
      await writer.contacts(r, store, chainBase, drain);
      chainBase += store.count;
      chainsRead = chainBase;
      store.clear();
    };
    if (tiledStream !== undefined) {
      vertices = tiledStream.vertices;
    } else if (geojson) {
      await readGeojson(sniffed.chunks, store, onChunk, {
        stream: opts.coordsStream !== false,
        features: async (list: ReadFeature[]) => {
          for (const q of list) writer.feature(q.index, q.info);
          if (!streaming || store.open) return;
          await flush();
          for (const q of list) writer.forget(q.index);
          await sink.drain();
        },
      });
    } else {
      const complete = async (): Promise<void> => {
        await flush();
        await sink.drain();
      };
      await readCsv(sniffed.chunks, store, onChunk, streaming ? complete : undefined, opts.csvStream === false ? undefined : opts.csvStream?.batch);
    }
    if (tiledStream !== undefined) {
      // written as it was read
    } else if (streaming) {
      await flush(); // the last batch
    } else {
      vertices = store.vertices;
      const done = status.busy(`searching ${vertices.toLocaleString('en')} vertices in ${store.count.toLocaleString('en')} chains`);
      // Several chains with contacts between them (all, or one --tile's): searched tile by tile, merged as written.
      const tiled = opts.between && store.count > 1;
      let lists: TileContacts[];
      try {
        if (tiled) lists = searchBetween(store, opts, { ...opts.tiles, spill, ...(opts.tile === undefined ? {} : { within: opts.tile }) });
        else {
          const r = await search(store, opts, opts.between);
          lists = [{ count: r.count, read: () => r }];
        }
      } finally {
        done();
      }
      releaseChainMemory(); // the search's working memory, before the writing
      const found = lists.reduce((n, r) => n + r.count, 0);
      status.show(`found ${found.toLocaleString('en')} contacts`, true);
      const writing = (force: boolean): void => status.show(`writing ${writer.count.toLocaleString('en')}/${found.toLocaleString('en')} contacts`, force);
      writing(true);
      const drainWriting = async (): Promise<void> => {
        writing(false);
        await sink.drain();
      };
      if (!tiled) await writer.contacts(lists[0].read(0, lists[0].count), store, 0, drainWriting);
      else await mergeTiles(lists, BATCH, (batch) => writer.contacts(batch, store, 0, drainWriting));
      writing(true);
    }
    spill.close();
    spool.close();
    contacts = writer.count;
    writer.end(tiledStream?.dim ?? store.dim);
    status.stop();
    await sink.commit();
  } catch (e) {
    spill.close();
    spool.close();
    status.stop();
    await sink.abortAsync();
    unhook();
    if (e instanceof JsonSyntaxError) {
      io.stderr.write(`skewline: ${shown}:${e.line}:${e.column}: ${e.what}\n`);
      return 1;
    }
    return failure(e, shown, shown, io);
  }
  unhook();
  if (opts.stats) {
    const secs = Number(process.hrtime.bigint() - started) / 1e9;
    const rss = process.resourceUsage().maxRSS / 1024;
    io.stderr.write(`skewline: ${vertices} vertices, ${contacts} contacts in ${secs.toFixed(3)} s, peak RSS ${rss.toFixed(1)} MiB\n`);
  }
  return 0;
}
