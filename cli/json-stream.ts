/**
 * An incremental JSON reader over byte chunks, for inputs of any size: a FeatureCollection
 * written on one line of gigabytes, or a sequence of JSON texts (newline-delimited features, and
 * RFC 7464 / RFC 8142 GeoJSON text sequences, whose records start with the RS byte 0x1E).
 *
 * It never holds the whole text: bytes are scanned as they arrive, and only an unfinished token
 * (a number or a string cut by a chunk boundary) is carried to the next chunk. Values are built
 * as plain JS values, except that the elements of two kinds of arrays are handed over one by one
 * and not kept: the `features` array of a top-level object, and a top-level array. So memory is
 * bounded by the largest feature (or position), not by the file. And when the sink asks for it
 * ({@link JsonSink.coordinates}), a feature's `coordinates` array is handed over a number at a
 * time too (events for each nested array's start and end), so that a feature of millions of
 * positions is never built as JS arrays.
 *
 * The grammar is RFC 8259's, checked byte by byte; a byte-order mark at the start is skipped,
 * CR and RS count as whitespace between values. Errors give the 1-based line and byte column
 * and what was expected: `3:17: expected ',' or ']' (got 'x')`.
 */

/** A syntax error, with where it happened (1-based line, 1-based byte column, 0-based byte offset). */
export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
  constructor(
    readonly line: number,
    readonly column: number,
    readonly offset: number,
    readonly what: string,
  ) {
    super(`${line}:${column}: ${what}`);
  }
}

/** What the reader hands over. */
export interface JsonSink {
  /** One element of a top-level object's `features` array (`path` is e.g. `features[12]`) or of a top-level array (`[12]`). */
  item(value: unknown, index: number, inFeatures: boolean, line: number): void;
  /** A complete top-level value (its streamed array, if any, left empty); `index` counts top-level values from 0. */
  top(value: unknown, index: number, line: number): void;
  /**
   * Called when a `coordinates` array opens in an item or a top-level value (an object): as the
   * item's own member (`item.coordinates`, `geometry` undefined) or as its `geometry` member's
   * (`item.geometry.coordinates`). Both objects hold the members read so far. Returning a
   * {@link CoordsSink} streams the array to it, and the member is set to {@link STREAMED};
   * returning undefined builds the array as usual. `index` is the item's index in its streamed
   * array (−1 for a top-level value), `line` the line where the item started.
   */
  coordinates?(item: Record<string, unknown>, geometry: Record<string, unknown> | undefined, index: number, inFeatures: boolean, line: number): CoordsSink | undefined;
}

/**
 * Receives a streamed `coordinates` array (see {@link JsonSink.coordinates}). Depth 0 is the
 * `coordinates` array itself; an array nested deeper than {@link CoordsSink.depth}, and any
 * object, is built whole and handed to {@link CoordsSink.value} as one element.
 */
export interface CoordsSink {
  /** The deepest array streamed (say 1 for a LineString's positions). */
  readonly depth: number;
  /** An array at `depth` opens (for depth > 0, as the next element of the array at depth − 1). */
  open(depth: number): void;
  /** A number: the next element of the innermost open array. */
  num(x: number): void;
  /** Another value (a string, true, false, null, an object, or an array deeper than `depth`): the next element of the innermost open array. */
  value(v: unknown): void;
  /** The innermost open array, at `depth`, closes. */
  close(depth: number): void;
}

/** What a streamed `coordinates` member holds in the object built (its numbers went to the {@link CoordsSink}). */
export const STREAMED: readonly unknown[] = Object.freeze([]);

/** Test hook: arrays built as JS arrays (not streamed) since the module was loaded. */
export const jsonCounters = { arrays: 0 };

/** Deepest nesting accepted (GeoJSON needs 6 levels; a deeper text is almost surely not GeoJSON, and the values built from it would be recursed into later). */
export const MAX_DEPTH = 1000;

/** Longest single token (a string or a number) accepted: a guard against unterminated strings. */
export const MAX_TOKEN = 64 << 20;

