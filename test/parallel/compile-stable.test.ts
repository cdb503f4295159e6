/**
 * skewline/parallel's chain search keeps its compiled code from call to call (issue 15). The
 * shared builds used to hand each chunk to a closure made afresh on every call, and V8 compiled
 * those closures again on every call: on a compiler thread which, on a two-core machine, takes
 * its time from the two threads of the search. A child process runs the search under
 * `node --trace-opt` and the test counts the compilations once it is warm.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const probe = fileURLToPath(new URL('./compile-probe.mts', import.meta.url));

/** V8's reports during the measured calls of compile-probe.mts: compilations and bailouts, and the contacts counted. */
function compilations(dim: number, segments: number, warm: number, calls: number): { compiled: string[]; bailouts: number; contacts: number } {
  const r = spawnSync(process.execPath, ['--trace-opt', '--trace-deopt', '--import', 'tsx', probe, String(dim), String(segments), String(warm), String(calls)], {
    encoding: 'utf8', maxBuffer: 1 << 28,
  });
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.split('\n');
  const a = lines.findIndex((l) => l.startsWith('=== measured calls start'));
  const b = lines.findIndex((l) => l.startsWith('=== measured calls end'));
  expect(a >= 0 && b > a, 'the probe printed its markers').toBe(true);
  const during = lines.slice(a + 1, b);
  const compiled = during.filter((l) => l.startsWith('[completed compiling')).map((l) => /<JSFunction ([^ ]*)/.exec(l)?.[1] ?? '?');
  return { compiled, bailouts: during.filter((l) => l.startsWith('[bailout')).length, contacts: Number(lines[b].split(' ').pop()) };
}

describe('issue 15: the parallel chain search is compiled once, not on every call', () => {
  it('issue 15: once warm, six two-thread calls on a 500,000-step planar walk (seed 2) compile at most 8 functions in all (the per-call closures of the shared build: 14–15)', () => {
    const { compiled, contacts } = compilations(2, 500_000, 6, 6);
    expect(contacts).toBeGreaterThan(0);
    expect(compiled.length, `compiled during the measured calls: ${compiled.join(', ')}`).toBeLessThanOrEqual(8);
  });
});
