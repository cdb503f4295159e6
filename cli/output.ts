/**
 * Output of the skewline commands: formatting result rows as CSV or NDJSON, and a buffered,
 * backpressure-aware sink that writes to stdout or to `-o FILE`.
 *
 * `-o` never destroys what it should not:
 * - a regular file (or a symlink to one) is replaced atomically: everything goes to a temporary
 *   file beside the real file, given the target's permissions, and renamed over it only when
 *   everything succeeded; the symlink itself stays;
 * - anything else that exists — a device such as /dev/null, a FIFO, /dev/stdout — is written
 *   through, never replaced;
 * - `-` is standard output;
 * - a read-only target, a directory, a missing folder and the input file itself are refused
 *   before any input is read.
 */
import { once } from 'node:events';
import { createWriteStream, lstatSync, readlinkSync, realpathSync, statSync, unlinkSync, type Stats, type WriteStream } from 'node:fs';
import { chmod, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { ClosestResult } from '../src/index.js';
import { InputError, axisNames } from './rows.js';

/** The output formats. */
export type OutputFormat = 'csv' | 'ndjson';

/** Formats result rows; one instance per run. */
export interface RowFormatter {
  /**
   * The header, when the layout is known before any row (CSV input): '' if the format has
   * none or it was already written. Otherwise the first {@link format} call writes it.
   */
  begin(dim: number, withName: boolean): string;
  /** The text for one result (ending in a newline), preceded by the header when it is the first. */
  format(name: string | undefined, dim: number, r: ClosestResult): string;
}

/**
 * A CSV field, quoted (RFC 4180) when it holds a comma or a quote, so it reads back.
 * @throws InputError for a field holding a line break (CR or LF): the CLI's contract is one
 * record per line, and RFC 4180 would spread it over two (NDJSON output holds any text).
 */
export function csvField(s: string): string {
  if (/[\r\n]/.test(s)) {
    throw new InputError(`the name ${JSON.stringify(s.length > 40 ? s.slice(0, 40) + '…' : s)} holds a line break, and CSV output keeps every record on one line (use --format ndjson)`);
  }
  return /[",]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * A number as the shortest text that reads back to the same double, keeping the sign of −0.
 * @throws InputError for Infinity and NaN, which no output format of the CLI writes (callers
 * that can name the field check with {@link finiteResult} first).
 */
export function num(x: number): string {
  if (x - x !== 0) throw new InputError(notRepresentable('a value', x));
  return Object.is(x, -0) ? '-0' : String(x);
}

/** The message for a result the output cannot hold. */
function notRepresentable(field: string, x: number): string {
  return `the result's ${field} is ${String(x)}, which no output format holds (the CLI writes finite numbers only)`;
}

/**
 * {@link finiteResult} for a closest-points result, without building an object per row.
 * @throws InputError naming the first field that is Infinity or NaN.
 */
export function finiteClosest(r: ClosestResult, csvNames: boolean): void {
  if (r.distance - r.distance === 0 && r.s - r.s === 0 && r.t - r.t === 0 && allFinite(r.c) && allFinite(r.d) && allFinite(r.p)) return;
  finiteResult({ distance: r.distance, c: r.c, d: r.d, p: r.p, s: r.s, t: r.t }, csvNames);
}

/** Whether every entry is a finite number. */
export function allFinite(v: ArrayLike<number>): boolean {
  for (let i = 0; i < v.length; i++) if (v[i] - v[i] !== 0) return false;
  return true;
}

/**
 * Checks that every number of a result is finite, so that CSV and NDJSON write the same row
 * (NDJSON would otherwise write `null` where CSV writes `Infinity`).
 * @param fields the result's numbers by field name: a number or a list of coordinates.
 * @param csvNames name a coordinate as its CSV column (`cx`, `cx5`) rather than as `c[0]`.
 * @throws InputError naming the first field that is Infinity or NaN, e.g. `the result's cx is Infinity …`
 * (the caller adds the file and line of the row).
 */
export function finiteResult(fields: Readonly<Record<string, number | ArrayLike<number>>>, csvNames = false): void {
  for (const key in fields) {
    const v = fields[key];
    if (typeof v === 'number') {
      if (v - v !== 0) throw new InputError(notRepresentable(key, v));
      continue;
    }
    for (let i = 0; i < v.length; i++) {
      if (v[i] - v[i] !== 0) throw new InputError(notRepresentable(!csvNames ? `${key}[${i}]` : key + axisNames(v.length)[i], v[i]));
    }
  }
}

/** Layout decisions a CSV formatter needs before the first row. */
export interface CsvOutputOptions {
  /**
   * The number of coordinate columns per point. Undefined: taken from the first row, and a
   * later row of another dimension is an error. Given: rows of a smaller dimension leave the
   * extra columns empty (used for the bundled examples, whose widest row is known).
   */
  width: number | undefined;
  /** Whether to write a leading `name` column. Undefined: decided by the first row. */
  name: boolean | undefined;
}

/**
 * CSV rows: `[name,]distance,cx,cy,…,dx,…,px,…,s,t,relation,unique`. Numbers are written with
 * `String(x)`, the shortest text that parses back to the same double.
 * @throws InputError (from `format`) when a row's dimension differs from the first row's and no
 * fixed width was given, or exceeds the fixed width.
 */
export function csvFormatter(opts: CsvOutputOptions): RowFormatter {
  let width = opts.width;
  let withName = opts.name;
  let headerDone = false;
  let pad = '';
  const header = (dim: number, name: boolean): string => {
    if (headerDone) return '';
    headerDone = true;
    width ??= dim;
    withName ??= name;
    const ax = axisNames(width);
    const cols = ['c', 'd', 'p'].flatMap((q) => ax.map((x) => q + x));
    return [...(withName ? ['name'] : []), 'distance', ...cols, 's', 't', 'relation', 'unique'].join(',') + '\n';
  };
  return {
    begin: header,
    format(name, dim, r) {
      finiteClosest(r, true);
      const out = header(dim, name !== undefined);
      if (dim !== width) {
        if (opts.width === undefined || dim > width!) {
          throw new InputError(
            `dimension ${dim} differs from the first row's ${width}; CSV output needs one dimension ` +
              `for all rows (use --format ndjson for mixed dimensions)`,
          );
        }
        pad = ','.repeat(width! - dim);
      } else pad = '';
      let line = withName ? csvField(name ?? '') + ',' : '';
      line += num(r.distance);
      for (const v of [r.c, r.d, r.p]) {
        for (let i = 0; i < dim; i++) line += ',' + num(v[i]);
        line += pad;
      }
      return out + line + `,${num(r.s)},${num(r.t)},${r.relation},${String(r.unique)}\n`;
    },
  };
}

/** NDJSON rows: `{"name"?,"distance","c","d","p","s","t","relation","unique"}`, shortest round-trip numbers. */
export function ndjsonFormatter(): RowFormatter {
  return {
    begin: () => '',
    format(name, _dim, r) {
      finiteClosest(r, false);
      const o = { distance: r.distance, c: r.c, d: r.d, p: r.p, s: r.s, t: r.t, relation: r.relation, unique: r.unique };
      return jsonLine(name === undefined ? o : { name, ...o });
    },
  };
}

/**
 * JSON text of one object plus a newline, on one line, with −0 written as -0 (JSON.stringify writes 0).
 * @throws InputError for a number that is Infinity or NaN (JSON.stringify would write `null`),
 * naming its key.
 */
export function jsonLine(o: object): string {
  return JSON.stringify(o, (k, v: unknown) => {
    if (typeof v !== 'number') return v;
    if (v - v !== 0) throw new InputError(notRepresentable(k === '' || /^\d+$/.test(k) ? 'value' : k, v));
    return Object.is(v, -0) ? NEG_ZERO : v;
  }).replaceAll(`"${NEG_ZERO}"`, '-0') + '\n';
}
const NEG_ZERO = '\uE000-0\uE000'; // a private-use character JSON.stringify leaves alone

/** A failure to write the output (a full disk, a lost device): the message names the output, not an input line. */
export class OutputError extends Error {
  override name = 'OutputError';
}

/** Thrown when stdout is closed by the reader (e.g. `| head`): the CLI stops quietly. */
export class BrokenPipe extends Error {
  override name = 'BrokenPipe';
}

const FLUSH_AT = 1 << 16;

/**
 * Where output goes. Text is buffered and written in chunks of about 64 KiB; {@link drain}
 * waits while the stream's buffer is full, so a fast producer cannot grow memory without bound.
 * For a file, everything goes to a temporary file beside the target (`.skewline-<name>-<pid>-<rand>.tmp`),
 * renamed over the target by {@link commit}; {@link abort} deletes it.
 */
export class OutputSink {
  private buffer = '';
  private full = false;
  private failure: Error | undefined;

  private constructor(
    private readonly stream: NodeJS.WritableStream,
    /** The final path, or undefined for stdout. */
    readonly target: string | undefined,
    private readonly temp: string | undefined,
  ) {
    stream.on('error', (e: Error) => {
      this.failure = e;
    });
  }

  /** A sink on a stream the caller owns (stdout); {@link commit} flushes but does not end it. */
  static toStream(stream: NodeJS.WritableStream): OutputSink {
    return new OutputSink(stream, undefined, undefined);
  }

  /**
   * Opens `-o target` safely (see the module comment). `input`, when given, is the input file's
   * path: writing onto it is refused before anything is read.
   * @throws Error with a readable message (`cannot write 'x': is a directory`, `… is read-only`,
   * `… is the input file`, `… no such file or directory`) before any output exists.
   */
  static async toFile(target: string, input?: string): Promise<OutputSink> {
    const st = statOrUndefined(target);
    if (st?.isDirectory()) throw new Error(`cannot write '${target}': is a directory`);
    if (input !== undefined && st !== undefined) {
      const si = statOrUndefined(input);
      if (si !== undefined && si.dev === st.dev && si.ino === st.ino && st.isFile()) {
        throw new Error(`cannot write '${target}': it is the input file (write elsewhere, then rename)`);
      }
    }
    if (st !== undefined && !st.isFile()) {
      // A device, FIFO, socket or /dev/stdout: write through it, never replace it.
      const stream = createWriteStream(target, { flags: 'w' });
      try {
        await once(stream, 'open');
      } catch (e) {
        throw new Error(`cannot write '${target}': ${reason(e)}`, { cause: e });
      }
      return new OutputSink(stream, target, undefined);
    }
    if (st !== undefined && (st.mode & 0o222) === 0) {
      throw new Error(`cannot write '${target}': it is read-only (mode ${(st.mode & 0o777).toString(8)})`);
    }
    // A regular file, or nothing yet: replace the real file (through any symlinks) atomically.
    const real = realTarget(target);
    const temp = join(dirname(real), `.skewline-${basename(real)}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.tmp`);
    const stream = createWriteStream(temp, { flags: 'wx', mode: st === undefined ? 0o666 : st.mode & 0o7777 });
    try {
      await once(stream, 'open');
      if (st !== undefined) await chmod(temp, st.mode & 0o7777); // the umask narrowed it
    } catch (e) {
      stream.destroy();
      await unlink(temp).catch(() => undefined);
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
        // The target itself may be writable: it is its folder that refuses the temporary file.
        throw new Error(
          `cannot write '${target}': its folder '${dirname(real)}' is not writable (${reason(e)}); ` +
            `the output goes to a temporary file beside the target and is renamed over it at the end, so the folder must be writable`,
          { cause: e },
        );
      }
      throw new Error(`cannot write '${target}': ${reason(e)}`, { cause: e });
    }
    return new OutputSink(stream, real, temp);
  }

  /** Appends text (synchronously; it reaches the stream in chunks). */
  write(text: string): void {
    this.buffer += text;
    if (this.buffer.length >= FLUSH_AT) this.flush();
  }

  /**
   * Appends bytes, after the text written before them. The chunk passes to the sink: the caller
   * must not change it afterwards (it is written as it is, without a copy).
   */
  writeBytes(chunk: Uint8Array): void {
    this.flush();
    if (chunk.length > 0 && !this.stream.write(chunk)) this.full = true;
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    if (!this.stream.write(this.buffer)) this.full = true;
    this.buffer = '';
  }

  private check(): void {
    const e = this.failure;
    if (e === undefined) return;
    if ((e as NodeJS.ErrnoException).code === 'EPIPE') throw new BrokenPipe('output closed');
    throw new OutputError(`cannot write ${this.target === undefined ? 'to stdout' : `'${this.target}'`}: ${reason(e)}`);
  }

  /** Waits until the stream can take more; call between input chunks. @throws on a write error. */
  async drain(): Promise<void> {
    this.check();
    if (!this.full) return;
    this.full = false;
    try {
      await once(this.stream as WriteStream, 'drain');
    } catch {
      // 'error' arrived instead; check() reports it
    }
    this.check();
  }

  /** Flushes everything; for a file, closes it (and renames the temporary file onto the target). */
  async commit(): Promise<void> {
    this.flush();
    await this.drain();
    if (this.target === undefined) return;
    const ws = this.stream as WriteStream;
    if (this.temp === undefined) {
      ws.end();
      await once(ws, 'finish').catch(() => undefined);
      this.check();
      return;
    }
    ws.end();
    try {
      await once(ws, 'close');
    } catch {
      // reported below
    }
    this.check();
    await rename(this.temp, this.target).catch((e: unknown) => {
      throw new OutputError(`cannot write '${this.target}': ${reason(e)}`, { cause: e });
    });
  }

  /** Discards the output: closes and deletes the temporary file (synchronously, safe in signal handlers). */
  abort(): void {
    if (this.temp === undefined) {
      if (this.target !== undefined) (this.stream as WriteStream).destroy();
      return;
    }
    (this.stream as WriteStream).destroy();
    try {
      unlinkSync(this.temp);
    } catch {
      // already gone
    }
  }

  /**
   * Like {@link abort}, but waits for the file to be closed first. On standard output the rows
   * already formatted are written out (they are valid rows; the exit code says the run failed).
   */
  async abortAsync(): Promise<void> {
    if (this.target === undefined) {
      if (this.failure === undefined) {
        this.flush();
        this.buffer = '';
      }
      return;
    }
    if (this.temp === undefined) {
      if (this.target !== undefined) (this.stream as WriteStream).destroy();
      return;
    }
    const ws = this.stream as WriteStream;
    if (!ws.closed) {
      ws.destroy();
      await once(ws, 'close').catch(() => undefined);
    }
    await unlink(this.temp).catch(() => undefined);
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The path a write to `target` should replace: through symlinks (also a dangling one) to the real file. */
function realTarget(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    // Missing, or a dangling symlink: follow the links by hand.
    let p = resolve(target);
    for (let hops = 0; hops < 40; hops++) {
      let l: Stats;
      try {
        l = lstatSync(p);
      } catch {
        return p;
      }
      if (!l.isSymbolicLink()) return p;
      p = resolve(dirname(p), readlinkSync(p));
    }
    return p;
  }
}

/** A short human reason for a file-system error: `no such file or directory`, `permission denied`, … */
export function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a parent is not a directory';
    case 'ENOSPC':
      return 'no space left on device';
    case 'EROFS':
      return 'read-only file system';
    default:
      return err?.message ?? String(e);
  }
}
