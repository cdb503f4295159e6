/**
 * The progress bar's phases (cli/progress.ts), in process on a fake stderr: it keeps moving
 * through every phase of long work — reading, searching, writing — never shows "0 rows", and
 * redraws on its own (a timer) while the event loop is free between ticks.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../cli/progress.js';

/** A stream that keeps what was written, one entry per redraw. */
function sink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { stream, lines };
}

describe('ProgressBar', () => {
  it('issue 17: the bar keeps moving through every phase (reading, searching, writing), never "0 rows"', async () => {
    const { stream, lines } = sink();
    const bar = new ProgressBar(stream, 'skewline chain', 2_000_000);
    bar.update(1_000_000, 0, true);
    expect(lines.at(-1)).toMatch(/^\rskewline chain . reading \|█{15}░{15}\| 50% \| 1\.0\/2\.0 MB \| \d+ s/);
    expect(lines.at(-1)!.endsWith('\u001b[K')).toBe(true); // clears the rest of the line
    expect(lines.join('')).not.toMatch(/0 rows/);
    bar.phase('searching', 400, 'segments');
    expect(lines.at(-1)).toMatch(/searching \|░{30}\| 0% \| 0\/400 segments/);
    bar.tick(100, true);
    expect(lines.at(-1)).toMatch(/searching \|█{8}░{22}\| 25% \| 100\/400 segments/);
    bar.phase('writing', undefined, 'contacts');
    bar.tick(12_345, true);
    expect(lines.at(-1)).toMatch(/writing 12,345 contacts \| \d+ s/);
    // between ticks, the timer redraws (the spinner turns), so the line never looks stuck
    const before = lines.length;
    await new Promise((r) => setTimeout(r, 1200));
    expect(lines.length).toBeGreaterThan(before);
    const spins = new Set(lines.slice(before).map((l) => l.charAt('\rskewline chain '.length)));
    expect(spins.size).toBeGreaterThan(1);
    bar.stop();
    expect(lines.at(-1)).toBe('\n');
    const after = lines.length;
    bar.tick(1, true);
    await new Promise((r) => setTimeout(r, 600));
    expect(lines.length).toBe(after); // stopped: no more drawing, the timer is gone
  });

  it('rows appear once there are some; redraws are limited to five a second unless forced', () => {
    const { stream, lines } = sink();
    const bar = new ProgressBar(stream, 'skewline closest', undefined);
    bar.update(10, 0, true);
    expect(lines.at(-1)).toMatch(/reading 0\.0 MB \| \d+ s/);
    bar.update(20, 7, true);
    expect(lines.at(-1)).toMatch(/reading 0\.0 MB \| 7 rows \| \d+ s/);
    const n = lines.length;
    for (let k = 0; k < 1000; k++) bar.update(20 + k, 8 + k);
    expect(lines.length - n).toBeLessThanOrEqual(1);
    bar.stop();
  });
});
