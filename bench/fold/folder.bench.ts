/**
 * The chain folder (createChainFolder): the time of one move, median over seeded random moves
 * (a random joint, a random axis, an angle of either sign up to a full turn), on two
 * contact-free 3D chains — a random walk of unit steps at thickness 0, and a thick chain (unit
 * segments, thickness 0.2) grown from a straight rod by accepted pivots — at sizes from 1e3 to
 * 1e6 segments (1e7 with --big), beside foldChain on the same pose (which rebuilds its search for
 * every fold). Prints the acceptance rate of the pivots and the growth from size to size.
 * The floors: fold < 0.5 ms at 1e5 and < 2 ms at 1e6; pivot < 0.2 ms at 1e6.
 * Folds: folder.fold (on its tree) over --fold-moves seeded random moves (default 1,000; the
 * issue's 1e4 with --fold-moves 10000), foldChain on the same pose for the first --folds of them.
 * Fold times are wall clock and, beside them, the process's CPU time (user + system, from
 * process.cpuUsage: steadier on a loaded machine), and the mean (the folds that travel far,
 * beyond the near-pair cache's reach, cost several times the median).
 * Run alone: npx tsx bench/fold/folder.bench.ts [--moves M] [--folds F] [--fold-moves K] [--sizes 1000,…] [--big]
 */
import { createChainFolder } from '../../src/fold/folder.js';
import type { ChainFolder } from '../../src/fold/folder.js';
import { foldChain } from '../../src/fold/fold.js';
import { makeRng } from '../../test/support/rng.js';
import type { Rng } from '../../test/support/rng.js';
import { randomWalk } from '../../test/support/walks.js';
import { machine, sink } from '../harness.js';

const MOVE = { joint: 0, angle: 0, axis: [0, 0, 1] as number[] };

function randomMove(rng: Rng, n: number): void {
  MOVE.joint = rng.int(0, n - 1);
  MOVE.angle = rng.sign() * rng.uniform(0, 2 * Math.PI);
  MOVE.axis = rng.unitVector(3);
}

function median(xs: number[]): number {
  return quantile(xs, 0.5);
}

function quantile(xs: number[], q: number): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))];
}

/** The chain of the named kind with n segments, held in a folder (the thick one grown by `grow` accepted pivots). */
function chain(kind: 'walk' | 'thick', n: number, grow: number): { folder: ChainFolder; tau: number; growMs: number } {
  if (kind === 'walk') return { folder: createChainFolder(randomWalk(n, 3, makeRng(7)), { dim: 3, thickness: 0 }), tau: 0, growMs: 0 };
  const rod = new Float64Array((n + 1) * 3);
  for (let k = 0; k <= n; k++) rod[3 * k] = k;
  const folder = createChainFolder(rod, { dim: 3, thickness: 0.2 });
  const rng = makeRng(9 + n);
  const t0 = performance.now();
  while (folder.stats.accepted < grow) {
    randomMove(rng, n);
    folder.pivot(MOVE);
  }
  return { folder, tau: 0.2, growMs: performance.now() - t0 };
}

export function run(opts: { moves?: number; folds?: number; foldMoves?: number; sizes?: number[]; big?: boolean } = {}): void {
  const moves = opts.moves ?? 10_000;
  const folds = opts.folds ?? 9;
  const foldMoves = Math.max(folds, opts.foldMoves ?? 1000);
  const sizes = opts.sizes ?? [1000, 10_000, 100_000, 1_000_000, ...(opts.big ? [10_000_000] : [])];
  console.log(`\nthe chain folder (3D): one move, median over ${moves.toLocaleString('en')} seeded random pivots (folds: ${folds}), angles up to a full turn — ${machine()}`);
  console.log(`folds: folder.fold over ${foldMoves.toLocaleString('en')} seeded random moves after the pivots; foldChain on the same pose for the first ${folds} of them, interleaved`);
  console.log('| chain | segments | pivot median ms | pivot p90 ms | accepted | growth vs previous | fold median ms | fold CPU median ms | fold mean ms | fold p90 ms | fold blocked | fold growth | foldChain median ms | foldChain / fold | floors |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  let acc = 0;
  for (const kind of ['walk', 'thick'] as const) {
    let prev = 0, prevFold = 0;
    for (const n of sizes) {
      const { folder, growMs } = chain(kind, n, Math.min(n, 20_000));
      const rng = makeRng(11 + n);
      const times: number[] = [];
      let accepted = 0;
      for (let w = 0; w < 200; w++) {
        randomMove(rng, n);
        folder.pivot(MOVE); // warm-up
      }
      for (let k = 0; k < moves; k++) {
        randomMove(rng, n);
        const t0 = performance.now();
        const ok = folder.pivot(MOVE);
        times.push(performance.now() - t0);
        if (ok) accepted++;
      }
      const med = median(times);
      const p90 = times.slice().sort((a, b) => a - b)[Math.floor(times.length * 0.9)];
      // folds: the folder's (on its tree) over foldMoves moves; foldChain on the same pose for
      // the first `folds` of them, interleaved (it is linear in the chain)
      const ft: number[] = [], ct: number[] = [], fc: number[] = [];
      let fblocked = 0;
      for (let k = 0; k < foldMoves; k++) {
        randomMove(rng, n);
        if (k < folds) {
          const pose = folder.points();
          const t0 = performance.now();
          acc += foldChain(pose, { dim: 3, joint: MOVE.joint, angle: MOVE.angle, axis: MOVE.axis, thickness: folder.thickness }).angle;
          ct.push(performance.now() - t0);
        }
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const r = folder.fold(MOVE);
        ft.push(performance.now() - t0);
        const dc = process.cpuUsage(c0);
        fc.push((dc.user + dc.system) / 1000);
        acc += r.angle;
        if (r.blocked) fblocked++;
      }
      const floors: string[] = [];
      if (n === 100_000) floors.push(`fold < 0.5: ${median(ft) < 0.5 ? 'met' : 'NOT met'}`);
      if (n === 1_000_000) floors.push(`fold < 2: ${median(ft) < 2 ? 'met' : 'NOT met'}`, `pivot < 0.2: ${med < 0.2 ? 'met' : 'NOT met'}`);
      const name = kind === 'walk' ? 'random walk, thickness 0' : `thick chain 0.2 (grown by ${Math.min(n, 20_000).toLocaleString('en')} pivots, ${(growMs / 1000).toFixed(1)} s)`;
      const growth = prev > 0 ? `${(med / prev).toFixed(2)}×` : '—';
      const fmed = median(ft), fgrowth = prevFold > 0 ? `${(fmed / prevFold).toFixed(2)}×` : '—';
      console.log(`| ${name} | ${n.toLocaleString('en')} | ${med.toFixed(4)} | ${p90.toFixed(3)} | ${((100 * accepted) / moves).toFixed(1)}% | ${growth} | ${fmed.toFixed(3)} | ${median(fc).toFixed(3)} | ${(ft.reduce((x, y) => x + y, 0) / ft.length).toFixed(3)} | ${quantile(ft, 0.9).toFixed(2)} | ${((100 * fblocked) / foldMoves).toFixed(1)}% | ${fgrowth} | ${median(ct).toFixed(1)} | ${(median(ct) / fmed).toFixed(0)}× | ${floors.join('; ')} |`);
      prev = med;
      prevFold = fmed;
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
  run({ moves: Number(arg('--moves') ?? 10_000), folds: Number(arg('--folds') ?? 9), foldMoves: Number(arg('--fold-moves') ?? 1000), big: process.argv.includes('--big'), ...(sizes ? { sizes } : {}) });
}
