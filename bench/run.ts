/**
 * `npm run bench`: every benchmark in one process, seeded data, median of several runs.
 * Options: --pairs N (default 1,000,000), --runs R (default 9), --steps N (bouncing-ball steps,
 * default 20,000), --segments N for the chain benchmark (default 1,000,000), --stream-mb M for
 * the generated GeoJSON file `skewline chain` streams (default 200; 2000 for the 2 GB run).
 */
import { run as closest } from './closest/closest.bench.js';
import { run as isect } from './intersect/intersects.bench.js';
import { run as parallel } from './batch/parallel.bench.js';
import { nd, run as generic } from './closest/generic.bench.js';
import { run as sweep } from './motion/sweep.bench.js';
import { run as chain } from './chain/chain.bench.js';
import { run as ball } from './motion/ball.bench.js';
import { run as capsule } from './motion/capsule.bench.js';
import { run as fold } from './fold/fold.bench.js';
import { run as folder } from './fold/folder.bench.js';
import { run as stream } from './cli/stream.bench.js';
import { run as kind } from './cli/kind.bench.js';
import { geojsonOutput, run as cliRows } from './cli/rows.bench.js';
import { run as gis } from './gis/gis.bench.js';
import { machine } from './harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

const pairs = arg('--pairs', 1_000_000);
const runs = arg('--runs', 9);
console.log(`skewline benchmarks — ${machine()}`);
closest({ pairs, runs });
isect({ pairs, runs });
generic({ pairs, runs });
nd(Math.min(runs, 5), { cpu: true });
sweep({ pairs: Math.min(pairs, 200_000), runs: Math.min(runs, 7) });
await capsule({ pairs: 20_000, runs: Math.min(runs, 7) });
ball({ steps: arg('--steps', 20_000), runs: 3 });
fold({ folds: 15 });
folder({ moves: 10_000, folds: 9, big: process.argv.includes('--big') });
cliRows({ pairs: Math.min(pairs, 100_000), runs: Math.min(runs, 7) });
await geojsonOutput(Math.min(runs, 5));
await parallel({ pairs, segments: arg('--segments', 1_000_000), runs: Math.min(runs, 5), into: true });
await chain({ segments: arg('--segments', 1_000_000), runs: Math.min(runs, 5) });
await stream({ mb: arg('--stream-mb', Number(process.env.SKEWLINE_STREAM_MB ?? 200)), runs: 3 });
await kind({ runs: Math.min(runs, 5) });
gis({ segments: arg('--segments', 1_000_000), runs: Math.min(runs, 3) });
