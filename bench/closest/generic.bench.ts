/**
 * The generic kernel (closestFlat: any kinds, any dimension) and the friendly closestPoints with
 * a reused target, against three.js distanceSqToLine3 on the same 3D segment pairs; and the
 * cost of one 1000-D query. Run alone: npx tsx bench/closest/generic.bench.ts [--pairs N] [--runs R]
 */
import { closestFlat, LINE, POINT, RAY, SEGMENT } from '../../src/index.js';
import { closestPoints, createClosestResult, segment } from '../../src/index.js';
import { three3 } from '../peers/three.js';
import { uniformPairs3 } from '../../test/support/families.js';
import { mulberry32 } from '../../test/support/rng.js';
import { machine, measure, sink, table } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

/** Each method in its own loop (see closest.bench.ts). */
export function run(opts: { pairs?: number; runs?: number } = {}): void {
  const n = opts.pairs ?? 1_000_000;
  const runs = opts.runs ?? 9;
  const data = uniformPairs3(n, 20240611);
  const out = new Float64Array(8);
  const m = Math.min(n, 200_000);
  const prims = Array.from({ length: m }, (_, i) => {
    const k = 12 * i;
    return [segment(data.subarray(k, k + 3), data.subarray(k + 3, k + 6)), segment(data.subarray(k + 6, k + 9), data.subarray(k + 9, k + 12))];
  });
  const target = createClosestResult(3);
  const rows = measure(
    [
      {
        name: 'closestFlat segment–segment',
        run: () => {
          let acc = 0;
          for (let k = 0; k < data.length; k += 12) acc += closestFlat(SEGMENT, SEGMENT, 3, data, k, out);
          return acc;
        },
      },
      {
        name: 'closestFlat ray–line',
        run: () => {
          let acc = 0;
          for (let k = 0; k < data.length; k += 12) acc += closestFlat(RAY, LINE, 3, data, k, out);
          return acc;
        },
      },
      {
        name: 'closestFlat point–segment',
        run: () => {
          let acc = 0;
          for (let k = 0; k < data.length; k += 12) acc += closestFlat(POINT, SEGMENT, 3, data, k, out);
          return acc;
        },
      },
      {
        name: 'three.js distanceSqToLine3',
        run: () => {
          let acc = 0;
          for (let k = 0; k < data.length; k += 12) acc += three3(data, k);
          return acc;
        },
      },
    ],
    runs,
  );
  console.log(table(`generic kernel, ${n.toLocaleString('en')} 3D pairs — ${machine()}`, rows, n, 'three.js distanceSqToLine3'));
  const api = measure(
    [
      {
        name: 'closestPoints(a, b, target) segment–segment',
        run: () => {
          let acc = 0;
          for (let i = 0; i < m; i++) acc += closestPoints(prims[i][0], prims[i][1], target).distance;
          return acc;
        },
      },
      {
        name: 'closestPoints(a, b) (fresh result)',
        run: () => {
          let acc = 0;
          for (let i = 0; i < m; i++) acc += closestPoints(prims[i][0], prims[i][1]).distance;
          return acc;
        },
      },
    ],
    runs,
  );
  console.log(table(`friendly API, ${m.toLocaleString('en')} 3D segment pairs`, api, m, 'closestPoints(a, b) (fresh result)'));
  const rng = mulberry32(1000);
  const dim = 1000;
  const big = new Float64Array(4 * dim).map(() => rng() * 2 - 1);
  const out2 = new Float64Array(8 + dim);
  const nd = measure([{ name: `closestFlat segment–segment, ${dim}-D`, run: () => closestFlat(SEGMENT, SEGMENT, dim, big, 0, out2) }], 5, 1);
  console.log(`\n| one ${dim}-D segment–segment query | ${nd[0].median.toFixed(1)} ms (spread ${nd[0].min.toFixed(1)}–${nd[0].max.toFixed(1)}) |`);
  if (sink === 42) console.log('');
}

if (import.meta.url === `file://${process.argv[1]}`) run({ pairs: arg('--pairs', 1_000_000), runs: arg('--runs', 9) });
