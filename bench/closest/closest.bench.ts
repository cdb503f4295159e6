/**
 * Segment–segment closest points, 3D: skewline's non-allocating kernel and batch against
 * three.js Line3.distanceSqToLine3 (reused objects fed from the same Float64Array) and ports
 * of Ericson's, Sunday's and Rhodes' routines, plus a plain summing pass as the memory floor.
 * Run: npx tsx bench/closest.bench.ts [--pairs N] [--runs R]
 */
import { closestSegSeg3 } from '../../src/closest/segment-kernels.js';
import { allocPairs3, segmentDistances } from '../../src/batch/batch.js';
import { three3 } from '../peers/three.js';
import { ericson3 } from '../peers/ericson.js';
import { sunday3 } from '../peers/sunday.js';
import { rhodes3 } from '../peers/rhodes.js';
import { nearlyParallelPairs3, uniformPairs3 } from '../../test/support/families.js';
import { machine, measure, sink, table } from '../harness.js';
import type { Timing } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

/**
 * Each method gets its own loop, written out: a shared `loop(f)` helper would make the call
 * site megamorphic, so V8 would inline none of the kernels and every method would be slowed
 * (the peers more than skewline, which would flatter skewline).
 */
function methods(data: Float64Array, resident: Float64Array, out: Float64Array) {
  const n = data.length / 12;
  const st = new Float64Array(2);
  return [
    {
      name: 'skewline closestSegSeg3 (s,t out)',
      run: () => {
        let acc = 0;
        for (let k = 0; k < data.length; k += 12) acc += closestSegSeg3(data, k, st, 0);
        return acc;
      },
    },
    { name: 'skewline segmentDistances (batch)', run: () => segmentDistances(data, 3, out)[n >> 1] },
    { name: 'skewline segmentDistances (allocPairs3, WebAssembly)', run: () => segmentDistances(resident, 3, out)[n >> 1] },
    {
      name: 'three.js on the allocPairs3 array',
      run: () => {
        let acc = 0;
        for (let k = 0; k < resident.length; k += 12) acc += three3(resident, k);
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
    {
      name: 'Ericson port',
      run: () => {
        let acc = 0;
        for (let k = 0; k < data.length; k += 12) acc += ericson3(data, k);
        return acc;
      },
    },
    {
      name: 'Sunday port',
      run: () => {
        let acc = 0;
        for (let k = 0; k < data.length; k += 12) acc += sunday3(data, k);
        return acc;
      },
    },
    {
      name: 'Rhodes (gem) port',
      run: () => {
        let acc = 0;
        for (let k = 0; k < data.length; k += 12) acc += rhodes3(data, k);
        return acc;
      },
    },
    {
      name: 'plain sum of the array',
      run: () => {
        let acc = 0;
        for (let i = 0; i < data.length; i++) acc += data[i];
        return acc;
      },
    },
  ];
}

/** Runs both data sets; returns the timings per set. */
export function run(opts: { pairs?: number; runs?: number; quiet?: boolean } = {}): Record<string, Timing[]> {
  const n = opts.pairs ?? 1_000_000;
  const runs = opts.runs ?? 9;
  const out = new Float64Array(n);
  const result: Record<string, Timing[]> = {};
  for (const [label, data] of [
    ['uniform random 3D pairs (seed 1)', uniformPairs3(n, 1)],
    ['nearly parallel 3D pairs (seed 2)', nearlyParallelPairs3(n, 2)],
  ] as const) {
    const resident = allocPairs3(n);
    resident.set(data);
    const rows = measure(methods(data, resident, out), runs);
    result[label] = rows;
    if (!opts.quiet) {
      console.log(table(`${label}, ${n.toLocaleString('en')} pairs — ${machine()}`, rows, n, 'three.js distanceSqToLine3'));
      const get = (name: string) => rows.find((r) => r.name.startsWith(name))!.median;
      const batch = get('skewline segmentDistances');
      const wasm = get('skewline segmentDistances (allocPairs3');
      console.log(`ratios: batch vs three.js ${(get('three.js dist') / batch).toFixed(2)}×, kernel vs three.js ${(get('three.js dist') / get('skewline closestSegSeg3')).toFixed(2)}×, batch throughput vs plain sum pass ${((100 * get('plain sum')) / batch).toFixed(0)}%`);
      console.log(`        WebAssembly batch on allocPairs3 pairs vs three.js ${(get('three.js dist') / wasm).toFixed(2)}× (vs three.js on that same array ${(get('three.js on the allocPairs3') / wasm).toFixed(2)}×), vs plain sum pass ${((100 * get('plain sum')) / wasm).toFixed(0)}%`);
    }
  }
  if (!opts.quiet) console.log(`(sink ${sink.toExponential(3)})`);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) run({ pairs: arg('--pairs', 1_000_000), runs: arg('--runs', 9) });
