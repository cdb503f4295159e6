/**
 * `skewline chain` on a large generated GeoJSON file, as a user runs it (a child process), and
 * the speed of writing contacts in each output format (in process).
 *
 * 1. Streaming: a FeatureCollection written on ONE line (most exported GeoJSON is), of seeded
 *    random-walk LineStrings scattered over a square, is written to a temporary folder; then
 *    `skewline chain FILE --format csv -o /dev/null` runs with and without `--no-between`
 *    (feature by feature, memory bounded by the largest feature; the default searches tile by
 *    tile and holds the coordinates, a bounded buffer of contacts and a temporary file for the
 *    rest) and, with `--tile i/4`, one tile of four. Printed: file size, seconds, features/s,
 *    MB/s, contacts/s, the child's peak RSS (from /usr/bin/time -v where present, else the
 *    CLI's --stats) and CPU seconds, and the peak RSS per vertex and per contact.
 *    The same walks as a CSV file (`chain,x,y` rows, one chain after another) run with
 *    `--no-between`, streamed chain by chain (complete chains searched and written in batches),
 *    and with `--between`, which needs the whole file first.
 * 2. Output: the contacts of seeded walks written as CSV, NDJSON and GeoJSON (2D thickness 0 with
 *    the exact crossing points of random walks and the touches of grid walks, and 3D with a
 *    thickness) into a counting sink: contacts per second of wall time and of CPU time.
 *
 * 3. One chain (a 2D random walk as `x,y` rows): the whole run, and `--tile 0/4`, `0/16` in two
 *    passes (the tile's segments only) against the path that read the whole input first.
 *
 * 4. One giant GeoJSON feature (the same walk as a LineString on one line): its coordinates read
 *    a number at a time (streamed when `type` comes before `coordinates`, as writers put it;
 *    recorded and replayed when it comes after) against the array path (runChain's
 *    `coordsStream: false`: the feature built as JS arrays, as every feature was before), the
 *    whole run and `--tile 0/16`, each a child process; and the reader alone (readGeojson into
 *    a CoordStore, in process, interleaved): CPU MB/s on the giant feature and on the many small
 *    features of part 1.
 *
 * Size: SKEWLINE_STREAM_MB (default 200); 2000 for the 2 GB run:
 *   SKEWLINE_STREAM_MB=2000 node --expose-gc --import tsx bench/cli/stream.bench.ts
 * The chain: SKEWLINE_CHAIN_VERTICES (default SKEWLINE_STREAM_MB × 1e6 ÷ 88); its table alone:
 *   node --import tsx bench/cli/stream.bench.ts --chain 6000000
 * The giant feature's tables alone (VERTICES, and MB of small features for the reader's speed):
 *   node --import tsx bench/cli/stream.bench.ts --giant 2000000 [MB]
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContactWriter, runChain } from '../../cli/chain.js';
import { CoordStore, readGeojson } from '../../cli/geojson-stream.js';
import { multiChainContacts } from '../../src/index.js';
import { makeRng } from '../../test/support/rng.js';
import { gridWalk, randomWalk } from '../../test/support/walks.js';
import { machine } from '../harness.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Writes a one-line FeatureCollection of about `mb` megabytes; returns its path and feature count. */
export async function generate(dir: string, mb: number): Promise<{ path: string; features: number; vertices: number }> {
  const path = join(dir, 'walks.geojson');
  const out = createWriteStream(path);
  const rng = makeRng(2015);
  const steps = 64;
  // About 28 bytes a vertex ("[1234.567890,-123.456789],"); the square's side keeps a few contacts per feature between features.
  const features = Math.max(1, Math.round((mb * 1e6) / (steps + 1) / 28));
  const side = Math.sqrt(features) * 12;
  out.write('{"type":"FeatureCollection","features":[');
  let buf = '';
  for (let f = 0; f < features; f++) {
    const x0 = Math.round(rng.next() * side), y0 = Math.round(rng.next() * side);
    let text = `${f > 0 ? ',' : ''}{"type":"Feature","id":${f},"properties":{"k":${f % 7}},"geometry":{"type":"LineString","coordinates":[`;
    let x = x0, y = y0;
    for (let v = 0; v <= steps; v++) {
      if (v > 0) {
        const a = rng.next() * 2 * Math.PI;
        x += Math.cos(a);
        y += Math.sin(a);
      }
      text += `${v > 0 ? ',' : ''}[${x.toFixed(6)},${y.toFixed(6)}]`;
    }
    buf += text + ']}}';
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.write(buf + ']}');
  out.end();
  await once(out, 'finish');
  return { path, features, vertices: features * (steps + 1) };
}

/**
 * Writes the same seeded walks as {@link generate} (same seed, same vertices) as CSV rows
 * `chain,x,y`, one chain after another; returns its path and chain count.
 */
export async function generateCsv(dir: string, mb: number): Promise<{ path: string; chains: number; vertices: number }> {
  const path = join(dir, 'walks.csv');
  const rng = makeRng(2015);
  const steps = 64;
  // About 30 bytes a vertex ("12345,1234.567890,-123.456789\n").
  const chains = Math.max(1, Math.round((mb * 1e6) / (steps + 1) / 30));
  const side = Math.sqrt(chains) * 12;
  await writeWalks(path, 'chain,x,y\n', rng, chains, steps + 1, () => [Math.round(rng.next() * side), Math.round(rng.next() * side)], (f, x, y) => `${f},${x.toFixed(6)},${y.toFixed(6)}\n`);
  return { path, chains, vertices: chains * (steps + 1) };
}

/**
 * Writes `chains` seeded 2D random walks of `vertices` vertices each (unit steps from `start`'s
 * point), a row a vertex made by `row`, after `header`, in 1 MiB writes that wait for the stream.
 */
async function writeWalks(
  path: string,
  header: string,
  rng: { next(): number },
  chains: number,
  vertices: number,
  start: (f: number) => [number, number],
  row: (f: number, x: number, y: number) => string,
): Promise<void> {
  const out = createWriteStream(path);
  let buf = header;
  for (let f = 0; f < chains; f++) {
    let [x, y] = start(f);
    for (let v = 0; v < vertices; v++) {
      if (v > 0) {
        const a = rng.next() * 2 * Math.PI;
        x += Math.cos(a);
        y += Math.sin(a);
      }
      buf += row(f, x, y);
      if (buf.length > 1 << 20) {
        if (!out.write(buf)) await once(out, 'drain');
        buf = '';
      }
    }
  }
  out.write(buf);
  out.end();
  await once(out, 'finish');
}

/**
 * Writes one seeded 2D random walk of `vertices` vertices (unit steps) as CSV `x,y` rows: one
 * chain, the input `--tile` splits by space.
 */
export async function generateChain(dir: string, vertices: number): Promise<{ path: string; vertices: number }> {
  const path = join(dir, 'chain.csv');
  await writeWalks(path, 'x,y\n', makeRng(2017), 1, vertices, () => [0, 0], (_f, x, y) => `${x.toFixed(6)},${y.toFixed(6)}\n`);
  return { path, vertices };
}

/**
 * Writes the walk of {@link generateChain} (same seed, same numbers) as ONE GeoJSON LineString
 * feature on one line, twice: `type` before `coordinates` (streamed) and `coordinates` first
 * (recorded, then replayed when the feature ends).
 */
export async function generateGiant(dir: string, vertices: number): Promise<{ streamed: string; arrays: string; vertices: number }> {
  const csv = await generateChain(dir, vertices);
  const rows = readFileSync(csv.path, 'latin1').trimEnd().split('\n').slice(1);
  rmSync(csv.path);
  const coords = `[${rows.map((r) => `[${r}]`).join(',')}]`;
  const streamed = join(dir, 'giant.geojson'), arrays = join(dir, 'giant-arrays.geojson');
  writeFileSync(streamed, `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"walk"},"geometry":{"type":"LineString","coordinates":${coords}}}]}`);
  writeFileSync(arrays, `{"type":"FeatureCollection","features":[{"properties":{"name":"walk"},"geometry":{"coordinates":${coords},"type":"LineString"},"type":"Feature"}]}`);
  return { streamed, arrays, vertices };
}

/** A GeoJSON file with every geometry's `coordinates` moved before its `type` (and a Feature's `geometry` before its `type`): recorded, not streamed. */
function coordinatesFirst(path: string, out: string): void {
  const text = readFileSync(path, 'latin1')
    .replaceAll('"type":"Feature","id":', '"id":')
    .replace(/"geometry":\{"type":"LineString","coordinates":(\[[^}]*\])\}\}/g, '"geometry":{"coordinates":$1,"type":"LineString"},"type":"Feature"}');
  writeFileSync(out, text, 'latin1');
}

