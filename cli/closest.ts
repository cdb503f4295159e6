/**
 * `skewline closest`: closest points for every row of a CSV or NDJSON file, streamed.
 *
 * Memory stays bounded whatever the input size: the input is read in chunks and split into
 * lines here, each line is answered and formatted at once, and the next chunk is read only
 * after the output stream has drained (see {@link OutputSink.drain}).
 */
import { readFileSync, createReadStream, statSync } from 'node:fs';
import { extname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import cliProgress from 'cli-progress';
import { closestPoints, line, point, ray, segment, SkewlineInputError } from '../src/index.js';
import type { Kind, Primitive } from '../src/index.js';
import {
  InputError,
  axisNames,
  parseCsvHeader,
  parseCsvRow,
  parseNdjsonRow,
  type CsvLayout,
  type InputRow,
} from './rows.js';
import { BrokenPipe, OutputSink, csvFormatter, ndjsonFormatter, reason, type OutputFormat, type RowFormatter } from './output.js';

/** Input formats. */
export type InputFormat = 'csv' | 'ndjson';

/** What `skewline closest` was asked to do. */
export interface ClosestOptions {
  /** A path, `-` for stdin, or undefined for the bundled examples. */
  file: string | undefined;
  /** Forced input format; undefined: from the extension, else from the first non-blank character. */
  input: InputFormat | undefined;
  a: Kind;
  b: Kind;
  format: OutputFormat;
  /** Output path; undefined: stdout. */
  output: string | undefined;
  /** Force the progress bar on or off; undefined: on when stderr is a terminal and output does not go to it. */
  progress: boolean | undefined;
  /** Print rows, time, rows/s and peak RSS to stderr at the end. */
  stats: boolean;
}

/** The process streams the command uses (injectable for tests). */
export interface Io {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; fd?: number };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** A failure to report as `skewline: <message>` with exit code 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}

/** Longest line accepted, so a file without newlines cannot exhaust memory. */
const MAX_LINE = 64 << 20;

/** Input format from a file name, if its extension says. */
function formatFromName(file: string): InputFormat | undefined {
  const ext = extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.ndjson' || ext === '.jsonl' || ext === '.ldjson' || ext === '.json') return 'ndjson';
  return undefined;
}

function build(kind: Kind, c: Float64Array, off: number, dim: number): Primitive {
  const p0 = c.subarray(off, off + dim);
  const p1 = c.subarray(off + dim, off + 2 * dim);
  switch (kind) {
    case 'segment':
      return segment(p0, p1);
    case 'line':
      return line(p0, p1);
    case 'ray':
      return ray(p0, p1);
    case 'point':
      return point(p0);
  }
}

/** Builds primitive `which` of a row; a constructor's complaint becomes an InputError naming the columns. */
function make(which: 'a' | 'b', kind: Kind, c: Float64Array, off: number, dim: number, format: InputFormat): Primitive {
  try {
    return build(kind, c, off, dim);
  } catch (e) {
    if (!(e instanceof SkewlineInputError)) throw e;
    throw new InputError(`${where(which, kind, format, dim)}: ${e.message}`);
  }
}

/** Names the input columns (CSV) or fields (NDJSON) behind a primitive, for error messages. */
function where(which: 'a' | 'b', kind: Kind, format: InputFormat, dim: number): string {
  const pts = kind === 'ray' ? [1] : kind === 'line' ? [0, 1] : [0];
  if (format === 'ndjson') return `${pts.length > 1 ? 'fields' : 'field'} ${pts.map((i) => `${which}[${i}]`).join(', ')}`;
  const ax = axisNames(dim);
  return `columns ${pts.map((i) => `${which}${i}${ax[0]}…${which}${i}${ax[ax.length - 1]}`).join(', ')}`;
}

/** The widest dimension and whether any row has a name, over a small NDJSON file (the bundled set). */
function scanNdjson(path: string): { width: number; name: boolean } {
  let width = 0;
  let name = false;
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    try {
      const o = JSON.parse(text) as { a?: unknown[][]; name?: unknown };
      width = Math.max(width, o.a?.[0]?.length ?? 0);
      name ||= o.name !== undefined;
    } catch {
      // the real pass reports it with its line number
    }
  }
  return { width, name };
}

/**
 * Runs the command. Resolves to the exit code (0 or 1); messages go to `io.stderr`.
 * @param bundled the path of the bundled examples, used when `opts.file` is undefined.
 */
