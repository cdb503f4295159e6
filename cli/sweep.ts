/**
 * `skewline sweep`: for every row, two spheres moving linearly over one step (p0 → p1 with
 * radius r1, q0 → q1 with radius r2) — do they touch, and when first? Answered by
 * {@link sphereSweep} (exact decisions; the first double of contact). Reading, streaming and
 * output are cli/run-rows.ts's.
 *
 * CSV header: `p0x,p0y[,p0z],p1x,…,r1,q0x,…,q1x,…,r2` in any order (case-insensitive), axes
 * `x,y[,z[,w]]` or `x1…xN` for any dimension, and an optional `name` column.
 * NDJSON: `{"p0":[…],"p1":[…],"r1":…,"q0":[…],"q1":[…],"r2":…}` per line, optional `name`.
 * Output: `[name,]hit,time,px…,qx…,nx…` (CSV) or `{name?,hit,time,p,q,normal}` (NDJSON).
 */
import { sphereSweep, SkewlineInputError } from '../src/index.js';
import { InputError, axisLabels, axisNames, parseJsonText, parseNumber, readHeaderColumns, splitCsv } from './rows.js';
import { allFinite, csvField, finiteResult, jsonLine, num, type CsvOutputOptions, type OutputFormat } from './output.js';
import { CommandError, runRows, type Io, type RowCommand, type RowOptions } from './run-rows.js';

const POINTS = ['p0', 'p1', 'q0', 'q1'] as const;
const COLUMN = /^([pq])([01])(x\d+|[xyzw])$/;

/** A parsed row: p0, p1, q0, q1 (dim numbers each) and the radii. */
interface SweepRow {
  name: string | undefined;
  dim: number;
  pts: Float64Array;
  r1: number;
  r2: number;
}

interface SweepLayout {
  dim: number;
  width: number;
  /** Per column: −1 name, −2 r1, −3 r2, −4 ignored trailing, else the slot in pts. */
  slot: Int32Array;
  names: string[];
  nameColumn: number;
}

/** The header for a dimension, for messages. */
function expected(dim: number): string {
  const ax = axisNames(dim);
  const pts = (p: string) => ax.map((x) => p + x).join(',');
  return `${pts('p0')},${pts('p1')},r1,${pts('q0')},${pts('q1')},r2`;
}

function parseHeader(text: string): SweepLayout {
  const names = splitCsv(text).map((s) => s.trim());
  while (names.length > 1 && names[names.length - 1] === '') names.pop();
  const { seen, parsed, dim, axes, nameColumn } = readHeaderColumns(names, COLUMN, POINTS, { name: -1, r1: -2, r2: -3 },
    (where) => `header: ${where} is not a known column; expected e.g. ${expected(3)} (2D: drop the z columns; optional: name)`,
    expected(3));
  const ax = axisLabels(axes, dim);
  for (const col of [...POINTS.flatMap((p) => ax.map((x) => p + x)), 'r1', 'r2']) {
    if (!seen.has(col)) throw new InputError(`header: missing column ${col} (expected ${expected(dim)})`);
  }
  const slot = new Int32Array(names.length);
  parsed.forEach(({ point, axis }, i) => (slot[i] = point < 0 ? point : point * dim + axis));
  return { dim, width: names.length, slot, names, nameColumn };
}

function parseRow(text: string, L: SweepLayout, row: SweepRow): void {
  const fields = splitCsv(text);
  while (fields.length > L.width && fields[fields.length - 1].trim() === '') fields.pop();
  if (fields.length !== L.width) throw new InputError(`expected ${L.width} columns as in the header, found ${fields.length}`);
  row.name = undefined;
  for (let i = 0; i < fields.length; i++) {
    const k = L.slot[i];
    if (k === -1) row.name = fields[i];
    else if (k === -2) row.r1 = parseNumber(fields[i], 'column r1');
    else if (k === -3) row.r2 = parseNumber(fields[i], 'column r2');
    else row.pts[k] = parseNumber(fields[i], `column ${L.names[i]}`);
  }
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'object') return 'an object';
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? x.slice(0, 40) + '…' : x);
  return String(x);
}

