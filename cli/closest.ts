/**
 * `skewline closest`: closest points for every row of a CSV or NDJSON file, streamed (the
 * reading, streaming and output are cli/run-rows.ts's; this file reads pairs and answers them).
 */
import { closestPoints, line, point, ray, segment, SkewlineInputError } from '../src/index.js';
import type { Kind, Primitive } from '../src/index.js';
import { InputError, axisNames, parseCsvHeader, parseCsvRow, parseNdjsonRow, type CsvLayout, type InputRow } from './rows.js';
import { csvFormatter, ndjsonFormatter, type OutputFormat, type RowFormatter } from './output.js';
import { CommandError, runRows, type InputFormat, type Io, type RowCommand, type RowOptions } from './run-rows.js';

export { CommandError, type InputFormat, type Io } from './run-rows.js';


/** What `skewline closest` was asked to do. */
export interface ClosestOptions extends RowOptions {
  a: Kind;
  b: Kind;
}

function build(kind: Kind, c: Float64Array, off: number, dim: number): Primitive {
  const p0 = c.subarray(off, off + dim);
  const p1 = c.subarray(off + dim, off + 2 * dim);
  switch (kind) {
    case 'segment':
      return segment(p0, p1);
    case 'line':
      return line(p0, p1);
    case 'ray':
      return ray(p0, p1);
    case 'point':
      return point(p0);
  }
}

/** Builds primitive `which` of a row; a constructor's complaint becomes an InputError naming the columns. */
function make(which: 'a' | 'b', kind: Kind, c: Float64Array, off: number, dim: number, format: InputFormat): Primitive {
  try {
    return build(kind, c, off, dim);
  } catch (e) {
    if (!(e instanceof SkewlineInputError)) throw e;
    throw new InputError(`${where(which, kind, format, dim)}: ${e.message}`);
  }
}

/** Names the input columns (CSV) or fields (NDJSON) behind a primitive, for error messages. */
function where(which: 'a' | 'b', kind: Kind, format: InputFormat, dim: number): string {
  const pts = kind === 'ray' ? [1] : kind === 'line' ? [0, 1] : [0];
  if (format === 'ndjson') return `${pts.length > 1 ? 'fields' : 'field'} ${pts.map((i) => `${which}[${i}]`).join(', ')}`;
  const ax = axisNames(dim);
  return `columns ${pts.map((i) => `${which}${i}${ax[0]}…${which}${i}${ax[ax.length - 1]}`).join(', ')}`;
}

/** The closest command for {@link runRows}: pairs in, closest points out. */
export function closestCommand(opts: { a: Kind; b: Kind }): RowCommand {
  return {
    label: 'closest',
    dimOf: (o) => {
      const a = o.a as unknown[][] | undefined;
      return Array.isArray(a) && Array.isArray(a[0]) ? a[0].length : 0;
    },
    start(outFormat: OutputFormat, csv, write) {
      const formatter: RowFormatter = outFormat === 'ndjson' ? ndjsonFormatter() : csvFormatter(csv);
      let rows = 0;
      let layout: CsvLayout | undefined;
      let csvRow: InputRow | undefined;
      const answer = (row: InputRow, format: InputFormat): void => {
        const { dim, coords } = row;
        const pa = make('a', row.aKind ?? opts.a, coords, 0, dim, format);
        const pb = make('b', row.bKind ?? opts.b, coords, 2 * dim, dim, format);
        let r;
        try {
          r = closestPoints(pa, pb);
        } catch (e) {
          if (e instanceof SkewlineInputError || e instanceof RangeError) throw new InputError(e.message);
          throw new CommandError(`internal error on this row: ${(e as Error).stack ?? String(e)}`);
        }
        write(formatter.format(row.name, dim, r));
        rows++;
      };
      return {
        csvHeader(text) {
          layout = parseCsvHeader(text, opts.a === 'point', opts.b === 'point');
          csvRow = { name: undefined, dim: layout.dim, coords: new Float64Array(4 * layout.dim), aKind: undefined, bKind: undefined };
          write(formatter.begin(layout.dim, layout.nameColumn >= 0));
        },
        csvRow(text) {
          parseCsvRow(text, layout!, csvRow!);
          answer(csvRow!, 'csv');
        },
        jsonRow(text) {
          answer(parseNdjsonRow(text, opts.a, opts.b), 'ndjson');
        },
        rows: () => rows,
        end() {
          // empty input: the header alone (3D when nothing says the dimension)
          write(formatter.begin(csv.width ?? 3, csv.name ?? false));
        },
      };
    },
  };
}

/**
 * Runs `skewline closest`. Resolves to the exit code (0 or 1); messages go to `io.stderr`.
 * @param bundled the path of the bundled examples, used when `opts.file` is undefined and
 * standard input has no data.
 */
export function runClosest(opts: ClosestOptions, io: Io, bundled: string): Promise<number> {
  return runRows(closestCommand(opts), opts, io, bundled);
}
