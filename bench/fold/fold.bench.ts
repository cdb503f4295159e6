/**
 * Folding a chain: the time of one fold check (foldChain: the start check, the continuous check
 * of the motion and the exact check of the returned pose), median over seeded random folds —
 * a random joint, a random axis, a random angle of either sign up to a full turn — beside the
 * original chain builder's check: rotate, then test the final pose against every non-adjacent
 * pair (O(n²), Boes' collisions(p) over all pairs with the same exact narrow phase), which is
 * also wrong (it sees neither the path nor a tunnel through the chain).
 * Run alone: npx tsx bench/fold/fold.bench.ts [--folds F] [--sizes 1000,10000,100000]
 */
import { foldChain } from '../../src/fold/fold.js';
import { stretchChain } from '../../src/fold/stretch.js';
import { pairWithin } from '../../src/chain/narrow.js';
import { makeRng } from '../../test/support/rng.js';
import { randomWalk, smoothWalk } from '../../test/support/walks.js';
import { machine, sink } from '../harness.js';

interface Fold {
  joint: number;
  axis: number[];
  angle: number;
}

function folds(n: number, count: number, seed: number): Fold[] {
  const rng = makeRng(seed);
  const out: Fold[] = [];
  for (let k = 0; k < count; k++) out.push({ joint: rng.int(1, n - 1), axis: rng.unitVector(3), angle: rng.sign() * rng.uniform(0.01, 2 * Math.PI) });
  return out;
}

/** The original's check: rotate the part beyond the joint, then every non-adjacent pair of the final pose. */
function naive(P: Float64Array, f: Fold, tau: number): number {
  const n = P.length / 3 - 1;
  const X = P.slice();
  const [kx, ky, kz] = f.axis;
  const c = Math.cos(f.angle), s = Math.sin(f.angle);
  const o = 3 * f.joint;
  for (let v = f.joint + 1; v <= n; v++) {
    const x = P[3 * v] - P[o], y = P[3 * v + 1] - P[o + 1], z = P[3 * v + 2] - P[o + 2];
    const d = (kx * x + ky * y + kz * z) * (1 - c);
    X[3 * v] = P[o] + x * c + (ky * z - kz * y) * s + kx * d;
    X[3 * v + 1] = P[o + 1] + y * c + (kz * x - kx * z) * s + ky * d;
    X[3 * v + 2] = P[o + 2] + z * c + (kx * y - ky * x) * s + kz * d;
  }
  const Q = new Float64Array(12);
  let hits = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      for (let k = 0; k < 6; k++) {
        Q[k] = X[3 * i + k];
        Q[6 + k] = X[3 * j + k];
      }
      if (pairWithin(Q, 3, tau)) hits++;
    }
  }
  return hits;
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

export function run(opts: { folds?: number; sizes?: number[] } = {}): void {
  const count = opts.folds ?? 15;
  const sizes = opts.sizes ?? [1000, 10_000, 100_000];
  console.log(`\nfolding a chain (3D): one fold check, median over ${count} seeded random folds up to a full turn — ${machine()}`);
  console.log('| chain | segments | foldChain median ms | min–max ms | blocked | naive final-pose O(n²) ms | speed vs naive |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  let acc = 0;
  // Global warm-up, so that the first row does not pay for compilation.
  const W = randomWalk(2000, 3, makeRng(3));
  for (const f of folds(2000, 30, 5)) acc += foldChain(W, { dim: 3, joint: f.joint, axis: f.axis, angle: f.angle }).angle;
  for (const [name, tau] of [['random walk, thickness 0', 0], ['smooth walk, thickness 0.01', 0.01]] as const) {
    for (const n of sizes) {
      const P = name.startsWith('random') ? randomWalk(n, 3, makeRng(7)) : smoothWalk(n, 3, makeRng(7));
      const fs = folds(n, count, 11 + n);
      for (const f of fs.slice(0, 5)) acc += foldChain(P, { dim: 3, joint: f.joint, axis: f.axis, angle: f.angle, thickness: tau }).angle; // warm-up
      const times: number[] = [];
      let blocked = 0;
      for (const f of fs) {
        const t0 = performance.now();
        const r = foldChain(P, { dim: 3, joint: f.joint, axis: f.axis, angle: f.angle, thickness: tau });
        times.push(performance.now() - t0);
        acc += r.angle;
        if (r.blocked) blocked++;
      }
      let naiveCell = '—', ratio = '—';
      if (n <= 10_000) {
        const nf = n <= 1000 ? fs : fs.slice(0, 3);
        naive(P, nf[0], tau);
        const nt: number[] = [];
        for (const f of nf) {
          const t0 = performance.now();
          acc += naive(P, f, tau);
          nt.push(performance.now() - t0);
        }
        naiveCell = median(nt).toFixed(1);
        ratio = `${(median(nt) / median(times)).toFixed(0)}×`;
      }
      const floor = n === 10_000 ? ' (floor 16)' : n === 100_000 ? ' (floor 100)' : '';
      console.log(`| ${name} | ${n.toLocaleString('en')} | ${median(times).toFixed(2)}${floor} | ${Math.min(...times).toFixed(2)}–${Math.max(...times).toFixed(2)} | ${blocked}/${fs.length} | ${naiveCell} | ${ratio} |`);
    }
  }
  console.log(`\nstretching a chain (3D): one stretch check (a random segment to 0.2–5 times its length), median over ${count} seeded stretches`);
  console.log('| chain | segments | stretchChain median ms | min–max ms | blocked |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, tau] of [['random walk, thickness 0', 0], ['smooth walk, thickness 0.01', 0.01]] as const) {
    for (const n of sizes) {
      const P = name.startsWith('random') ? randomWalk(n, 3, makeRng(7)) : smoothWalk(n, 3, makeRng(7));
      const rng = makeRng(23 + n);
      const ss = Array.from({ length: count }, () => ({ joint: rng.int(0, n - 1), factor: rng.chance(0.5) ? rng.uniform(0.2, 1) : rng.uniform(1, 5) }));
      const times: number[] = [];
      let blocked = 0;
      for (let w = 0; w < 3; w++) acc += stretchChain(P, { dim: 3, joint: ss[w].joint, length: ss[w].factor, thickness: tau }).length;
      for (const s of ss) {
        const t0 = performance.now();
        const r = stretchChain(P, { dim: 3, joint: s.joint, length: s.factor, thickness: tau }); // unit segments: length = factor
        times.push(performance.now() - t0);
        acc += r.length;
        if (r.blocked) blocked++;
      }
      console.log(`| ${name} | ${n.toLocaleString('en')} | ${median(times).toFixed(2)} | ${Math.min(...times).toFixed(2)}–${Math.max(...times).toFixed(2)} | ${blocked}/${ss.length} |`);
    }
  }
  if (acc === 42 && sink === 42) console.log('');
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = arg('--sizes')?.split(',').map(Number);
  run({ folds: Number(arg('--folds') ?? 15), ...(sizes ? { sizes } : {}) });
}
