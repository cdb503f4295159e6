/**
 * Moving spheres: skewline's sphereSweep (exact decisions) against the textbook quadratic in
 * doubles on the same inputs, and how often sphereSweep needed exact arithmetic.
 * Run alone: npx tsx bench/motion/sweep.bench.ts [--pairs N] [--runs R]
 */
import { certifyStats, sweepStats, sweepTime } from '../../src/motion/sweep.js';
import { textbookSweep } from '../peers/textbook-sweep.js';
import { sweepCases } from '../../test/support/motion-families.js';
import { machine, measure, sink, table } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

/** Flat layout per case: p0, p1, q0, q1 (3 numbers each), r1, r2. */
function flatten(name: string, n: number, seed: number): Float64Array {
  const out = new Float64Array(14 * n);
  sweepCases(name, n, seed).forEach((c, k) => {
    out.set([...c.p0, ...c.p1, ...c.q0, ...c.q1, c.r1, c.r2], 14 * k);
  });
  return out;
}

export function run(opts: { pairs?: number; runs?: number } = {}): void {
  const n = Math.min(opts.pairs ?? 200_000, 200_000);
  const runs = opts.runs ?? 7;
  for (const name of ['random', 'grazing', 'tinyFast']) {
    const data = flatten(name, n, 4242);
    const rows = measure(
      [
        {
          name: 'skewline sphereSweep (exact decisions)',
          run: () => {
            let acc = 0;
            for (let k = 0; k < data.length; k += 14) {
              acc += sweepTime(data.subarray(k, k + 3), data.subarray(k + 3, k + 6), data.subarray(k + 6, k + 9), data.subarray(k + 9, k + 12), data[k + 12], data[k + 13]);
            }
            return acc;
          },
        },
        {
          name: 'textbook quadratic (doubles)',
          run: () => {
            let acc = 0;
            for (let k = 0; k < data.length; k += 14) {
              acc += textbookSweep(data.subarray(k, k + 3), data.subarray(k + 3, k + 6), data[k + 12], data.subarray(k + 6, k + 9), data.subarray(k + 9, k + 12), data[k + 13]);
            }
            return acc;
          },
        },
      ],
      runs,
    );
    console.log(table(`moving spheres, ${name}, ${n.toLocaleString('en')} 3D cases — ${machine()}`, rows, n, 'textbook quadratic (doubles)'));
    // One more pass, counted: how often the double-double certificate and the exact path ran.
    sweepStats.exact = 0;
    certifyStats.runs = 0;
    let hits = 0;
    for (let k = 0; k < data.length; k += 14) {
      if (sweepTime(data.subarray(k, k + 3), data.subarray(k + 3, k + 6), data.subarray(k + 6, k + 9), data.subarray(k + 9, k + 12), data[k + 12], data[k + 13]) >= 0) hits++;
    }
    const pct = (x: number) => `${x.toLocaleString('en')} (${((100 * x) / n).toFixed(2)}%)`;
    console.log(`${name}: ${pct(hits)} hits; time certified in double-double ${pct(certifyStats.runs)}; exact BigInt path ${pct(sweepStats.exact)}\n`);
  }
  if (sink === 42) console.log('');
}

if (import.meta.url === `file://${process.argv[1]}`) run({ pairs: arg('--pairs', 200_000), runs: arg('--runs', 7) });
