/**
 * The CLI's per-row checks, priced: the JSON depth limit (parseJsonText: one scan of the line
 * before JSON.parse) and the finite-output check (finiteResult before a row is formatted), each
 * against the same step without it, on seeded 3D segment pairs as `skewline closest` reads them;
 * and the share of a row's time that is geometry (the part worker threads could take: Amdahl).
 * Run alone: npx tsx bench/cli/rows.bench.ts [--pairs N] [--runs R]
 */
import { closestPoints, segment, type ClosestResult } from '../../src/index.js';
import { parseJsonText } from '../../cli/rows.js';
import { finiteClosest, ndjsonFormatter } from '../../cli/output.js';
import { mulberry32 } from '../../scripts/big-input.js';
import { machine, measure, sink, table } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

export function run(opts: { pairs?: number; runs?: number } = {}): void {
  const n = Math.min(opts.pairs ?? 100_000, 100_000);
  const runs = opts.runs ?? 7;
  const rnd = mulberry32(1717);
  const pt = (): number[] => [rnd() * 200 - 100, rnd() * 200 - 100, rnd() * 200 - 100];
  const lines: string[] = [];
  const results: ClosestResult[] = [];
  for (let k = 0; k < n; k++) {
    const a = [pt(), pt()], b = [pt(), pt()];
    lines.push(JSON.stringify({ a, b }));
    results.push(closestPoints(segment(a[0], a[1]), segment(b[0], b[1])));
  }
  const parse = measure(
    [
      { name: 'JSON.parse', run: () => lines.reduce((acc, l) => acc + (JSON.parse(l) as { a: number[][] }).a[0][0], 0) },
      { name: 'parseJsonText (depth limit)', run: () => lines.reduce((acc, l) => acc + (parseJsonText(l) as { a: number[][] }).a[0][0], 0) },
    ],
    runs,
  );
  console.log(table(`CLI: reading ${n.toLocaleString('en')} NDJSON rows of 3D segment pairs`, parse, n, 'JSON.parse'));
  const fmt = ndjsonFormatter();
  const write = measure(
    [
      {
        // the formatter before the finite check: JSON.stringify with the −0 replacer
        name: 'JSON.stringify with the -0 replacer (before)',
        run: () => results.reduce((acc, r) => acc + JSON.stringify({ distance: r.distance, c: r.c, d: r.d, p: r.p, s: r.s, t: r.t, relation: r.relation, unique: r.unique },
          (_k, v: unknown) => (Object.is(v, -0) ? '\uE000-0\uE000' : v)).replaceAll('"\uE000-0\uE000"', '-0').length + 1, 0),
      },
      { name: 'ndjsonFormatter (finite check, -0 kept)', run: () => results.reduce((acc, r) => acc + fmt.format(undefined, 3, r).length, 0) },
      { name: 'finiteClosest alone', run: () => results.reduce((acc, r) => (finiteClosest(r, false), acc + 1), 0) },
    ],
    runs,
  );
  console.log(table(`CLI: writing ${n.toLocaleString('en')} closest results as NDJSON`, write, n, 'JSON.stringify with the -0 replacer (before)'));

  // Amdahl before threads: the share of a row's time that is the geometry (what worker threads
  // computing closestPoints could split); reading and writing stay on the calling thread.
  const parsed = lines.map((l) => JSON.parse(l) as { a: number[][]; b: number[][] });
  const steps = measure(
    [
      { name: 'read (parseJsonText)', run: () => lines.reduce((acc, l) => acc + (parseJsonText(l) as { a: number[][] }).a[0][0], 0) },
      { name: 'closestPoints', run: () => parsed.reduce((acc, r) => acc + closestPoints(segment(r.a[0], r.a[1]), segment(r.b[0], r.b[1])).distance, 0) },
      { name: 'write (ndjsonFormatter)', run: () => results.reduce((acc, r) => acc + fmt.format(undefined, 3, r).length, 0) },
    ],
    runs,
  );
  console.log(table(`CLI closest: the steps of ${n.toLocaleString('en')} NDJSON rows`, steps, n, 'closestPoints'));
  const all = steps.reduce((acc, s) => acc + s.median, 0);
  const geometry = steps[1].median / all;
  console.log(`geometry share ${(geometry * 100).toFixed(0)}%: threads computing closestPoints alone could speed a row up at most ${(1 / (1 - geometry)).toFixed(2)}×`);
}

if (process.argv[1]?.endsWith('rows.bench.ts')) {
  console.log(`skewline CLI row benchmarks — ${machine()}`);
  run({ pairs: arg('--pairs', 100_000), runs: arg('--runs', 7) });
  console.log(`(sink ${sink > 0 ? '+' : '-'})`);
}
