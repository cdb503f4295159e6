/**
 * `skewline chain --format geojson`: contacts written as GeoJSON features, straight into bytes.
 *
 * The text is exactly what the string-building writer gave (the tests compare them byte for
 * byte): each feature is written into one large buffer — the fixed parts copied from bytes
 * encoded once, the numbers by {@link writeShortest} (String(x)'s text without the string), the
 * per-chain labels and per-feature properties encoded once per batch — and the buffer goes to
 * the output as one string per 64 KiB. In 2D at thickness 0 a contact's exact kind and its exact
 * meeting point come from one evaluation of the four orientation signs ({@link meet2}).
 */
import type { MultiChainContacts } from '../src/index.js';
import { CONTACT_KIND_NAMES, NO_CONTACT, OVERLAP } from '../src/chain/classify.js';
import { kindOf, pairOf, pointOn } from './chain.js';
import { meet2, MEET2 } from './crossing.js';
import type { ChainCoords } from './geojson-stream.js';
import { CommandError } from './run-rows.js';
import { writeShortest } from './shortest.js';

/** A segment's two vertex offsets (module scratch). */
const AT = [0, 0];

/** The buffer is handed to the output once it holds this many bytes. */
const CHUNK = 1 << 14;
/** Room for one feature's fixed parts and numbers (labels and properties are added to it). */
const FEATURE_ROOM = 1024;

// The fixed parts as bytes, joined where they meet so that a feature is few copies.
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const FEATURE = '\n{"type":"Feature","geometry":';
const POINT = '{"type":"Point","coordinates":[';
const LINE = '{"type":"LineString","coordinates":[[';
/** The start of a feature: [first Point, first LineString, later Point, later LineString]. */
const STARTS = [FEATURE + POINT, FEATURE + LINE, ',' + FEATURE + POINT, ',' + FEATURE + LINE].map(enc);
const POINT_END = enc(']}');
const LINE_MID = enc('],[');
const LINE_END = enc(']]}');
const S = enc(',"s":');
const T = enc(',"t":');
const END = enc('}}');
/** `},"kind":"…","distance":` for each kind name. */
const KIND = new Map<string, Uint8Array>(['near', ...CONTACT_KIND_NAMES].map((k) => [k, enc(`},"kind":"${k}","distance":`)]));
const KIND_BY_CODE = CONTACT_KIND_NAMES.map((k, code) => KIND.get(code === NO_CONTACT ? 'near' : k)!);

/** Per input feature, a text (a Map or any store with the same `get`). */
export interface FeatureTextsOf {
  get(index: number): string | undefined;
}

/** Text as bytes (UTF-8), and whether it is all ASCII. */
interface Encoded {
  bytes: Uint8Array;
  ascii: boolean;
}

/** A chain's two heads: `,"properties":{"a":{"chain":…,"segment":` and `},"b":{"chain":…,"segment":`. */
interface Heads {
  a: Uint8Array;
  b: Uint8Array;
}

/**
 * Writes contacts as GeoJSON features (the part of {@link ContactWriter} for `--format geojson`).
 * Not re-entrant: one run at a time per instance (module scratch in the number writer and the
 * meeting point).
 */
export class GeojsonContactWriter {
  /** Features written so far. */
  written = 0;
  private buf: Uint8Array = Buffer.allocUnsafe(CHUNK + FEATURE_ROOM);
  private pos = 0;
  private ascii = true;
  /** The encoded per-chain heads and per-feature properties, for the store and chain base they were made for. */
  private heads: (Heads | undefined)[] = [];
  private propsA = new Map<number, Encoded>();
  private propsB = new Map<number, Encoded>();
  private cacheStore: ChainCoords | undefined;
  private cacheBase = -1;
  private readonly c = [0, 0, 0];
  private readonly d = [0, 0, 0];

  /**
   * @param write receives the output, in order, a chunk at a time: as text when it is declared
   * to take a string (`bytes` false), else as bytes — a fresh Uint8Array each call, which the
   * callee owns (the writer fills a new one), so handing it to a stream costs no copy.
   * @param featureA, featureB per input feature: the JSON text `,"a_name":…,"a_id":…` of its
   * properties for the a and b side (read when its contacts are written).
   */
  constructor(
    private readonly write: ((text: string) => void) | ((chunk: Uint8Array) => void),
    private readonly thickness: number,
    private readonly featureA: FeatureTextsOf,
    private readonly featureB: FeatureTextsOf,
    private readonly bytes = false,
  ) {}

