/**
 * Capsule sweeps: skewline's capsuleSweep with a reused target (exact decisions, the first
 * double of contact) against rapier3d's castShape (WebAssembly, f32) on the same random 3D
 * capsule pairs — all queries, then the hits alone — with how often skewline needed BigInt and
 * how often rapier's decision differs from the exact one.
 * Run alone: npx tsx bench/motion/capsule.bench.ts [--pairs N] [--runs R]
 */
import { capsuleStats, capsuleSweep, createCapsuleResult } from '../../src/motion/capsule.js';
import { capsuleCases } from '../../test/support/motion-families.js';
import { initRapier, rapierCapsule, rapierCast, type RapierCapsule } from '../peers/rapier.js';
import { machine, measure, sink, table } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

interface Pair {
  a0: Float64Array;
  a1: Float64Array;
  ra: number;
  move: Float64Array;
  b0: Float64Array;
  b1: Float64Array;
  rb: number;
  ca: RapierCapsule;
  cb: RapierCapsule;
  mv: { x: number; y: number; z: number };
}

export async function run(opts: { pairs?: number; runs?: number } = {}): Promise<void> {
  await initRapier();
  const n = opts.pairs ?? 20_000;
  const runs = opts.runs ?? 7;
  const target = createCapsuleResult(3);
  const pairs: Pair[] = capsuleCases('random', n, 4343, 3).map((c) => ({
    a0: Float64Array.from(c.a0),
    a1: Float64Array.from(c.a1),
    ra: c.ra,
    move: Float64Array.from(c.move),
    b0: Float64Array.from(c.b0),
    b1: Float64Array.from(c.b1),
    rb: c.rb,
    ca: rapierCapsule(c.a0, c.a1, c.ra),
    cb: rapierCapsule(c.b0, c.b1, c.rb),
    mv: { x: c.move[0], y: c.move[1], z: c.move[2] },
  }));
  const hits = pairs.filter((p) => capsuleSweep(p.a0, p.a1, p.ra, p.move, p.b0, p.b1, p.rb, target).hit);
  let differ = 0;
  for (const p of pairs) if (rapierCast(p.ca, p.mv, p.cb) >= 0 !== capsuleSweep(p.a0, p.a1, p.ra, p.move, p.b0, p.b1, p.rb, target).hit) differ++;
  const methods = (set: Pair[]) => [
    {
      name: 'skewline capsuleSweep, target (exact)',
      run: () => {
        let acc = 0;
        for (const p of set) acc += capsuleSweep(p.a0, p.a1, p.ra, p.move, p.b0, p.b1, p.rb, target).time;
        return acc;
      },
    },
    {
      name: 'rapier3d castShape (wasm, f32)',
      run: () => {
        let acc = 0;
        for (const p of set) acc += rapierCast(p.ca, p.mv, p.cb);
        return acc;
      },
    },
  ];
  for (const [label, set] of [
    ['all queries', pairs],
    ['hits alone', hits],
  ] as const) {
    const rows = measure(methods(set), runs);
    console.log(table(`capsule sweeps, random 3D pairs, ${label} (${set.length.toLocaleString('en')}) — ${machine()}`, rows, set.length, 'rapier3d castShape (wasm, f32)'));
    capsuleStats.calls = 0;
    capsuleStats.exactTouch = 0;
    capsuleStats.ddTouch = 0;
    capsuleStats.exactHit = 0;
    for (const p of set) capsuleSweep(p.a0, p.a1, p.ra, p.move, p.b0, p.b1, p.rb, target);
    console.log(
      `${label}: ${capsuleStats.calls.toLocaleString('en')} sweeps; double-double touch predicates ${capsuleStats.ddTouch.toLocaleString('en')} (${(capsuleStats.ddTouch / set.length).toFixed(2)} a sweep), BigInt touch predicates ${capsuleStats.exactTouch.toLocaleString('en')} (${(capsuleStats.exactTouch / set.length).toFixed(2)} a sweep), BigInt hit decisions ${capsuleStats.exactHit.toLocaleString('en')}\n`,
    );
  }
  console.log(`hits ${hits.length.toLocaleString('en')} of ${n.toLocaleString('en')} (${((100 * hits.length) / n).toFixed(1)}%); rapier's hit/miss differs from the exact decision on ${differ} pairs\n`);
  if (sink === 42) console.log('');
}

if (import.meta.url === `file://${process.argv[1]}`) await run({ pairs: arg('--pairs', 20_000), runs: arg('--runs', 7) });
