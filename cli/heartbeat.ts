/**
 * A status line that keeps its clock moving while the main thread is busy in one long
 * synchronous call (a chain search): a tiny worker thread redraws the line on stderr every
 * quarter second by writing to file descriptor 2 itself (`fs.writeSync`), which needs nothing
 * from the blocked main thread. `process.stderr` in a worker would not do: a worker's stdio is
 * relayed by the main thread's event loop.
 *
 * Only for the real stderr (a TTY or a pipe, both written synchronously on Linux and macOS, so the
 * main thread's own lines and the worker's never interleave: stopping waits for the worker's
 * last write to end). The worker is unref'd and holds no handle on the process.
 */
import { Worker } from 'node:worker_threads';

// flags: [0] stop requested, [1] the worker is done writing, [2] the worker has started.
const SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const { flags, prefix, suffix, t0, every } = workerData;
const f = new Int32Array(flags);
Atomics.store(f, 2, 1);
while (Atomics.load(f, 0) === 0) {
  Atomics.wait(f, 0, 0, every);
  if (Atomics.load(f, 0) !== 0) break;
  try { writeSync(2, prefix + ((Date.now() - t0) / 1000).toFixed(1) + suffix); } catch { break; }
}
Atomics.store(f, 1, 1);
Atomics.notify(f, 1);
`;

/**
 * Starts redrawing `prefix + elapsed seconds + suffix` on fd 2 every `every` ms (elapsed counted
 * from `t0`, a `Date.now()` value) and returns the function that stops it. The stop function
 * returns once the worker can no longer write (at most one redraw's time), so the caller's next
 * line is not interleaved with it; calling it twice is harmless.
 */
export function heartbeat(prefix: string, suffix: string, t0: number, every = 250): () => void {
  const flags = new Int32Array(new SharedArrayBuffer(12));
  const worker = new Worker(SOURCE, { eval: true, workerData: { flags: flags.buffer, prefix, suffix, t0, every } });
  worker.unref();
  worker.on('error', () => {}); // a failed redraw must never fail the command
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    Atomics.store(flags, 0, 1);
    Atomics.notify(flags, 0);
    // A worker that has not started will see the stop before its first write; one that has
    // started ends its write (if any) and then says so.
    if (Atomics.load(flags, 2) === 1) Atomics.wait(flags, 1, 0, 1000);
    void worker.terminate();
  };
}
