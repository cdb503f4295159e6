/**
 * `npm run accuracy`: worst errors per case family, skewline beside its peers, measured against
 * the exact BigInt oracle (test/support/oracle.ts).
 *
 * Units (issue 2): u = 2^-53; S = max(|a1 − a0|, |b1 − b0|, |b0 − a0|) (ray: |dir|, point: 0);
 * M = largest |coordinate| of the input points; M' = max(M, |c|∞, |d|∞) (nearest points on lines
 * and rays can lie far outside the inputs' box). skewline's bound is 8 in each column.
 *
 * Options: --count N (cases per family, default 1000), --seed S (default 20240611),
 * --family NAME (only that family).
 * The last table (issue 19) checks that distances are faithful to themselves: within one ulp of
 * the exact distance, however small the distance is beside the segments.
 */
import os from 'node:os';
import { ericson3 } from '../bench/peers/ericson.js';
import { rhodes3 } from '../bench/peers/rhodes.js';
import { sunday3 } from '../bench/peers/sunday.js';
import { three3 } from '../bench/peers/three.js';
import { closestPoints } from '../src/index.js';
import { closestSegSeg3 } from '../src/closest/segment-kernels.js';
import type { Primitive } from '../src/core/types.js';
import { FAMILIES, familySeed, flatten3 } from '../test/support/families.js';
import { measure, measureDistance } from '../test/support/oracle.js';
import { FAITHFUL_FAMILIES, exactPairSq, faithfulPairs, isFaithful, ulpsOff } from '../test/support/faithful-families.js';
import { segmentDistances } from '../src/batch/batch.js';

function arg(name: string, fallback: number): number;
function arg(name: string, fallback: string): string;
function arg(name: string, fallback: number | string): number | string {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) return fallback;
  const v = process.argv[i + 1];
  return typeof fallback === 'number' ? Number(v) : v;
}

const count = arg('count', 1000);
const seed = arg('seed', 20240611);
const only = arg('family', '');
if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a positive integer');
if (!Number.isFinite(seed)) throw new Error('--seed must be a number');

const BOUND = 8;

const fmt = (x: number): string => {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return 'inf';
  return x < 1000 ? x.toFixed(2) : x.toExponential(1);
};
const pad = (s: string, n: number): string => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
const padR = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const describe = (p: Primitive): string =>
  `${p.kind}(${Array.from(p.p0).join(',')}; ${Array.from(p.kind === 'ray' ? p.dir : p.p1).join(',')})`;

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`skewline accuracy report — seed ${seed}, ${count} cases per family`);
console.log(`machine: ${cpu}, ${os.cpus().length} cores, ${os.platform()} ${os.arch()}; Node ${process.version}`);
console.log('units: u = 2^-53; S, M, M\' as in README/issue 2; skewline bound: 8\n');

let failed = false;
const worstExamples: string[] = [];

