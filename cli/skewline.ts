#!/usr/bin/env node
/**
 * The `skewline` command line.
 *
 *     skewline closest [file] [options]   closest points for each row of a CSV/NDJSON file
 *     skewline fold [file] --joint K --angle A [options]   fold a chain without passing through itself
 *     skewline --help | --version
 *
 * Exit codes: 0 success, 1 bad input or an I/O failure (the message names the file, line and
 * column), 2 a usage mistake (unknown command or option, bad option value).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, UsageError, type OptionSpec } from './args.js';
import { runClosest, type InputFormat, type Io } from './closest.js';
import { runFold } from './fold.js';
import { KINDS } from './rows.js';
import type { OutputFormat } from './output.js';
import type { Kind } from '../src/index.js';

/**
 * The package root: the nearest folder above this file with a package.json (the repository
 * when run from `cli/` with tsx, the installed package when run from `dist/cli/`).
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('skewline: cannot find package.json above the CLI');
    dir = up;
  }
  return dir;
}

const MAIN_HELP = `skewline — closest points between points, lines, rays and segments, in any dimension

Usage:
  skewline closest [file] [options]   closest points for every row of a CSV or NDJSON file
  skewline fold [file] --joint K --angle A [--axis x,y,z] [--thickness T] [-o FILE]
                                      fold a chain at a joint, stopping at the first contact
  skewline <command> --help           help on a command
  skewline --help | --version

Commands:
  closest   one result row (distance, c, d, p, s, t, relation, unique) per input pair
  fold      the angle a fold reaches before the chain touches itself, and the folded chain

Examples:
  skewline closest                          the bundled worked cases
  skewline closest pairs.csv -o out.csv     segment pairs from a CSV file
  skewline closest - --a ray --b ray < rays.ndjson --format ndjson
`;

const CLOSEST_HELP = `Usage: skewline closest [file] [options]

Reads pairs (a, b) and writes, for each, the closest points c (on a) and d (on b).

  file                 input file; '-' reads stdin; none reads piped stdin
                       (cat pairs.csv | skewline closest), or, with nothing piped,
                       runs the bundled worked cases of the source documents

Input (one pair per line; blank lines are skipped; LF, CRLF or CR line ends):
  CSV     a header, then numbers:
            a0x,a0y,a0z,a1x,a1y,a1z,b0x,b0y,b0z,b1x,b1y,b1z      (3D)
            a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y                      (2D; 4D adds w)
            a0x1,…,a0xN,a1x1,…,a1xN,b0x1,…,b0xN,b1x1,…,b1xN      (any dimension N)
          columns in any order; an optional 'name' column is copied to the output;
          a1* (b1*) may be left out when a (b) is a point
  NDJSON  {"a":[[…],[…]],"b":[[…],[…]]} per line, any dimension; optional "name",
          and "aKind"/"bKind" to override --a/--b for that row
  JSON    a .json file holding one array of such objects (or one pretty-printed object)
          is read too
  The format comes from the extension (.csv; .ndjson/.jsonl/.json), else from the
  first non-blank character ('{' or '[' means JSON). CSV fields may be quoted (RFC 4180),
  also across lines; a trailing comma after the header is tolerated.

Options:
  --input csv|ndjson      force the input format
  --a KIND, --b KIND      what a and b are: segment (default), ray, line, point
                          segment/line: through the two points; ray: origin, then direction;
                          point: the first point only
  --format csv|ndjson     output format (default csv; ndjson if -o ends in .ndjson/.jsonl)
  -o, --output FILE       write to FILE instead of stdout ('-': stdout). A regular file is
                          written to a temporary file beside it and renamed at the end (a
                          failed run leaves it untouched; its permissions and any symlink to
                          it are kept); a device or FIFO (/dev/null, /dev/stdout) is written
                          through. A read-only file, a directory, or the input file itself
                          is refused before anything is read.
  --progress, --no-progress
                          progress bar on stderr (default: when stderr is a terminal and the
                          output does not go to that terminal)
  --stats                 print rows, seconds, rows/s and peak memory to stderr at the end
  -h, --help              this help

Output columns (CSV; NDJSON has the same fields with c, d, p as arrays):
  [name,]distance,cx,cy,…,dx,…,px,…,s,t,relation,unique
  c, d: closest points on a and b; p: their midpoint; s, t: parameters of c and d
  (c = a0 + s·(a1 − a0) for a segment or line, origin + s·direction for a ray);
  relation: intersecting | overlapping | parallel | degenerate | apart;
  unique: false when the closest pair is not unique (then the middle of the locus is given).
  Numbers are printed in the shortest form that reads back to the same double. CSV output
  needs one dimension for all rows; use --format ndjson for mixed dimensions.

Errors name the file, the line (the header is line 1) and the column or field, e.g.
  skewline: pairs.csv:17: column b1y: not a number ("abc")
and exit with code 1 (code 2 for usage mistakes).
`;

const FOLD_HELP = `Usage: skewline fold [file] --joint K --angle A [--axis x,y,z] [--thickness T] [-o FILE]

Turns the vertices after vertex K about the joint (vertex K) by up to A radians and stops at
the first contact: the motion is checked, not only its end, so no angle is too large.

  file                 the chain; '-' or none reads standard input
                       CSV: x,y or x,y,z per vertex (an optional header x,y[,z]);
                       JSON: an array of points, a GeoJSON LineString, or a Feature with one

Options:
  --joint K            the vertex to bend at (0-based); vertices K+1 … n−1 turn
  --angle A            radians, either sign, any size (several turns too); 'A deg' or 'Adeg'
                       for degrees
  --axis x,y,z         3D: the rotation axis (right-hand rule); 2D has none (positive =
                       counter-clockwise)
  --thickness T        contact distance (default 0: touching); a contact is two non-adjacent
                       segments within T, or the two segments at the joint folding back
  -o, --output FILE    write the folded chain (same format as the input); '-' writes it to
                       standard output and the summary to standard error. A regular file is
                       replaced only when everything succeeded; the input file is refused.
  -h, --help           this help

Output: one CSV row 'angle,blocked,i,j': the angle reached (the whole angle unless blocked),
whether a contact stopped it, and the first pair of segments to touch (segment k runs from
vertex k to k+1). A chain already in contact at the start is an error naming the pair.

Example:
  skewline fold arm.csv --joint 3 --angle 90deg -o folded.csv
`;

const FOLD_OPTIONS: OptionSpec[] = [
  { name: 'joint', type: 'value' },
  { name: 'angle', type: 'value' },
  { name: 'axis', type: 'value' },
  { name: 'thickness', type: 'value' },
  { name: 'output', short: 'o', type: 'value' },
  { name: 'help', short: 'h', type: 'flag' },
];

/** A finite number from an option value, or a UsageError naming the option. */
function optionNumber(value: string | undefined, name: string, what: string): number {
  if (value === undefined) throw new UsageError(`skewline fold: --${name} is required (${what}) (see 'skewline fold --help')`);
  const x = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(x)) throw new UsageError(`skewline fold: --${name} must be ${what} (got '${value}')`);
  return x;
}

