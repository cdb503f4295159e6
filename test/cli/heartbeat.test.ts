/**
 * The status line's clock keeps moving while the main thread is held by one long synchronous call
 * (cli/heartbeat.ts): checked in a child process whose main thread busy-waits, so no timer of its
 * own can fire, with stderr captured through a pipe.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'skewline-heartbeat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('heartbeat', () => {
  it('issue 15/17: during a synchronous search the elapsed time keeps moving, and the line after it is never interleaved', () => {
    const script = join(dir, 'busy.mts');
    writeFileSync(
      script,
      `import { heartbeat } from ${JSON.stringify(join(REPO, 'cli', 'heartbeat.ts'))};
const t0 = Date.now();
const stop = heartbeat('\\rskewline chain: searching | ', ' s', t0, 100);
while (Date.now() - t0 < 1500) {} // the main thread is held: no timer, no event loop
stop();
process.stderr.write('\\nEND\\n');
`,
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: REPO, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const draws = r.stderr.split('\r').filter((s) => s.startsWith('skewline chain: searching | '));
    const secs = draws.map((s) => Number(/\| ([\d.]+) s/.exec(s)![1]));
    expect(secs.length).toBeGreaterThanOrEqual(4); // at every 100 ms over 1.5 s: well above 4 unless stuck
    for (let k = 1; k < secs.length; k++) expect(secs[k]).toBeGreaterThanOrEqual(secs[k - 1]);
    expect(secs.at(-1)! - secs[0]).toBeGreaterThan(0.5);
    expect(r.stderr.endsWith(' s\nEND\n')).toBe(true); // the last redraw ended before our line
  }, 60_000);

  it('issue 15/17: skewline chain --progress on a real process still writes the same contacts', () => {
    // a 2D walk of 60,000 unit steps on the integer grid: many touches
    let s = 'x,y\n';
    let x = 0, y = 0, seed = 15;
    for (let k = 0; k <= 60_000; k++) {
      s += `${x},${y}\n`;
      seed = (seed * 1103515245 + 12345) >>> 0;
      const d = (seed >>> 16) & 3;
      if (d === 0) x++; else if (d === 1) x--; else if (d === 2) y++; else y--;
    }
    const input = join(dir, 'walk.csv');
    writeFileSync(input, s);
    const bin = join(REPO, 'bin', 'skewline.js');
    const plain = spawnSync(process.execPath, [bin, 'chain', input, '-o', join(dir, 'a.csv'), '--threads', '1'], { encoding: 'utf8' });
    const shown = spawnSync(process.execPath, [bin, 'chain', input, '-o', join(dir, 'b.csv'), '--threads', '1', '--progress'], { encoding: 'utf8' });
    expect(plain.status, plain.stderr).toBe(0);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/skewline chain: searching 60,001 vertices in 1 chains \| [\d.]+ s/);
    expect(readFileSync(join(dir, 'b.csv'), 'utf8')).toBe(readFileSync(join(dir, 'a.csv'), 'utf8'));
  }, 60_000);
});
