#!/usr/bin/env node
/**
 * The `skewline` command line.
 *
 *     skewline closest [file] [options]   closest points for each row of a CSV/NDJSON file
 *     skewline chain [file] [options]     contacts of chains (CSV or GeoJSON)
 *     skewline sweep [file] [options]     first contact of two moving spheres, per row
 *     skewline fold [file] --joint K --angle A [options]   fold a chain without passing through itself
 *     skewline explore [--port N]         the demos in a browser, served on 127.0.0.1
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
import { runChain, type ChainCliOptions } from './chain.js';
import { parseTile } from './tiles.js';
import { maxThreads } from '../src/parallel/index.js';
import { runSweep } from './sweep.js';
import { runFold } from './fold.js';
import { PIVOT_HELP, pivotCommand } from './pivot.js';
import { DEFAULT_PORT, runExplore } from './explore.js';
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
  skewline chain [file] [options]     where a chain (or a map's lines and rings) touches itself
  skewline sweep [file] [options]     when two moving spheres first touch, for every row
  skewline fold [file] --joint K --angle A [--axis x,y,z] [--thickness T] [-o FILE]
                                      fold a chain at a joint, stopping at the first contact
  skewline pivot FILE --moves N [--seed S] [--thickness T] [-o FILE]
                                      pivot Monte Carlo: N seeded random moves, contact-free
  skewline explore [--port N]         the source documents' demos, in your browser
  skewline <command> --help           help on a command
  skewline --help | --version

Commands:
  closest   one result row (distance, c, d, p, s, t, relation, unique) per input pair
  chain     one row (or GeoJSON feature) per pair of segments in contact
  sweep     one result row (hit, time, p, q, normal) per pair of moving spheres
  fold      the angle a fold reaches before the chain touches itself, and the folded chain
  pivot     the acceptance rate of N random pivot moves, and the final chain
  explore   serves the explorer (segments, chain builder, kicker) and prints its URL

Examples:
  skewline closest                          the bundled worked cases
  skewline closest pairs.csv -o out.csv     segment pairs from a CSV file
  skewline closest - --a ray --b ray < rays.ndjson --format ndjson
  skewline chain                            the bundled coastline rings
  skewline chain walk.csv --thickness 0.2   contacts of a 3D chain with a thickness
  skewline sweep                            the bundled moving-sphere cases
`;

const CHAIN_HELP = `Usage: skewline chain [file] [options]

Finds every pair of segments of a polygonal chain that come within a thickness of each other
(with thickness 0: that share a point), decided exactly.

  file                 input file; '-' reads stdin; none reads piped stdin, or, with
                       nothing piped, the bundled example (three Natural Earth land rings)

Input:
  CSV      one vertex per line: x,y[,z…] (any dimension, the same on every line); an optional
           header (x,y,z); a 'chain' (or 'id') column, or a blank line, starts a new chain
  GeoJSON  a FeatureCollection, Feature or geometry, or a sequence of them (one per line,
           or RFC 8142 text sequences), read as it streams (any size, any line length):
           every LineString and every ring of a (Multi)Polygon is a chain; rings repeat
           their first vertex, so their first and last segments are adjacent. Positions of
           2 and 3 coordinates may mix (2D ones get z = 0). A plain JSON array of points
           ([[0,0],[1,1],…]) is one chain.
  The format comes from the extension (.csv/.txt; .geojson/.json/.ndjson/.geojsonl), else
  from the first character ('{', '[' or RS means GeoJSON).

What counts: segments i and j of one chain are in contact when their exact distance is
≤ thickness and they are not adjacent; adjacent segments only when they fold back over each
other. Repeated vertices (zero-length segments) are skipped. Segment k runs from vertex k to
vertex k + 1.

Options:
  --thickness T         contact distance, in the input's units (default 0: shared points)
  --closed              every chain also has the segment from its last vertex to its first
  --between, --no-between
                        contacts between different chains too (default: --between, as
                        multiChainContacts); --no-between: within each chain only, and the
                        input (GeoJSON features, CSV chains) is then searched and written
                        batch by batch as it streams
  --threads N           threads for one large chain (default: the machine's; 1: none)
  --tile i/n            report only the contacts whose reference point lies in tile i of n
                        (0 ≤ i < n) of the input's bounding box; n runs together report every
                        contact exactly once (see docs/scale-out.md)
  --format csv|ndjson|geojson
                        output format (default: geojson for GeoJSON input, else csv)
  --input csv|geojson   force the input format
  -o, --output FILE     write to FILE ('-': stdout); as for 'skewline closest': written to a
                        temporary file and renamed at the end, nothing left on error
  --progress, --no-progress
                        a status line on stderr through reading, searching and writing
                        (default: when stderr is a terminal)
  --stats               print vertices, contacts, seconds and peak memory to stderr
  -h, --help            this help

Output:
  CSV/NDJSON  chain_i,i,chain_j,j,distance,s,t,cx,cy,…,dx,dy,…[,a_id,b_id],kind  (c on
              segment i, d on segment j; s, t their parameters; distance 0 exactly when they
              share a point)
  GeoJSON     a FeatureCollection: a Point where two segments meet (2D: the exact crossing
              rounded once), a LineString for a collinear overlap (its shared piece) or, with a
              thickness, from c to d; properties name the feature, part, ring and segment of
              both sides (a, b), the kind, and carry the input features' id and properties
              as a_id, b_id, a_<name>, b_<name> (NDJSON too; CSV gets a_id, b_id for GeoJSON
              input).
  kind        decided exactly, in any dimension: crossing (one point, interior to both
              segments), vertex-touch (an end of both), t-junction (an end of one on the
              interior of the other), overlap (a shared piece), or near (no common point:
              within the thickness only).
  Empty input: the CSV header alone, nothing (NDJSON), an empty FeatureCollection; exit 0,
              nothing on stderr.

Errors name the file and line (CSV), the line and GeoJSON path, or line:column for JSON syntax, e.g.
  skewline: walk.csv:12: column y: not a number ("abc")
  skewline: map.geojson:1: features[3].geometry.coordinates[0][7][1]: not a finite number (null)
  skewline: map.geojson:1:5273: expected ',' or ']' (got '}')
`;

const CHAIN_OPTIONS: OptionSpec[] = [
  { name: 'input', type: 'value', choices: ['csv', 'geojson'] },
  { name: 'thickness', type: 'value' },
  { name: 'closed', type: 'flag' },
  { name: 'between', type: 'flag' },
  { name: 'threads', type: 'value' },
  { name: 'tile', type: 'value' },
  { name: 'format', type: 'value', choices: ['csv', 'ndjson', 'geojson'] },
  { name: 'output', short: 'o', type: 'value' },
  { name: 'progress', type: 'flag' },
  { name: 'stats', type: 'flag' },
  { name: 'help', short: 'h', type: 'flag' },
];

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

Empty input gives the CSV header alone (3D when nothing says the dimension) or, for
NDJSON, nothing; exit 0. Every record is one line; Infinity and NaN are never written (a
result a format cannot hold is an error naming the row).

Errors name the file, the line (the header is line 1) and the column or field (JSON syntax:
file:line:column), e.g.
  skewline: spheres.csv:4: column r2: not a number ("x")
and exit with code 1 (code 2 for usage mistakes). With -o nothing is written on an error; on
standard output the rows before the error are written, and are valid rows: the exit code
says the run failed.
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

Empty input gives the CSV header alone (3D when nothing says the dimension) or, for
NDJSON, nothing; exit 0. Every record is one line. Any dimension is answered in time linear
in it (a line is at most 64 MiB). A result a format cannot hold (a distance above the largest
double) is an error naming the row: Infinity and NaN are never written.

Errors name the file, the line (the header is line 1) and the column or field (JSON syntax:
file:line:column), e.g.
  skewline: pairs.csv:17: column b1y: not a number ("abc")
  skewline: pairs.ndjson:4:11: invalid JSON: Expected ',' or ']' after array element
and exit with code 1 (code 2 for usage mistakes). With -o nothing is written on an error; on
standard output the rows before the error are written, and are valid rows: the exit code
says the run failed. Ctrl-C, SIGTERM, SIGHUP and SIGQUIT remove -o's temporary file.
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
Empty input (no vertices, or '[]') prints the header 'angle,blocked,i,j' alone and exits 0.

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

const EXPLORE_HELP = `Usage: skewline explore [--port N] [--rebuild]

Serves the explorer on http://127.0.0.1:PORT/ and prints the URL; Ctrl-C stops it.
  Segments   two segments, rays, lines or points: C, D, P, the parameter square, and
             nearly parallel segments turning with and without { stable: true }
  Chain      build and fold a chain that never passes through itself
  Kicker     a ball on a table you edit, up to 1000 table widths per second

In a clone the static site is built first (esbuild, into explorer/dist/) when it is missing
or older than its sources. The site is self-contained: any static host can serve it.

Options:
  --port N      port to listen on (default ${DEFAULT_PORT}); 0 picks a free port
  --rebuild     build the site even if it looks current
  -h, --help    this help
`;

const EXPLORE_OPTIONS: OptionSpec[] = [
  { name: 'port', short: 'p', type: 'value' },
  { name: 'rebuild', type: 'flag' },
  { name: 'help', short: 'h', type: 'flag' },
];

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
    if (command === 'explore') {
      if (argv.slice(at + 1).some((a) => a === '--help' || a === '-h')) {
        io.stdout.write(EXPLORE_HELP);
        return 0;
      }
      const { options, positionals } = parseArgs(argv.slice(at + 1), EXPLORE_OPTIONS, 'skewline explore');
      if (positionals.length > 0) throw new UsageError(`skewline explore: unexpected argument '${positionals[0]}' (see 'skewline explore --help')`);
      const p = options.get('port');
      const port = p === undefined ? DEFAULT_PORT : Number(p);
      if (typeof p === 'string' && (!/^\d+$/.test(p) || port > 65535)) {
        throw new UsageError(`skewline explore: --port must be an integer from 0 to 65535 (got '${p}')`);
      }
      return await runExplore({ port, rebuild: options.get('rebuild') === true }, io, packageRoot());
    }
    if (command === 'chain') return await chainCommand(argv.slice(at + 1), io);
    if (command === 'fold') {
      if (argv.slice(at + 1).some((a) => a === '--help' || a === '-h')) {
        io.stdout.write(FOLD_HELP);
        return 0;
      }
      return await fold(argv.slice(at + 1), io);
    }
    if (command === 'pivot') {
      if (argv.slice(at + 1).some((a) => a === '--help' || a === '-h')) {
        io.stdout.write(PIVOT_HELP);
        return 0;
      }
      return await pivotCommand(argv.slice(at + 1), io);
    }
    if (command !== 'closest' && command !== 'sweep') {
      throw new UsageError(`skewline: unknown command '${command}' (commands: closest, sweep, chain, fold, pivot, explore; see 'skewline --help')`);
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

/** `skewline chain …` (the arguments after the command). */
async function chainCommand(args: readonly string[], io: Io): Promise<number> {
  if (args.some((a) => a === '--help' || a === '-h')) {
    io.stdout.write(CHAIN_HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(args, CHAIN_OPTIONS, 'skewline chain');
  if (positionals.length > 1) {
    throw new UsageError(`skewline chain: expected at most one input file, got ${positionals.length} (see 'skewline chain --help')`);
  }
  const t = options.get('thickness') as string | undefined;
  const thickness = t === undefined ? 0 : Number(t);
  if (t !== undefined && (t.trim() === '' || !Number.isFinite(thickness) || thickness < 0)) {
    throw new UsageError(`skewline chain: --thickness must be a finite number ≥ 0 (got '${t}')`);
  }
  const o = options.get('output') as string | undefined;
  const output = o === '-' ? undefined : o;
  let format = options.get('format') as ChainCliOptions['format'];
  if (format === undefined && output !== undefined) {
    if (/\.(nd)?jsonl?$/i.test(output)) format = 'ndjson';
    else if (/\.geojson$/i.test(output)) format = 'geojson';
    else if (/\.csv$/i.test(output)) format = 'csv';
  }
  const progress = options.get('progress');
  const th = options.get('threads') as string | undefined;
  const threads = th === undefined ? maxThreads() : Number(th);
  if (th !== undefined && (!/^\s*\d+\s*$/.test(th) || threads < 1)) {
    throw new UsageError(`skewline chain: --threads must be a whole number ≥ 1 (got '${th}')`);
  }
  const tileText = options.get('tile') as string | undefined;
  let tile: ChainCliOptions['tile'];
  try {
    tile = tileText === undefined ? undefined : parseTile(tileText);
  } catch (e) {
    throw new UsageError(`skewline chain: ${(e as Error).message}`);
  }
  return runChain(
    {
      file: positionals[0],
      input: options.get('input') as ChainCliOptions['input'],
      thickness,
      closed: options.get('closed') === true,
      between: options.get('between') !== false,
      format,
      output,
      progress: typeof progress === 'boolean' ? progress : undefined,
      stats: options.get('stats') === true,
      threads: Math.min(threads, maxThreads()),
      tile,
    },
    io,
    join(packageRoot(), 'data', 'coastline.geojson'),
  );
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
