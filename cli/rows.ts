/**
 * Parsing one input row of `skewline closest`, from a CSV line or an NDJSON line, into flat
 * coordinates. Errors are {@link InputError}s whose message names the column (CSV) or the field
 * (NDJSON); the caller prefixes the file name and line number.
 *
 * CSV header: the columns `a0x,a0y,a0z,a1x,a1y,a1z,b0x,b0y,b0z,b1x,b1y,b1z` in any order
 * (case-insensitive). The axes are named `x,y` (2D), `x,y,z` (3D), `x,y,z,w` (4D), or, for any
 * dimension N ≥ 1, `x1,x2,…,xN` (`a0x1,…,a0xN,a1x1,…,b1xN`). One optional extra column, `name`,
 * is carried through to the output. The `a1*` (or `b1*`) columns may be left out when a (or b)
 * is a point.
 *
 * NDJSON: one object per line, `{"a":[[…],[…]],"b":[[…],[…]]}`, any dimension; optional
 * `"name"` (a string or number, carried through), and optional `"aKind"`/`"bKind"` (segment, ray,
 * line, point) which override the command-line kinds for that row. A point may give one
 * coordinate list (`"a":[[1,2,3]]`). Other keys are ignored.
 */
import type { Kind } from '../src/index.js';

/**
 * Bad input in one row (or the header); the message names the column or field, not the file or
 * line. `column`, when known (a JSON syntax error), is the 1-based character column in the line,
 * printed as `file:line:column`.
 */
export class InputError extends Error {
  override name = 'InputError';
  constructor(message: string, readonly column?: number) {
    super(message);
  }
}

/**
 * Deepest nesting of arrays and objects the CLI reads. Its formats need at most 6 levels (a
 * GeoJSON FeatureCollection of MultiPolygons); a document nested thousands deep would otherwise
 * overflow the stack in the JSON code that follows the parse.
 */
export const MAX_JSON_DEPTH = 64;

/** The 1-based line and column of the 1-based character `offset` in `text` (lines end at \n). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset - 1; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start };
}

/**
 * `JSON.parse` with a depth limit and messages that say where.
 * @throws InputError for text nested deeper than `maxDepth` (checked first, in linear time: a
 * count of opening brackets, and a scan that skips strings only when there are more than
 * `maxDepth`), or for invalid JSON; `column` is the 1-based offset of the fault in `text`.
 */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  // Nesting deeper than maxDepth needs more than maxDepth opening brackets: count them first
  // (indexOf jumps, native), and scan character by character only when there are that many.
  let opens = 0;
  for (let i = text.indexOf('['); i >= 0 && opens <= maxDepth; i = text.indexOf('[', i + 1)) opens++;
  for (let i = text.indexOf('{'); i >= 0 && opens <= maxDepth; i = text.indexOf('{', i + 1)) opens++;
  if (opens > maxDepth) checkDepth(text, maxDepth);
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const at = /at position (\d+)/.exec(message);
    // the position goes into file:line:column, so the message need not repeat it
    // V8 quotes a piece of the input after "Unexpected token …" (raw line breaks and all): drop it
    const short = message.replace(/ in JSON at position \d+/, '').replace(/, "[\s\S]*" is not valid JSON$/, '');
    throw new InputError(`invalid JSON: ${short}`, at === null ? undefined : Number(at[1]) + 1);
  }
}

/** @throws InputError when `text` nests arrays and objects deeper than `maxDepth` (strings skipped). */
function checkDepth(text: string, maxDepth: number): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // a string: skip to its closing quote (escapes skip the next character)
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) {
      if (++depth > maxDepth) throw new InputError(`JSON nested deeper than ${maxDepth} levels (arrays and objects inside each other)`, i + 1);
    } else if (c === 93 || c === 125) depth--;
  }
}

/** The four kinds, in the order the help text lists them. */
export const KINDS: readonly Kind[] = ['segment', 'ray', 'line', 'point'];

/** One parsed input row. */
export interface InputRow {
  /** The `name` column or field, if the row has one. */
  name: string | undefined;
  /** Dimension of every point in the row. */
  dim: number;
  /**
   * a0, a1, b0, b1, each `dim` numbers, one after another. When a point was given alone
   * (no a1 or b1), its second slot repeats the first.
   */
  coords: Float64Array;
  /** Per-row kinds (NDJSON `aKind`/`bKind`), overriding the command line when set. */
  aKind: Kind | undefined;
  bKind: Kind | undefined;
}

/** The four points of a row, in storage order, as the CSV columns and NDJSON fields name them. */
const POINTS = ['a0', 'a1', 'b0', 'b1'] as const;
const LETTER_AXES = ['x', 'y', 'z', 'w'];

