/**
 * Shared input of the skewline commands: where the input comes from (a file, `-`, piped
 * standard input, or the bundled examples) and a streaming line reader.
 *
 * The reader assembles each line from the chunks it spans in one join (linear in the line's
 * length), stops as soon as a line grows past the limit (naming the line), and ends lines at
 * `\n`, `\r\n` or a lone `\r` (old Mac files), so no `\r` ever reaches a parser or a message.
 */
import { fstatSync } from 'node:fs';
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
