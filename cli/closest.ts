/**
 * `skewline closest`: closest points for every row of a CSV or NDJSON file, streamed.
 *
 * Memory stays bounded whatever the input size: the input is read in chunks and split into
 * lines here, each line is answered and formatted at once, and the next chunk is read only
 * after the output stream has drained (see {@link OutputSink.drain}).
 */
import { createReadStream, fstatSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { openQuote, readLines, stdinHasData } from './input.js';
import { ProgressBar } from './progress.js';
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

/** The widest dimension and whether any row has a name, over an NDJSON file (read once, line by line). */
async function scanNdjson(path: string): Promise<{ width: number; name: boolean }> {
  let width = 0;
  let name = false;
  for await (const { text } of readLines(createReadStream(path, { highWaterMark: 1 << 16 }))) {
    if (text.trim() === '' || (!text.includes('"name"') && width > 0)) continue;
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

/** Longest JSON document (an array, or a pretty-printed object) read whole instead of as NDJSON. */
const MAX_DOCUMENT = 256 << 20;

/**
 * Runs the command. Resolves to the exit code (0 or 1); messages go to `io.stderr`.
 * @param bundled the path of the bundled examples, used when `opts.file` is undefined and
 * standard input has no data (see {@link stdinHasData}).
 */
export async function runClosest(opts: ClosestOptions, io: Io, bundled: string): Promise<number> {
  const started = process.hrtime.bigint();
  const useBundled = opts.file === undefined && !(io === process ? stdinHasData() : io.stdin.isTTY !== true && io.stdin.fd !== undefined && stdinHasData(io.stdin.fd));
  const path = useBundled ? bundled : opts.file === undefined || opts.file === '-' ? undefined : opts.file;
  const shown = useBundled ? 'examples.ndjson (bundled)' : path ?? '<stdin>';
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
      const st = fstatSync(0);
      if (st.isFile()) size = st.size;
    } catch {
      // no size for pipes and terminals
    }
  }

  let sink: OutputSink;
  try {
    sink = opts.output === undefined ? OutputSink.toStream(io.stdout) : await OutputSink.toFile(opts.output, path);
  } catch (e) {
    io.stderr.write(`skewline: ${(e as Error).message}\n`);
    return 1;
  }
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const onSignal = (sig: NodeJS.Signals) => {
    sink.abort();
    process.exit(sig === 'SIGINT' ? 130 : sig === 'SIGHUP' ? 129 : 143);
  };
  if (opts.output !== undefined) for (const sig of signals) process.once(sig, onSignal);
  const unhook = () => {
    if (opts.output !== undefined) for (const sig of signals) process.off(sig, onSignal);
  };

  let formatter: RowFormatter;
  if (opts.format === 'ndjson') formatter = ndjsonFormatter();
  else if (path !== undefined && (format ?? 'ndjson') === 'ndjson' && statSync(path).isFile() && (format === 'ndjson' || (await looksLikeNdjson(path)))) {
    // NDJSON to CSV: the name column and the width must be known before the header is written.
    const { width, name } = await scanNdjson(path);
    formatter = csvFormatter(width > 0 ? { width, name } : { width: undefined, name: undefined });
  } else if (path === undefined && format !== 'csv') {
    // From a pipe we cannot look ahead: a name column always (empty for rows without a name).
    formatter = csvFormatter({ width: undefined, name: format === 'ndjson' ? true : undefined });
  } else formatter = csvFormatter({ width: undefined, name: undefined });

  const showBar =
    opts.progress ??
    (io.stderr.isTTY === true && size !== undefined && !(opts.output === undefined && io.stdout.isTTY === true));
  const bar = showBar ? new ProgressBar(io.stderr, 'skewline closest', size) : undefined;
  const stream = path === undefined ? io.stdin : createReadStream(path, { highWaterMark: 1 << 16 });
  let bytes = 0;

  let lineNo = 0;
  let rows = 0;
  let layout: CsvLayout | undefined;
  let csvRow: InputRow | undefined;
  const aIsPoint = opts.a === 'point';
  const bIsPoint = opts.b === 'point';

  const answer = (row: InputRow): void => {
    const { dim, coords } = row;
    const ka = row.aKind ?? opts.a;
    const kb = row.bKind ?? opts.b;
    const pa = make('a', ka, coords, 0, dim, format!);
    const pb = make('b', kb, coords, 2 * dim, dim, format!);
    let r;
    try {
      r = closestPoints(pa, pb);
    } catch (e) {
      if (e instanceof SkewlineInputError || e instanceof RangeError) throw new InputError(e.message);
      throw new CommandError(`internal error on this row: ${(e as Error).stack ?? String(e)}`);
    }
    sink.write(formatter.format(row.name, dim, r));
    rows++;
  };

  const handle = (text: string): void => {
    if (format === 'csv') {
      if (layout === undefined) {
        layout = parseCsvHeader(text, aIsPoint, bIsPoint);
        csvRow = { name: undefined, dim: layout.dim, coords: new Float64Array(4 * layout.dim), aKind: undefined, bKind: undefined };
        sink.write(formatter.begin(layout.dim, layout.nameColumn >= 0));
        return;
      }
      parseCsvRow(text, layout, csvRow!);
      answer(csvRow!);
    } else {
      answer(parseNdjsonRow(text, opts.a, opts.b));
    }
  };

  try {
    let record = ''; // a CSV record spanning lines (a quoted field with a newline)
    let recordLine = 0;
    let document: string[] | undefined; // a JSON array or pretty-printed object, read whole
    let documentLen = 0;
    for await (const { text, no } of readLines(stream, (n) => {
      bytes += n;
      bar?.update(bytes, rows);
    })) {
      if (document !== undefined) {
        documentLen += text.length + 1;
        if (documentLen > MAX_DOCUMENT) throw new InputError(`JSON document longer than ${MAX_DOCUMENT >> 20} MiB; use NDJSON (one object per line)`);
        document.push(text);
        continue;
      }
      if (record === '' && text.trim() === '') continue;
      if (format === undefined) format = text.trimStart().startsWith('{') || text.trimStart().startsWith('[') ? 'ndjson' : 'csv';
      if (format === 'ndjson' && record === '' && rows === 0 && isDocumentStart(text)) {
        document = [text];
        documentLen = text.length;
        lineNo = no;
        continue;
      }
      if (format === 'csv') {
        if (record !== '') record += '\n' + text;
        else {
          record = text;
          recordLine = no;
        }
        if (openQuote(record)) continue;
        lineNo = recordLine;
        const whole = record;
        record = '';
        handle(whole);
      } else {
        lineNo = no;
        handle(text);
      }
      await sink.drain();
    }
    if (record !== '') {
      lineNo = recordLine;
      throw new InputError('a quoted field is not closed before the end of the input');
    }
    if (document !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(document.join('\n'));
      } catch (e) {
        throw new InputError(`expected NDJSON (one JSON object per line) or one JSON document; this is neither: ${(e as Error).message}`);
      }
      const items = Array.isArray(parsed) ? parsed : [parsed];
      for (let k = 0; k < items.length; k++) {
        try {
          answer(parseNdjsonRow(JSON.stringify(items[k]), opts.a, opts.b));
        } catch (e) {
          if (e instanceof InputError) throw new InputError(`${Array.isArray(parsed) ? `array element ${k}` : 'the object'}: ${e.message}`);
          throw e;
        }
        if ((k & 1023) === 1023) await sink.drain();
      }
    }
    if (rows === 0 && layout === undefined) io.stderr.write(`skewline: ${shown}: the input is empty (no header and no rows)\n`);
    await sink.commit();
  } catch (e) {
    bar?.stop();
    await sink.abortAsync();
    unhook();
    if (e instanceof BrokenPipe) return 0;
    // (leaving the for-await loop has already closed the input stream)
    if (e instanceof InputError && /^line \d+: /.test(e.message)) io.stderr.write(`skewline: ${shown}:${e.message.slice(5)}\n`);
    else if (e instanceof InputError || e instanceof CommandError) io.stderr.write(`skewline: ${shown}:${lineNo}: ${e.message}\n`);
    else if ((e as NodeJS.ErrnoException).code !== undefined) io.stderr.write(`skewline: cannot read '${shown}': ${reason(e)}\n`);
    else io.stderr.write(`skewline: ${(e as Error).message}\n`);
    return 1;
  }
  unhook();
  if (bar !== undefined) {
    bar.update(bytes, rows, true);
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

/** The first line of a JSON array, or of a pretty-printed object (one that is not a whole object by itself). */
function isDocumentStart(text: string): boolean {
  const t = text.trim();
  if (t.startsWith('[')) return true;
  if (!t.startsWith('{')) return false;
  try {
    JSON.parse(t);
    return false;
  } catch {
    return !t.endsWith('}');
  }
}

/** Whether a file's first non-blank character opens JSON (for NDJSON → CSV look-ahead). */
async function looksLikeNdjson(path: string): Promise<boolean> {
  for await (const { text } of readLines(createReadStream(path, { highWaterMark: 1 << 12 }))) {
    const t = text.trimStart();
    if (t !== '') return t.startsWith('{') || t.startsWith('[');
  }
  return false;
}
