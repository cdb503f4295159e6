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
const gridProbe = fileURLToPath(new URL('./grid3-probe.mts', import.meta.url));

/** V8's reports during the measured calls of compile-probe.mts: compilations and bailouts, and the contacts counted. */
function compilations(dim: number, segments: number, warm: number, calls: number): { compiled: string[]; bailouts: number; contacts: number } {
  const { compiled, bailed, total } = traced(probe, [dim, segments, warm, calls]);
  return { compiled, bailouts: bailed.length, contacts: total };
}

/** Runs a probe under --trace-opt --trace-deopt: what V8 compiled and which functions bailed out between its markers, and the total it printed. */
function traced(file: string, args: number[]): { compiled: string[]; bailed: string[]; total: number } {
  const r = spawnSync(process.execPath, ['--trace-opt', '--trace-deopt', '--import', 'tsx', file, ...args.map(String)], {
    encoding: 'utf8', maxBuffer: 1 << 28,
  });
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.split('\n');
  const a = lines.findIndex((l) => l.startsWith('=== measured calls start'));
  const b = lines.findIndex((l) => l.startsWith('=== measured calls end'));
  expect(a >= 0 && b > a, 'the probe printed its markers').toBe(true);
  const during = lines.slice(a + 1, b);
  const name = (l: string): string => /<JSFunction ([^ ]*)/.exec(l)?.[1] ?? '?';
  const compiled = during.filter((l) => l.startsWith('[completed compiling')).map(name);
  const bailed = during.filter((l) => l.startsWith('[bailout')).map(name);
  return { compiled, bailed, total: Number(lines[b].split(' ').pop()) };
}

describe('issue 15: the parallel chain search is compiled once, not on every call', () => {
  // Twelve warm calls: the search in chain order's build steps run once a call and thread, so V8
  // may first compile them (once in each thread's isolate) after the sixth call on a busy machine.
  it('issue 15: once warm (twelve calls), six two-thread calls on a 500,000-step planar walk (seed 2) compile at most 8 functions in all, none more than once a thread (the per-call closures of the shared build: 14–15)', () => {
    const { compiled, contacts } = compilations(2, 500_000, 12, 6);
    expect(contacts).toBeGreaterThan(0);
    expect(compiled.length, `compiled during the measured calls: ${compiled.join(', ')}`).toBeLessThanOrEqual(8);
    const times = new Map<string, number>();
    for (const f of compiled) times.set(f, (times.get(f) ?? 0) + 1);
    const again = [...times].filter(([, n]) => n > 2).map(([f, n]) => `${f} ×${n}`);
    expect(again, 'functions compiled again and again during the measured calls').toEqual([]);
  });

  it('issue 15: blockGrid3 does not bail out at its loop exits: once warm, eight builds of a 300,000-step 3D walk’s block grid (seed 1) bail out 0 times in it (before: 19)', () => {
    const { bailed, total } = traced(gridProbe, [300_000, 3, 8]);
    expect(total).toBeGreaterThan(0);
    const grid = bailed.filter((f) => f === 'blockGrid3' || /^grid[A-Za-z]*3$/.test(f));
    expect(grid, `bailouts in the grid build during the measured calls: ${grid.join(', ')}`).toEqual([]);
  });
});
