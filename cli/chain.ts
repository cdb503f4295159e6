/**
 * `skewline chain`: every contact of a chain (or of several chains) read from CSV or GeoJSON.
 *
 * The whole input is needed before any contact is known, so it is read first (line by line,
 * with line numbers for errors), then searched once, then written in chunks; `-o` gets the same
 * safe writing as `closest` (a temporary file renamed at the end, nothing left on error).
 */
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { readLines } from './input.js';
import { ProgressBar } from './progress.js';
import { InputError, parseNumber, splitCsv } from './rows.js';
import { jsonLine, num } from './output.js';
import { CommandError, failure, openRun, type Io } from './run-rows.js';
import { multiChainContacts, chainIntersections, OVERLAP_CONTACT, SkewlineInputError } from '../src/index.js';

/** What `skewline chain` was asked to do. */
export interface ChainCliOptions {
  /** A path, `-` for stdin, or undefined for the bundled example. */
  file: string | undefined;
  input: 'csv' | 'geojson' | undefined;
  thickness: number;
  closed: boolean;
  between: boolean;
  format: 'csv' | 'ndjson' | 'geojson' | undefined;
  output: string | undefined;
  progress: boolean | undefined;
  stats: boolean;
}

/** One chain as read, with a label for messages and output. */
interface ReadChain {
  coords: number[];
  /** GeoJSON: where the chain came from. */
  where: { feature?: number | undefined; part?: number; ring?: number };
}

interface ReadInput {
  chains: ReadChain[];
  dim: number;
  geojson: boolean;
}

/** Reads CSV: `x,y[,z…]` per vertex; an optional header; a `chain` column or blank lines separate chains. */
async function readCsv(stream: NodeJS.ReadableStream, onChunk: (n: number) => void): Promise<ReadInput> {
  const chains: ReadChain[] = [];
  let current: ReadChain | null = null;
  let dim = 0;
  let header: string[] | null = null;
  let chainCol = -1;
  let coordCols: number[] = [];
  let lastId: string | undefined;
  let first = true;
  let lineNo = 0;
  try {
    for await (const { text, no } of readLines(stream, onChunk)) {
      lineNo = no;
      if (text.trim() === '') {
        current = null; // a blank line ends a chain
        continue;
      }
      const fields = splitCsv(text);
      if (first) {
        first = false;
        if (fields.some((f) => f.trim() !== '' && Number.isNaN(Number(f)))) {
          header = fields.map((f) => f.trim().toLowerCase());
          chainCol = header.findIndex((h) => h === 'chain' || h === 'id');
          coordCols = header.map((_, k) => k).filter((k) => k !== chainCol && header![k] !== '');
          dim = coordCols.length;
          if (dim < 2) throw new InputError(`the header needs at least two coordinate columns (got ${header.join(',')})`);
          continue;
        }
        coordCols = fields.map((_, k) => k);
        dim = fields.length;
        if (dim < 2) throw new InputError('a vertex needs at least two coordinates (x,y)');
      }
      if (fields.length !== (header?.length ?? dim)) {
        throw new InputError(`expected ${header?.length ?? dim} fields (as in the ${header !== null ? 'header' : 'first row'}), found ${fields.length}`);
      }
      if (chainCol >= 0) {
        const id = fields[chainCol];
        if (id !== lastId) current = null;
        lastId = id;
      }
      if (current === null) {
        current = { coords: [], where: {} };
        chains.push(current);
      }
      for (let k = 0; k < dim; k++) {
        const name = header !== null ? header[coordCols[k]] : 'xyzw'[k] ?? `x${k + 1}`;
        current.coords.push(parseNumber(fields[coordCols[k]], `column ${name}`));
      }
    }
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`line ${lineNo}: ${e.message}`);
    throw e;
  }
  return { chains, dim, geojson: false };
}

