/**
 * `skewline chain` on CSV with `--no-between` streams chain by chain (issue 15 item 3): complete
 * chains are searched and written batch by batch as the file is read, and the store is cleared.
 * The reference is the command's whole-file path (`csvStream: false`: every chain read, then one
 * search) — the same bytes in CSV, NDJSON and GeoJSON — and, independently, multiChainContacts
 * with `between: false` over the chains the test wrote (the same contacts, numbered the same).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { multiChainContacts } from '../../src/index.js';
import { runChain, type ChainCliOptions } from '../../cli/chain.js';
import { gridWalk, randomWalk } from '../support/walks.js';
import { makeRng, type Rng } from '../support/rng.js';
import { collector } from '../support/collector.js';

const work = mkdtempSync(join(tmpdir(), 'skewline-csv-stream-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * `count` seeded walks scattered over a square: mostly 2–60 vertices, some of one vertex, and
 * one long walk (longer than the small batches the tests cut).
 */
function walks(rng: Rng, count: number, dim: number, side: number, grid: boolean): Float64Array[] {
  return Array.from({ length: count }, (_, c) => {
    const n = c % 11 === 5 ? 0 : c === 7 ? 400 : 1 + Math.floor(rng.next() * 60);
    const P = grid ? gridWalk(n, dim, rng) : randomWalk(n, dim, rng);
    const off = Array.from({ length: dim }, (_, k) => (k < 2 ? Math.round(rng.next() * side) : 0));
    for (let q = 0; q < P.length; q++) P[q] += off[q % dim];
    return P;
  });
}

/**
 * The chains as CSV. `ids`: a header and a `chain` column whose ids cycle through three names
 * (so an id comes back later in the file: a new chain, as always); otherwise no header and
 * chains separated by one or two blank lines.
 */
function csvOf(chains: Float64Array[], dim: number, ids: boolean): string {
  const axes = ['x', 'y', 'z'].slice(0, dim);
  let text = ids ? `chain,${axes.join(',')}\n` : '';
  chains.forEach((P, c) => {
    if (!ids && c > 0) text += c % 4 === 0 ? '\n\n' : '\n';
    for (let v = 0; v < P.length / dim; v++) {
      const xs = Array.from(P.subarray(v * dim, (v + 1) * dim), String).join(',');
      text += ids ? `${['road', 'river', 'rail'][c % 3]},${xs}\n` : `${xs}\n`;
    }
  });
  return text;
}

const BASE: ChainCliOptions = { file: undefined, input: undefined, thickness: 0, closed: false, between: false, format: undefined, output: undefined, progress: false, stats: false, threads: 1, tile: undefined };

/** Runs `skewline chain` in this process (the command's own function), output to a file under `work`. */
async function runInProcess(opts: Partial<ChainCliOptions>): Promise<{ code: number; stdout: string; stderr: string; out: string }> {
  const err = collector();
  const out = join(work, `out-${Math.random().toString(36).slice(2)}.txt`);
  const code = await runChain({ ...BASE, output: out, ...opts }, { stdin: process.stdin, stdout: process.stdout, stderr: err.stream }, '');
  let stdout = '';
  if (existsSync(out)) {
    stdout = readFileSync(out, 'utf8');
    rmSync(out);
  }
  return { code, stdout, stderr: err.text(), out };
}

/** Checks the streamed runs (several batch sizes) against the whole-file run and against multiChainContacts. */
async function check(chains: Float64Array[], dim: number, tau: number, closed: boolean, what: string): Promise<void> {
  const ref = multiChainContacts(chains, { dim, thickness: tau, closed, between: false });
  expect(ref.count, `${what}: contacts`).toBeGreaterThan(100);
  const refKeys = Array.from({ length: ref.count }, (_, k) => `${ref.chainI[k]},${ref.i[k]},${ref.chainJ[k]},${ref.j[k]}`);
  for (const ids of [true, false]) {
    const path = join(work, `chains-${ids ? 'ids' : 'blank'}.csv`);
    writeFileSync(path, csvOf(chains, dim, ids));
    for (const format of ['csv', 'ndjson', 'geojson'] as const) {
      const whole = await runInProcess({ file: path, format, thickness: tau, closed, csvStream: false });
      expect(whole.stderr, `${what}, ${format}: whole`).toBe('');
      expect(whole.code).toBe(0);
      if (format === 'csv') {
        // The whole-file path itself against the library: the same contacts, numbered and ordered the same.
        const keys = whole.stdout.trim().split('\n').slice(1).map((l) => l.split(',').slice(0, 4).join(','));
        expect(keys, `${what}: whole-file CSV vs multiChainContacts`).toEqual(refKeys);
      }
      for (const batch of [0, 500, undefined]) {
        const r = await runInProcess({ file: path, format, thickness: tau, closed, ...(batch === undefined ? {} : { csvStream: { batch } }) });
        const name = `${what}, ${ids ? 'chain column' : 'blank lines'}, ${format}, batch ${batch ?? 'default'}`;
        expect(r.stderr, name).toBe('');
        expect(r.code, name).toBe(0);
        expect(r.stdout === whole.stdout, `${name}: same bytes as the whole-file read`).toBe(true);
      }
    }
  }
}

