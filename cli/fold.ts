/**
 * `skewline fold`: fold a chain at a joint without passing through itself.
 *
 * Reads the chain (CSV `x,y[,z]` per vertex with an optional header, or JSON: an array of
 * points, a GeoJSON LineString, or a Feature holding one), calls {@link foldChain}, prints one
 * CSV row `angle,blocked,i,j` (the angle reached, whether a contact stopped it, and the pair),
 * and with `-o FILE` writes the folded chain in the input's format (safely: see cli/output.ts).
 */
import { createReadStream, statSync } from 'node:fs';
import { foldChain, SkewlineInputError } from '../src/index.js';
import { readLines } from './input.js';
import { InputError, axisNames, lineColumn, parseJsonText, parseNumber, splitCsv } from './rows.js';
import { EXIT_SIGNALS, oneLineWriter, signalExitCode } from './run-rows.js';
import { BrokenPipe, OutputSink, num, reason } from './output.js';
import type { Io } from './closest.js';

/** What `skewline fold` was asked to do. */
export interface FoldCommand {
  /** A path, or `-`/undefined for standard input. */
  file: string | undefined;
  joint: number;
  angle: number;
  axis: number[] | undefined;
  thickness: number;
  /** Where the folded chain goes: a path, `-` (stdout; the summary then goes to stderr), or undefined (not written). */
  output: string | undefined;
}

/** A chain as read: flat coordinates, and how to write it back. */
export interface ReadChain {
  flat: Float64Array;
  dim: number;
  /** For JSON input: rebuilds the document around new coordinates. */
  json: ((coords: number[][]) => unknown) | undefined;
  header: string | undefined;
}

/** Parses the chain text; errors are InputErrors carrying `line N:` where a line is known. */
export async function readChain(stream: AsyncIterable<unknown>): Promise<ReadChain> {
  const lines: { text: string; no: number }[] = [];
  for await (const l of readLines(stream)) lines.push(l);
  const first = lines.find((l) => l.text.trim() !== '');
  if (first === undefined) return { flat: new Float64Array(0), dim: 0, json: undefined, header: undefined };
  const t = first.text.trimStart();
  if (t.startsWith('{') || t.startsWith('[')) {
    const text = lines.map((l) => l.text).join('\n');
    try {
      return readJson(text);
    } catch (e) {
      // a JSON syntax error's offset becomes line N (and the column)
      if (!(e instanceof InputError) || e.column === undefined) throw e;
      const at = lineColumn(text, e.column);
      throw new InputError(`line ${at.line}: ${e.message}`, at.column);
    }
  }
  const coords: number[] = [];
  let dim = 0;
  let header: string | undefined;
  for (const { text, no } of lines) {
    if (text.trim() === '') continue;
    const fields = splitCsv(text).map((f) => f.trim());
    if (fields.length > 0 && fields[fields.length - 1] === '') fields.pop(); // a trailing comma
    if (dim === 0 && header === undefined && fields.some((f) => f !== '' && Number.isNaN(Number(f)))) {
      header = text;
      const names = fields.map((f) => f.toLowerCase());
      const want = axisNames(names.length);
      if (names.length < 2 || names.length > 3 || names.some((f, i) => f !== want[i])) {
        throw new InputError(`line ${no}: the header must be x,y or x,y,z (got ${JSON.stringify(text)})`);
      }
      dim = names.length;
      continue;
    }
    if (dim === 0) dim = fields.length;
    if (fields.length !== dim) throw new InputError(`line ${no}: ${fields.length} numbers, expected ${dim} (x,y${dim === 3 ? ',z' : ''})`);
    const ax = axisNames(dim);
    fields.forEach((f, i) => {
      try {
        coords.push(parseNumber(f, `column ${ax[i]}`));
      } catch (e) {
        if (e instanceof InputError) throw new InputError(`line ${no}: ${e.message}`);
        throw e;
      }
    });
  }
  return { flat: Float64Array.from(coords), dim, json: undefined, header };
}

function readJson(text: string): ReadChain {
  const doc = parseJsonText(text);
  let coords: unknown = doc;
  let wrap: (c: number[][]) => unknown = (c) => c;
  const o = doc as { type?: string; coordinates?: unknown; geometry?: { type?: string; coordinates?: unknown } };
  if (o !== null && typeof o === 'object' && !Array.isArray(o)) {
    if (o.type === 'LineString') {
      coords = o.coordinates;
      wrap = (c) => ({ ...o, coordinates: c });
    } else if (o.type === 'Feature' && o.geometry?.type === 'LineString') {
      coords = o.geometry.coordinates;
      wrap = (c) => ({ ...o, geometry: { ...o.geometry, coordinates: c } });
    } else {
      throw new InputError('JSON input must be an array of points, a GeoJSON LineString, or a Feature with a LineString geometry');
    }
  }
  if (!Array.isArray(coords)) throw new InputError('the JSON holds no array of points');
  const dim = Array.isArray(coords[0]) ? (coords[0] as unknown[]).length : 0;
  const flat = new Float64Array(coords.length * dim);
  coords.forEach((p, k) => {
    if (!Array.isArray(p) || p.length !== dim) throw new InputError(`point ${k}: expected an array of ${dim} numbers`);
    p.forEach((x, c) => {
      if (typeof x !== 'number' || !Number.isFinite(x)) throw new InputError(`point ${k} coordinate ${c}: not a finite number (${JSON.stringify(x)})`);
      flat[k * dim + c] = x;
    });
  });
  return { flat, dim, json: wrap, header: undefined };
}

