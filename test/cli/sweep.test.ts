/**
 * `skewline sweep`, run as a user runs it: a spawned `node` on the CLI compiled into a private
 * folder (as test/cli/closest.test.ts does). Every output row is checked against sphereSweep
 * called in this process (each printed number must read back to the identical double), and the
 * bundled examples against their exact answers.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCli, runCli, REPO, type CliHarness, type Run } from './harness.js';
import { sphereSweep } from '../../src/index.js';
import { sweepCases } from '../support/motion-families.js';

let h: CliHarness;
let work = '';

/** Runs the compiled CLI with `args`, feeding `input` to stdin (or /dev/null, as when CI runs it with no standard input). */
const run = (args: string[], input?: string): Promise<Run> => runCli(h, args, input);

function csvRows(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trimEnd().split('\n');
  const cols = head.split(',');
  return rows.map((r) => {
    const fields: string[] = [];
    const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(r)) !== null && fields.length < cols.length) fields.push(m[1].startsWith('"') ? m[1].slice(1, -1).replaceAll('""', '"') : m[1]);
    return Object.fromEntries(cols.map((c, i) => [c, fields[i]]));
  });
}

beforeAll(() => {
  h = compileCli('sweep');
  work = h.work;
}, 60_000);

afterAll(() => h?.dispose());

const AX3 = ['x', 'y', 'z'];

describe.concurrent('skewline sweep', () => {
  it('--help documents the columns; sweep is listed in the main help', async () => {
    const h = await run(['sweep', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/p0x,p0y,p0z,p1x,p1y,p1z,r1,q0x,q0y,q0z,q1x,q1y,q1z,r2/);
    expect(h.stdout).toMatch(/hit,time,px,py\[,pz\],qx,qy\[,qz\],nx,ny\[,nz\]/);
    expect((await run(['--help'])).stdout).toMatch(/sweep/);
    expect((await run(['sweep', '--a', 'ray'])).stderr).toMatch(/skewline sweep: unknown option '--a'/);
  });

  it('runs the bundled examples with no input, with their exact answers', async () => {
    const r = await run(['sweep']);
    expect(r.code).toBe(0);
    const rows = csvRows(r.stdout);
    const lines = readFileSync(join(REPO, 'data', 'sweep-examples.ndjson'), 'utf8').trim().split('\n');
    expect(rows).toHaveLength(lines.length);
    const byName = Object.fromEntries(rows.map((x) => [x.name.split(':')[0], x]));
    expect(byName['head-on']).toMatchObject({ hit: 'true', time: '0.5' });
    expect(byName["the gem's false collision"]).toMatchObject({ hit: 'false' });
    expect(byName.grazing).toMatchObject({ hit: 'true', time: '0.5', nx: '0', ny: '1' });
    expect(byName['one ulp short of grazing (a miss)']).toMatchObject({ hit: 'false' });
    expect(byName['touching at the start']).toMatchObject({ hit: 'true', time: '0' });
    expect(byName['same velocity']).toMatchObject({ hit: 'false' });
  });

  it('CSV in 3D (seed 9901): every row equals sphereSweep in this process', async () => {
    const cases = [...sweepCases('random', 100, 9901), ...sweepCases('grazing', 100, 9902)];
    const head = ['name', ...['p0', 'p1'].flatMap((p) => AX3.map((x) => p + x)), 'r1', ...['q0', 'q1'].flatMap((p) => AX3.map((x) => p + x)), 'r2'];
    const text = [head.join(','), ...cases.map((c, i) => [`case ${i}`, ...c.p0, ...c.p1, c.r1, ...c.q0, ...c.q1, c.r2].join(','))].join('\n') + '\n';
    writeFileSync(join(work, 'spheres.csv'), text);
    const r = await run(['sweep', 'spheres.csv']);
    expect(r.code).toBe(0);
    const rows = csvRows(r.stdout);
    expect(rows).toHaveLength(cases.length);
    rows.forEach((row, i) => {
      const c = cases[i];
      const want = sphereSweep(c.p0, c.p1, c.r1, c.q0, c.q1, c.r2);
      expect(row.name).toBe(`case ${i}`);
      expect(row.hit).toBe(String(want.hit));
      expect(Number(row.time)).toBe(want.time);
      AX3.forEach((x, k) => {
        expect(Number(row[`p${x}`])).toBe(want.p[k]);
        expect(Number(row[`q${x}`])).toBe(want.q[k]);
        expect(Number(row[`n${x}`])).toBe(want.normal[k]);
      });
    });
  });

  it('NDJSON in 2D from stdin, NDJSON out; columns in any order', async () => {
    const cases = sweepCases('tinyFast', 50, 9903, 2);
    const input = cases.map((c) => JSON.stringify({ r2: c.r2, q1: c.q1, q0: c.q0, r1: c.r1, p1: c.p1, p0: c.p0 })).join('\n');
    const r = await run(['sweep', '-', '--format', 'ndjson'], input);
    expect(r.code).toBe(0);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { hit: boolean; time: number; p: number[] });
    out.forEach((o, i) => {
      const c = cases[i];
      const want = sphereSweep(c.p0, c.p1, c.r1, c.q0, c.q1, c.r2);
      expect(o.hit).toBe(want.hit);
      expect(o.time).toBe(want.time);
      expect(o.p).toEqual(want.p);
    });
  });

  it('errors name the file, line and column or field; exit 1, no partial output with -o', async () => {
    writeFileSync(join(work, 'bad.csv'), 'p0x,p0y,p1x,p1y,r1,q0x,q0y,q1x,q1y,r2\n0,0,1,0,0.5,2,0,1,0,0.5\n0,0,1,0,0.5,2,0,1,0,x\n');
    const r = await run(['sweep', 'bad.csv', '-o', 'out.csv']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('skewline: bad.csv:3: column r2: not a number ("x")\n');
    expect(existsSync(join(work, 'out.csv'))).toBe(false);
    expect(readdirSync(work).filter((f) => f.startsWith('.skewline-out.csv'))).toEqual([]);
    writeFileSync(join(work, 'neg.ndjson'), '{"p0":[0,0],"p1":[1,0],"r1":-1,"q0":[3,0],"q1":[2,0],"r2":0.5}\n');
    const n = await run(['sweep', 'neg.ndjson']);
    expect(n.code).toBe(1);
    expect(n.stderr).toMatch(/^skewline: neg\.ndjson:1: r1 must be a finite number ≥ 0/);
    writeFileSync(join(work, 'head.csv'), 'p0x,p0y,p1x,p1y,r1,q0x,q0y,q1x,q1y\n');
    expect((await run(['sweep', 'head.csv'])).stderr).toMatch(/head\.csv:1: header: missing column r2/);
    writeFileSync(join(work, 'mixed.ndjson'), '{"p0":[0,0],"p1":[1,0,0],"r1":1,"q0":[3,0],"q1":[2,0],"r2":0.5}\n');
    expect((await run(['sweep', 'mixed.ndjson'])).stderr).toMatch(/mixed\.ndjson:1: field p1: dimension 3 differs from p0's 2/);
  });

  it('streams: 20,000 rows through a pipe give 20,000 rows', async () => {
    const c = sweepCases('random', 1, 9904, 2)[0];
    const row = [...c.p0, ...c.p1, c.r1, ...c.q0, ...c.q1, c.r2].join(',');
    const input = 'p0x,p0y,p1x,p1y,r1,q0x,q0y,q1x,q1y,r2\n' + `${row}\n`.repeat(20_000);
    const r = await run(['sweep', '--stats'], input);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(20_001);
    expect(r.stderr).toMatch(/20000 rows in/);
  });
});
