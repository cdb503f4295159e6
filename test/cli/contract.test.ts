/**
 * The CLI's one contract, checked for each row command (closest, sweep) and for fold, on the
 * compiled CLI run as a user runs it (see harness.ts):
 * - empty input → the CSV header alone (NDJSON: nothing), exit 0; with -o the file holds the same;
 * - every record on one line, no empty lines (a CSV field with a line break is refused);
 * - an error → `skewline: file:line[:column]: message`, exit 1, and with -o no file;
 *   on stdout the rows before the error are valid rows and the exit code says it failed;
 * - never Infinity or NaN in any output: a result the format cannot hold is an error naming the row;
 * - hostile input (deep JSON, a 10-million-character line, huge dimensions, truncation, a full
 *   disk, a closed pipe, SIGQUIT, a read-only folder) gets a clear message, never a stack trace.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCli, runCli, type CliHarness, type Run, type RunOptions } from './harness.js';

let h: CliHarness;
let work = '';
const run = (args: string[], input?: string, opts?: RunOptions): Promise<Run> => runCli(h, args, input, opts);

function file(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return name;
}

const temporaries = (dir = work): string[] => readdirSync(dir).filter((f) => f.startsWith('.skewline-'));

beforeAll(() => {
  h = compileCli('contract');
  work = h.work;
}, 120_000);

afterAll(() => h?.dispose());

const CLOSEST_HEADER_3D = 'distance,cx,cy,cz,dx,dy,dz,px,py,pz,s,t,relation,unique\n';
const SWEEP_HEADER_3D = 'hit,time,px,py,pz,qx,qy,qz,nx,ny,nz\n';
const seg2 = (k: number): string => JSON.stringify({ a: [[0, k], [1, k]], b: [[0, k + 1], [1, k + 2]] });
const sph2 = (k: number): string => JSON.stringify({ p0: [0, k], p1: [1, k], r1: 0.5, q0: [3, k], q1: [2, k], r2: 0.25 });

/** No empty line anywhere, and the text ends in exactly one newline (or is empty). */
function expectOneRecordPerLine(text: string): void {
  if (text === '') return;
  expect(text.endsWith('\n')).toBe(true);
  expect(text.slice(0, -1).split('\n').every((l) => l.trim() !== '')).toBe(true);
}