function parseJson(text: string): SweepRow {
  const obj = parseJsonText(text);
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw new InputError(`expected an object like {"p0":[…],"p1":[…],"r1":…,"q0":[…],"q1":[…],"r2":…}, got ${describe(obj)}`);
  }
  const o = obj as Record<string, unknown>;
  let name: string | undefined;
  if (typeof o.name === 'string') name = o.name;
  else if (typeof o.name === 'number') name = String(o.name);
  else if (o.name !== undefined && o.name !== null) throw new InputError(`field name: expected a string, got ${describe(o.name)}`);
  const first = o.p0;
  if (!Array.isArray(first)) throw new InputError(`field p0: expected an array of numbers, got ${first === undefined ? 'nothing (missing)' : describe(first)}`);
  const dim = first.length;
  if (dim < 1) throw new InputError('field p0: has no coordinates');
  const pts = new Float64Array(4 * dim);
  POINTS.forEach((f, p) => {
    const v = o[f];
    if (!Array.isArray(v)) throw new InputError(`field ${f}: expected an array of numbers, got ${v === undefined ? 'nothing (missing)' : describe(v)}`);
    if (v.length !== dim) throw new InputError(`field ${f}: dimension ${v.length} differs from p0's ${dim} (mixed dimensions)`);
    for (let i = 0; i < dim; i++) {
      const x: unknown = v[i];
      if (typeof x !== 'number') throw new InputError(`field ${f}[${i}]: not a number (${describe(x)})`);
      if (!Number.isFinite(x)) throw new InputError(`field ${f}[${i}]: not a finite number`);
      pts[p * dim + i] = x;
    }
  });
  const radius = (f: 'r1' | 'r2'): number => {
    const x = o[f];
    if (typeof x !== 'number') throw new InputError(`field ${f}: expected a number, got ${x === undefined ? 'nothing (missing)' : describe(x)}`);
    if (!Number.isFinite(x)) throw new InputError(`field ${f}: not a finite number`);
    return x;
  };
  return { name, dim, pts, r1: radius('r1'), r2: radius('r2') };
}

/** The sweep command for {@link runRows}. */
export function sweepCommand(): RowCommand {
  return {
    label: 'sweep',
    dimOf: (o) => (Array.isArray(o.p0) ? o.p0.length : 0),
    start(outFormat: OutputFormat, csv: CsvOutputOptions, write) {
      let rows = 0;
      let layout: SweepLayout | undefined;
      let csvRow: SweepRow | undefined;
      let width = csv.width;
      let withName = csv.name;
      let headerDone = false;
      const header = (dim: number, name: boolean): void => {
        if (headerDone || outFormat !== 'csv') return;
        headerDone = true;
        width ??= dim;
        withName ??= name;
        const ax = axisNames(width);
        const cols = ['p', 'q', 'n'].flatMap((q) => ax.map((x) => q + x));
        write([...(withName ? ['name'] : []), 'hit', 'time', ...cols].join(',') + '\n');
      };
      const answer = (row: SweepRow): void => {
        const { dim, pts } = row;
        let r;
        try {
          r = sphereSweep(pts.subarray(0, dim), pts.subarray(dim, 2 * dim), row.r1, pts.subarray(2 * dim, 3 * dim), pts.subarray(3 * dim, 4 * dim), row.r2);
        } catch (e) {
          if (e instanceof SkewlineInputError) throw new InputError(e.message.replace(/^sphereSweep: /, ''));
          throw new CommandError(`internal error on this row: ${(e as Error).stack ?? String(e)}`);
        }
        if (!(r.time - r.time === 0 && allFinite(r.p) && allFinite(r.q) && allFinite(r.normal))) {
          finiteResult({ time: r.time, p: r.p, q: r.q, normal: r.normal }, outFormat === 'csv');
        }
        if (outFormat === 'ndjson') {
          const out = { hit: r.hit, time: r.time, p: r.p, q: r.q, normal: r.normal };
          write(jsonLine(row.name === undefined ? out : { name: row.name, ...out }));
        } else {
          header(dim, row.name !== undefined);
          if (dim > width! || (dim !== width && csv.width === undefined)) {
            throw new InputError(`dimension ${dim} differs from the first row's ${width}; CSV output needs one dimension for all rows (use --format ndjson for mixed dimensions)`);
          }
          const pad = ','.repeat(width! - dim);
          let line = withName ? csvField(row.name ?? '') + ',' : '';
          line += `${String(r.hit)},${num(r.time)}`;
          for (const v of [r.p, r.q, r.normal]) {
            for (let i = 0; i < dim; i++) line += ',' + num(v[i]);
            line += pad;
          }
          write(line + '\n');
        }
        rows++;
      };
      return {
        csvHeader(text) {
          layout = parseHeader(text);
          csvRow = { name: undefined, dim: layout.dim, pts: new Float64Array(4 * layout.dim), r1: 0, r2: 0 };
          header(layout.dim, layout.nameColumn >= 0);
        },
        csvRow(text) {
          parseRow(text, layout!, csvRow!);
          answer(csvRow!);
        },
        jsonRow(text) {
          answer(parseJson(text));
        },
        rows: () => rows,
        end() {
          // empty input: the header alone (3D when nothing says the dimension)
          header(csv.width ?? 3, csv.name ?? false);
        },
      };
    },
  };
}

/** Runs `skewline sweep`. Resolves to the exit code (0 or 1); messages go to `io.stderr`. */
export function runSweep(opts: RowOptions, io: Io, bundled: string): Promise<number> {
  return runRows(sweepCommand(), opts, io, bundled);
}
