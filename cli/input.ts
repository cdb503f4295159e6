/**
 * Shared input of the skewline commands: where the input comes from (a file, `-`, piped
 * standard input, or the bundled examples) and a streaming line reader.
 *
 * The reader assembles each line from the chunks it spans in one join (linear in the line's
 * length), stops as soon as a line grows past the limit (naming the line), and ends lines at
 * `\n`, `\r\n` or a lone `\r` (old Mac files), so no `\r` ever reaches a parser or a message.
 */
import { closeSync, createReadStream, fstatSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from './rows.js';

/** Longest line accepted, so a file without newlines cannot exhaust memory. */
export const MAX_LINE = 64 << 20;

/** A line and its 1-based number. */
export interface Line {
  text: string;
  no: number;
}

/**
 * The lines of a byte stream, decoded as UTF-8 (a byte-order mark on the first line is dropped).
 * @param onChunk called with the byte count of each chunk read (for a progress bar).
 * @throws InputError (`line N: longer than 64 MiB …`) as soon as a line passes `maxLine` characters.
 */
export async function* readLines(
  stream: AsyncIterable<unknown>,
  onChunk?: (bytes: number) => void,
  maxLine = MAX_LINE,
): AsyncGenerator<Line> {
  const decoder = new StringDecoder('utf8');
  let parts: string[] = [];
  let partsLen = 0;
  let no = 0;
  let skipLF = false; // the previous chunk ended in \r: a \n starting this one belongs to it
  const take = (last: string): string => {
    const text = parts.length === 0 ? last : parts.join('') + last;
    parts = [];
    partsLen = 0;
    no++;
    return no === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  };
  const tooLong = (): InputError =>
    new InputError(`line ${no + 1}: longer than ${Math.round(maxLine / (1 << 20))} MiB (is this a CSV or NDJSON file?)`);
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    onChunk?.(buf.length);
    const text = decoder.write(buf);
    let start = 0;
    if (skipLF && text.charCodeAt(0) === 10) start = 1;
    skipLF = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      if (partsLen + (i - start) > maxLine) throw tooLong();
      yield { text: take(text.slice(start, i)), no };
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else skipLF = true;
      }
      start = i + 1;
    }
    if (start < text.length) {
      parts.push(text.slice(start));
      partsLen += text.length - start;
      if (partsLen > maxLine) throw tooLong();
    }
  }
  const rest = decoder.end();
  if (rest.length > 0) {
    parts.push(rest);
    partsLen += rest.length;
  }
  if (partsLen > maxLine) throw tooLong();
  if (partsLen > 0) yield { text: take(''), no };
}

/**
 * Whether standard input carries data for us when no file was named: a pipe, a socket or a
 * non-empty regular file does; a terminal, /dev/null or a closed stdin does not (then the
 * commands use their bundled examples, which is what `npx skewline closest` on a fresh clone
 * shows). So `cat my.csv | skewline closest` reads my.csv and never prints the examples instead.
 */
export function stdinHasData(fd = 0): boolean {
  try {
    const st = fstatSync(fd);
    return st.isFIFO() || st.isSocket() || (st.isFile() && st.size > 0);
  } catch {
    return false; // closed
  }
}

/**
 * A CSV record may span lines when a quoted field holds a newline (RFC 4180): true while `text`
 * has an unbalanced double quote, i.e. the record continues on the next line.
 */
export function openQuote(text: string): boolean {
  let q = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) q++;
  return (q & 1) === 1;
}

/** The signals after which a {@link Spool} removes its file (those the commands clean up after: run-rows.ts). */
const SPOOL_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/**
 * A copy of an input that can be read only once (standard input, a pipe, a FIFO), written to a
 * temporary file (`skewline-input-…/input` under `dir`, by default `$TMPDIR`) as the first
 * reading goes, so that it can be read again from the file: `skewline chain --tile` reads its
 * input twice (cli/tile-stream.ts) and the pipe itself only once.
 *
 * The file is removed by {@link Spool.close}, called at the end of the run and after an error; a
 * process exit or SIGINT/SIGTERM/SIGHUP/SIGQUIT while it exists removes it too. A signal handler
 * that would otherwise keep the process alive does not: when no other handler of that signal is
 * left (such as the `-o` cleanup of run-rows.ts, which exits itself), the spool exits with the
 * shell's code, 128 + the signal's number.
 */
