/**
 * The generic kernel (closestFlat: any kinds, any dimension) and the friendly closestPoints with
 * a reused target, against three.js distanceSqToLine3 on the same 3D segment pairs; and the
 * n-D rows (dimensions 3 to 10,000) beside the textbook formula in doubles. Run alone: npx tsx bench/closest/generic.bench.ts [--pairs N] [--runs R]
 * (n-D: --nd [--cpu] [--dims 3,1000]; --cpu times by the process's CPU time, for a shared box)
 */
import { closestFlat, LINE, POINT, RAY, SEGMENT } from '../../src/index.js';
import { closestPoints, createClosestResult, intersects, segment, segmentDistance } from '../../src/index.js';
import { three3 } from '../peers/three.js';
import { uniformPairs3 } from '../../test/support/families.js';
import { mulberry32 } from '../../test/support/rng.js';
import { machine, measure, settle, sink, table, type Timing } from '../harness.js';

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
  nd(runs);
  if (sink === 42) console.log('');
}

/**
 * The textbook n-D segment distance in plain doubles (Ericson, "Real-Time Collision Detection",
 * §5.1.9: Gram entries, Cramer's rule, clamp and project; about 14n flops in one pass for the
 * dot products and one for the residual): the speed a user's own code would reach, with none of
 * skewline's guarantees (wrong near parallel, no exact contact decision).
 */
function textbookN(dim: number, data: Float64Array): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let e = 0;
  for (let i = 0; i < dim; i++) {
    const u = data[dim + i] - data[i];
    const v = data[3 * dim + i] - data[2 * dim + i];
    const w = data[i] - data[2 * dim + i];
    a += u * u;
    b += u * v;
    c += v * v;
    d += u * w;
    e += v * w;
  }
  const den = a * c - b * b;
  let s = den > 0 ? Math.min(1, Math.max(0, (b * e - c * d) / den)) : 0;
  const t = Math.min(1, Math.max(0, (e + b * s) / c));
  s = Math.min(1, Math.max(0, (b * t - d) / a));
  let q = 0;
  for (let i = 0; i < dim; i++) {
    const r = data[i] - data[2 * dim + i] + s * (data[dim + i] - data[i]) - t * (data[3 * dim + i] - data[2 * dim + i]);
    q += r * r;
  }
  return Math.sqrt(q);
}

/**
 * Issue 16, n-D in O(n): one random segment pair per dimension (3, 100, 1000, 10,000), each
 * call timed as a batch of calls; µs a call of every public function beside the kernel
 * (closestFlat) and the textbook formula in doubles, interleaved in one process, and each one's
 * ratio to the textbook. Before kernel-nd.ts the generic kernel took 718 µs at 100-D and 77 ms at
 * 1000-D (issue 16's table); before the fused path (kernel-nd.ts closestNdFast) the public
 * functions took 3–4 passes of validation, copies and the faithful step more than the kernel.
 */
/**
 * {@link measure} by the process's CPU time (process.cpuUsage, user + system, the GC's threads
 * included) instead of the wall clock, interleaved the same way: on a box shared with other jobs
 * the time spent descheduled stays out of the figures (cache and frequency effects do not).
 */
function measureCpu(methods: readonly { name: string; run: () => number }[], runs: number, warmup: number): Timing[] {
  let acc = 0;
  for (let w = 0; w < warmup; w++) for (const m of methods) acc += m.run();
  const times = methods.map(() => [] as number[]);
  for (let r = 0; r < runs; r++) {
    methods.forEach((m, i) => {
      settle();
      const c0 = process.cpuUsage();
      acc += m.run();
      const c = process.cpuUsage(c0);
      times[i].push((c.user + c.system) / 1000);
    });
  }
  if (acc === 42) console.log('');
  return methods.map((m, i) => {
    const ts = times[i].slice().sort((a, b) => a - b);
    return { name: m.name, median: ts[ts.length >> 1], min: ts[0], max: ts[ts.length - 1] };
  });
}

export function nd(runs: number, opts: { cpu?: boolean; dims?: readonly number[] } = {}): void {
  const names = ['closestFlat (kernel)', 'closestPoints(a, b, target)', 'closestPoints(a, b)', 'segmentDistance', 'intersects', 'textbook doubles (Ericson)'];
  const lines = [
    `\n### n-D segment–segment, µs a call${opts.cpu === true ? ' of CPU time' : ''} (issue 16: ≤ 20 µs at 1000-D, ≤ 200 µs at 10,000-D), and ÷ the textbook formula — ${machine()}`,
    `| dim | ${names.join(' | ')} | ${['closestFlat', 'closestPoints, target', 'closestPoints, fresh', 'segmentDistance', 'intersects'].map((n) => `${n} ÷ textbook`).join(' | ')} | fresh ÷ target |`,
    `|---:|${names.map(() => '---:').join('|')}|${names.slice(0, 5).map(() => '---:').join('|')}|---:|`,
  ];
  for (const dim of opts.dims ?? [3, 100, 1000, 10_000]) {
    const rng = mulberry32(16_000 + dim);
    const big = new Float64Array(4 * dim).map(() => rng() * 2 - 1);
    const out = new Float64Array(8 + dim);
    const pts = [0, 1, 2, 3].map((j) => Array.from(big.subarray(j * dim, (j + 1) * dim)));
    const a = segment(pts[0], pts[1]);
    const b = segment(pts[2], pts[3]);
    const target = createClosestResult(dim);
    const reps = Math.max(20, Math.round(2e6 / dim));
    const rows = (opts.cpu === true ? measureCpu : measure)(
      [
        { name: 'flat', run: () => { let acc = 0; for (let r = 0; r < reps; r++) acc += closestFlat(SEGMENT, SEGMENT, dim, big, 0, out); return acc; } },
        { name: 'api', run: () => { let acc = 0; for (let r = 0; r < reps; r++) acc += closestPoints(a, b, target).distance; return acc; } },
        { name: 'fresh', run: () => { let acc = 0; for (let r = 0; r < reps; r++) acc += closestPoints(a, b).distance; return acc; } },
        { name: 'segdist', run: () => { let acc = 0; for (let r = 0; r < reps; r++) acc += segmentDistance(pts[0], pts[1], pts[2], pts[3]); return acc; } },
        { name: 'isect', run: () => { let acc = 0; for (let r = 0; r < reps; r++) acc += intersects(a, b) ? 1 : 0; return acc; } },
        { name: 'textbook', run: () => { let acc = 0; for (let r = 0; r < reps; r++) acc += textbookN(dim, big); return acc; } },
      ],
      Math.min(runs, 5),
      1,
    );
    const us = rows.map((r) => (r.median * 1000) / reps);
    lines.push(`| ${dim} | ${us.map((x) => x.toFixed(2)).join(' | ')} | ${us.slice(0, 5).map((x) => `${(x / us[5]).toFixed(1)}×`).join(' | ')} | ${(us[2] / us[1]).toFixed(2)}× |`);
  }
  console.log(lines.join('\n'));
}

function dimsArg(): number[] | undefined {
  const i = process.argv.indexOf('--dims');
  return i >= 0 ? process.argv[i + 1].split(',').map(Number) : undefined;
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--nd')) {
  const dims = dimsArg();
  nd(arg('--runs', 5), { cpu: process.argv.includes('--cpu'), ...(dims === undefined ? {} : { dims }) });
}
else if (import.meta.url === `file://${process.argv[1]}`) run({ pairs: arg('--pairs', 1_000_000), runs: arg('--runs', 9) });