/** The chains of a GeoJSON object: every LineString and every ring of a Polygon. */
function geojsonChains(doc: unknown): ReadInput {
  const chains: ReadChain[] = [];
  let dim = 0;
  const fail = (path: string, what: string): never => {
    throw new InputError(`${path}: ${what}`);
  };
  const line = (coords: unknown, path: string, where: ReadChain['where']): void => {
    if (!Array.isArray(coords)) fail(path, 'expected an array of positions');
    const out: number[] = [];
    (coords as unknown[]).forEach((p, k) => {
      if (!Array.isArray(p) || p.length < 2) fail(`${path}[${k}]`, 'expected a position [x, y(, z)]');
      const pos = p as unknown[];
      if (dim === 0) dim = pos.length;
      if (pos.length !== dim) fail(`${path}[${k}]`, `has ${pos.length} coordinates, earlier positions ${dim} (mixed dimensions)`);
      pos.forEach((x, d) => {
        if (typeof x !== 'number' || !Number.isFinite(x)) fail(`${path}[${k}][${d}]`, `not a finite number (${JSON.stringify(x)})`);
        out.push(x as number);
      });
    });
    chains.push({ coords: out, where });
  };
  const geometry = (g: unknown, path: string, feature: number | undefined): void => {
    if (g === null) return; // a Feature without geometry
    if (typeof g !== 'object' || g === null) fail(path, 'expected a geometry object');
    const o = g as { type?: unknown; coordinates?: unknown; geometries?: unknown };
    switch (o.type) {
      case 'LineString':
        return line(o.coordinates, `${path}.coordinates`, { feature });
      case 'MultiLineString':
        if (!Array.isArray(o.coordinates)) fail(`${path}.coordinates`, 'expected an array of lines');
        return (o.coordinates as unknown[]).forEach((l, k) => line(l, `${path}.coordinates[${k}]`, { feature, part: k }));
      case 'Polygon':
        if (!Array.isArray(o.coordinates)) fail(`${path}.coordinates`, 'expected an array of rings');
        return (o.coordinates as unknown[]).forEach((r, k) => line(r, `${path}.coordinates[${k}]`, { feature, ring: k }));
      case 'MultiPolygon':
        if (!Array.isArray(o.coordinates)) fail(`${path}.coordinates`, 'expected an array of polygons');
        return (o.coordinates as unknown[]).forEach((poly, q) => {
          if (!Array.isArray(poly)) fail(`${path}.coordinates[${q}]`, 'expected an array of rings');
          (poly as unknown[]).forEach((r, k) => line(r, `${path}.coordinates[${q}][${k}]`, { feature, part: q, ring: k }));
        });
      case 'GeometryCollection':
        if (!Array.isArray(o.geometries)) fail(`${path}.geometries`, 'expected an array');
        return (o.geometries as unknown[]).forEach((c, k) => geometry(c, `${path}.geometries[${k}]`, feature));
      case 'Point':
      case 'MultiPoint':
        return; // no segments
      default:
        fail(`${path}.type`, `not a GeoJSON geometry type (${JSON.stringify(o.type)})`);
    }
  };
  const o = doc as { type?: unknown; features?: unknown; geometry?: unknown };
  if (typeof doc !== 'object' || doc === null) fail('the document', 'expected a GeoJSON object');
  if (o.type === 'FeatureCollection') {
    if (!Array.isArray(o.features)) fail('features', 'expected an array');
    (o.features as unknown[]).forEach((f, k) => {
      if (typeof f !== 'object' || f === null || (f as { type?: unknown }).type !== 'Feature') fail(`features[${k}]`, 'expected a Feature');
      geometry((f as { geometry: unknown }).geometry, `features[${k}].geometry`, k);
    });
  } else if (o.type === 'Feature') geometry(o.geometry, 'geometry', 0);
  else geometry(doc, 'geometry', undefined);
  return { chains, dim: dim || 2, geojson: true };
}

