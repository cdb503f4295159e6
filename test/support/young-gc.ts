/**
 * Counting young-generation garbage collections of a loop, in a child process: the test of
 * "allocates nothing" that does not depend on a profiler. A loop that allocates even 16 bytes a
 * call fills a 1 MiB semi-space every ~65,000 calls, so over 1e7 calls it triggers about 150
 * minor collections more than an empty loop; an allocation-free loop triggers the same number as
 * the empty one (those come from loading the modules and from warm-up).
 *
 * The child runs `node --max-semi-space-size=1 --import tsx` on a generated script that imports
 * what `setup` needs (absolute paths, resolved from the repository root), runs `body` `iterations`
 * times in a function (so that V8 optimises it), and reports the count of `gc` performance entries
 * of kind minor (Node's perf_hooks, `PerformanceObserver` with entryTypes ['gc'];
 * `constants.NODE_PERFORMANCE_GC_MINOR`).
 *
 * Usage:
 *   const n = youngGcs({ imports: { closestSegSeg3: 'src/index.ts' }, setup: 'const d = …;',
 *     body: 'acc += closestSegSeg3(d, (i & 1023) * 12, null, 0);', iterations: 1e7 });
 *   const empty = youngGcs({ body: 'acc += i;', iterations: 1e7 });
 *   expect(n).toBeLessThanOrEqual(empty + SLACK);
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is test/support/young-gc.ts). */
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** What {@link youngGcs} runs. */
export interface GcLoop {
  /** Named imports: `{ name: 'src/index.ts' }`, paths relative to the repository root. */
  imports?: Record<string, string>;
  /** Statements run once before the loop (build the data here). */
  setup?: string;
  /** The loop body; `i` is the iteration index, add something to the local `acc` (a number) so the work is kept. */
  body: string;
  /** How many times the body runs (after a warm-up of 50 calls of iterations/500, not counted). */
  iterations: number;
}

/**
 * Runs the loop in a fresh Node process with a 1 MiB semi-space and returns the number of
 * minor (scavenge) collections during the timed loop. Warm-up runs first, in many short calls
 * (so that the function is optimised as a whole before counting starts); the count covers the
 * measured loop only.
 * @throws Error with the child's output if it fails.
 */
export function youngGcs(loop: GcLoop): number {
  // On a loaded machine V8's background compiler can finish the optimised loop late, and the
  // unoptimised code it replaces allocates meanwhile: a count above 0 is measured again (up to
  // three runs) and the least is returned. Code that allocates in its optimised form allocates
  // in every run, so this hides no steady-state allocation.
  let least = youngGcsOnce(loop);
  for (let k = 1; k < 3 && least > 0; k++) least = Math.min(least, youngGcsOnce(loop));
  return least;
}

function youngGcsOnce(loop: GcLoop): number {
  const dir = mkdtempSync(join(tmpdir(), 'skewline-gc-'));
  const file = join(dir, 'loop.mts');
  const imports = Object.entries(loop.imports ?? {})
    .map(([name, path]) => `import { ${name} } from ${JSON.stringify(resolve(ROOT, path))};`)
    .join('\n');
  const script = `${imports}
import { PerformanceObserver, constants } from 'node:perf_hooks';
${loop.setup ?? ''}
function run(n: number): number {
  let acc = 0;
  for (let i = 0; i < n; i++) {
    ${loop.body}
  }
  return acc;
}
// Warm-up in many short calls, so that V8 optimises run as a whole: code entered only by
// on-stack replacement can keep the loop's double accumulator boxed (16 bytes an iteration).
for (let k = 0; k < 50; k++) run(${Math.max(1, Math.floor(loop.iterations / 500))});
let minor = 0;
let counting = true;
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
    if (counting && kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
  }
});
obs.observe({ entryTypes: ['gc'] });
// Let the observer settle, then count only the measured loop.
await new Promise((r) => setTimeout(r, 10));
minor = 0;
const result = run(${loop.iterations});
await new Promise((r) => setTimeout(r, 10));
counting = false;
obs.disconnect();
console.log(JSON.stringify({ minor, sink: Number.isFinite(result) ? 1 : 0 }));
`;
  writeFileSync(file, script);
  try {
    const out = execFileSync(process.execPath, ['--max-semi-space-size=1', '--import', 'tsx', file], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = out.trim().split('\n').pop() ?? '';
    return (JSON.parse(line) as { minor: number }).minor;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