/** CPU seconds for readGeojson to read `path` into a CoordStore, cleared after each chunk's features (`stream` false: the array path). */
async function readCpu(path: string, stream: boolean): Promise<{ cpu: number; vertices: number }> {
  const store = new CoordStore();
  let vertices = 0;
  const c0 = process.cpuUsage();
  await readGeojson(createReadStream(path, { highWaterMark: 1 << 16 }), store, () => {}, {
    stream,
    features: () => {
      if (store.open) return;
      vertices += store.vertices;
      store.clear();
    },
  });
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1e6, vertices: vertices + store.vertices };
}

/**
 * One giant LineString feature (`vertices`): the CLI on the array path, streamed (`type` first)
 * and recorded (`coordinates` first), each a child process (peak RSS, CPU), the whole run and
 * `--tile 0/16`; then readGeojson alone, in process, the three interleaved over `runs` rounds
 * (best CPU time each), on the giant feature and on `smallMb` MB of 65-vertex features (part 1's
 * file).
 */
async function giantTable(dir: string, vertices: number, smallMb: number, runs = 3): Promise<void> {
  const g = await generateGiant(dir, vertices);
  const size = statSync(g.streamed).size;
  console.log(`\nskewline chain --threads 1 on one GeoJSON LineString feature (the walk of the one-chain table, on one line): ${(size / 1e6).toFixed(0)} MB, ${vertices.toLocaleString('en')} vertices`);
  console.log('| run | s | CPU s | contacts | peak RSS (MiB) | RSS bytes per vertex |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const row = (name: string, r: ChildRun): void => {
    console.log(`| ${name} | ${r.secs.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.contacts.toLocaleString('en')} | ${r.rssMiB.toFixed(0)} | ${((r.rssMiB * 2 ** 20) / vertices).toFixed(1)} |`);
  };
  for (const tile of [undefined, '0/16']) {
    const name = tile === undefined ? 'whole chain' : `--tile ${tile}`;
    const args = tile === undefined ? [] : ['--tile', tile];
    // One thread each (the child's runChain as the CLI's): the search's workers would add their own memory.
    row(`${name}, feature built as arrays (before)`, runCli([g.streamed, ...(tile === undefined ? [] : [tile])], ARRAYS_GEOJSON));
    row(`${name}, coordinates streamed (type first)`, runCli([g.streamed, '--format', 'csv', '--threads', '1', ...args]));
    row(`${name}, coordinates recorded (type last)`, runCli([g.arrays, '--format', 'csv', '--threads', '1', ...args]));
  }
  const small = await generate(dir, smallMb);
  const smallArrays = join(dir, 'walks-arrays.geojson');
  coordinatesFirst(small.path, smallArrays);
  console.log(`\nreadGeojson alone (in process, into a CoordStore; best CPU time of ${runs}; the array path, streamed and recorded interleaved):`);
  console.log('| input | MB | vertices | CPU s: arrays | streamed | recorded | CPU MB/s: arrays | streamed | recorded | time ÷ arrays: streamed | recorded |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, typeFirst, typeLast] of [['one giant LineString', g.streamed, g.arrays], [`${small.features.toLocaleString('en')} LineStrings of 65 vertices`, small.path, smallArrays]] as const) {
    const best = [Infinity, Infinity, Infinity];
    const counts = [0, 0, 0];
    for (let r = 0; r < runs; r++) {
      const got = [await readCpu(typeFirst, false), await readCpu(typeFirst, true), await readCpu(typeLast, true)];
      got.forEach((x, k) => {
        best[k] = Math.min(best[k], x.cpu);
        counts[k] = x.vertices;
      });
    }
    if (counts[1] !== counts[0] || counts[2] !== counts[0]) throw new Error(`${name}: ${counts.join(', ')} vertices read`);
    const mb = statSync(typeFirst).size / 1e6;
    const [ta, ts, tr] = best;
    console.log(`| ${name} | ${mb.toFixed(0)} | ${counts[0].toLocaleString('en')} | ${ta.toFixed(2)} | ${ts.toFixed(2)} | ${tr.toFixed(2)} | ${(mb / ta).toFixed(1)} | ${(mb / ts).toFixed(1)} | ${(mb / tr).toFixed(1)} | ${(ts / ta).toFixed(2)} | ${(tr / ta).toFixed(2)} |`);
  }
}