/**
 * Runs the command. Resolves to the exit code: 0 (also when the fold was blocked: that is an
 * answer), 1 for bad input or an I/O failure (`skewline: file:line: message`).
 */
export function runFold(opts: FoldCommand, io: Io): Promise<number> {
  return runChainCommand(opts.file, opts.output, io, 'angle,blocked,i,j', (chain) => {
    let r;
    try {
      r = foldChain(chain.flat, { dim: chain.dim, joint: opts.joint, angle: opts.angle, axis: opts.axis, thickness: opts.thickness });
    } catch (e) {
      if (e instanceof SkewlineInputError) throw new InputError(e.message.replace(/^foldChain: /, ''));
      throw e;
    }
    return { row: `${num(r.angle)},${r.blocked},${r.contact?.i ?? ''},${r.contact?.j ?? ''}`, points: r.points };
  });
}

/** What a chain command's work gives back: its summary row (CSV, no line end) and the chain to write. */
export interface ChainWork {
  row: string;
  points: Float64Array;
}

/**
 * The frame `skewline fold` and `skewline pivot` share: `-o` opened (and checked) before
 * anything is read, a signal removes its temporary file, the chain read from the file or
 * standard input, `work` run on it, then the summary (`header` and the row: on stdout, or on
 * stderr when the chain goes to stdout with `-o -`) and, with `-o`, the chain in the input's
 * format. Empty input prints `header` alone and writes an empty chain, exit 0. Errors are one
 * line, `skewline: file:line[:column]: message`, exit 1, and with `-o` no file is written.
 */
export async function runChainCommand(
  file: string | undefined,
  output: string | undefined,
  io: Io,
  header: string,
  work: (chain: ReadChain) => ChainWork,
): Promise<number> {
  const path = file === undefined || file === '-' ? undefined : file;
  const shown = path ?? '<stdin>';
  const toStdout = output === '-';
  let sink: OutputSink | undefined;
  try {
    if (output !== undefined && !toStdout) sink = await OutputSink.toFile(output, path);
  } catch (e) {
    io.stderr.write(`skewline: ${(e as Error).message}\n`);
    return 1;
  }
  // A signal removes the temporary file of -o, as for the row commands.
  const onSignal = (sig: NodeJS.Signals): void => {
    sink?.abort();
    process.exit(signalExitCode(sig));
  };
  if (sink !== undefined) for (const sig of EXIT_SIGNALS) process.once(sig, onSignal);
  try {
    const chain = await readChainFrom(path, io);
    // Empty input: the summary's header alone, and an empty chain in the input's form.
    const r = chain.flat.length === 0 ? undefined : work(chain);
    if (output !== undefined) await writeFolded(chainText(chain, r?.points), io, toStdout, sink);
    const row = r?.row;
    (toStdout ? io.stderr : io.stdout).write(row === undefined ? `${header}\n` : `${header}\n${row}\n`);
    return 0;
  } catch (e) {
    await sink?.abortAsync();
    if (e instanceof BrokenPipe) return 0;
    const err = oneLineWriter(io.stderr);
    const m = e instanceof InputError ? /^line (\d+): /.exec(e.message) : null;
    if (m !== null) err.write(`skewline: ${shown}:${m[1]}${(e as InputError).column !== undefined ? `:${(e as InputError).column}` : ''}: ${(e as Error).message.slice(m[0].length)}\n`);
    else if (e instanceof InputError) err.write(`skewline: ${shown}: ${e.message}\n`);
    else err.write(`skewline: ${shown}: ${(e as Error).message}\n`);
    return 1;
  } finally {
    for (const sig of EXIT_SIGNALS) process.off(sig, onSignal);
  }
}

/** Reads the chain from the file or standard input; an I/O failure is an InputError saying so. */
async function readChainFrom(path: string | undefined, io: Io): Promise<ReadChain> {
  try {
    if (path !== undefined && statSync(path).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    return await readChain(path === undefined ? io.stdin : createReadStream(path, { highWaterMark: 1 << 16 }));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== undefined) throw new InputError(`cannot read: ${reason(e)}`);
    throw e;
  }
}

/**
 * A chain's flat coordinates as text in the input's format (JSON document, or CSV with its
 * header); no coordinates (empty input) give an empty chain in that form.
 */
function chainText(chain: ReadChain, flat: Float64Array | undefined): string {
  if (flat === undefined) return chain.json !== undefined ? JSON.stringify(chain.json([])) + '\n' : chain.header !== undefined ? `${chain.header}\n` : '';
  const { dim } = chain;
  const pts: number[][] = [];
  for (let k = 0; k < flat.length / dim; k++) pts.push(Array.from(flat.subarray(k * dim, (k + 1) * dim)));
  return chain.json !== undefined
    ? JSON.stringify(chain.json(pts)) + '\n'
    : `${chain.header ?? axisNames(dim).join(',')}\n` + pts.map((p) => p.map(num).join(',')).join('\n') + '\n';
}

/** Writes the folded chain to standard output (`-o -`) or to the `-o` file (committing it). */
async function writeFolded(text: string, io: Io, toStdout: boolean, sink: OutputSink | undefined): Promise<void> {
  if (toStdout) {
    const out = OutputSink.toStream(io.stdout);
    out.write(text);
    await out.commit();
  } else if (sink !== undefined) {
    sink.write(text);
    await sink.commit();
  }
}
