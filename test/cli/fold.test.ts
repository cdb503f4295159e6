/**
 * `skewline fold`, run as a user runs it: a spawned `node` on the compiled CLI (compiled into a
 * private folder by test/cli/harness.ts). Results are checked against foldChain
 * called in this process: every printed number must read back to the identical double.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldChain } from '../../src/index.js';
import { compileCli, runCli, type CliHarness } from './harness.js';

let h: CliHarness;
let work = '';
beforeAll(() => {
  h = compileCli('fold');
  work = h.work;
}, 60_000);
afterAll(() => h?.dispose());

const run = (args: string[], input?: string) => runCli(h, args, input);

function file(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return name;
}

const ARM = [[-1, 0.5], [1, 0.5], [0, 0], [2, 0]];
const armCsv = 'x,y\n' + ARM.map((p) => p.join(',')).join('\n') + '\n';

describe.concurrent('skewline fold', () => {
  it('--help, and usage mistakes exit 2', async () => {
    for (const args of [['fold', '--help'], ['fold', '-h', '--joint', 'x'], ['--help']]) {
      const r = await run(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/fold/);
    }
    const bad: [string[], RegExp][] = [
      [['fold', 'a.csv', '--angle', '1'], /--joint is required/],
      [['fold', 'a.csv', '--joint', '1'], /--angle is required/],
      [['fold', 'a.csv', '--joint', '-1', '--angle', '1'], /--joint must be a vertex index/],
      [['fold', 'a.csv', '--joint', '1', '--angle', 'x'], /--angle must be/],
      [['fold', 'a.csv', '--joint', '1', '--angle', '1', '--axis', '1,2'], /--axis must be three numbers/],
      [['fold', 'a.csv', '--joint', '1', '--angle', '1', '--thickness', '-1'], /--thickness must be a length/],
      [['fold', 'a.csv', '--joint', '1', '--angle', '1', '--frob'], /unknown option '--frob'/],
      [['fold', 'a.csv', 'b.csv', '--joint', '1', '--angle', '1'], /at most one input file/],
    ];
    for (const [args, msg] of bad) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stdout).toBe('');
    }
  });

  it('prints the angle reached, blocked and the pair; -o writes the folded chain, identical to foldChain', async () => {
    const f = file('arm.csv', armCsv);
    const r = await run(['fold', f, '--joint', '2', '--angle', '6', '-o', 'arm-out.csv']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const want = foldChain(ARM, { joint: 2, angle: 6 });
    const [head, row] = r.stdout.trim().split('\n');
    expect(head).toBe('angle,blocked,i,j');
    const [a, b, i, j] = row.split(',');
    expect(Number(a)).toBe(want.angle);
    expect([b, Number(i), Number(j)]).toEqual(['true', 0, 2]);
    const out = readFileSync(join(work, 'arm-out.csv'), 'utf8').trim().split('\n');
    expect(out[0]).toBe('x,y');
    expect(out.slice(1).map((l) => l.split(',').map(Number))).toEqual(want.points);
  });

  it('degrees, standard input, a GeoJSON LineString in and out (-o - writes the chain to stdout, the summary to stderr)', async () => {
    const doc = JSON.stringify({ type: 'LineString', coordinates: ARM });
    const r = await run(['fold', '-', '--joint', '2', '--angle', '-30deg', '-o', '-'], doc);
    expect(r.code).toBe(0);
    const want = foldChain(ARM, { joint: 2, angle: (-30 * Math.PI) / 180 });
    expect(want.blocked).toBe(false);
    expect(JSON.parse(r.stdout)).toEqual({ type: 'LineString', coordinates: want.points });
    expect(r.stderr).toBe(`angle,blocked,i,j\n${want.angle},false,,\n`);
  });

  it('3D with --axis and --thickness', async () => {
    const pts = [[-1, 0.5, 0], [1, 0.5, 0], [0, 0, 0], [2, 0, 0]];
    const f = file('arm3.csv', pts.map((p) => p.join(',')).join('\n') + '\n');
    const r = await run(['fold', f, '--joint', '2', '--angle', '6', '--axis', '0,0,1', '--thickness', '0.1']);
    const want = foldChain(pts, { joint: 2, angle: 6, axis: [0, 0, 1], thickness: 0.1 });
    expect(r.stdout).toBe(`angle,blocked,i,j\n${want.angle},true,0,2\n`);
  });

  it('bad input: file:line errors, a chain in contact at the start, a missing file, -o onto the input; exit 1 and no output file', async () => {
    const f = file('bad.csv', 'x,y\n0,0\n1,abc\n');
    let r = await run(['fold', f, '--joint', '0', '--angle', '1', '-o', 'never.csv']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('skewline: bad.csv:3: column y: not a number ("abc")\n');
    expect(existsSync(join(work, 'never.csv'))).toBe(false);
    const cross = file('cross.csv', '0,0\n2,0\n1,1\n1,-1\n');
    r = await run(['fold', cross, '--joint', '1', '--angle', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already in contact at the start: segments 0 and 2/);
    r = await run(['fold', 'missing.csv', '--joint', '1', '--angle', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/missing.csv: cannot read: no such file or directory/);
    const g = file('self.csv', armCsv);
    r = await run(['fold', g, '--joint', '2', '--angle', '1', '-o', g]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/it is the input file/);
    expect(readFileSync(join(work, g), 'utf8')).toBe(armCsv);
    r = await run(['fold', f, '--joint', '9', '--angle', '1']);
    expect(r.code).toBe(1);
    r = await run(['fold', file('j.csv', armCsv), '--joint', '9', '--angle', '1']);
    expect(r.stderr).toMatch(/joint must be a vertex index/);
  });
});