async function readAll(stream: NodeJS.ReadableStream, onChunk: (n: number) => void): Promise<string> {
  const parts: string[] = [];
  for await (const { text } of readLines(stream, onChunk)) parts.push(text);
  return parts.join('\n');
}

/** Input format from the extension, or undefined. */
function formatFromName(file: string): 'csv' | 'geojson' | undefined {
  const ext = extname(file).toLowerCase();
  if (ext === '.csv' || ext === '.txt') return 'csv';
  if (ext === '.geojson' || ext === '.json') return 'geojson';
  return undefined;
}

/** Describes a chain for messages: `chain 3` or `features[2] ring 1`. */
function label(c: ReadChain, k: number): Record<string, number> {
  const out: Record<string, number> = { chain: k };
  if (c.where.feature !== undefined) out.feature = c.where.feature;
  if (c.where.part !== undefined) out.part = c.where.part;
  if (c.where.ring !== undefined) out.ring = c.where.ring;
  return out;
}

/**
 * Runs the command; resolves to the exit code (0 or 1). Messages go to `io.stderr`.
 * @param bundled the bundled example used when no file is given and nothing is piped.
 */
export async function runChain(opts: ChainCliOptions, io: Io, bundled: string): Promise<number> {
  const started = process.hrtime.bigint();
  const opened = await openRun(opts.file, opts.output, io, bundled, 'coastline.geojson (bundled)');
  if (typeof opened === 'number') return opened;
  const { path, shown, size, sink, unhook } = opened;
  const showBar = opts.progress ?? (io.stderr.isTTY === true && size !== undefined);
  const bar = showBar ? new ProgressBar(io.stderr, 'skewline chain: reading', size) : undefined;
  let bytes = 0;
  const count = { contacts: 0, vertices: 0 };
  try {
    const stream = path === undefined ? io.stdin : createReadStream(path, { highWaterMark: 1 << 16 });
    const onChunk = (n: number): void => {
      bytes += n;
      bar?.update(bytes, 0);
    };
    let format = opts.input ?? (path !== undefined ? formatFromName(path) : undefined);
    let input: ReadInput;
    if (format === 'csv') input = await readCsv(stream, onChunk);
    else {
      const text = await readAll(stream, onChunk);
      if (format === undefined) format = /^\s*[{[]/.test(text) ? 'geojson' : 'csv';
      if (format === 'csv') {
        const { Readable } = await import('node:stream');
        input = await readCsv(Readable.from([text]), () => undefined);
      } else {
        let doc: unknown;
        try {
          doc = JSON.parse(text);
        } catch (e) {
          throw new InputError(`not valid JSON: ${(e as Error).message}`);
        }
        input = geojsonChains(doc);
      }
    }
    bar?.stop();
    if (input.chains.length === 0) io.stderr.write(`skewline: ${shown}: no chains in the input\n`);
    const { chains, dim } = input;
    count.vertices = chains.reduce((s, c) => s + c.coords.length / dim, 0);
    const outFormat = opts.format ?? (input.geojson ? 'geojson' : 'csv');
    if (outFormat === 'geojson' && dim !== 2 && dim !== 3) throw new CommandError('GeoJSON output needs 2D or 3D coordinates');
    const flats = chains.map((c) => new Float64Array(c.coords));
    let r;
    try {
      r = multiChainContacts(flats, { dim, thickness: opts.thickness, closed: opts.closed, between: opts.between });
    } catch (e) {
      if (e instanceof SkewlineInputError) throw new InputError(e.message.replace(/^chains\[(\d+)\]/, 'chain $1'));
      throw e;
    }
    count.contacts = r.count;
    // Nearest points c (on segment i) and d (on segment j), from s and t.
    const point = (chain: number, seg: number, s: number): number[] => {
      const f = flats[chain];
      const n = f.length / dim;
      const a = seg * dim, b = ((seg + 1) % n) * dim;
      const out: number[] = [];
      for (let k = 0; k < dim; k++) out.push(s === 1 ? f[b + k] : f[a + k] + s * (f[b + k] - f[a + k]));
      return out;
    };
    const axes = dim <= 4 ? ['x', 'y', 'z', 'w'].slice(0, dim) : Array.from({ length: dim }, (_, k) => `x${k + 1}`);
    if (outFormat === 'csv') {
      sink.write(`chain_i,i,chain_j,j,distance,s,t,${axes.map((a) => `c${a}`).join(',')},${axes.map((a) => `d${a}`).join(',')}\n`);
    } else if (outFormat === 'geojson') sink.write('{"type":"FeatureCollection","features":[\n');
    // Exact crossing points for planar GeoJSON input, chain by chain pair.
    const exactPoints = outFormat === 'geojson' && dim === 2 && opts.thickness === 0;
    for (let k = 0; k < r.count; k++) {
      const ci = r.chainI[k], cj = r.chainJ[k];
      const c = point(ci, r.i[k], r.s[k]);
      const d = point(cj, r.j[k], r.t[k]);
      if (outFormat === 'csv') {
        sink.write(`${ci},${r.i[k]},${cj},${r.j[k]},${num(r.distance[k])},${num(r.s[k])},${num(r.t[k])},${c.map(num).join(',')},${d.map(num).join(',')}\n`);
      } else if (outFormat === 'ndjson') {
        sink.write(jsonLine({ chainI: ci, i: r.i[k], chainJ: cj, j: r.j[k], distance: r.distance[k], s: r.s[k], t: r.t[k], c, d }) + '\n');
      } else {
        let geometry: object;
        let kind = r.distance[k] === 0 ? 'point' : 'near';
        if (exactPoints) {
          const f = flats[ci], g = flats[cj];
          const seg = (x: Float64Array, q: number): Float64Array => {
            const n = x.length / 2;
            return new Float64Array([x[2 * q], x[2 * q + 1], x[2 * ((q + 1) % n)], x[2 * ((q + 1) % n) + 1]]);
          };
          const pi = chainIntersections(seg(f, r.i[k]), { dim: 2, against: seg(g, r.j[k]) });
          if (pi.count === 1 && pi.kind[0] === OVERLAP_CONTACT) {
            kind = 'overlap';
            geometry = { type: 'LineString', coordinates: [[pi.x0[0], pi.y0[0]], [pi.x1[0], pi.y1[0]]] };
          } else if (pi.count === 1) geometry = { type: 'Point', coordinates: [pi.x0[0], pi.y0[0]] };
          else geometry = { type: 'Point', coordinates: c }; // a fold-back of adjacent segments
        } else {
          geometry = r.distance[k] === 0 ? { type: 'Point', coordinates: c } : { type: 'LineString', coordinates: [c, d] };
        }
        const properties = { a: { ...label(chains[ci], ci), segment: r.i[k] }, b: { ...label(chains[cj], cj), segment: r.j[k] }, kind, distance: r.distance[k], s: r.s[k], t: r.t[k] };
        sink.write(`${k > 0 ? ',\n' : ''}${JSON.stringify({ type: 'Feature', geometry, properties })}`);
      }
      if ((k & 1023) === 1023) await sink.drain();
    }
    if (outFormat === 'geojson') sink.write('\n]}\n');
    await sink.commit();
  } catch (e) {
    bar?.stop();
    await sink.abortAsync();
    unhook();
    return failure(e, shown, shown, io);
  }
  unhook();
  if (opts.stats) {
    const secs = Number(process.hrtime.bigint() - started) / 1e9;
    const rss = process.resourceUsage().maxRSS / 1024;
    io.stderr.write(`skewline: ${count.vertices} vertices, ${count.contacts} contacts in ${secs.toFixed(3)} s, peak RSS ${rss.toFixed(1)} MiB\n`);
  }
  return 0;
}

