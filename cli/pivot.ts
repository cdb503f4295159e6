/**
 * `skewline pivot`: a scripted pivot Monte Carlo run on a chain. Reads the chain (as
 * `skewline fold`: CSV x,y[,z] or JSON), holds it in a chain folder (createChainFolder) and
 * tries N seeded random pivot moves — a uniform joint, an angle uniform in (−π, π], in 3D an axis
 * uniform on the sphere — each accepted only when the turned chain has no contact at the
 * thickness. Prints one CSV row `moves,accepted,rate,seconds,moves_per_s` and, with `-o FILE`,
 * writes the final chain in the input's format. A progress bar on stderr (a terminal only).
 */
import { createChainFolder, SkewlineInputError } from '../src/index.js';
import { runChainCommand } from './fold.js';
import { InputError } from './rows.js';
import { num } from './output.js';
import { ProgressBar } from './progress.js';
import type { Io } from './closest.js';
import { parseArgs, UsageError, type OptionSpec } from './args.js';

/** What `skewline pivot` was asked to do. */
export interface PivotCommand {
  file: string | undefined;
  moves: number;
  seed: number;
  thickness: number;
  /** Where the final chain goes: a path, `-` (stdout; the summary then goes to stderr), or undefined. */
  output: string | undefined;
  /** Progress bar: true, false, or undefined (when stderr is a terminal). */
  progress: boolean | undefined;
}

/**
 * A small seeded generator: xoshiro128** (D. Blackman and S. Vigna, "Scrambled linear
 * pseudorandom number generators", 2018), 32-bit words; uniform doubles in [0, 1) from 53 bits.
 * The same seed gives the same moves on every platform.
 */
export function seededUniform(seed: number): () => number {
  let s0 = (seed >>> 0) ^ 0x9e3779b9, s1 = Math.floor(seed / 4294967296) ^ 0x243f6a88, s2 = 0x85a308d3, s3 = 0x13198a2e;
  const next = (): number => {
    const r = Math.imul(rotl(Math.imul(s1, 5), 7), 9);
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return r >>> 0;
  };
  for (let k = 0; k < 16; k++) next();
  return () => ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * Runs the command; resolves to the exit code (0, or 1 for bad input or an I/O failure). The
 * frame (-o, signals, errors, empty input) is {@link runChainCommand}'s, as for `skewline fold`.
 */
export function runPivot(opts: PivotCommand, io: Io): Promise<number> {
  return runChainCommand(opts.file, opts.output, io, 'moves,accepted,rate,seconds,moves_per_s', (chain) => {
    const { dim } = chain;
    let folder;
    try {
      folder = createChainFolder(chain.flat, { dim, thickness: opts.thickness });
    } catch (e) {
      if (e instanceof SkewlineInputError) throw new InputError(e.message.replace(/^createChainFolder: /, ''));
      throw e;
    }
    const n = folder.count;
    const rand = seededUniform(opts.seed);
    const move = { joint: 0, angle: 0, axis: dim === 3 ? [0, 0, 1] : undefined } as { joint: number; angle: number; axis?: number[] };
    if (dim === 2) delete move.axis;
    const bar = (opts.progress ?? io.stderr.isTTY === true) ? new ProgressBar(io.stderr, `pivot (moves done / total, rows = accepted)`, opts.moves) : undefined;
    const t0 = performance.now();
    for (let k = 0; k < opts.moves; k++) {
      move.joint = Math.min(n - 2, Math.floor(rand() * (n - 1)));
      move.angle = Math.PI * (2 * rand() - 1);
      if (move.axis !== undefined) {
        // uniform on the sphere: z uniform in [−1, 1], the azimuth uniform (Archimedes)
        const z = 2 * rand() - 1, phi = 2 * Math.PI * rand(), r = Math.sqrt(Math.max(0, 1 - z * z));
        move.axis[0] = r * Math.cos(phi);
        move.axis[1] = r * Math.sin(phi);
        move.axis[2] = z;
      }
      folder.pivot(move);
      if (bar !== undefined && (k & 1023) === 0) bar.update(k, folder.stats.accepted);
    }
    const secs = (performance.now() - t0) / 1000;
    bar?.update(opts.moves, folder.stats.accepted, true);
    bar?.stop();
    const acc = folder.stats.accepted;
    const rate = opts.moves > 0 ? acc / opts.moves : 0;
    return { row: `${opts.moves},${acc},${num(rate)},${secs.toFixed(3)},${secs > 0 ? Math.round(opts.moves / secs) : ''}`, points: folder.points() };
  });
}

/** `skewline pivot --help`. */
export const PIVOT_HELP = `Usage: skewline pivot [file] --moves N [--seed S] [--thickness T] [-o FILE]

Pivot Monte Carlo: tries N seeded random moves on the chain — a uniform joint, an angle uniform
in (−180°, 180°], in 3D a uniform axis — and accepts each only when the turned chain has no
contact (two non-adjacent segments within T, or the two at the joint folding back), decided
exactly. The chain must be free of contacts at the start.

  file                 the chain, as for 'skewline fold' (CSV x,y[,z] or JSON); '-' or none:
                       standard input

Options:
  --moves N            moves to try (an integer ≥ 0)
  --seed S             seed of the moves (an integer ≥ 0; default 1): the same seed, the same run
  --thickness T        contact distance (default 0)
  -o, --output FILE    write the final chain (same format as the input); '-' writes it to
                       standard output and the summary to standard error
  --progress, --no-progress
                       progress bar on stderr (default: when stderr is a terminal)
  -h, --help           this help

Output: one CSV row 'moves,accepted,rate,seconds,moves_per_s'.

Example:
  skewline pivot walk.csv --moves 100000 --seed 7 --thickness 0.2 -o out.csv
`;

const PIVOT_OPTIONS: OptionSpec[] = [
  { name: 'moves', type: 'value' },
  { name: 'seed', type: 'value' },
  { name: 'thickness', type: 'value' },
  { name: 'output', short: 'o', type: 'value' },
  { name: 'progress', type: 'flag' },
  { name: 'help', short: 'h', type: 'flag' },
];

/** `skewline pivot ARGS` (the words after the command): the options checked, then {@link runPivot}. */
export async function pivotCommand(argv: readonly string[], io: Io): Promise<number> {
  const { options, positionals } = parseArgs(argv, PIVOT_OPTIONS, 'skewline pivot');
  if (positionals.length > 1) throw new UsageError(`skewline pivot: expected at most one input file, got ${positionals.length} (see 'skewline pivot --help')`);
  const int = (name: string, dflt: number | undefined): number => {
    const v = options.get(name) as string | undefined;
    if (v === undefined) {
      if (dflt === undefined) throw new UsageError(`skewline pivot: --${name} is required (see 'skewline pivot --help')`);
      return dflt;
    }
    const x = Number(v.trim());
    if (v.trim() === '' || !Number.isSafeInteger(x) || x < 0) throw new UsageError(`skewline pivot: --${name} must be an integer ≥ 0 (got '${v}')`);
    return x;
  };
  const moves = int('moves', undefined);
  const seed = int('seed', 1);
  const rawT = options.get('thickness') as string | undefined;
  const thickness = rawT === undefined ? 0 : Number(rawT.trim());
  if (rawT !== undefined && (rawT.trim() === '' || !Number.isFinite(thickness) || thickness < 0)) {
    throw new UsageError(`skewline pivot: --thickness must be a length ≥ 0 (got '${rawT}')`);
  }
  const progress = options.get('progress') as boolean | undefined;
  return runPivot({ file: positionals[0], moves, seed, thickness, output: options.get('output') as string | undefined, progress }, io);
}
