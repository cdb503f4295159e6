/**
 * The shared driver of the row commands (`skewline closest`, `skewline sweep`): where the input
 * comes from, CSV/NDJSON/JSON-document reading with line numbers, streaming with backpressure,
 * `-o` handling, signals, progress and errors. A command supplies only how to read its header,
 * rows and objects and how to answer them ({@link RowCommand}).
 *
 * Memory stays bounded whatever the input size: the input is read in chunks and split into
 * lines here, each line is answered and formatted at once, and the next chunk is read only
 * after the output stream has drained (see {@link OutputSink.drain}).
 */
import { createReadStream, fstatSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { openQuote, readLines, stdinHasData } from './input.js';
import { ProgressBar } from './progress.js';
import { InputError, lineColumn, parseJsonText } from './rows.js';
import { BrokenPipe, OutputError, OutputSink, reason, type CsvOutputOptions, type OutputFormat } from './output.js';

/** Input formats. */
export type InputFormat = 'csv' | 'ndjson';

/** What a row command was asked to do (the options every row command shares). */
export interface RowOptions {
  /** A path, `-` for stdin, or undefined for the bundled examples. */
  file: string | undefined;
  /** Forced input format; undefined: from the extension, else from the first non-blank character. */
  input: InputFormat | undefined;
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

/** What a command reads and answers; one handler per run (see {@link RowCommand.start}). */
export interface RowHandler {
  /** The CSV header line. */
  csvHeader(text: string): void;
  /** One CSV data record (may span lines). */
  csvRow(text: string): void;
  /** One NDJSON line (or one element of a JSON document, re-serialised). */
  jsonRow(text: string): void;
  /** Rows answered so far. */
  rows(): number;
  /** Called once after the last row: writes the CSV header if neither a header line nor a row did (empty input). */
  end(): void;
}

/** A row command: its name and how it starts a run. */
export interface RowCommand {
  /** `closest`, `sweep`: shown on the progress bar. */
  label: string;
  /** The dimension a parsed NDJSON object has (0 if it cannot tell), for the NDJSON → CSV look-ahead. */
  dimOf(o: Record<string, unknown>): number;
  /**
   * A handler for one run. `csv` says how the CSV output is laid out (width and name column when
   * known before the first row); `write` appends output text.
   */
  start(format: OutputFormat, csv: CsvOutputOptions, write: (text: string) => void): RowHandler;
}

/** The widest dimension and whether any row has a name, over an NDJSON file (read once, line by line). */
async function scanNdjson(path: string, dimOf: (o: Record<string, unknown>) => number): Promise<{ width: number; name: boolean }> {
  let width = 0;
  let name = false;
  for await (const { text } of readLines(createReadStream(path, { highWaterMark: 1 << 16 }))) {
    if (text.trim() === '' || (!text.includes('"name"') && width > 0)) continue;
    try {
      const o = JSON.parse(text) as Record<string, unknown>;
      width = Math.max(width, dimOf(o));
      name ||= o.name !== undefined;
    } catch {
      // the real pass reports it with its line number
    }
  }
  return { width, name };
}

/** Longest JSON document (an array, or a pretty-printed object) read whole instead of as NDJSON. */
const MAX_DOCUMENT = 256 << 20;

/** Where a run reads and writes, opened by {@link openRun}. */
export interface RunIo {
  /** The input path, or undefined for standard input. */
  path: string | undefined;
  /** The input's name in messages. */
  shown: string;
  /** The input's size in bytes when known (a file), for the progress bar. */
  size: number | undefined;
  /** The output. */
  sink: OutputSink;
  /** Removes the signal handlers that clean up a `-o` temporary file. */
  unhook(): void;
}

/** The signals that end a run: each removes a `-o` temporary file, then exits with 128 + its number. */
export const EXIT_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
const SIGNAL_NUMBER: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 };

/** The shell's exit code for a run ended by `sig`: 128 + the signal's number (SIGINT: 130). */
export function signalExitCode(sig: NodeJS.Signals): number {
  return 128 + (SIGNAL_NUMBER[sig] ?? 15);
}

/**
 * Resolves the input (a file, `-` for stdin, piped stdin, or — with nothing piped — the bundled
 * example), checks it can be read, and opens the output safely (see {@link OutputSink.toFile}),
 * with SIGINT/SIGTERM/SIGHUP/SIGQUIT removing a `-o` temporary file. Resolves to the exit code 1 after
 * printing the reason when the input or the output cannot be opened.
 */
export async function openRun(file: string | undefined, output: string | undefined, io: Io, bundled: string, bundledName: string): Promise<RunIo | number> {
  const useBundled = file === undefined && !(io === process ? stdinHasData() : io.stdin.isTTY !== true && io.stdin.fd !== undefined && stdinHasData(io.stdin.fd));
  const path = useBundled ? bundled : file === undefined || file === '-' ? undefined : file;
  const shown = useBundled ? bundledName : path ?? '<stdin>';
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
  // The signal handlers go in before the temporary file exists: a signal in between would
  // otherwise kill the process with the temporary left behind. One that arrives while the file
  // is being opened is held until it is open, then cleans up.
  const signals = EXIT_SIGNALS;
  const state: { opened?: OutputSink; held?: NodeJS.Signals } = {};
  const exitFor = (sig: NodeJS.Signals): never => process.exit(signalExitCode(sig));
  const onSignal = (sig: NodeJS.Signals): void => {
    if (state.opened === undefined) {
      state.held = sig;
      return;
    }
    state.opened.abort();
    exitFor(sig);
  };
  if (output !== undefined) for (const sig of signals) process.once(sig, onSignal);
  const unhook = (): void => {
    if (output !== undefined) for (const sig of signals) process.off(sig, onSignal);
  };
  let sink: OutputSink;
  try {
    sink = output === undefined ? OutputSink.toStream(io.stdout) : await OutputSink.toFile(output, path);
  } catch (e) {
    unhook();
    if (state.held !== undefined) exitFor(state.held);
    io.stderr.write(`skewline: ${(e as Error).message}\n`);
    return 1;
  }
  state.opened = sink;
  if (state.held !== undefined) {
    sink.abort();
    exitFor(state.held);
  }
  return { path, shown, size, sink, unhook };
}

/**
 * A stderr whose message is kept to one line: a line break inside the message (from a quoted
 * piece of input) is written as a space, so every error is exactly one line.
 */
export function oneLineWriter(stderr: NodeJS.WritableStream): NodeJS.WritableStream {
  return { write: (text: string) => stderr.write(oneLine(text)) } as unknown as NodeJS.WritableStream;
}

/** `text` (ending in one newline) with every other CR/LF run turned into one space. */
export function oneLine(text: string): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.replace(/\s*[\r\n]+\s*/g, ' ') + '\n';
}

