/**
 * Every bad input gets a clear message (issue 19): seeded mutations of valid inputs — quotes,
 * brackets, line breaks, a BOM, NaN, Infinity, 1e400, truncation, deleted and repeated bytes —
 * fed to closest, sweep and fold, in process (cli/skewline.ts's main with collected streams, so
 * hundreds of runs take a second). Each run ends with exit 0 and clean output, or exit 1 and
 * one `skewline: FILE…` line; never a stack trace, an exception, Infinity/NaN/null in the
 * output, or an empty line. The seed is in each test's name.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/skewline.js';
import type { Io } from '../../cli/closest.js';
import { mulberry32 } from '../../scripts/big-input.js';
import { collector } from '../support/collector.js';

const dir = mkdtempSync(join(tmpdir(), 'skewline-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runIn(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = collector();
  const err = collector();
  const io = { stdin: Readable.from([]), stdout: out.stream, stderr: err.stream } as unknown as Io;
  const code = await main(args, io);
  return { code, stdout: out.text(), stderr: err.text() };
}

const PIECES = ['"', ',', '[', ']', '{', '}', '\n', '\r', '\r\n', '\uFEFF', 'e', '-', '9', '.', 'NaN', 'Infinity', '1e400', 'x', ' ', '\0', '""', '1e-320', '-0'];

/** One seeded mutation of `text`: insertions, deletions, repeats, or a truncation. */
function mutate(text: string, rnd: () => number): string {
  let t = text;
  const edits = 1 + Math.floor(rnd() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rnd() * (t.length + 1));
    const kind = Math.floor(rnd() * 4);
    if (kind === 0) t = t.slice(0, at) + PIECES[Math.floor(rnd() * PIECES.length)] + t.slice(at);
    else if (kind === 1) t = t.slice(0, at) + t.slice(at + 1 + Math.floor(rnd() * 5));
    else if (kind === 2) t = t.slice(0, at) + t.slice(Math.max(0, at - 8), at) + t.slice(at);
    else t = t.slice(0, at);
  }
  return t;
}

const CASES: { name: string; file: string; text: string; args: string[] }[] = [
  { name: 'closest CSV', file: 'p.csv', text: 'name,a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\none,0,0,1,0,0,1,1,2\n"two, q",0,0,2,2,2,0,0,2\n', args: ['closest'] },
  { name: 'closest NDJSON', file: 'p.ndjson', text: '{"a":[[0,0,0],[1,0,0]],"b":[[0,1,0],[1,2,3]]}\n{"name":"n","a":[[0,0,0],[1,1,1]],"b":[[1,0,0],[0,1,0]],"bKind":"line"}\n', args: ['closest', '--format', 'ndjson'] },
  { name: 'sweep CSV', file: 's.csv', text: 'p0x,p0y,p1x,p1y,r1,q0x,q0y,q1x,q1y,r2\n0,0,1,0,0.5,3,0,2,0,0.25\n0,0,0,1,1,5,5,5,6,1\n', args: ['sweep'] },
  { name: 'sweep JSON document', file: 's.json', text: '[\n {"p0":[0,0],"p1":[1,0],"r1":0.5,"q0":[3,0],"q1":[2,0],"r2":0.25},\n {"p0":[0,0],"p1":[0,1],"r1":1,"q0":[5,5],"q1":[5,6],"r2":1}\n]\n', args: ['sweep', '--format', 'ndjson'] },
  { name: 'fold CSV', file: 'f.csv', text: 'x,y\n0,0\n1,0\n2,0\n3,0\n', args: ['fold', '--joint', '1', '--angle', '90deg'] },
  { name: 'fold JSON', file: 'f.json', text: '{"type":"LineString","coordinates":[[0,0],[1,0],[2,0],[2,1]]}\n', args: ['fold', '--joint', '2', '--angle', '1'] },
];

describe('issue 19: every bad input gets a clear message (seeded mutations)', () => {
  for (const c of CASES) {
    const seed = 1900 + CASES.indexOf(c);
    it(`issue 19: ${c.name}, 200 mutations, seed ${seed}`, async () => {
      const rnd = mulberry32(seed);
      // the unmutated input works
      writeFileSync(join(dir, c.file), c.text);
      const ok = await runIn([c.args[0], join(dir, c.file), ...c.args.slice(1)]);
      expect(ok.code, ok.stderr).toBe(0);
      for (let k = 0; k < 200; k++) {
        const text = mutate(c.text, rnd);
        writeFileSync(join(dir, c.file), text);
        const r = await runIn([c.args[0], join(dir, c.file), ...c.args.slice(1)]);
        const what = `seed ${seed}, mutation ${k}: ${JSON.stringify(text)} → ${JSON.stringify(r)}`;
        expect([0, 1], what).toContain(r.code);
        expect(r.stdout, what).not.toMatch(/Infinity|NaN|null/);
        if (r.stdout !== '') expect(r.stdout.slice(0, -1).split('\n').every((l) => l.trim() !== ''), what).toBe(true);
        if (r.code === 0) expect(r.stderr, what).toBe('');
        else {
          expect(r.stderr, what).toMatch(new RegExp(`^skewline: ${join(dir, c.file).replaceAll('.', '\\.')}(:\\d+)*: \\S`));
          expect(r.stderr.trimEnd().split('\n').length, what).toBe(1);
          expect(r.stderr, what).not.toMatch(/\n\s+at |internal error/);
        }
      }
    }, 60_000);
  }
});
