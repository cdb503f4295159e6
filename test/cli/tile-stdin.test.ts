/**
 * `skewline chain --tile i/n` on standard input: the pipe is copied to a temporary file under
 * `$TMPDIR` as the first pass reads it, and the second pass reads the copy (cli/input.ts, Spool),
 * so a piped run keeps only its tile too. References: the same command on the same bytes as a
 * regular file (read twice) — the output must be byte for byte the same — and the folder of the
 * copy, which must be empty after every run (a good one, an error, a signal).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { chainCounters, runChain, type ChainCliOptions } from '../../cli/chain.js';
import { randomWalk, gridWalk } from '../support/walks.js';
import { makeRng } from '../support/rng.js';
import { collector, takeOutput } from '../support/collector.js';

const work = mkdtempSync(join(tmpdir(), 'skewline-tile-stdin-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const REPO = join(import.meta.dirname, '..', '..');

const BASE: ChainCliOptions = { file: undefined, input: undefined, thickness: 0, closed: false, between: true, format: undefined, output: undefined, progress: false, stats: false, threads: 1, tile: undefined };

/** A fresh, empty folder for the copy of standard input. */
function spoolFolder(): string {
  const dir = join(work, `spool-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  return dir;
}

/**
 * Runs `skewline chain` in this process, output to a file under `work`. With `stdin`, the text
 * is piped in 4 KiB chunks from a generator that, before its last chunk, notes what the spool
 * folder holds (`seen`: the copy exists while the pipe is read).
 */
async function run(opts: Partial<ChainCliOptions>, stdin?: string): Promise<{ code: number; stdout: string; stderr: string; written: boolean; seen: string[] }> {
  const err = collector();
  const out = join(work, `out-${Math.random().toString(36).slice(2)}.txt`);
  let seen: string[] = [];
  const chunks = async function* (text: string): AsyncGenerator<Buffer> {
    const b = Buffer.from(text);
    for (let k = 0; k < b.length; k += 4096) {
      if (k + 4096 >= b.length && opts.spoolDir !== undefined) seen = readdirSync(opts.spoolDir);
      yield b.subarray(k, k + 4096);
    }
  };
  const input = stdin === undefined ? process.stdin : Object.assign(Readable.from(chunks(stdin)), { isTTY: false, fd: undefined });
  const code = await runChain({ ...BASE, output: out, ...opts }, { stdin: input as unknown as NodeJS.ReadStream, stdout: process.stdout, stderr: err.stream }, '');
  const { stdout, written } = takeOutput(out);
  return { code, stdout, stderr: err.text(), written, seen };
}

/** Chains as CSV: one chain with an `x,y` header, or several with a `chain` column. */
function csvOf(chains: Float64Array[]): string {
  let text = chains.length > 1 ? 'chain,x,y\n' : 'x,y\n';
  chains.forEach((P, c) => {
    for (let v = 0; v < P.length / 2; v++) text += chains.length > 1 ? `c${c},${P[2 * v]},${P[2 * v + 1]}\n` : `${P[2 * v]},${P[2 * v + 1]}\n`;
  });
  return text;
}

/** Seeded chains on a 6 × 5 grid of cells, so that tiles split them. */
function gridChains(seed: number): Float64Array[] {
  const rng = makeRng(seed);
  return Array.from({ length: 30 }, (_, c) => {
    const P = gridWalk(c === 4 ? 600 : 10 + rng.int(0, 80), 2, rng);
    for (let q = 0; q < P.length; q++) P[q] += q % 2 === 0 ? (c % 6) * 6 : Math.floor(c / 6) * 6;
    return P;
  });
}

/**
 * For n = 1, 3 and every tile: the bytes from standard input equal those from the file, the
 * two-pass path ran on the copy (or fell back, when `fellBack`), and the copy's folder is empty.
 */
async function same(name: string, text: string, opts: Partial<ChainCliOptions>, what: string, fellBack = false): Promise<void> {
  const path = join(work, name);
  writeFileSync(path, text);
  let nonEmpty = 0;
  for (const n of [1, 3]) {
    for (let i = 0; i < n; i++) {
      const tile = { i, n };
      const fromFile = await run({ file: path, ...opts, tile });
      const spoolDir = spoolFolder();
      const before = { ...chainCounters };
      const piped = await run({ file: '-', ...opts, tile, spoolDir }, text);
      expect(piped.stderr, `${what}, tile ${i}/${n}`).toBe('');
      expect(piped.code).toBe(0);
      expect(piped.stdout === fromFile.stdout, `${what}, tile ${i}/${n}: the file's bytes`).toBe(true);
      expect(chainCounters.spooled - before.spooled, `${what}: standard input copied`).toBe(1);
      expect(chainCounters.fellBack - before.fellBack, `${what}: fell back to the whole input`).toBe(fellBack ? 1 : 0);
      expect(piped.seen.filter((f) => f.startsWith('skewline-input-')).length, `${what}: the copy exists while the pipe is read`).toBe(1);
      expect(readdirSync(spoolDir), `${what}, tile ${i}/${n}: the copy is removed`).toEqual([]);
      if (piped.stdout.trimEnd().split('\n').length > 1) nonEmpty++;
    }
  }
  expect(nonEmpty, `${what}: tiles with contacts`).toBeGreaterThan(1);
}