/** How many numbered (x1, x2, …) and lettered (x, y, z, w) axis names a header has used so far. */
export interface AxisKinds {
  numbered: number;
  lettered: number;
}

/**
 * The axis index of a column name's axis suffix: a letter x, y, z, w, or xN numbered from 1.
 * Counts the kind in `kinds` and refuses a header that mixes the two.
 * @throws InputError naming the column (`where`).
 */
export function axisOf(suffix: string, where: string, kinds: AxisKinds): number {
  let axis: number;
  if (suffix.length > 1) {
    kinds.numbered++;
    axis = Number(suffix.slice(1)) - 1;
    if (axis < 0) throw new InputError(`header: ${where}: axes are numbered from x1`);
  } else {
    kinds.lettered++;
    axis = LETTER_AXES.indexOf(suffix);
  }
  if (kinds.numbered > 0 && kinds.lettered > 0) {
    throw new InputError(`header: ${where} mixes numbered axes (x1, x2, …) with lettered ones (x, y, z, w)`);
  }
  return axis;
}

/** The axis names of a header's columns, in its own style (x1…xN if it numbered them). */
export function axisLabels(kinds: AxisKinds, dim: number): string[] {
  return kinds.numbered > 0 ? Array.from({ length: dim }, (_, i) => `x${i + 1}`) : LETTER_AXES.slice(0, dim);
}

/**
 * The axis names used for a dimension: `x,y,z,w` up to 4D, `x1…xN` beyond. Output columns use
 * these, e.g. `cx,cy,cz` in 3D and `cx1,…,cx5` in 5D.
 */
export function axisNames(dim: number): string[] {
  if (dim <= 4) return LETTER_AXES.slice(0, dim);
  return Array.from({ length: dim }, (_, i) => `x${i + 1}`);
}

/** What the header of a CSV input says about its columns. */
export interface CsvLayout {
  dim: number;
  /** Column count every data row must have. */
  width: number;
  /** Empty columns after the last named one (a header's trailing commas); rows may carry them, empty. */
  trailing: number;
  /** For each column, the index into {@link InputRow.coords}, or -1 for the `name` column. */
  slot: Int32Array;
  /** The header's column names as written (trimmed), for error messages. */
  names: string[];
  /** Index of the `name` column, or -1. */
  nameColumn: number;
  /** Whether a1 (b1) columns are present; when absent, the point's second slot copies the first. */
  hasA1: boolean;
  hasB1: boolean;
}

const COLUMN = /^([ab])([01])(x\d+|[xyzw])$/;