/**
 * The exit code and message for an error that ended a run (its output already aborted): 0 for
 * a closed stdout (a pipe's reader quit), else 1 with `skewline: <where>: <message>`. `at` is
 * where an error without its own line number happened (`file:line`, or just the file).
 */
export function failure(e: unknown, shown: string, at: string, io: Io): number {
  if (e instanceof BrokenPipe) return 0;
  const err = oneLineWriter(io.stderr);
  if (e instanceof OutputError) err.write(`skewline: ${e.message}\n`);
  else if (e instanceof InputError && /^line \d+: /.test(e.message)) err.write(`skewline: ${shown}:${e.message.slice(5)}\n`);
  else if (e instanceof InputError || e instanceof CommandError) {
    const col = e instanceof InputError && e.column !== undefined ? `:${e.column}` : '';
    err.write(`skewline: ${at}${col}: ${e.message}\n`);
  } else if ((e as NodeJS.ErrnoException).code !== undefined) err.write(`skewline: cannot read '${shown}': ${reason(e)}\n`);
  else err.write(`skewline: ${at}: ${(e as Error).message}\n`); // e.g. a RangeError: still name the file
  return 1;
}

/**
 * Runs the command. Resolves to the exit code (0 or 1); messages go to `io.stderr`.
 * @param bundled the path of the bundled examples, used when `opts.file` is undefined and
 * standard input has no data (see {@link stdinHasData}).
 */