interface ChildRun {
  secs: number;
  rssMiB: number;
  contacts: number;
  /** User + system CPU seconds of the child (NaN without /usr/bin/time). */
  cpu: number;
}

/**
 * Runs the CLI as a child, timing it and taking its peak RSS. `wholeCsv`: the child is this file
 * run as {@link wholeCsvChild} instead (CSV read whole before the search, as before streaming).
 * `stdin`: a file piped to the child's standard input (a pipe, not the file).
 */
function runCli(args: string[], wholeCsv: false | typeof WHOLE_CSV | typeof WHOLE_TILE | typeof ARRAYS_GEOJSON = false, stdin?: string): ChildRun {
  const cli = wholeCsv !== false
    ? [process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), wholeCsv, ...args]
    : [process.execPath, '--import', 'tsx', join(REPO, 'cli', 'skewline.ts'), 'chain', ...args, '-o', '/dev/null', '--stats'];
  const timeV = existsSync('/usr/bin/time');
  const t0 = process.hrtime.bigint();
  const o = { cwd: REPO, encoding: 'utf8' as const, ...(stdin === undefined ? {} : { input: readFileSync(stdin) }) };
  const r = timeV ? spawnSync('/usr/bin/time', ['-v', ...cli], o) : spawnSync(cli[0], cli.slice(1), o);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`skewline chain ${args.join(' ')} failed:\n${r.stderr}`);
  const stats = /(\d+) contacts in [\d.]+ s, peak RSS ([\d.]+) MiB/.exec(r.stderr);
  const timed = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  const user = /User time \(seconds\): ([\d.]+)/.exec(r.stderr), sys = /System time \(seconds\): ([\d.]+)/.exec(r.stderr);
  const cpu = user !== null && sys !== null ? Number(user[1]) + Number(sys[1]) : NaN;
  return { secs, cpu, contacts: Number(stats?.[1] ?? NaN), rssMiB: timed !== null ? Number(timed[1]) / 1024 : Number(stats?.[2] ?? NaN) };
}