  /**
   * Writes the contacts `r` among `store`'s chains (2D or 3D); chain k of the store is chain
   * `chainBase + k` of the input. `drain` is awaited every 1,024 contacts (backpressure). All
   * the text is handed to `write` before the promise settles.
   * @throws CommandError when a number to write is not finite; the features before it are
   * written, nothing of it.
   */
  async contacts(r: MultiChainContacts, store: ChainCoords, chainBase: number, drain: () => Promise<void>): Promise<void> {
    const dim = store.dim;
    const exact = dim === 2 && this.thickness === 0;
    const feature = store.feature, at = AT;
    // Per chain and per feature caches, kept over the calls of one run (the tiled search writes a batch per call).
    if (this.cacheStore !== store || this.cacheBase !== chainBase || this.heads.length !== store.count) {
      this.cacheStore = store;
      this.cacheBase = chainBase;
      this.heads = new Array<Heads | undefined>(store.count);
      this.propsA = new Map<number, Encoded>();
      this.propsB = new Map<number, Encoded>();
    }
    const { heads, propsA, propsB } = this;
    const { c, d } = this;
    let start = this.pos;
    try {
      for (let k = 0; k < r.count; k++) {
        const ci = r.chainI[k], cj = r.chainJ[k];
        const i = r.i[k], j = r.j[k], s = r.s[k], t = r.t[k], dist = r.distance[k];
        let data = store.segment(ci, i, at);
        let ia = at[0], ib = at[1];
        const other = store.segment(cj, j, at);
        let ja = at[0], jb = at[1];
        // Two arrays (chains in two blocks of the store): the two segments side by side.
        if (other !== data) {
          data = pairOf(data, ia, ib, other, ja, jb, dim);
          ia = 0;
          ib = dim;
          ja = 2 * dim;
          jb = 3 * dim;
        }
        const ha = heads[ci] ?? (heads[ci] = headsOf(store, ci, chainBase + ci));
        const hb = heads[cj] ?? (heads[cj] = headsOf(store, cj, chainBase + cj));
        const fa = feature[ci] < 0 ? undefined : feature[ci], fb = feature[cj] < 0 ? undefined : feature[cj];
        const pa = fa === undefined ? undefined : propsA.get(fa) ?? cache(propsA, fa, this.featureA.get(fa));
        const pb = fb === undefined ? undefined : propsB.get(fb) ?? cache(propsB, fb, this.featureB.get(fb));
        if (this.pos > CHUNK) this.flush();
        this.room(FEATURE_ROOM + ha.a.length + hb.b.length + (pa?.bytes.length ?? 0) + (pb?.bytes.length ?? 0));
        start = this.pos;
        const buf = this.buf;
        const later = this.written > 0 ? 2 : 0;
        let p = start;
        let code = -1; // the kind's code where known here, else kindOf's name below
        if (exact && dist === 0) {
          code = meet2(data, ia, ib, data, ja, jb);
          if (code === OVERLAP) {
            p = put(buf, p, STARTS[later + 1]);
            p = fin(buf, p, MEET2[0], 'point');
            buf[p++] = 0x2c;
            p = fin(buf, p, MEET2[1], 'point');
            p = put(buf, p, LINE_MID);
            p = fin(buf, p, MEET2[2], 'point');
            buf[p++] = 0x2c;
            p = fin(buf, p, MEET2[3], 'point');
            p = put(buf, p, LINE_END);
          } else if (code !== NO_CONTACT) {
            p = put(buf, p, STARTS[later]);
            p = fin(buf, p, MEET2[0], 'point');
            buf[p++] = 0x2c;
            p = fin(buf, p, MEET2[1], 'point');
            p = put(buf, p, POINT_END);
          } else {
            pointInto(data, ia, ib, s, 2, c);
            p = put(buf, p, STARTS[later]);
            p = fin(buf, p, c[0], 'point');
            buf[p++] = 0x2c;
            p = fin(buf, p, c[1], 'point');
            p = put(buf, p, POINT_END);
          }
        } else {
          pointInto(data, ia, ib, s, dim, c);
          pointInto(data, ja, jb, t, dim, d);
          p = put(buf, p, STARTS[dist === 0 ? later : later + 1]);
          for (let q = 0; q < dim; q++) {
            if (q > 0) buf[p++] = 0x2c;
            p = fin(buf, p, c[q], 'point');
          }
          if (dist !== 0) {
            p = put(buf, p, LINE_MID);
            for (let q = 0; q < dim; q++) {
              if (q > 0) buf[p++] = 0x2c;
              // As the string writer did: d's text is c's where they are equal (−0 excepted).
              p = fin(buf, p, d[q] === c[q] && !Object.is(d[q], -0) ? c[q] : d[q], 'point');
            }
            p = put(buf, p, LINE_END);
          } else {
            p = put(buf, p, POINT_END);
          }
        }
        p = put(buf, p, ha.a);
        p = writeShortest(buf, p, i);
        p = put(buf, p, hb.b);
        p = writeShortest(buf, p, j);
        p = put(buf, p, code >= 0 ? KIND_BY_CODE[code] : kindBytes(kindOf(data, dim, ia, ib, ja, jb, this.thickness === 0, dist)));
        if (dist === 0) buf[p++] = 0x30;
        else p = fin(buf, p, dist, 'distance');
        p = put(buf, p, S);
        p = writeShortest(buf, p, s);
        p = put(buf, p, T);
        p = writeShortest(buf, p, t);
        if (pa !== undefined) {
          p = put(buf, p, pa.bytes);
          if (!pa.ascii) this.ascii = false;
        }
        if (pb !== undefined) {
          p = put(buf, p, pb.bytes);
          if (!pb.ascii) this.ascii = false;
        }
        p = put(buf, p, END);
        this.pos = p;
        this.written++;
        if ((k & 1023) === 1023) {
          this.flush();
          await drain();
        }
      }
    } catch (e) {
      this.pos = start; // drop the feature being written; the ones before it go out
      this.flush();
      throw e;
    }
    this.flush();
  }