const enum S {
  /** A value must come next. */
  Value,
  /** A value or ']' (just after '['). */
  FirstItem,
  /** ',' or the container's close. */
  After,
  /** A key or '}' (just after '{'). */
  FirstKey,
  /** A key (after ','). */
  Key,
  /** ':' after a key. */
  Colon,
  /** Between top-level values. */
  Top,
}

interface Frame {
  array: boolean;
  /** The array or object being built; null for a streamed array (its items are handed over). */
  value: unknown[] | Record<string, unknown> | null;
  key: string;
  /** Items handed over so far (streamed arrays), or the items' count. */
  count: number;
  inFeatures: boolean;
  /** For an array of a streamed `coordinates` member: its depth (0: the member itself); −1 otherwise. */
  coords: number;
}

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The incremental reader; call {@link push} with each chunk, then {@link end}. */
export class JsonStream {
  private state: S = S.Top;
  /** The open containers, frames[0] … frames[depth − 1] (frame objects reused: opening an array allocates nothing). */
  private readonly frames: Frame[] = [];
  private depth = 0;
  private carry: Buffer | null = null;
  /** Byte offset of the current buffer's first byte. */
  private base = 0;
  private line = 1;
  /** Byte offset where the current line starts. */
  private lineStart = 0;
  private tops = 0;
  private started = false;
  /** The line where the current top-level value, or streamed item, started. */
  private itemLine = 1;
  /** The last string scanned by stringEnd had a backslash escape. */
  private escaped = false;
  /** Index in `frames` of the object being read as an item or a top-level value, or −1. */
  private itemAt = -1;
  /** Where a streamed `coordinates` member goes, while one is open. */
  private cs: CoordsSink | undefined;

  constructor(private readonly sink: JsonSink) {}