/**
 * The contacts of a chain set, written in each format into a counting sink: contacts per second
 * of wall time and of this process's CPU time (best of `runs`; on a loaded machine the CPU
 * figure is what one free core would give).
 */
async function outputSpeed(runs: number): Promise<void> {
  const rng = makeRng(2016);
  console.log('\nWriting contacts (in process, into a counting sink; best of runs):');
  console.log('| output | contacts | ms | contacts/s | CPU ms | contacts per CPU second |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const cases: { name: string; dim: number; tau: number; format: 'csv' | 'ndjson' | 'geojson'; grid?: boolean }[] = [
    { name: 'CSV, 2D', dim: 2, tau: 0, format: 'csv' },
    { name: 'NDJSON, 2D', dim: 2, tau: 0, format: 'ndjson' },
    { name: 'GeoJSON, 2D thickness 0, random walks (exact crossing points)', dim: 2, tau: 0, format: 'geojson' },
    { name: 'GeoJSON, 2D thickness 0, grid walks (touches and overlaps)', dim: 2, tau: 0, format: 'geojson', grid: true },
    { name: 'GeoJSON, 3D thickness 0.3 (c–d LineStrings)', dim: 3, tau: 0.3, format: 'geojson' },
  ];
  for (const c of cases) {
    const store = new CoordStore();
    store.dim = c.dim;
    const features = 600;
    for (let f = 0; f < features; f++) {
      store.begin({ feature: f });
      const P = c.grid === true ? gridWalk(200, c.dim, rng) : randomWalk(200, c.dim, rng);
      const x0 = Math.round(rng.next() * 150), y0 = Math.round(rng.next() * 150);
      for (let k = 0; k < P.length; k++) store.push(P[k] + (k % c.dim === 0 ? x0 : k % c.dim === 1 ? y0 : 0));
    }
    const flats = Array.from({ length: store.count }, (_, k) => store.chain(k));
    const r = multiChainContacts(flats, { dim: c.dim, thickness: c.tau });
    let best = Infinity;
    let bestCpu = Infinity;
    let bytes = 0;
    for (let run = 0; run < runs; run++) {
      bytes = 0;
      const w = new ContactWriter(c.format, true, c.tau, (t) => {
        bytes += t.length;
      });
      for (let f = 0; f < features; f++) w.feature(f, { id: f, properties: { name: `parcel ${f}` } });
      const t0 = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      await w.contacts(r, store, 0, () => Promise.resolve());
      w.end(c.dim);
      const cpu = process.cpuUsage(c0);
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
      bestCpu = Math.min(bestCpu, (cpu.user + cpu.system) / 1000);
    }
    const rate = (ms: number): string => Math.round((r.count / ms) * 1000).toLocaleString('en');
    console.log(`| ${c.name} | ${r.count.toLocaleString('en')} | ${best.toFixed(1)} | ${rate(best)} | ${bestCpu.toFixed(1)} | ${rate(bestCpu)} |`);
    void bytes;
  }
}