  /** Hands the buffered text to `write`. */
  flush(): void {
    if (this.pos === 0) return;
    if (this.bytes) {
      (this.write as (chunk: Uint8Array) => void)(this.buf.subarray(0, this.pos));
      this.buf = Buffer.allocUnsafe(this.buf.length);
    } else {
      (this.write as (text: string) => void)((this.buf as Buffer).toString(this.ascii ? 'latin1' : 'utf8', 0, this.pos));
    }
    this.pos = 0;
    this.ascii = true;
  }

  /** Makes room for n more bytes (a feature is never split between chunks). */
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.pos + n));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }
}

/** Copies src into buf at p; returns the position after it. Short pieces by hand, long ones by memcpy (a call costs about as much as 16 bytes by hand). */
function put(buf: Uint8Array, p: number, src: Uint8Array): number {
  const n = src.length;
  if (n > 16) buf.set(src, p);
  else for (let i = 0; i < n; i++) buf[p + i] = src[i];
  return p + n;
}

/** `},"kind":"…","distance":` for a kind name. */
function kindBytes(kind: string): Uint8Array {
  const b = KIND.get(kind);
  if (b === undefined) throw new Error(`internal error: unknown contact kind ${kind}`);
  return b;
}

/** A finite number's text into buf at p (see writeShortest), else a CommandError naming what it is. */
function fin(buf: Uint8Array, p: number, x: number, what: string): number {
  if (x - x !== 0) throw new CommandError(`a contact's ${what} is not representable (${String(x)}): the input is too close to the top of the double range`);
  return writeShortest(buf, p, x);
}

/** A point on a segment of `data`, as the CSV and NDJSON output compute it (pointOn). */
function pointInto(f: Float64Array, a: number, b: number, s: number, dim: number, out: number[]): void {
  for (let k = 0; k < dim; k++) out[k] = pointOn(f[a + k], f[b + k], s);
}

function encode(text: string): Encoded {
  const bytes = enc(text);
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) ascii = false;
  return { bytes, ascii };
}

function cache(m: Map<number, Encoded>, key: number, text: string | undefined): Encoded | undefined {
  if (text === undefined) return undefined;
  const e = encode(text);
  m.set(key, e);
  return e;
}

/** A chain's heads (see {@link Heads}). */
function headsOf(store: ChainCoords, k: number, chainIndex: number): Heads {
  const label = labelOf(store, k, chainIndex);
  return { a: enc(`,"properties":{"a":{${label},"segment":`), b: enc(`},"b":{${label},"segment":`) };
}

/** Describes a chain for the GeoJSON output: `"chain":3,"feature":2,"ring":1`. */
function labelOf(store: ChainCoords, k: number, chainIndex: number): string {
  const w = store.whereOf(k);
  let text = `"chain":${chainIndex}`;
  if (w.feature !== undefined) text += `,"feature":${w.feature}`;
  if (w.part !== undefined) text += `,"part":${w.part}`;
  if (w.ring !== undefined) text += `,"ring":${w.ring}`;
  return text;
}