// ---- Table 1: skewline on every family, all kinds and dimensions 2, 3, 4.
const head1 = ['family', 'cases', 'dist u·S', 'c∈a u·M', 'd∈b u·M', "c∈a u·M'", "d∈b u·M'", '|c−d| u·M', "|c−d| u·M'", 'dist=0 ≠'];
const w1 = [18, 6, 10, 10, 10, 10, 10, 10, 11, 9];
console.log('skewline closestPoints — all kinds (point, segment, line, ray), 2D/3D/4D');
console.log(head1.map((h, i) => (i === 0 ? padR(h, w1[i]) : pad(h, w1[i]))).join(' '));
const t0 = Date.now();
FAMILIES.forEach(({ name, make }, fi) => {
  if (only && only !== name) return;
  const fs = familySeed(seed, fi);
  const cases = make(fs, count);
  const worst = { dist: 0, cOnA: 0, dOnB: 0, cOnAPrime: 0, dOnBPrime: 0, cd: 0, cdPrime: 0, zero: 0 };
  // The worst case of each bounded metric, and the first distance===0 mismatch, for the listing.
  const worstAt = new Map<string, { i: number; v: number }>();
  const note = (metric: string, i: number, v: number): void => {
    const w = worstAt.get(metric);
    if (v > BOUND && (w === undefined || v > w.v)) worstAt.set(metric, { i, v });
  };
  cases.forEach((c, i) => {
    let m;
    try {
      m = measure(c.a, c.b, closestPoints(c.a, c.b));
    } catch (e) {
      worstExamples.push(`${name} seed ${fs} case ${i} THREW ${(e as Error).message}: ${describe(c.a)} vs ${describe(c.b)}`);
      failed = true;
      return;
    }
    for (const k of ['dist', 'cOnA', 'dOnB', 'cOnAPrime', 'dOnBPrime', 'cd', 'cdPrime'] as const) {
      worst[k] = Math.max(worst[k], m[k]);
    }
    note('distance error (u·S)', i, m.dist);
    note("c off a (u·M')", i, m.cOnAPrime);
    note("d off b (u·M')", i, m.dOnBPrime);
    note("||c−d| − exact| (u·M')", i, m.cdPrime);
    if (m.zeroMismatch) {
      worst.zero++;
      if (!worstAt.has('distance===0 mismatch')) worstAt.set('distance===0 mismatch', { i, v: Infinity });
    }
  });
  const row = [name, String(cases.length), fmt(worst.dist), fmt(worst.cOnA), fmt(worst.dOnB), fmt(worst.cOnAPrime),
    fmt(worst.dOnBPrime), fmt(worst.cd), fmt(worst.cdPrime), String(worst.zero)];
  const bad = worstAt.size > 0;
  console.log(row.map((h, i) => (i === 0 ? padR(h, w1[i]) : pad(h, w1[i]))).join(' ') + (bad ? '  FAIL' : ''));
  if (bad) failed = true;
  for (const [metric, { i, v }] of worstAt) {
    const c = cases[i];
    worstExamples.push(`${name} (family seed ${fs}) case ${i} [${c.label ?? ''}] ${metric} ${fmt(v)}: ` +
      `${describe(c.a)} vs ${describe(c.b)}`);
  }
});
console.log(`(${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);

// ---- Table 2: 3-D segment–segment, skewline beside the peers (worst distance error in u·S).
const peers: readonly { name: string; f: (data: Float64Array, k: number) => number }[] = [
  { name: 'skewline', f: (data, k) => closestSegSeg3(data, k, null, 0) },
  { name: 'three.js', f: three3 },
  { name: 'Ericson', f: ericson3 },
  { name: 'Sunday', f: sunday3 },
  { name: 'Rhodes', f: rhodes3 },
];
const w2 = [18, 6, 10, 10, 10, 10, 10];
console.log('3-D segment–segment: worst |distance − exact| in units of u·S (skewline = closestSegSeg3 kernel)');
console.log([padR('family', w2[0]), pad('cases', w2[1]), ...peers.map((p, i) => pad(p.name, w2[i + 2]))].join(' '));
const t1 = Date.now();
FAMILIES.forEach(({ name, make }, fi) => {
  if (only && only !== name) return;
  const fs = familySeed(seed, fi) + 1;
  const cases = make(fs, count, { dims: [3], segmentsOnly: true });
  const data = flatten3(cases);
  const worst = peers.map(() => 0);
  let worstI = -1;
  cases.forEach((c, i) => {
    peers.forEach((p, j) => {
      let e: number;
      try {
        e = measureDistance(c.a, c.b, p.f(data, 12 * i));
      } catch {
        e = Infinity;
      }
      if (j === 0 && e > worst[0]) worstI = i;
      worst[j] = Math.max(worst[j], e);
    });
  });
  if (worst[0] > BOUND) {
    failed = true;
    const c = cases[worstI];
    worstExamples.push(`3-D kernel closestSegSeg3 ${name} (family seed ${fs}, segmentsOnly, dims [3]) case ${worstI} ` +
      `[${c.label ?? ''}] distance error ${fmt(worst[0])}: ${describe(c.a)} vs ${describe(c.b)}`);
  }
  console.log([padR(name, w2[0]), pad(String(cases.length), w2[1]), ...worst.map((x, j) => pad(fmt(x), w2[j + 2]))].join(' ') +
    (worst[0] > BOUND ? '  FAIL' : ''));
});
console.log(`(${((Date.now() - t1) / 1000).toFixed(1)} s)\n`);

// Faithful distances (issue 19): distances 1e-14 … 1e-2 of the segments' size, at 1, 1e300 and
// 1e-300; worst error in ulps of the distance itself (≤ 1 is faithful; 0.5 is correctly rounded)
// and the count of distances that are not faithful (decided exactly), skewline beside three.js.
console.log('Faithful distances — worst |distance − exact| in ulps of the exact distance; "unfaithful" counts pred(d) < exact < succ(d) failures');
const w3 = [14, 4, 8, 6, 12, 12, 12];
console.log([padR('family', w3[0]), pad('dim', w3[1]), pad('scale', w3[2]), pad('pairs', w3[3]), pad('skewline', w3[4]), pad('unfaithful', w3[5]), pad('three.js', w3[6])].join(' '));
const t2 = Date.now();
const nFaithful = Math.max(1, Math.floor(count / 5));
for (const scale of [1, 1e300, 1e-300]) {
  for (const dim of [2, 3] as const) {
    FAITHFUL_FAMILIES.forEach((family, f) => {
      if (only !== '' && only !== family) return;
      const fseed = seed + 100 * f + dim;
      const pairs = faithfulPairs(family, dim, nFaithful, fseed, { scale });
      const d = segmentDistances(pairs, dim);
      let worst = 0;
      let worstThree = 0;
      let bad = 0;
      for (let i = 0; i < nFaithful; i++) {
        const q = exactPairSq(pairs, dim, i);
        worst = Math.max(worst, ulpsOff(d[i], q));
        if (!isFaithful(d[i], q)) bad++;
        if (dim === 3) worstThree = Math.max(worstThree, ulpsOff(three3(pairs, 12 * i), q));
      }
      if (bad > 0) {
        failed = true;
        worstExamples.push(`faithful ${family} ${dim}D scale ${scale} seed ${fseed}: ${bad} distances not faithful`);
      }
      console.log([padR(family, w3[0]), pad(String(dim), w3[1]), pad(String(scale), w3[2]), pad(String(nFaithful), w3[3]),
        pad(worst.toPrecision(3), w3[4]), pad(String(bad), w3[5]), pad(dim === 3 ? worstThree.toPrecision(3) : '—', w3[6])].join(' '));
    });
  }
}
console.log(`(${((Date.now() - t2) / 1000).toFixed(1)} s)\n`);

if (worstExamples.length > 0) {
  console.log('skewline cases beyond the bound (replay with --seed and --family):');
  for (const s of worstExamples) console.log('  ' + s);
}
console.log(failed ? 'RESULT: skewline exceeds the bound on some family' : 'RESULT: skewline within 8 on every family');
if (failed) process.exitCode = 1;
