/**
 * Moving spheres: skewline's sphereSweep with a reused target (exact decisions, no allocation)
 * against the textbook quadratic in doubles on the same inputs (the same Float64Array points),
 * and how many cases each of sphereSweep's paths took.
 * Run alone: npx tsx bench/motion/sweep.bench.ts [--pairs N] [--runs R] [--cpu]
 * (--cpu: CPU time of this process instead of the wall clock, for a box shared with other jobs)
 */
import { createSweepResult, sphereSweep, sweepStats } from '../../src/motion/sweep.js';
import { textbookSweep } from '../peers/textbook-sweep.js';
import { sweepCases } from '../../test/support/motion-families.js';
import { machine, measure, sink, table, type Timing } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

/** Per case: p0, p1, q0, q1 as Float64Arrays (made once), radii in a flat array. */
function cases(name: string, n: number, seed: number): { pts: Float64Array[]; radii: Float64Array } {
  const pts: Float64Array[] = [];
  const radii = new Float64Array(2 * n);
  sweepCases(name, n, seed).forEach((c, k) => {
    pts.push(Float64Array.from(c.p0), Float64Array.from(c.p1), Float64Array.from(c.q0), Float64Array.from(c.q1));
    radii[2 * k] = c.r1;
    radii[2 * k + 1] = c.r2;
  });
  return { pts, radii };
}

/**
 * {@link measure} by the process's CPU time instead of the wall clock (process.cpuUsage, user +
 * system), the same interleaving: on a box shared with other jobs the time spent descheduled
 * stays out of the figures (cache and frequency effects do not). Reported as min and median.
 */
function measureCpu(methods: readonly { name: string; run: () => number }[], runs: number): Timing[] {
  let s = 0;
  for (let w = 0; w < 2; w++) for (const m of methods) s += m.run();
  const times = methods.map(() => [] as number[]);
  for (let r = 0; r < runs; r++) {
    methods.forEach((m, i) => {
      const c0 = process.cpuUsage();
      s += m.run();
      const c = process.cpuUsage(c0);
      times[i].push((c.user + c.system) / 1000);
    });
  }
  if (s === 42) console.log('');
  return methods.map((m, i) => {
    const ts = times[i].slice().sort((a, b) => a - b);
    return { name: m.name, median: ts[ts.length >> 1], min: ts[0], max: ts[ts.length - 1] };
  });
}

export function run(opts: { pairs?: number; runs?: number; cpu?: boolean } = {}): void {
  const n = Math.min(opts.pairs ?? 200_000, 200_000);
  const runs = opts.runs ?? 7;
  const target = createSweepResult(3);
  for (const name of ['random', 'grazing', 'tinyFast']) {
    const { pts, radii } = cases(name, n, 4242);
    const rows = (opts.cpu === true ? measureCpu : measure)(
      [
        {
          name: 'skewline sphereSweep, target (exact decisions)',
          run: () => {
            let acc = 0;
            for (let k = 0; k < n; k++) {
              const j = 4 * k;
              acc += sphereSweep(pts[j], pts[j + 1], radii[2 * k], pts[j + 2], pts[j + 3], radii[2 * k + 1], target).time;
            }
            return acc;
          },
        },
        {
          name: 'textbook quadratic (doubles)',
          run: () => {
            let acc = 0;
            for (let k = 0; k < n; k++) {
              const j = 4 * k;
              const t = textbookSweep(pts[j], pts[j + 1], radii[2 * k], pts[j + 2], pts[j + 3], radii[2 * k + 1]);
              acc += t < 0 ? 1 : t;
            }
            return acc;
          },
        },
      ],
      runs,
    );
    console.log(table(`moving spheres, ${name}, ${n.toLocaleString('en')} 3D cases${opts.cpu === true ? ' (CPU time, ms)' : ''} — ${machine()}`, rows, n, 'textbook quadratic (doubles)'));
    // One more pass, counted: how many cases each path took.
    sweepStats.double = 0;
    sweepStats.doubleDouble = 0;
    sweepStats.certify = 0;
    sweepStats.exact = 0;
    sweepStats.quick = 0;
    sweepStats.staged = 0;
    let hits = 0;
    for (let k = 0; k < n; k++) {
      const j = 4 * k;
      if (sphereSweep(pts[j], pts[j + 1], radii[2 * k], pts[j + 2], pts[j + 3], radii[2 * k + 1], target).hit) hits++;
    }
    const pct = (x: number) => `${x.toLocaleString('en')} (${((100 * x) / n).toFixed(2)}%)`;
    console.log(
      `${name}: ${pct(hits)} hits; paths: doubles only ${pct(sweepStats.double)}, double-double decisions ${pct(sweepStats.doubleDouble)}, double-double time certificate ${pct(sweepStats.certify)} (one pass ${pct(sweepStats.quick)}), gap at the chosen time in doubles (staged) ${pct(sweepStats.staged)}, exact BigInt ${pct(sweepStats.exact)}\n`,
    );
  }
  if (sink === 42) console.log('');
}

if (import.meta.url === `file://${process.argv[1]}`) run({ pairs: arg('--pairs', 200_000), runs: arg('--runs', 7), cpu: process.argv.includes('--cpu') });
