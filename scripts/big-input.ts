/**
 * Writes N seeded random segment pairs as `skewline closest` input, to demonstrate (and test)
 * that the CLI streams a large file in bounded memory.
 *
 *     npx tsx scripts/big-input.ts --rows 10000000 -o /tmp/pairs.csv
 *     node --import tsx cli/skewline.ts closest /tmp/pairs.csv -o /tmp/out.csv --stats
 *
 * Options: --rows N (default 1,000,000), --dim D (default 3), --format csv|ndjson (default csv,
 * or from the -o extension), --seed S (default 1), -o FILE (default stdout).
 * Coordinates are uniform in [-1000, 1000) with full double precision, so each CSV row is about
 * 230 bytes in 3D (10,000,000 rows ≈ 2.3 GB).
 */
import { once } from 'node:events';
import { createWriteStream, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { axisNames } from '../cli/rows.js';
import { mulberry32 } from '../test/support/rng.js';

export { mulberry32 };

/** The CSV header for `dim` (the one `skewline closest` expects). */
export function csvHeader(dim: number): string {
  const ax = axisNames(dim);
  return ['a0', 'a1', 'b0', 'b1'].flatMap((p) => ax.map((x) => p + x)).join(',');
}

/**
 * Writes `rows` pairs to `out`, waiting on 'drain' so memory stays flat.
 * Resolves when everything is handed to the stream (the caller ends it).
 */
export async function writePairs(
  out: NodeJS.WritableStream,
  rows: number,
  dim: number,
  format: 'csv' | 'ndjson',
  seed: number,
): Promise<void> {
  const rnd = mulberry32(seed);
  const coord = () => (rnd() - 0.5) * 2000;
  let buf = format === 'csv' ? csvHeader(dim) + '\n' : '';
  const pt = () => Array.from({ length: dim }, coord);
  for (let i = 0; i < rows; i++) {
    if (format === 'csv') buf += Array.from({ length: 4 * dim }, coord).join(',') + '\n';
    else buf += JSON.stringify({ a: [pt(), pt()], b: [pt(), pt()] }) + '\n';
    if (buf.length > 1 << 16) {
      const ok = out.write(buf);
      buf = '';
      if (!ok) await once(out, 'drain');
    }
  }
  if (buf.length > 0) out.write(buf);
}

async function cli(argv: string[]): Promise<void> {
  let rows = 1_000_000;
  let dim = 3;
  let seed = 1;
  let format: 'csv' | 'ndjson' | undefined;
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (k === '--rows') rows = Number(v);
    else if (k === '--dim') dim = Number(v);
    else if (k === '--seed') seed = Number(v);
    else if (k === '--format' && (v === 'csv' || v === 'ndjson')) format = v;
    else if (k === '-o') file = v;
    else throw new Error(`big-input: unknown argument '${k}' (see the comment at the top of scripts/big-input.ts)`);
    i++;
  }
  if (!(Number.isInteger(rows) && rows >= 0 && Number.isInteger(dim) && dim >= 1)) {
    throw new Error('big-input: --rows and --dim must be whole numbers (dim ≥ 1)');
  }
  format ??= file !== undefined && /\.(nd)?jsonl?$/.test(file) ? 'ndjson' : 'csv';
  const out = file === undefined ? process.stdout : createWriteStream(file);
  await writePairs(out, rows, dim, format, seed);
  if (file !== undefined) {
    out.end();
    await once(out, 'close');
  }
}

// Run when executed, not when imported (the CLI test imports writePairs).
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await cli(process.argv.slice(2));
}
