#!/usr/bin/env node
/**
 * The `skewline` command line.
 *
 *     skewline closest [file] [options]   closest points for each row of a CSV/NDJSON file
 *     skewline sweep [file] [options]     first contact of two moving spheres, per row
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
import { runSweep } from './sweep.js';
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
  skewline sweep [file] [options]     when two moving spheres first touch, for every row
  skewline <command> --help           help on a command
  skewline --help | --version

Commands:
  closest   one result row (distance, c, d, p, s, t, relation, unique) per input pair
  sweep     one result row (hit, time, p, q, normal) per pair of moving spheres

Examples:
  skewline closest                          the bundled worked cases
  skewline closest pairs.csv -o out.csv     segment pairs from a CSV file
  skewline closest - --a ray --b ray < rays.ndjson --format ndjson
  skewline sweep                            the bundled moving-sphere cases
`;

const SWEEP_HELP = `Usage: skewline sweep [file] [options]

Reads two spheres per row, each moving in a straight line over one step
(p(t) = p0 + t·(p1 − p0), q(t) = q0 + t·(q1 − q0), t from 0 to 1), and writes whether
they touch (|p(t) − q(t)| ≤ r1 + r2) during the step and the first time they do.
The decision is exact; the time is the first double at which the exact spheres touch.

  file                 input file; '-' reads stdin; none reads piped stdin, or, with
                       nothing piped, runs the bundled examples (data/sweep-examples.ndjson)

Input (one pair of spheres per line; blank lines are skipped; LF, CRLF or CR line ends):
  CSV     a header, then numbers:
            p0x,p0y,p0z,p1x,p1y,p1z,r1,q0x,q0y,q0z,q1x,q1y,q1z,r2     (3D)
            p0x,p0y,p1x,p1y,r1,q0x,q0y,q1x,q1y,r2                     (2D; 4D adds w)
            p0x1,…,p0xN,p1x1,…,p1xN,r1,q0x1,…,q1xN,r2                 (any dimension N)
          p0/p1: first sphere's centre at the start/end of the step, r1 its radius;
          q0/q1, r2 the same for the second sphere. Columns in any order; an optional
          'name' column is copied to the output.
  NDJSON  {"p0":[…],"p1":[…],"r1":0.5,"q0":[…],"q1":[…],"r2":0.5} per line, any
          dimension; optional "name". A .json file holding an array of such objects
          (or one pretty-printed object) is read too.

Options:
  --input csv|ndjson      force the input format
  --format csv|ndjson     output format (default csv; ndjson if -o ends in .ndjson/.jsonl)
  -o, --output FILE       write to FILE instead of stdout ('-': stdout), safely, as for
                          'skewline closest' (temporary file renamed at the end; devices
                          and FIFOs written through; read-only, directory or the input
                          itself refused before anything is read)
  --progress, --no-progress
                          progress bar on stderr (default: when stderr is a terminal)
  --stats                 print rows, seconds, rows/s and peak memory to stderr at the end
  -h, --help              this help

Output columns (CSV; NDJSON has the same fields with p, q, normal as arrays):
  [name,]hit,time,px,py[,pz],qx,qy[,qz],nx,ny[,nz]
  hit: true or false; time: the first contact time in [0, 1] (0: touching at the start;
  1 when there is no hit); p, q: the centres at that time; n: the unit normal from p to q
  (zeros when there is no hit or the centres coincide).

Errors name the file, the line (the header is line 1) and the column or field, e.g.
  skewline: spheres.csv:4: column r2: not a number ("x")
and exit with code 1 (code 2 for usage mistakes).
`;

const SWEEP_OPTIONS: OptionSpec[] = [
  { name: 'input', type: 'value', choices: ['csv', 'ndjson'] },
  { name: 'format', type: 'value', choices: ['csv', 'ndjson'] },
  { name: 'output', short: 'o', type: 'value' },
  { name: 'progress', type: 'flag' },
  { name: 'stats', type: 'flag' },
  { name: 'help', short: 'h', type: 'flag' },
];

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
    if (command !== 'closest' && command !== 'sweep') {
      throw new UsageError(`skewline: unknown command '${command}' (commands: closest, sweep; see 'skewline --help')`);
    }
    // --help wins over everything else on the line, valid or not.
    if (argv.slice(at + 1).some((a) => a === '--help' || a === '-h')) {
      io.stdout.write(command === 'sweep' ? SWEEP_HELP : CLOSEST_HELP);
      return 0;
    }
    const { options, positionals } = parseArgs(argv.slice(at + 1), command === 'sweep' ? SWEEP_OPTIONS : CLOSEST_OPTIONS, `skewline ${command}`);
    if (positionals.length > 1) {
      throw new UsageError(
        `skewline ${command}: expected at most one input file, got ${positionals.length} ` +
          `(${positionals.map((p) => `'${p}'`).join(', ')}) (see 'skewline ${command} --help')`,
      );
    }
    const o = options.get('output') as string | undefined;
    const output = o === '-' ? undefined : o; // -o - is standard output
    let format = options.get('format') as OutputFormat | undefined;
    if (format === undefined && output !== undefined && /\.(nd)?jsonl?$/i.test(output)) format = 'ndjson';
    const progress = options.get('progress');
    const common = {
      file: positionals[0],
      input: options.get('input') as InputFormat | undefined,
      format: format ?? 'csv',
      output,
      progress: typeof progress === 'boolean' ? progress : undefined,
      stats: options.get('stats') === true,
    };
    if (command === 'sweep') return await runSweep(common, io, join(packageRoot(), 'data', 'sweep-examples.ndjson'));
    return await runClosest(
      {
        ...common,
        a: (options.get('a') as Kind | undefined) ?? 'segment',
        b: (options.get('b') as Kind | undefined) ?? 'segment',
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