describe('skewline chain --tile on standard input', () => {
  it('issue 15 item 4: --tile on standard input keeps only its tile: a 40,000-step walk (seed 1701) piped in keeps under a quarter of its coordinates at tile 0/8, copied to $TMPDIR while read, the copy removed after', async () => {
    // The finding: a pipe cannot be read twice, so `--tile` on standard input held every
    // coordinate of the input. Now pass 2 reads the copy and keeps the tile's share.
    const P = randomWalk(40000, 2, makeRng(1701));
    const text = csvOf([P]);
    const path = join(work, 'big.csv');
    writeFileSync(path, text);
    const fromFile = await run({ file: path, tile: { i: 0, n: 8 } });
    const spoolDir = spoolFolder();
    const before = { ...chainCounters };
    const piped = await run({ file: '-', tile: { i: 0, n: 8 }, spoolDir }, text);
    expect(piped.stderr).toBe('');
    expect(chainCounters.twoPass - before.twoPass, 'two passes').toBe(1);
    expect(chainCounters.spooled - before.spooled, 'from the copy').toBe(1);
    const kept = chainCounters.kept - before.kept;
    expect(kept, 'seed 1701: coordinates kept').toBeLessThan(P.length / 4);
    expect(kept).toBeGreaterThan(0);
    expect(piped.stdout.trimEnd().split('\n').length, 'seed 1701: contacts in the tile').toBeGreaterThan(10);
    expect(piped.stdout === fromFile.stdout, 'the bytes of the file').toBe(true);
    expect(piped.seen.filter((f) => f.startsWith('skewline-input-')).length, 'the copy under $TMPDIR while the pipe is read').toBe(1);
    expect(readdirSync(spoolDir), 'the copy removed').toEqual([]);
    // The whole-input path (tileStream: false) keeps nothing in a second pass: it has none.
    const whole = { ...chainCounters };
    const old = await run({ file: '-', tile: { i: 0, n: 8 }, tileStream: false, spoolDir }, text);
    expect(old.stdout === fromFile.stdout).toBe(true);
    expect(chainCounters.twoPass - whole.twoPass).toBe(0);
  });

  it('issue 15 item 4: the bytes of the file for tiles of n = 1, 3: a single 2D walk (seed 1702) in CSV and NDJSON, chains with --no-between (seed 1703), one GeoJSON feature (seed 1704), and chains with --between (falls back after pass 1)', async () => {
    const walk = csvOf([randomWalk(1500, 2, makeRng(1702))]);
    await same('walk.csv', walk, {}, 'seed 1702, 2D walk');
    await same('walk.csv', walk, { format: 'ndjson', closed: true }, 'seed 1702, 2D walk, closed, NDJSON');
    const chains = csvOf(gridChains(1703));
    await same('chains.csv', chains, { between: false }, 'seed 1703, CSV chains, --no-between');
    const F = randomWalk(1200, 2, makeRng(1704));
    const coords = Array.from({ length: F.length / 2 }, (_, v) => [F[2 * v], F[2 * v + 1]]);
    const feature = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', id: 'walk', properties: { k: 1 }, geometry: { type: 'LineString', coordinates: coords } }] });
    await same('walk.geojson', feature, {}, 'seed 1704, one GeoJSON feature');
    await same('walk.geojson', feature, { format: 'csv' }, 'seed 1704, one GeoJSON feature, CSV out');
    // Several chains with contacts between them: pass 1 stops at the second chain; the whole
    // input is then what the copy holds followed by the rest of the pipe.
    await same('chains.csv', chains, {}, 'seed 1703, CSV chains, --between', true);
  });

  it('issue 15 item 4: an error in a late row of standard input names <stdin>:line (CSV) or <stdin>:line:column (GeoJSON), exit 1, nothing written, the copy removed; a folder that cannot hold the copy is named with TMPDIR', async () => {
    const good = csvOf([randomWalk(3000, 2, makeRng(1705))]);
    const bad = good.replace(/\n[^\n]*\n$/, '\n1,x\n');
    const lines = bad.trimEnd().split('\n').length;
    for (const between of [true, false]) {
      const spoolDir = spoolFolder();
      const r = await run({ file: '-', tile: { i: 1, n: 3 }, between, spoolDir }, bad);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`skewline: <stdin>:${lines}: column y: not a number ("x")\n`);
      expect(r.written, 'nothing written').toBe(false);
      expect(readdirSync(spoolDir), 'the copy removed').toEqual([]);
    }
    const geo = `{"type":"FeatureCollection","features":[\n${Array.from({ length: 200 }, (_, f) => JSON.stringify({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [[f, 0], [f + 1.5, 1], [f, 1]] } })).join(',\n').slice(0, -1)},\n]}`; // the last feature's object not closed
    const spoolDir = spoolFolder();
    const g = await run({ file: '-', tile: { i: 0, n: 3 }, between: false, spoolDir }, geo);
    expect(g.code).toBe(1);
    expect(g.stderr).toMatch(/^skewline: <stdin>:202:1: expected a string key/);
    expect(g.written).toBe(false);
    expect(readdirSync(spoolDir)).toEqual([]);
    const missing = join(work, 'no-such-folder');
    const m = await run({ file: '-', tile: { i: 0, n: 2 }, spoolDir: missing }, good);
    expect(m.code).toBe(1);
    expect(m.stderr).toBe(`skewline: <stdin>: cannot write the temporary copy of the input in '${missing}' (ENOENT; set TMPDIR to a folder with room for the whole input)\n`);
    expect(m.written).toBe(false);
  });

  it('issue 15 item 4: a FIFO named as the input is copied too (seed 1707): the bytes of the file', async () => {
    const text = csvOf([randomWalk(1500, 2, makeRng(1707))]);
    const path = join(work, 'fifo-ref.csv');
    writeFileSync(path, text);
    const fifo = join(work, 'input.fifo');
    execFileSync('mkfifo', [fifo]);
    const spoolDir = spoolFolder();
    const before = { ...chainCounters };
    const writer = createWriteStream(fifo); // opens when the run opens the FIFO to read it
    writer.end(text);
    const piped = await run({ file: fifo, tile: { i: 1, n: 3 }, spoolDir });
    const fromFile = await run({ file: path, tile: { i: 1, n: 3 } });
    expect(piped.stderr).toBe('');
    expect(chainCounters.spooled - before.spooled, 'the FIFO copied').toBe(1);
    expect(piped.stdout.trimEnd().split('\n').length).toBeGreaterThan(2);
    expect(piped.stdout === fromFile.stdout, 'the bytes of the file').toBe(true);
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it('issue 15 item 4: a signal while standard input is copied removes the copy (and the -o temporary file), exit 128 + the signal', async () => {
    const text = csvOf([randomWalk(2000, 2, makeRng(1706))]);
    for (const output of [false, true]) {
      const dir = spoolFolder();
      const out = join(dir, 'out.csv');
      const args = [join(REPO, 'bin', 'skewline.js'), 'chain', '-', '--tile', '0/2', ...(output ? ['-o', out] : [])];
      const child = spawn(process.execPath, args, { env: { ...process.env, TMPDIR: dir }, stdio: ['pipe', 'pipe', 'pipe'] });
      const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.stdin.write(text.slice(0, text.length >> 1)); // the pipe stays open: the run waits in pass 1
      const deadline = Date.now() + 20_000;
      while (!readdirSync(dir).some((f) => f.startsWith('skewline-input-')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(readdirSync(dir).some((f) => f.startsWith('skewline-input-')), `-o ${output}: the copy exists`).toBe(true);
      child.kill('SIGTERM');
      expect(await done, `-o ${output}: exit code`).toBe(143);
      expect(readdirSync(dir).filter((f) => !f.startsWith('tsx-')), `-o ${output}: nothing left (but tsx's cache)`).toEqual([]);
    }
  }, 60_000);
});