/** Splits one CSV line into fields; fields may be double-quoted (RFC 4180, `""` for a quote). */
export function splitCsv(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let i = 0;
  while (true) {
    let field = '';
    // skip spaces before a quoted field
    let j = i;
    while (line[j] === ' ' || line[j] === '\t') j++;
    if (line[j] === '"') {
      j++;
      while (true) {
        const q = line.indexOf('"', j);
        if (q < 0) throw new InputError(`column ${out.length + 1}: unterminated quoted field`);
        field += line.slice(j, q);
        if (line[q + 1] === '"') {
          field += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      while (line[j] === ' ' || line[j] === '\t') j++;
      if (j < line.length && line[j] !== ',') {
        throw new InputError(`column ${out.length + 1}: text after a closing quote`);
      }
      out.push(field);
    } else {
      const c = line.indexOf(',', i);
      j = c < 0 ? line.length : c;
      out.push(line.slice(i, j));
    }
    if (j >= line.length) return out;
    i = j + 1;
  }
}

function expectedHeader(dim: number): string {
  const ax = axisNames(Math.max(dim, 2));
  return POINTS.map((p) => ax.map((x) => p + x).join(',')).join(',');
}

/** What {@link readHeaderColumns} makes of a header's names. */
export interface HeaderColumns {
  /** Each (lower-case) name's column. */
  seen: Map<string, number>;
  /** Per column: the point (index into the command's point names) and axis, or a special column's code with axis −1. */
  parsed: { point: number; axis: number }[];
  dim: number;
  axes: AxisKinds;
  /** The `name` column, or −1. */
  nameColumn: number;
}

/**
 * The column loop shared by the CSV headers of `closest` and `sweep`: each name is a special
 * column (`special`: name → code < 0) or a coordinate `<point><axis>` matched by `column`
 * (point names from `points`, axes through axisOf).
 * @throws InputError for an empty or repeated name, an unknown one (`unknown(where)`), mixed
 *   axis naming, or no coordinate column at all (`example`: a header to show).
 */
export function readHeaderColumns(
  names: readonly string[], column: RegExp, points: readonly string[], special: Readonly<Record<string, number>>,
  unknown: (where: string) => string, example: string,
): HeaderColumns {
  names.forEach((n, i) => {
    if (n === '') throw new InputError(`header: column ${i + 1} has no name`);
  });
  const seen = new Map<string, number>();
  let nameColumn = -1;
  const axes: AxisKinds = { numbered: 0, lettered: 0 };
  let dim = 0;
  const parsed: { point: number; axis: number }[] = [];
  names.forEach((raw, i) => {
    const key = raw.toLowerCase();
    const where = `column ${i + 1} ("${raw}")`;
    if (seen.has(key)) throw new InputError(`header: ${where} repeats column ${seen.get(key)! + 1}`);
    seen.set(key, i);
    if (Object.hasOwn(special, key)) {
      if (key === 'name') nameColumn = i;
      parsed.push({ point: special[key], axis: -1 });
      return;
    }
    const m = column.exec(key);
    if (m === null) throw new InputError(unknown(where));
    const point = points.indexOf(`${m[1]}${m[2]}`);
    const axis = axisOf(m[3], where, axes);
    dim = Math.max(dim, axis + 1);
    parsed.push({ point, axis });
  });
  if (dim === 0) throw new InputError(`header: no coordinate columns; expected e.g. ${example}`);
  return { seen, parsed, dim, axes, nameColumn };
}

/**
 * Reads a CSV header line.
 * @param aIsPoint, bIsPoint whether the a1 (b1) columns may be left out.
 * @throws InputError naming the offending column: unknown or duplicate names, mixed axis
 * naming, or a missing column (with the expected header in the message).
 */
export function parseCsvHeader(line: string, aIsPoint: boolean, bIsPoint: boolean): CsvLayout {
  const names = splitCsv(line).map((s) => s.trim());
  // A trailing comma (some spreadsheets write one) adds an empty last column: tolerate it; data
  // rows may then end in an empty field too.
  let trailing = 0;
  while (names.length > 1 && names[names.length - 1] === '') {
    names.pop();
    trailing++;
  }
  const { seen, parsed, dim, axes, nameColumn } = readHeaderColumns(names, COLUMN, POINTS, { name: -1 },
    (where) => `header: ${where} is not a known column; expected e.g. ${expectedHeader(3)} ` +
      `(2D: drop the z columns; any dimension: a0x1,…,a0xN,…,b1xN; optional: name)`,
    expectedHeader(3));
  const ax = axisLabels(axes, dim);
  const present = (p: number) => ax.some((x) => seen.has(POINTS[p] + x));
  const hasA1 = present(1);
  const hasB1 = present(3);
  for (let p = 0; p < 4; p++) {
    if ((p === 1 && !hasA1 && aIsPoint) || (p === 3 && !hasB1 && bIsPoint)) continue;
    for (const x of ax) {
      if (!seen.has(POINTS[p] + x)) {
        throw new InputError(`header: missing column ${POINTS[p] + x} (expected ${expectedHeader(dim)})`);
      }
    }
  }
  const slot = new Int32Array(names.length);
  parsed.forEach(({ point, axis }, i) => {
    slot[i] = point < 0 ? -1 : point * dim + axis;
  });
  return { dim, width: names.length, trailing, slot, names, nameColumn, hasA1, hasB1 };
}

// A strict decimal number. Number() alone would also take "0x1f", "0b1", "" and "  ".
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * Parses a decimal number strictly.
 * @throws InputError `${where}: …` for an empty field, text that is not a decimal number,
 * and values that are not finite (NaN, Infinity, or overflow such as 1e400).
 */
export function parseNumber(text: string, where: string): number {
  const x = +text;
  // Fast path: a finite non-integer can only come from decimal text. Integers (and 0 from an
  // empty field) may come from hex/binary/octal or blank text, so those go through the regex.
  if (x - x === 0 && !Number.isInteger(x)) return x;
  if (x - x === 0 && DECIMAL.test(text)) return x;
  const shown = JSON.stringify(text.length > 40 ? text.slice(0, 40) + '…' : text);
  if (text.trim() === '') throw new InputError(`${where}: empty (a number is needed)`);
  if (DECIMAL.test(text) || /^\s*[+-]?(infinity|nan)\s*$/i.test(text)) {
    throw new InputError(`${where}: not a finite number (${shown})`);
  }
  throw new InputError(`${where}: not a number (${shown})`);
}

/**
 * Parses one CSV data line into `row` (reusing `row.coords`, which must hold 4·dim numbers).
 * @throws InputError naming the column, e.g. `column b1y: not a number ("abc")`, or giving the
 * expected and found column counts.
 */
export function parseCsvRow(line: string, layout: CsvLayout, row: InputRow): void {
  const fields = splitCsv(line);
  while (fields.length > layout.width && fields.length <= layout.width + layout.trailing && fields[fields.length - 1].trim() === '') fields.pop();
  if (fields.length !== layout.width) {
    throw new InputError(`expected ${layout.width} columns as in the header, found ${fields.length}`);
  }
  const { slot, names, dim } = layout;
  const coords = row.coords;
  for (let i = 0; i < fields.length; i++) {
    const k = slot[i];
    if (k < 0) row.name = fields[i];
    else coords[k] = parseNumber(fields[i], `column ${names[i]}`);
  }
  if (!layout.hasA1) coords.copyWithin(dim, 0, dim);
  if (!layout.hasB1) coords.copyWithin(3 * dim, 2 * dim, 3 * dim);
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'object') return 'an object';
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? x.slice(0, 40) + '…' : x);
  return String(x);
}