describe('skewline chain: CSV with --no-between streams chain by chain', () => {
  it('issue 15 item 3: CSV --no-between streamed gives the bytes of the whole-file read: CSV, NDJSON, GeoJSON; 2D random walks (seed 1581), a chain column whose ids come back, blank lines; batches of every chain, 500 numbers, the default', async () => {
    await check(walks(makeRng(1581), 60, 2, 12, false), 2, 0, false, 'seed 1581');
  });

  it('issue 15 item 3: CSV --no-between streamed: 2D grid walks, closed (seed 1582: touches, overlaps, rings) and 3D walks with thickness 0.3 (seed 1583)', async () => {
    await check(walks(makeRng(1582), 40, 2, 10, true), 2, 0, true, 'seed 1582');
    await check(walks(makeRng(1583), 40, 3, 10, false), 3, 0.3, false, 'seed 1583');
  });

  it('issue 15 item 3: the first chains\' contacts reach the output before the input ends (stdin, seed 1584)', async () => {
    const rng = makeRng(1584);
    // Grid walks with many contacts: the first part's rows pass the output's 64 KiB buffer.
    const first = Array.from({ length: 12 }, () => gridWalk(400, 2, rng));
    const rest = Array.from({ length: 3 }, () => gridWalk(50, 2, rng));
    const text = csvOf([...first, ...rest], 2, false);
    const cut = csvOf(first, 2, false).length + 1; // the blank line after the first part: its chains are complete
    const stdin = new PassThrough();
    const out = collector();
    const err = collector();
    const run = runChain({ ...BASE, file: '-', csvStream: { batch: 1000 } }, { stdin, stdout: out.stream, stderr: err.stream }, '');
    stdin.write(text.slice(0, cut + 2)); // and the first characters of the next chain: the previous one is complete
    const t0 = Date.now();
    while (out.text() === '' && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 20));
    const early = out.text();
    stdin.end(text.slice(cut + 2));
    expect(await run, err.text()).toBe(0);
    expect(early.length, 'seed 1584: output before the input ended').toBeGreaterThan(0);
    const ref = multiChainContacts([...first, ...rest], { dim: 2, between: false });
    expect(out.text().trim().split('\n').length - 1, 'seed 1584: every contact').toBe(ref.count);
    expect(out.text().startsWith(early)).toBe(true);
  });

  it('issue 15 item 3: an error in a late row of a streamed CSV names file:line as before; -o leaves nothing behind though earlier batches were written (seed 1585)', async () => {
    const chains = walks(makeRng(1585), 50, 2, 12, false);
    const good = csvOf(chains, 2, true);
    const lines = good.split('\n');
    const bad = lines.length - 3; // 0-based index of a row in the last chains
    lines[bad] = lines[bad].replace(/,[^,]*$/, ',abc');
    const path = join(work, 'late-error.csv');
    writeFileSync(path, lines.join('\n'));
    const before = readdirSync(work).length;
    const whole = await runInProcess({ file: path, csvStream: false });
    for (const batch of [0, 300, undefined]) {
      const r = await runInProcess({ file: path, ...(batch === undefined ? {} : { csvStream: { batch } }) });
      expect(r.code, `batch ${batch ?? 'default'}`).toBe(1);
      expect(r.stderr, `batch ${batch ?? 'default'}`).toBe(`skewline: ${path}:${bad + 1}: column y: not a number ("abc")\n`);
      expect(r.stderr).toBe(whole.stderr);
      expect(existsSync(r.out), '-o not written').toBe(false);
      expect(readdirSync(work).length, 'no temporary file left').toBe(before);
    }
    // A wrong field count late in the file, too.
    const short = good.split('\n');
    short[bad] = short[bad].replace(/,[^,]*$/, '');
    writeFileSync(path, short.join('\n'));
    const r = await runInProcess({ file: path, csvStream: { batch: 0 } });
    expect(r.stderr).toBe(`skewline: ${path}:${bad + 1}: expected 3 fields (as in the header), found 2\n`);
    expect(readdirSync(work).length, 'no temporary file left').toBe(before);
  });

  it('issue 15 item 3: --stats counts every vertex and contact of a streamed CSV, as the whole read does; empty and header-only input as before', async () => {
    const chains = walks(makeRng(1586), 30, 2, 10, false);
    const path = join(work, 'stats.csv');
    writeFileSync(path, csvOf(chains, 2, true));
    const counts = (stderr: string): string => /skewline: (\d+ vertices, \d+ contacts) in/.exec(stderr)?.[1] ?? stderr;
    const whole = await runInProcess({ file: path, stats: true, csvStream: false });
    const streamed = await runInProcess({ file: path, stats: true, csvStream: { batch: 200 } });
    const vertices = chains.reduce((n, c) => n + c.length / 2, 0);
    expect(counts(whole.stderr)).toBe(`${vertices} vertices, ${multiChainContacts(chains, { dim: 2, between: false }).count} contacts`);
    expect(counts(streamed.stderr)).toBe(counts(whole.stderr));
    for (const [name, text] of [['empty.csv', ''], ['header.csv', 'x,y,z\n'], ['one.csv', '1,2\n']] as const) {
      writeFileSync(join(work, name), text);
      for (const format of ['csv', 'ndjson', 'geojson'] as const) {
        const a = await runInProcess({ file: join(work, name), format, csvStream: false });
        const b = await runInProcess({ file: join(work, name), format });
        expect(b.code, `${name} ${format}`).toBe(a.code);
        expect(b.stdout, `${name} ${format}`).toBe(a.stdout);
        expect(b.stderr, `${name} ${format}`).toBe(a.stderr);
      }
    }
  });
});