  /** Reads one chunk. @throws JsonSyntaxError */
  push(chunk: Buffer): void {
    let buf = chunk;
    if (this.carry !== null) {
      buf = Buffer.concat([this.carry, chunk]);
      this.base -= this.carry.length;
      this.carry = null;
    }
    if (!this.started) {
      if (buf.length < 3 && buf.length > 0 && buf[0] === 0xef) {
        this.carry = buf; // maybe a byte-order mark cut short
        return;
      }
      this.started = buf.length > 0;
      if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
        buf = buf.subarray(3);
        this.base += 3;
        this.lineStart = 3;
      }
    }
    const stop = this.scan(buf, false);
    if (stop < buf.length) {
      if (buf.length - stop > MAX_TOKEN) this.fail(stop, `a token longer than ${MAX_TOKEN >> 20} MiB (an unterminated string?)`);
      this.carry = Buffer.from(buf.subarray(stop));
    }
    this.base += buf.length;
  }

  /** Ends the input. @throws JsonSyntaxError when a value is unfinished. */
  end(): void {
    const buf = this.carry ?? Buffer.alloc(0);
    if (this.carry !== null) this.base -= this.carry.length;
    this.carry = null;
    this.scan(buf, true);
    this.base += buf.length;
    if (this.state !== S.Top) this.fail(0, `expected ${this.expected()} (got the end of the input)`);
  }

  private fail(at: number, what: string): never {
    const offset = this.base + at;
    throw new JsonSyntaxError(this.line, offset - this.lineStart + 1, offset, what);
  }

  private expected(): string {
    const f = this.frames[this.depth - 1];
    switch (this.state) {
      case S.Value:
        return 'a value';
      case S.FirstItem:
        return "a value or ']'";
      case S.After:
        return f.array ? "',' or ']'" : "',' or '}'";
      case S.FirstKey:
        return "a string key or '}'";
      case S.Key:
        return 'a string key';
      case S.Colon:
        return "':'";
      default:
        return 'a value';
    }
  }

  private got(buf: Buffer, at: number): string {
    const c = buf[at];
    if (c >= 0x20 && c < 0x7f) return `'${String.fromCharCode(c)}'`;
    return `byte 0x${c.toString(16).padStart(2, '0')}`;
  }

  /** Hands a finished value to its container (or to the sink). */
  private put(value: unknown): void {
    const f = this.frames[this.depth - 1];
    if (f === undefined) {
      this.sink.top(value, this.tops++, this.itemLine);
      this.state = S.Top;
      return;
    }
    if (f.array) {
      if (f.coords >= 0) this.cs!.value(value);
      else if (f.value === null) this.sink.item(value, f.count, f.inFeatures, this.itemLine);
      else (f.value as unknown[]).push(value);
      f.count++;
    } else {
      (f.value as Record<string, unknown>)[f.key] = value;
    }
    this.state = S.After;
  }

  /** Scans from 0; returns where an unfinished token starts (or buf.length). */
  private scan(buf: Buffer, last: boolean): number {
    const n = buf.length;
    let i = 0;
    while (i < n) {
      const c = buf[i];
      // Whitespace (RS only between top-level values).
      if (c === 0x20 || c === 0x09 || c === 0x0d) {
        i++;
        continue;
      }
      if (c === 0x0a) {
        i++;
        this.line++;
        this.lineStart = this.base + i;
        continue;
      }
      if (c === 0x1e && this.state === S.Top) {
        i++;
        continue;
      }
      const st = this.state;
      if (st === S.After) {
        const f = this.frames[this.depth - 1];
        if (c === 0x2c) {
          this.state = f.array ? S.Value : S.Key;
          i++;
          continue;
        }
        if (c === (f.array ? 0x5d : 0x7d)) {
          i++;
          this.close();
          continue;
        }
        this.fail(i, `expected ${this.expected()} (got ${this.got(buf, i)})`);
      }
      if (st === S.Colon) {
        if (c !== 0x3a) this.fail(i, `expected ':' (got ${this.got(buf, i)})`);
        this.state = S.Value;
        i++;
        continue;
      }
      if (st === S.FirstKey || st === S.Key) {
        if (c === 0x7d && st === S.FirstKey) {
          i++;
          this.close();
          continue;
        }
        if (c !== 0x22) this.fail(i, `expected ${this.expected()} (got ${this.got(buf, i)})`);
        const e = this.stringEnd(buf, i, last);
        if (e < 0) return i;
        this.frames[this.depth - 1].key = this.stringValue(buf, i, e);
        this.state = S.Colon;
        i = e + 1;
        continue;
      }
      // A value is expected (Value, FirstItem, Top).
      if (c === 0x5d && st === S.FirstItem) {
        i++;
        this.close();
        continue;
      }
      const item = this.depth === 0 || this.streamedHere();
      if (item) this.itemLine = this.line;
      if (c === 0x7b || c === 0x5b) {
        if (this.depth >= MAX_DEPTH) this.fail(i, `nested deeper than ${MAX_DEPTH} levels`);
        const array = c === 0x5b;
        const parent = this.depth > 0 ? this.frames[this.depth - 1] : undefined;
        i++;
        if (!array) {
          if (item) this.itemAt = this.depth;
          this.open(false, {}, false, -1);
          this.state = S.FirstKey;
          continue;
        }
        this.state = S.FirstItem;
        // A streamed `coordinates` member: its nested arrays down to the sink's depth.
        if (parent !== undefined && parent.coords >= 0 && parent.coords < this.cs!.depth) {
          const depth = parent.coords + 1;
          this.open(true, null, false, depth);
          this.cs!.open(depth);
          continue;
        }
        if (parent !== undefined && !parent.array && parent.key === 'coordinates' && this.startCoordinates()) continue;
        // Streamed: the `features` array of a top-level object, or a top-level array.
        const inFeatures = parent !== undefined && this.depth === 1 && !parent.array && parent.key === 'features';
        const streamed = parent === undefined || inFeatures;
        if (!streamed) jsonCounters.arrays++;
        this.open(true, streamed ? null : [], inFeatures, -1);
        continue;
      }
      if (c === 0x22) {
        const e = this.stringEnd(buf, i, last);
        if (e < 0) return i;
        const s = this.stringValue(buf, i, e);
        i = e + 1;
        this.put(s);
        continue;
      }
      if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        let e = i + 1;
        while (e < n) {
          const d = buf[e];
          if ((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) e++;
          else break;
        }
        if (e === n && !last) return i;
        const text = buf.toString('latin1', i, e);
        if (!NUMBER.test(text)) this.fail(i, `not a JSON number ('${text}')`);
        const x = Number(text);
        if (!Number.isFinite(x)) this.fail(i, `a number too large for a double ('${text}')`);
        i = e;
        if (this.cs !== undefined && this.frames[this.depth - 1].coords >= 0) {
          this.cs.num(x);
          this.state = S.After;
        } else this.put(x);
        continue;
      }
      if (c === 0x74 || c === 0x66 || c === 0x6e) {
        const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
        if (i + word.length > n && !last) return i;
        if (buf.toString('latin1', i, i + word.length) !== word) this.fail(i, `expected ${this.expected()} (got ${this.got(buf, i)})`);
        i += word.length;
        this.put(c === 0x74 ? true : c === 0x66 ? false : null);
        continue;
      }
      this.fail(i, `expected ${st === S.Top ? 'a JSON value' : this.expected()} (got ${this.got(buf, i)})`);
    }
    return n;
  }

  /** Whether the innermost container is a streamed array of items (its next value is an item). */
  private streamedHere(): boolean {
    const f = this.frames[this.depth - 1];
    return f.array && f.value === null && f.coords < 0;
  }

  /**
   * A `coordinates` array opens in the innermost object: streams it (and returns true) when that
   * object is the item being read, or its `geometry` member, and the sink asks for it.
   */
  private startCoordinates(): boolean {
    const at = this.itemAt, p = this.depth - 1;
    if (this.cs !== undefined || this.sink.coordinates === undefined || at < 0) return false;
    let geometry: Record<string, unknown> | undefined;
    if (p === at + 1 && this.frames[at].key === 'geometry') geometry = this.frames[p].value as Record<string, unknown>;
    else if (p !== at) return false;
    const list = at > 0 ? this.frames[at - 1] : undefined;
    const cs = this.sink.coordinates(this.frames[at].value as Record<string, unknown>, geometry, list === undefined ? -1 : list.count, list?.inFeatures ?? false, this.itemLine);
    if (cs === undefined) return false;
    this.cs = cs;
    this.open(true, null, false, 0);
    cs.open(0);
    return true;
  }

  /** Pushes a frame (reusing the object last at this depth). */
  private open(array: boolean, value: unknown[] | Record<string, unknown> | null, inFeatures: boolean, coords: number): void {
    let f = this.frames[this.depth];
    if (f === undefined) {
      f = { array, value, key: '', count: 0, inFeatures, coords };
      this.frames.push(f);
    } else {
      f.array = array;
      f.value = value;
      f.key = '';
      f.count = 0;
      f.inFeatures = inFeatures;
      f.coords = coords;
    }
    this.depth++;
  }

  private close(): void {
    const f = this.frames[--this.depth];
    if (f.coords >= 0) {
      this.cs!.close(f.coords);
      if (f.coords > 0) {
        this.state = S.After;
        return;
      }
      this.cs = undefined;
      this.put(STREAMED);
      return;
    }
    if (this.depth === this.itemAt) this.itemAt = -1;
    const value = f.value;
    f.value = null; // (the frame is kept for reuse: not what it built)
    this.put(value ?? []);
  }

  /** Index of the closing quote of the string opening at `at`, or −1 if the buffer ends first. */
  private stringEnd(buf: Buffer, at: number, last: boolean): number {
    const n = buf.length;
    this.escaped = false;
    for (let i = at + 1; i < n; i++) {
      const c = buf[i];
      if (c === 0x22) return i;
      if (c === 0x5c) {
        this.escaped = true;
        i++;
        continue;
      }
      if (c < 0x20) this.fail(i, c === 0x0a ? 'a string runs to the end of the line (missing \'"\')' : `a control character in a string (byte 0x${c.toString(16).padStart(2, '0')})`);
    }
    if (last) this.fail(n, 'a string is not closed (missing \'"\')');
    return -1;
  }

  private stringValue(buf: Buffer, at: number, end: number): string {
    if (!this.escaped) return buf.toString('utf8', at + 1, end);
    try {
      return JSON.parse(buf.toString('utf8', at, end + 1)) as string;
    } catch {
      return this.fail(at, 'a bad escape in a string');
    }
  }
}