export async function runRows(cmd: RowCommand, opts: RowOptions, io: Io, bundled: string): Promise<number> {
  const started = process.hrtime.bigint();
  const opened = await openRun(opts.file, opts.output, io, bundled, 'examples.ndjson (bundled)');
  if (typeof opened === 'number') return opened;
  const { path, shown, size, sink, unhook } = opened;
  let format: InputFormat | undefined = opts.input ?? (path === undefined ? undefined : formatFromName(path));

  let csv: CsvOutputOptions;
  if (opts.format === 'ndjson') csv = { width: undefined, name: undefined };
  else if (path !== undefined && (format ?? 'ndjson') === 'ndjson' && statSync(path).isFile() && (format === 'ndjson' || (await looksLikeNdjson(path)))) {
    // NDJSON to CSV: the name column and the width must be known before the header is written.
    const { width, name } = await scanNdjson(path, cmd.dimOf);
    csv = width > 0 ? { width, name } : { width: undefined, name: undefined };
  } else if (path === undefined && format !== 'csv') {
    // From a pipe we cannot look ahead: a name column always (empty for rows without a name).
    csv = { width: undefined, name: format === 'ndjson' ? true : undefined };
  } else csv = { width: undefined, name: undefined };
  const handler = cmd.start(opts.format, csv, (text) => sink.write(text));

  const showBar =
    opts.progress ??
    (io.stderr.isTTY === true && size !== undefined && !(opts.output === undefined && io.stdout.isTTY === true));
  const bar = showBar ? new ProgressBar(io.stderr, `skewline ${cmd.label}`, size) : undefined;
  const stream = path === undefined ? io.stdin : createReadStream(path, { highWaterMark: 1 << 16 });
  let bytes = 0;

  let lineNo = 0;
  let csvStarted = false;
  const handle = (text: string): void => {
    if (format === 'csv') {
      if (!csvStarted) {
        csvStarted = true;
        handler.csvHeader(text);
      } else handler.csvRow(text);
    } else handler.jsonRow(text);
  };

  try {
    let record = ''; // a CSV record spanning lines (a quoted field with a newline)
    let recordLine = 0;
    let document: string[] | undefined; // a JSON array or pretty-printed object, read whole
    let documentLen = 0;
    for await (const { text, no } of readLines(stream, (n) => {
      bytes += n;
      bar?.update(bytes, handler.rows());
    })) {
      if (document !== undefined) {
        documentLen += text.length + 1;
        if (documentLen > MAX_DOCUMENT) throw new InputError(`JSON document longer than ${MAX_DOCUMENT >> 20} MiB; use NDJSON (one object per line)`);
        document.push(text);
        continue;
      }
      if (record === '' && text.trim() === '') continue;
      if (format === undefined) format = text.trimStart().startsWith('{') || text.trimStart().startsWith('[') ? 'ndjson' : 'csv';
      if (format === 'ndjson' && record === '' && handler.rows() === 0 && isDocumentStart(text)) {
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
      const whole = document.join('\n');
      try {
        parsed = parseJsonText(whole);
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        // Where in the file: the document starts at line lineNo; count the lines up to the fault.
        let column = e.column;
        if (column !== undefined) {
          const at = lineColumn(whole, column);
          lineNo += at.line - 1;
          column = at.column;
        }
        const what = e.message.startsWith('invalid JSON')
          ? `expected NDJSON (one JSON object per line) or one JSON document; this is neither: ${e.message.slice(14)}`
          : e.message;
        throw new InputError(what, column);
      }
      const items = Array.isArray(parsed) ? parsed : [parsed];
      for (let k = 0; k < items.length; k++) {
        try {
          handler.jsonRow(JSON.stringify(items[k]));
        } catch (e) {
          if (e instanceof InputError) throw new InputError(`${Array.isArray(parsed) ? `array element ${k}` : 'the object'}: ${e.message}`);
          throw e;
        }
        if ((k & 1023) === 1023) await sink.drain();
      }
    }
    handler.end();
    await sink.commit();
  } catch (e) {
    bar?.stop();
    await sink.abortAsync();
    unhook();
    // (leaving the for-await loop has already closed the input stream)
    return failure(e, shown, `${shown}:${lineNo}`, io);
  }
  unhook();
  if (bar !== undefined) {
    bar.update(bytes, handler.rows(), true);
    bar.stop();
  }
  if (opts.stats) {
    const secs = Number(process.hrtime.bigint() - started) / 1e9;
    const rss = process.resourceUsage().maxRSS / 1024;
    io.stderr.write(
      `skewline: ${handler.rows()} rows in ${secs.toFixed(3)} s, ${Math.round(handler.rows() / secs)} rows/s, ` +
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