export async function runClosest(opts: ClosestOptions, io: Io, bundled: string): Promise<number> {
  const started = process.hrtime.bigint();
  const path = opts.file === undefined ? bundled : opts.file === '-' ? undefined : opts.file;
  const shown = opts.file === undefined ? 'examples.ndjson (bundled)' : path ?? '<stdin>';
  let format: InputFormat | undefined = opts.input ?? (path === undefined ? undefined : formatFromName(path));

  let size: number | undefined;
  if (path !== undefined) {
    try {
      const st = statSync(path);
      if (st.isDirectory()) throw Object.assign(new Error(), { code: 'EISDIR' });
      size = st.size;
    } catch (e) {
      io.stderr.write(`skewline: cannot read '${path}': ${reason(e)}\n`);
      return 1;
    }
  } else {
    try {
      const st = statSync('/dev/stdin');
      if (st.isFile()) size = st.size;
    } catch {
      // no size for pipes and terminals
    }
  }

  let sink: OutputSink;
  try {
    sink = opts.output === undefined ? OutputSink.toStream(io.stdout) : await OutputSink.toFile(opts.output);
  } catch (e) {
    io.stderr.write(`skewline: ${(e as Error).message}\n`);
    return 1;
  }
  const onSignal = (sig: NodeJS.Signals) => {
    sink.abort();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  if (opts.output !== undefined) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }

  let formatter: RowFormatter;
  if (opts.format === 'ndjson') formatter = ndjsonFormatter();
  else if (opts.file === undefined && (format ?? 'ndjson') === 'ndjson') formatter = csvFormatter(scanNdjson(bundled));
  else formatter = csvFormatter({ width: undefined, name: undefined });

  const showBar =
    opts.progress ??
    (io.stderr.isTTY === true && size !== undefined && !(opts.output === undefined && io.stdout.isTTY === true));
  const bar = showBar
    ? new cliProgress.SingleBar(
        {
          stream: io.stderr,
          format: 'skewline closest |{bar}| {percentage}% | {mb}/{totalMb} MB | {rows} rows | ETA {eta_formatted}',
          hideCursor: true,
          noTTYOutput: opts.progress === true,
          etaBuffer: 50,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const mb = (n: number) => (n / 1e6).toFixed(1);
  bar?.start(size ?? 0, 0, { mb: mb(0), totalMb: size === undefined ? '?' : mb(size), rows: 0 });

  const stream = path === undefined ? io.stdin : createReadStream(path, { highWaterMark: 1 << 16 });
  // Decoding here (not with setEncoding) keeps the byte count for the progress bar, and
  // StringDecoder keeps a UTF-8 character split across two chunks whole.
  const decoder = new StringDecoder('utf8');
  let bytes = 0;

  let lineNo = 0;
  let rows = 0;
  let layout: CsvLayout | undefined;
  let csvRow: InputRow | undefined;
  const aIsPoint = opts.a === 'point';
  const bIsPoint = opts.b === 'point';

  const handle = (text: string): void => {
    if (text.length > 0 && text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') return;
    format ??= text.trimStart().startsWith('{') ? 'ndjson' : 'csv';
    let row: InputRow;
    if (format === 'csv') {
      if (layout === undefined) {
        layout = parseCsvHeader(text, aIsPoint, bIsPoint);
        csvRow = { name: undefined, dim: layout.dim, coords: new Float64Array(4 * layout.dim), aKind: undefined, bKind: undefined };
        sink.write(formatter.begin(layout.dim, layout.nameColumn >= 0));
        return;
      }
      row = csvRow!;
      parseCsvRow(text, layout, row);
    } else {
      row = parseNdjsonRow(text, opts.a, opts.b);
    }
    const { dim, coords } = row;
    const ka = row.aKind ?? opts.a;
    const kb = row.bKind ?? opts.b;
    const pa = make('a', ka, coords, 0, dim, format);
    const pb = make('b', kb, coords, 2 * dim, dim, format);
    let r;
    try {
      r = closestPoints(pa, pb);
    } catch (e) {
      if (e instanceof SkewlineInputError) throw new InputError(e.message);
      throw new CommandError(`internal error on this row: ${(e as Error).stack ?? String(e)}`);
    }
    sink.write(formatter.format(row.name, dim, r));
    rows++;
  };

  try {
    let carry = '';
    for await (const chunk of stream) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      bytes += buf.length;
      const part = decoder.write(buf);
      const text = carry.length === 0 ? part : carry + part;
      let start = 0;
      while (true) {
        const nl = text.indexOf('\n', start);
        if (nl < 0) break;
        lineNo++;
        handle(text.slice(start, nl));
        start = nl + 1;
      }
      carry = text.slice(start);
      if (carry.length > MAX_LINE) {
        lineNo++;
        throw new InputError(`line longer than ${MAX_LINE >> 20} MiB (is this a CSV or NDJSON file?)`);
      }
      await sink.drain();
      bar?.update(bytes, { mb: mb(bytes), rows });
    }
    carry += decoder.end();
    if (carry.length > 0) {
      lineNo++;
      handle(carry);
    }
    await sink.commit();
  } catch (e) {
    bar?.stop();
    await sink.abortAsync();
    if (opts.output !== undefined) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    if (e instanceof BrokenPipe) return 0;
    // (leaving the for-await loop has already closed the input stream)
    if (e instanceof InputError || e instanceof CommandError) io.stderr.write(`skewline: ${shown}:${lineNo}: ${e.message}\n`);
    else if ((e as NodeJS.ErrnoException).code !== undefined) io.stderr.write(`skewline: cannot read '${shown}': ${reason(e)}\n`);
    else io.stderr.write(`skewline: ${(e as Error).message}\n`);
    return 1;
  }
  if (opts.output !== undefined) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (bar !== undefined) {
    bar.update(bytes, { mb: mb(bytes), rows });
    bar.stop();
  }
  if (opts.stats) {
    const secs = Number(process.hrtime.bigint() - started) / 1e9;
    const rss = process.resourceUsage().maxRSS / 1024;
    io.stderr.write(
      `skewline: ${rows} rows in ${secs.toFixed(3)} s, ${Math.round(rows / secs)} rows/s, ` +
        `peak RSS ${rss.toFixed(1)} MiB\n`,
    );
  }
  return 0;
}
