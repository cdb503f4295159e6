/**
 * The bouncing ball: skewline's bounceBall against matter-js and planck.js on the same tables,
 * the same start and the same speeds (1 to 1,000 table widths per second, steps of 1/60 s):
 * steps per second, whether the ball escaped the table (and at which step), and the largest
 * change of speed (restitution 1 should keep it).
 * Run alone: npx tsx bench/motion/ball.bench.ts [--steps N] [--runs R]
 */
import { bounceBall } from '../../src/motion/ball.js';
import { TABLES, inside, start, type Table } from '../../test/support/tables.js';
import { matterSim, planckSim, type Sim } from '../peers/ball-engines.js';
import { machine } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

const DT = 1 / 60;

function skewlineSim(t: Table, pos: [number, number], vel: [number, number]): Sim {
  const walls = new Float64Array(t.walls.flat(2));
  const ball = { position: pos as number[], velocity: vel as number[], radius: t.radius };
  return {
    step: () => {
      const r = bounceBall(ball, walls, DT);
      ball.position = r.position;
      ball.velocity = r.velocity;
    },
    position: () => [ball.position[0], ball.position[1]],
    speed: () => Math.hypot(ball.velocity[0], ball.velocity[1]),
  };
}

interface Outcome {
  ms: number;
  escapedAt: number;
  maxRatio: number;
  minRatio: number;
}

function runOnce(make: typeof skewlineSim, t: Table, speed: number, steps: number, seed: number): Outcome {
  const s = start(t, speed, seed);
  const sim = make(t, s.position, s.velocity);
  const v0 = Math.hypot(...s.velocity);
  let escapedAt = -1;
  let maxRatio = 1;
  let minRatio = 1;
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) {
    sim.step();
    if (escapedAt < 0) {
      const [x, y] = sim.position();
      if (!inside(t.outline, x, y)) escapedAt = i + 1;
      const q = sim.speed() / v0;
      if (q > maxRatio) maxRatio = q;
      if (q < minRatio) minRatio = q;
    }
  }
  return { ms: performance.now() - t0, escapedAt, maxRatio, minRatio };
}

export function run(opts: { steps?: number; runs?: number } = {}): void {
  const steps = opts.steps ?? 20_000;
  const runs = opts.runs ?? 3;
  const engines: [string, typeof skewlineSim][] = [
    ['skewline bounceBall', skewlineSim],
    ['matter-js 0.20', matterSim],
    ['planck.js 1.4', planckSim],
  ];
  console.log(`\nbouncing ball, r = 0.02, dt = 1/60 s, ${steps.toLocaleString('en')} steps per run, median of ${runs} — ${machine()}`);
  console.log('| table | widths/s | engine | steps/s | vs skewline | escaped at step | speed min–max ×v0 |');
  console.log('|---|---:|---|---:|---:|---:|---|');
  for (const [ti, t] of TABLES.entries()) {
    for (const speed of [1, 10, 100, 1000]) {
      const seed = 9800 + 10 * ti + speed;
      const res = engines.map(([, make]) => {
        const outs: Outcome[] = [];
        for (let r = 0; r < runs; r++) outs.push(runOnce(make, t, speed, steps, seed));
        const ms = outs.map((o) => o.ms).sort((a, b) => a - b)[runs >> 1];
        return { ms, o: outs[0] };
      });
      const base = res[0].ms;
      res.forEach(({ ms, o }, i) => {
        console.log(
          `| ${t.name} | ${speed} | ${engines[i][0]} | ${Math.round((steps / ms) * 1000).toLocaleString('en')} | ${(base / ms).toFixed(2)}× | ${o.escapedAt < 0 ? 'never' : o.escapedAt.toLocaleString('en')} | ${o.minRatio.toPrecision(3)}–${o.maxRatio.toPrecision(3)} |`,
        );
      });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) run({ steps: arg('--steps', 20_000), runs: arg('--runs', 3) });