export class Spool {
  private fd = -1;
  private folder = '';
  private written = 0;
  private source: AsyncIterator<unknown> | undefined;
  private ended = false;
  private readonly onExit = (): void => this.close();
  private readonly onSignal = (sig: NodeJS.Signals): void => {
    this.close();
    if (process.listenerCount(sig) === 0) process.exit(128 + (constants.signals[sig] ?? 15));
  };

  constructor(private readonly dir: string = tmpdir()) {}

  /** Bytes copied to the file so far. */
  get bytes(): number {
    return this.written;
  }

  /** The file's path ('' before the first chunk). */
  get path(): string {
    return this.folder === '' ? '' : join(this.folder, 'input');
  }

  /**
   * The chunks of `source`, each one written to the file before it is handed on. Ending the
   * iteration early (a reader that stops) leaves `source` open where it was, for
   * {@link Spool.finish} or {@link Spool.replay}. Only one tee per spool.
   * @throws Error naming the folder and the reason (a full disk: ENOSPC) when the file cannot
   *   be made or written, and suggesting TMPDIR.
   */
  async *tee(source: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
    const it = source[Symbol.asyncIterator]();
    this.source = it;
    for (;;) {
      const r = await it.next();
      if (r.done === true) {
        this.ended = true;
        return;
      }
      const buf = chunkBuffer(r.value);
      this.write(buf);
      yield buf;
    }
  }

  /** Copies what the tee's reader left of the source to the file (nothing when it read to the end). */
  async finish(): Promise<void> {
    const it = this.source;
    if (it === undefined) throw new Error('Spool.finish: no tee');
    while (!this.ended) {
      const r = await it.next();
      if (r.done === true) this.ended = true;
      else this.write(chunkBuffer(r.value));
    }
  }

  /** The whole input again, from the file (after {@link Spool.finish}). */
  reread(): AsyncIterable<unknown> {
    if (!this.ended) throw new Error('Spool.reread: the source is not yet copied whole');
    return this.written === 0 ? (async function* () {})() : createReadStream(this.path, { highWaterMark: 1 << 16 });
  }

  /**
   * The whole input again without copying the rest: what the file holds, then the source's
   * chunks that the tee's reader did not take (read from the source, not written).
   */
  async *replay(): AsyncGenerator<Buffer> {
    if (this.written > 0) for await (const c of createReadStream(this.path, { highWaterMark: 1 << 16, end: this.written - 1 })) yield c as Buffer;
    const it = this.source;
    if (it === undefined) return;
    while (!this.ended) {
      const r = await it.next();
      if (r.done === true) this.ended = true;
      else yield chunkBuffer(r.value);
    }
  }

  /** Closes and removes the file (idempotent). */
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    if (this.folder !== '') {
      rmSync(this.folder, { recursive: true, force: true });
      this.folder = '';
      process.off('exit', this.onExit);
      for (const sig of SPOOL_SIGNALS) process.off(sig, this.onSignal);
    }
  }

  private write(buf: Buffer): void {
    try {
      if (this.fd < 0) {
        if (this.folder === '') {
          this.folder = mkdtempSync(join(this.dir, 'skewline-input-'));
          process.once('exit', this.onExit);
          for (const sig of SPOOL_SIGNALS) process.once(sig, this.onSignal);
        }
        this.fd = openSync(this.path, 'w');
      }
      for (let k = 0; k < buf.length; ) k += writeSync(this.fd, buf, k, buf.length - k, this.written + k);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new Error(`cannot write the temporary copy of the input in '${this.dir}' (${why}; set TMPDIR to a folder with room for the whole input)`, { cause: e });
    }
    this.written += buf.length;
  }
}

function chunkBuffer(v: unknown): Buffer {
  return typeof v === 'string' ? Buffer.from(v) : (v as Buffer);
}