function readKind(v: unknown, field: string): Kind | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string' && (KINDS as readonly string[]).includes(v)) return v as Kind;
  throw new InputError(`field ${field}: must be one of ${KINDS.join(', ')} (got ${describe(v)})`);
}

function readPoints(v: unknown, field: string, kind: Kind): unknown[] {
  if (v === undefined) throw new InputError(`field ${field}: missing (expected [[…],[…]])`);
  if (!Array.isArray(v)) throw new InputError(`field ${field}: expected an array of two points, got ${describe(v)}`);
  if (kind === 'point' ? v.length < 1 || v.length > 2 : v.length !== 2) {
    const want = kind === 'point' ? '1 or 2 points ([p] or [p, q])' : `2 points ([p0, p1]) for a ${kind}`;
    throw new InputError(`field ${field}: expected ${want}, found ${v.length}`);
  }
  return v;
}

/**
 * Parses one NDJSON line.
 * @param aKind, bKind the command-line kinds (a row's `aKind`/`bKind` take precedence).
 * @throws InputError for invalid JSON, a missing or malformed `a`/`b`, a coordinate that is not
 * a finite number (naming the field, e.g. `field b[1][2]`), points of different dimensions, or
 * an unknown kind.
 */
export function parseNdjsonRow(line: string, aKind: Kind, bKind: Kind): InputRow {
  const obj = parseJsonText(line);
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw new InputError(`expected an object like {"a":[[…],[…]],"b":[[…],[…]]}, got ${describe(obj)}`);
  }
  const o = obj as Record<string, unknown>;
  const rowA = readKind(o.aKind, 'aKind');
  const rowB = readKind(o.bKind, 'bKind');
  const a = readPoints(o.a, 'a', rowA ?? aKind);
  const b = readPoints(o.b, 'b', rowB ?? bKind);
  let name: string | undefined;
  if (typeof o.name === 'string') name = o.name;
  else if (typeof o.name === 'number') name = String(o.name);
  else if (o.name !== undefined && o.name !== null) {
    throw new InputError(`field name: expected a string, got ${describe(o.name)}`);
  }
  const first = a[0];
  if (!Array.isArray(first)) throw new InputError(`field a[0]: expected an array of numbers, got ${describe(first)}`);
  const dim = first.length;
  if (dim < 1) throw new InputError('field a[0]: has no coordinates');
  const coords = new Float64Array(4 * dim);
  const lists = [a[0], a[1] ?? a[0], b[0], b[1] ?? b[0]];
  const fields = ['a[0]', 'a[1]', 'b[0]', 'b[1]'];
  for (let p = 0; p < 4; p++) {
    const pt = lists[p];
    if (!Array.isArray(pt)) throw new InputError(`field ${fields[p]}: expected an array of numbers, got ${describe(pt)}`);
    if (pt.length !== dim) {
      throw new InputError(`field ${fields[p]}: dimension ${pt.length} differs from a[0]'s ${dim} (mixed dimensions)`);
    }
    for (let i = 0; i < dim; i++) {
      const x: unknown = pt[i];
      if (typeof x !== 'number') throw new InputError(`field ${fields[p]}[${i}]: not a number (${describe(x)})`);
      // JSON.parse turns 1e400 into Infinity
      if (!Number.isFinite(x)) throw new InputError(`field ${fields[p]}[${i}]: not a finite number`);
      coords[p * dim + i] = x;
    }
  }
  return { name, dim, coords, aKind: rowA, bKind: rowB };
}