/** The fold command's options, checked. */
async function fold(argv: readonly string[], io: Io): Promise<number> {
  const { options, positionals } = parseArgs(argv, FOLD_OPTIONS, 'skewline fold');
  if (positionals.length > 1) throw new UsageError(`skewline fold: expected at most one input file, got ${positionals.length} (see 'skewline fold --help')`);
  const joint = optionNumber(options.get('joint') as string | undefined, 'joint', 'a vertex index (an integer ≥ 0)');
  if (!Number.isInteger(joint) || joint < 0) throw new UsageError(`skewline fold: --joint must be a vertex index, an integer ≥ 0 (got '${String(options.get('joint'))}')`);
  const rawAngle = options.get('angle') as string | undefined;
  const deg = rawAngle !== undefined && /\s*(deg|°)\s*$/i.test(rawAngle);
  const angle = optionNumber(deg ? rawAngle.replace(/\s*(deg|°)\s*$/i, '') : rawAngle, 'angle', 'a number of radians (or degrees with deg)') * (deg ? Math.PI / 180 : 1);
  const rawAxis = options.get('axis') as string | undefined;
  let axis: number[] | undefined;
  if (rawAxis !== undefined) {
    axis = rawAxis.split(',').map((p) => Number(p.trim()));
    if (axis.length !== 3 || rawAxis.split(',').some((p) => p.trim() === '') || !axis.every(Number.isFinite)) {
      throw new UsageError(`skewline fold: --axis must be three numbers x,y,z (got '${rawAxis}')`);
    }
  }
  const rawT = options.get('thickness') as string | undefined;
  const thickness = rawT === undefined ? 0 : optionNumber(rawT, 'thickness', 'a length ≥ 0');
  if (thickness < 0) throw new UsageError(`skewline fold: --thickness must be a length ≥ 0 (got '${rawT}')`);
  return runFold({ file: positionals[0], joint, angle, axis, thickness, output: options.get('output') as string | undefined }, io);
}