describe.concurrent('issue 17: one CLI contract', () => {
  it('issue 17: empty input gives the CSV header alone (NDJSON: nothing), exit 0, for closest and sweep', async () => {
    for (const [cmd, header] of [['closest', CLOSEST_HEADER_3D], ['sweep', SWEEP_HEADER_3D]] as const) {
      for (const input of ['', '\n\n', '\r\n']) {
        const csv = await run([cmd], input);
        expect(csv, `${cmd} ${JSON.stringify(input)}`).toEqual({ code: 0, stdout: header, stderr: '' });
        const nd = await run([cmd, '--format', 'ndjson'], input);
        expect(nd).toEqual({ code: 0, stdout: '', stderr: '' });
      }
      const f = await run([cmd, file(`empty-${cmd}.ndjson`, ''), '-o', `empty-${cmd}.csv`]);
      expect(f).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(readFileSync(join(work, `empty-${cmd}.csv`), 'utf8')).toBe(header);
      // a header line without rows keeps its own dimension
      const two = await run([cmd, file(`head-${cmd}.csv`, cmd === 'closest' ? 'a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\n' : 'p0x,p0y,p1x,p1y,r1,q0x,q0y,q1x,q1y,r2\n')]);
      expect(two.code).toBe(0);
      expect(two.stdout.split('\n').length).toBe(2);
      expect(two.stdout).toMatch(/,px,py,/);
    }
  });

  it('issue 17: fold names file:line:column for a JSON syntax error, and exits 1 with no -o file', async () => {
    const r = await run(['fold', file('arm-bad.json', '[\n  [0, 0],\n  [1 0]\n]\n'), '--joint', '1', '--angle', '1', '-o', 'arm-out.json']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: "skewline: arm-bad.json:3:6: invalid JSON: Expected ',' or ']' after array element\n" });
    expect(existsSync(join(work, 'arm-out.json'))).toBe(false);
  });

  it('issue 17: fold on empty input prints the summary header alone and exits 0', async () => {
    for (const input of ['', '\n', 'x,y\n']) {
      const r = await run(['fold', '--joint', '1', '--angle', '1'], input);
      expect(r, JSON.stringify(input)).toEqual({ code: 0, stdout: 'angle,blocked,i,j\n', stderr: '' });
    }
    const j = await run(['fold', file('empty.json', '[]'), '--joint', '1', '--angle', '1', '-o', 'folded.json']);
    expect(j).toEqual({ code: 0, stdout: 'angle,blocked,i,j\n', stderr: '' });
    expect(readFileSync(join(work, 'folded.json'), 'utf8')).toBe('[]\n');
  });

  it('issue 17: every record on one line, no empty lines (closest, sweep, fold; CSV and NDJSON)', async () => {
    const pairs = file('pairs.ndjson', [0, 1, 2].map(seg2).join('\n') + '\n');
    const spheres = file('spheres.ndjson', [0, 1, 2].map(sph2).join('\n') + '\n');
    for (const args of [['closest', pairs], ['sweep', spheres]]) {
      for (const format of ['csv', 'ndjson']) {
        const r = await run([...args, '--format', format]);
        expect(r.code, r.stderr).toBe(0);
        expectOneRecordPerLine(r.stdout);
        expect(r.stdout.trimEnd().split('\n').length).toBe(format === 'csv' ? 4 : 3);
      }
    }
    const f = await run(['fold', file('arm.json', '[[0,0],[1,0],[2,0],[3,0]]'), '--joint', '1', '--angle', '90deg', '-o', '-']);
    expect(f.code, f.stderr).toBe(0);
    expectOneRecordPerLine(f.stdout);
    expect(f.stdout.split('\n').length).toBe(2);
  });

  it('issue 17: a name with a line break is refused in CSV output (one record per line) and kept in NDJSON', async () => {
    const text = JSON.stringify({ name: 'two\nlines', a: [[0, 0], [1, 0]], b: [[0, 1], [1, 1]] }) + '\n';
    const csv = await run(['closest', file('nl.ndjson', text)]);
    expect(csv.code).toBe(1);
    expect(csv.stderr).toMatch(/^skewline: nl\.ndjson:1: the name "two\\nlines" holds a line break, .*--format ndjson/);
    const nd = await run(['closest', 'nl.ndjson', '--format', 'ndjson']);
    expect(nd.code).toBe(0);
    expect((JSON.parse(nd.stdout) as { name: string }).name).toBe('two\nlines');
  });

  it('issue 17: an error names file:line[:column], exits 1; on stdout the rows before it are valid rows; with -o no file', async () => {
    // closest: NDJSON with a syntax error at line 4, column 11
    const bad = [0, 1, 2].map(seg2).join('\n') + '\n{"a": [[0 0],[1,0]], "b": [[0,1],[1,1]]}\n' + seg2(5) + '\n';
    const r = await run(['closest', file('bad.ndjson', bad), '--format', 'ndjson']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^skewline: bad\.ndjson:4:11: invalid JSON: /);
    const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { distance: number });
    expect(rows.length).toBe(3);
    expect(rows.every((o) => typeof o.distance === 'number')).toBe(true);
    const o = await run(['closest', 'bad.ndjson', '-o', 'bad-out.csv']);
    expect(o.code).toBe(1);
    expect(o.stdout).toBe('');
    expect(existsSync(join(work, 'bad-out.csv'))).toBe(false);
    // sweep: a CSV row with a bad number at line 3
    const s = await run(['sweep', file('bad.csv', 'p0x,p0y,p1x,p1y,r1,q0x,q0y,q1x,q1y,r2\n0,0,1,0,1,3,0,2,0,1\n0,0,1,0,1,3,0,2,0,zz\n')]);
    expect(s.code).toBe(1);
    expect(s.stderr).toBe('skewline: bad.csv:3: column r2: not a number ("zz")\n');
    expect(s.stdout.split('\n').length).toBe(3); // the header, one valid row, the final newline
    // a JSON document: the line and column inside it
    const doc = await run(['sweep', file('bad-doc.json', '[\n  {"p0": [0, 0],\n   "p1": [1 0]}\n]\n')]);
    expect(doc.code).toBe(1);
    expect(doc.stderr).toBe("skewline: bad-doc.json:3:13: expected NDJSON (one JSON object per line) or one JSON document; this is neither: Expected ',' or ']' after array element\n");
  });

  it('issue 19: never Infinity or NaN in any output: a distance above the largest double is an error naming the row', async () => {
    const big = [seg2(0), JSON.stringify({ a: [[1.7e308, 0], [1.7e308, 1]], b: [[-1.7e308, 0], [-1.7e308, 1]] }), seg2(2)].join('\n') + '\n';
    for (const format of ['csv', 'ndjson']) {
      const r = await run(['closest', file('huge.ndjson', big), '--format', format]);
      expect(r.code, format).toBe(1);
      // one line naming row 2 and the distance: the CLI's own check (output.test.ts), or the
      // library's overflow error where the library reports it first (issue 19's library fix)
      expect(r.stderr).toMatch(/^skewline: huge\.ndjson:2: (the result's distance is Infinity, which no output format holds|.*distance exceeds the largest double)[^\n]*\n$/);
      expect(r.stdout).not.toMatch(/Infinity|NaN|null/);
      expect(r.stdout.trimEnd().split('\n').length).toBe(format === 'csv' ? 2 : 1);
    }
  });

  it('issue 19: skewline sweep never prints Infinity or NaN (the 1e308 crossing)', async () => {
    const text = JSON.stringify({ p0: [-1e308, 0], p1: [1e308, 0], r1: 1e300, q0: [1e308, 0], q1: [-1e308, 0], r2: 1e300 }) + '\n';
    for (const format of ['csv', 'ndjson']) {
      const r = await run(['sweep', file('sweep-big.ndjson', text), '--format', format]);
      expect(r.stdout).not.toMatch(/Infinity|NaN|null/);
      if (r.code !== 0) expect(r.stderr).toMatch(/^skewline: sweep-big\.ndjson:1: the result's [\w[\]]+ is (-?Infinity|NaN), which no output format holds/);
    }
  });
});

describe.concurrent('issue 19: robustness of the CLI', () => {
  it('issue 19: a .json input nested 5,000 deep gives a clear error with the file name (closest, sweep, fold)', async () => {
    const deep = file('deep.json', '['.repeat(5000) + ']'.repeat(5000));
    const deepObj = file('deep-obj.ndjson', '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}\n');
    for (const args of [['closest', deep], ['sweep', deep], ['fold', deep, '--joint', '1', '--angle', '1'], ['closest', deepObj], ['sweep', deepObj]]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^skewline: ${args[1].replace('.', '\\.')}:1:\\d+: JSON nested deeper than 64 levels`));
      expect(r.stderr).not.toMatch(/stack/i);
    }
  });

  it('issue 19: SIGQUIT removes the -o temporary file like SIGINT (exit 131)', async () => {
    const child = spawn(process.execPath, [h.script, 'closest', '-', '-o', 'quit.csv'], { cwd: work });
    child.stdin.write('a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\n0,0,1,0,0,1,1,1\n');
    for (let t = 0; !temporaries().some((f) => f.includes('quit.csv')) && child.exitCode === null && t < 2000; t++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(temporaries().some((f) => f.includes('quit.csv'))).toBe(true);
    child.kill('SIGQUIT');
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(131);
    expect(temporaries().filter((f) => f.includes('quit.csv'))).toEqual([]);
    expect(existsSync(join(work, 'quit.csv'))).toBe(false);
  });

  it('issue 19: a writable output in a read-only folder names the folder, not the output', async () => {
    // Run as an unprivileged user when the tests run as root (root ignores the folder's mode).
    const base = mkdtempSync(join(tmpdir(), 'skewline-ro-'));
    try {
      chmodSync(base, 0o755);
      const ro = join(base, 'ro');
      mkdirSync(ro);
      writeFileSync(join(ro, 'out.csv'), 'old\n');
      chmodSync(join(ro, 'out.csv'), 0o666);
      chmodSync(ro, 0o555);
      writeFileSync(join(base, 'in.csv'), 'a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\n0,0,1,0,0,1,1,1\n');
      chmodSync(join(base, 'in.csv'), 0o644);
      const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      const r = await run(['closest', 'in.csv', '-o', 'ro/out.csv'], undefined, { cwd: base, ...user });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^skewline: cannot write 'ro\/out\.csv': its folder '.*\/ro' is not writable \(permission denied\)/);
      expect(readFileSync(join(ro, 'out.csv'), 'utf8')).toBe('old\n');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('issue 19: an output pipe closed early (skewline closest big | head -1): no stack trace, quiet exit', () => {
    const rows = Array.from({ length: 50_000 }, (_, k) => `${k},0,${k + 1},1,0,2,1,3`).join('\n');
    file('big.csv', `a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\n${rows}\n`);
    const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${h.script}" closest big.csv | head -1; echo "status \${PIPESTATUS[0]}" >&2`], { cwd: work, encoding: 'utf8' });
    expect(r.stdout).toBe('distance,cx,cy,dx,dy,px,py,s,t,relation,unique\n');
    expect(r.stderr).toBe('status 0\n');
  });

  it('issue 19: a full disk (-o /dev/full) is exit 1 with "no space left on device"', async () => {
    const r = await run(['closest', file('full.ndjson', [0, 1].map(seg2).join('\n')), '-o', '/dev/full']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("skewline: cannot write '/dev/full': no space left on device\n");
    const s = await run(['sweep', file('full-s.ndjson', sph2(0)), '-o', '/dev/full']);
    expect(s.code).toBe(1);
    expect(s.stderr).toMatch(/no space left on device/);
  });

  it('issue 19: truncated input (a cut last row) fails at that line, after the valid rows', async () => {
    const text = [0, 1].map(seg2).join('\n') + '\n' + seg2(2).slice(0, 20);
    const r = await run(['closest', file('cut.ndjson', text), '--format', 'ndjson']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^skewline: cut\.ndjson:3:21: invalid JSON/);
    expect(r.stdout.trimEnd().split('\n').length).toBe(2);
    const c = await run(['sweep', file('cut.csv', 'p0x,p0y,p1x,p1y,r1,q0x,q0y,q1x,q1y,r2\n0,0,1,0,1,3,0,2,0,1\n0,0,1,0,1,3')]);
    expect(c.code).toBe(1);
    expect(c.stderr).toBe('skewline: cut.csv:3: expected 10 columns as in the header, found 6\n');
  });

  it('issue 19: sweep reads a BOM, CRLF line ends and quoted fields', async () => {
    const text = '\uFEFFname,p0x,p0y,p1x,p1y,r1,q0x,q0y,q1x,q1y,r2\r\n"a, quoted",0,0,1,0,"0.5",3,0,2,0,0.5\r\n';
    const r = await run(['sweep', file('bom.csv', text)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('name,hit,time,px,py,qx,qy,nx,ny\n"a, quoted",true,1,1,0,2,0,1,0\n');
  });

  it('issue 19: a 10-million-character line fails fast with the line named (CSV and NDJSON)', async () => {
    const long = '1,'.repeat(5_000_000);
    const c = await run(['closest', file('long.csv', `a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\n${long}\n`)]);
    expect(c.code).toBe(1);
    expect(c.stderr).toBe('skewline: long.csv:2: expected 8 columns as in the header, found 5000001\n');
    const s = await run(['sweep', file('long.ndjson', `{"p0":[${'1,'.repeat(5_000_000)}1]}\n`)]);
    expect(s.code).toBe(1);
    expect(s.stderr).toMatch(/^skewline: long\.ndjson:1: field p1: expected an array of numbers, got nothing \(missing\)/);
  });

  it('issue 19: one NDJSON row of dimension 1e5 is answered (closest, linear n-D path) and so is sweep', async () => {
    const n = 100_000;
    const pt = (v: number): string => `[${new Array<number>(n).fill(v).join(',')}]`;
    // a from 0 to 1 and b from 2 to 3 on every axis: collinear, apart; the closest points are
    // a1 = (1, …, 1) and b0 = (2, …, 2), sqrt(n) apart (the double nearest sqrt(1e5))
    const c = await run(['closest', file('dim.ndjson', `{"a":[${pt(0)},${pt(1)}],"b":[${pt(2)},${pt(3)}]}\n`), '--format', 'ndjson']);
    expect(c.code, c.stderr).toBe(0);
    const r = JSON.parse(c.stdout) as { distance: number; s: number; t: number; c: number[]; d: number[] };
    expect(r.distance).toBe(Math.sqrt(n));
    expect([r.s, r.t]).toEqual([1, 0]);
    expect(r.c.every((x) => x === 1) && r.d.every((x) => x === 2)).toBe(true);
    const s = await run(['sweep', file('sdim.ndjson', `{"p0":${pt(0)},"p1":${pt(1)},"r1":1,"q0":${pt(5)},"q1":${pt(1)},"r2":1}\n`), '--format', 'ndjson']);
    expect(s.code, s.stderr).toBe(0);
    expect((JSON.parse(s.stdout) as { hit: boolean }).hit).toBe(true);
  });
});
