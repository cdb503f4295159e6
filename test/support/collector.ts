/** A writable stream (a CLI's stdout or stderr in tests) that collects what is written. */
import { Writable } from 'node:stream';

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