const CLOSEST_OPTIONS: OptionSpec[] = [
  { name: 'input', type: 'value', choices: ['csv', 'ndjson'] },
  { name: 'a', type: 'value', choices: KINDS },
  { name: 'b', type: 'value', choices: KINDS },
  { name: 'format', type: 'value', choices: ['csv', 'ndjson'] },
  { name: 'output', short: 'o', type: 'value' },
  { name: 'progress', type: 'flag' },
  { name: 'stats', type: 'flag' },
  { name: 'help', short: 'h', type: 'flag' },
];

const MAIN_OPTIONS: OptionSpec[] = [
  { name: 'help', short: 'h', type: 'flag' },
  { name: 'version', short: 'v', type: 'flag' },
];

/**
 * Runs the CLI on `argv` (the arguments after the script name). Resolves to the exit code;
 * writes results to `io.stdout` and messages to `io.stderr`.
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const command = argv.find((a) => !a.startsWith('-'));
    if (command === undefined) {
      const { options } = parseArgs(argv, MAIN_OPTIONS, 'skewline');
      if (options.get('version') === true) {
        const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
        io.stdout.write(`${pkg.version}\n`);
        return 0;
      }
      if (options.get('help') === true) {
        io.stdout.write(MAIN_HELP);
        return 0;
      }
      throw new UsageError(`skewline: a command is needed\n\n${MAIN_HELP}`);
    }
    const at = argv.indexOf(command);
    if (at > 0) {
      // options before the command: only --help/--version make sense there
      parseArgs(argv.slice(0, at), MAIN_OPTIONS, 'skewline');
      if (argv.slice(0, at).some((a) => a === '--help' || a === '-h')) {
        io.stdout.write(MAIN_HELP);
        return 0;
      }
    }
    if (command !== 'closest' && command !== 'fold') {
      throw new UsageError(`skewline: unknown command '${command}' (commands: closest, fold; see 'skewline --help')`);
    }
    if (command === 'fold') {
      if (argv.slice(at + 1).some((a) => a === '--help' || a === '-h')) {
        io.stdout.write(FOLD_HELP);
        return 0;
      }
      return await fold(argv.slice(at + 1), io);
    }
    // --help wins over everything else on the line, valid or not.
    if (argv.slice(at + 1).some((a) => a === '--help' || a === '-h')) {
      io.stdout.write(CLOSEST_HELP);
      return 0;
    }
    const { options, positionals } = parseArgs(argv.slice(at + 1), CLOSEST_OPTIONS, 'skewline closest');
    if (positionals.length > 1) {
      throw new UsageError(
        `skewline closest: expected at most one input file, got ${positionals.length} ` +
          `(${positionals.map((p) => `'${p}'`).join(', ')}) (see 'skewline closest --help')`,
      );
    }
    const o = options.get('output') as string | undefined;
    const output = o === '-' ? undefined : o; // -o - is standard output
    let format = options.get('format') as OutputFormat | undefined;
    if (format === undefined && output !== undefined && /\.(nd)?jsonl?$/i.test(output)) format = 'ndjson';
    const progress = options.get('progress');
    return await runClosest(
      {
        file: positionals[0],
        input: options.get('input') as InputFormat | undefined,
        a: (options.get('a') as Kind | undefined) ?? 'segment',
        b: (options.get('b') as Kind | undefined) ?? 'segment',
        format: format ?? 'csv',
        output,
        progress: typeof progress === 'boolean' ? progress : undefined,
        stats: options.get('stats') === true,
      },
      io,
      join(packageRoot(), 'data', 'examples.ndjson'),
    );
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

// Run when executed directly (node dist/cli/skewline.js, the npm bin link, or tsx cli/skewline.ts),
// not when imported.
if (process.argv[1] !== undefined && realpathOr(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2), process);
}

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