/** Runs both parts; `mb` is the generated file's size. */
export async function run(opts: { mb?: number; runs?: number } = {}): Promise<void> {
  const mb = opts.mb ?? Number(process.env.SKEWLINE_STREAM_MB ?? 200);
  const dir = mkdtempSync(join(tmpdir(), 'skewline-stream-'));
  try {
    const t0 = Date.now();
    const { path, features, vertices } = await generate(dir, mb);
    const size = statSync(path).size;
    console.log(`\nskewline chain on a one-line GeoJSON FeatureCollection: ${(size / 1e6).toFixed(0)} MB, ${features.toLocaleString('en')} LineStrings, ${vertices.toLocaleString('en')} vertices (written in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    console.log('| run | s | CPU s | MB/s | features/s | contacts | contacts/s | peak RSS (MiB) | RSS bytes per vertex | per contact |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const row = (name: string, r: ChildRun): void => {
      const bytes = r.rssMiB * 2 ** 20;
      console.log(`| ${name} | ${r.secs.toFixed(1)} | ${r.cpu.toFixed(1)} | ${(size / 1e6 / r.secs).toFixed(1)} | ${Math.round(features / r.secs).toLocaleString('en')} | ${r.contacts.toLocaleString('en')} | ${Math.round(r.contacts / r.secs).toLocaleString('en')} | ${r.rssMiB.toFixed(0)} | ${(bytes / vertices).toFixed(1)} | ${(bytes / r.contacts).toFixed(1)} |`);
    };
    row('--no-between (streamed feature by feature)', runCli([path, '--no-between', '--format', 'csv']));
    row('default (--between: tile by tile)', runCli([path, '--format', 'csv']));
    row('--tile 0/4 (one tile of four, --between)', runCli([path, '--format', 'csv', '--tile', '0/4']));
    const csv = await generateCsv(dir, mb);
    const csvSize = statSync(csv.path).size;
    console.log(`\nskewline chain on CSV (chain,x,y rows, the same kind of walks): ${(csvSize / 1e6).toFixed(0)} MB, ${csv.chains.toLocaleString('en')} chains, ${csv.vertices.toLocaleString('en')} vertices`);
    console.log('| run | s | CPU s | MB/s | chains/s | contacts | contacts/s | peak RSS (MiB) | RSS bytes per vertex |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    const csvRow = (name: string, r: ChildRun): void => {
      console.log(`| ${name} | ${r.secs.toFixed(1)} | ${r.cpu.toFixed(1)} | ${(csvSize / 1e6 / r.secs).toFixed(1)} | ${Math.round(csv.chains / r.secs).toLocaleString('en')} | ${r.contacts.toLocaleString('en')} | ${Math.round(r.contacts / r.secs).toLocaleString('en')} | ${r.rssMiB.toFixed(0)} | ${((r.rssMiB * 2 ** 20) / csv.vertices).toFixed(1)} |`);
    };
    // Before and after, alternately: the whole-file read, then the stream.
    csvRow('--no-between, read whole first (before streaming)', runCli([csv.path], WHOLE_CSV));
    csvRow('--no-between (streamed chain by chain)', runCli([csv.path, '--no-between', '--format', 'csv']));
    csvRow('default (--between: the whole file, then tile by tile)', runCli([csv.path, '--format', 'csv']));
    await chainTable(dir, Number(process.env.SKEWLINE_CHAIN_VERTICES ?? Math.round((mb * 1e6) / 88)));
    await giantTable(dir, Number(process.env.SKEWLINE_CHAIN_VERTICES ?? Math.round((mb * 1e6) / 88)), Math.min(mb, 100), opts.runs ?? 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await outputSpeed(opts.runs ?? 3);
}

/**
 * One chain (a 2D random walk of `vertices` vertices, CSV): the whole run, and `--tile 0/4` and
 * `0/16` in two passes (only the tile's segments kept) against the path that read the whole
 * input (runChain's `tileStream: false`), each a child process: seconds, CPU, contacts, peak RSS;
 * then `--tile 0/16` with the chain piped to standard input, both ways.
 */
async function chainTable(dir: string, vertices: number): Promise<void> {
  const chain = await generateChain(dir, vertices);
  const size = statSync(chain.path).size;
  console.log(`\nskewline chain on one chain (a 2D random walk, x,y rows): ${(size / 1e6).toFixed(0)} MB, ${chain.vertices.toLocaleString('en')} vertices`);
  console.log('| run | s | CPU s | MB/s | contacts | peak RSS (MiB) | RSS bytes per vertex |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const row = (name: string, r: ChildRun): void => {
    console.log(`| ${name} | ${r.secs.toFixed(1)} | ${r.cpu.toFixed(1)} | ${(size / 1e6 / r.secs).toFixed(1)} | ${r.contacts.toLocaleString('en')} | ${r.rssMiB.toFixed(0)} | ${((r.rssMiB * 2 ** 20) / chain.vertices).toFixed(1)} |`);
  };
  row('whole chain (no --tile)', runCli([chain.path, '--format', 'csv']));
  for (const n of [4, 16]) {
    row(`--tile 0/${n}, read whole (before)`, runCli([chain.path, `0/${n}`], WHOLE_TILE));
    row(`--tile 0/${n} (two passes: the tile's segments only)`, runCli([chain.path, '--format', 'csv', '--tile', `0/${n}`]));
  }
  // Piped in: read whole before, now copied to $TMPDIR by the first pass and read again from the copy.
  row('--tile 0/16 piped in, read whole (before)', runCli(['-', '0/16'], WHOLE_TILE, chain.path));
  row('--tile 0/16 piped in (copied, two passes)', runCli(['-', '--format', 'csv', '--tile', '0/16'], false, chain.path));
}

/** The child's argument that makes this file run {@link wholeCsvChild}. */
const WHOLE_CSV = '--whole-csv';

/**
 * `skewline chain FILE --no-between --format csv -o /dev/null --stats` on the path CSV input took
 * before it streamed: every chain read, then one search (runChain's `csvStream: false`).
 */
function wholeCsvChild(file: string): Promise<number> {
  return runChain({ file, input: 'csv', thickness: 0, closed: false, between: false, format: 'csv', output: '/dev/null', progress: false, stats: true, threads: 1, tile: undefined, csvStream: false }, process, '');
}

/** The child's argument that makes this file run {@link wholeTileChild}. */
const WHOLE_TILE = '--whole-tile';

/**
 * `skewline chain FILE --tile i/n --format csv -o /dev/null --stats` on the path it took before
 * the two passes: every chain read, then tileContacts (runChain's `tileStream: false`).
 */
function wholeTileChild(file: string, tile: string): Promise<number> {
  const [i, n] = tile.split('/').map(Number);
  return runChain({ file, input: 'csv', thickness: 0, closed: false, between: true, format: 'csv', output: '/dev/null', progress: false, stats: true, threads: 1, tile: { i, n }, tileStream: false }, process, '');
}

/** The child's argument that makes this file run {@link arraysGeojsonChild}. */
const ARRAYS_GEOJSON = '--arrays-geojson';

/**
 * `skewline chain FILE [--tile i/n] --format csv -o /dev/null --stats` on GeoJSON with every
 * feature built as JS values first (runChain's `coordsStream: false`), as before the coordinates
 * streamed.
 */
function arraysGeojsonChild(file: string, tile: string | undefined): Promise<number> {
  const [i, n] = (tile ?? '0/1').split('/').map(Number);
  return runChain({ file, input: 'geojson', thickness: 0, closed: false, between: true, format: 'csv', output: '/dev/null', progress: false, stats: true, threads: 1, tile: tile === undefined ? undefined : { i, n }, coordsStream: false }, process, '');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === WHOLE_CSV) process.exitCode = await wholeCsvChild(process.argv[3]);
  else if (process.argv[2] === ARRAYS_GEOJSON) process.exitCode = await arraysGeojsonChild(process.argv[3], process.argv[4]);
  else if (process.argv[2] === WHOLE_TILE) process.exitCode = await wholeTileChild(process.argv[3], process.argv[4]);
  else if (process.argv[2] === '--chain') {
    // The one-chain table alone: --chain VERTICES.
    console.log(`skewline chain --tile on one chain — ${machine()}`);
    const dir = mkdtempSync(join(tmpdir(), 'skewline-stream-'));
    try {
      await chainTable(dir, Number(process.argv[3] ?? 2_000_000));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  else if (process.argv[2] === '--giant') {
    // The giant feature's tables alone: --giant VERTICES [MB of small features].
    console.log(`skewline chain on one giant GeoJSON feature — ${machine()}`);
    const dir = mkdtempSync(join(tmpdir(), 'skewline-stream-'));
    try {
      await giantTable(dir, Number(process.argv[3] ?? 2_000_000), Number(process.argv[4] ?? 50));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    console.log(`skewline chain streaming — ${machine()}`);
    await run();
  }
}
