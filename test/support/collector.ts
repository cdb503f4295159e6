/** A writable stream (a CLI's stdout or stderr in tests) that collects what is written. */
import { Writable } from 'node:stream';
import { existsSync, readFileSync, rmSync } from 'node:fs';

export function collector(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** What a CLI run wrote to the file `out` (read, then removed), and whether it wrote one at all. */
export function takeOutput(out: string): { stdout: string; written: boolean } {
  if (!existsSync(out)) return { stdout: '', written: false };
  const stdout = readFileSync(out, 'utf8');
  rmSync(out);
  return { stdout, written: true };
}
