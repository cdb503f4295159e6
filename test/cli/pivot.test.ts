/**
 * `skewline pivot`, run as a user runs it: a spawned `node` on the compiled CLI. The run is
 * replayed in this process with the same seeded moves (seededUniform from cli/pivot.ts) on
 * createChainFolder: the accepted count must agree and every printed coordinate must read back
 * to the identical double; the final chain must be free of contacts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainContacts, createChainFolder } from '../../src/index.js';
import { seededUniform } from '../../cli/pivot.js';
import { compileCli, runCli, type CliHarness } from './harness.js';

let h: CliHarness;
let work = '';
beforeAll(() => {
  h = compileCli('pivot');
  work = h.work;
}, 60_000);
afterAll(() => h?.dispose());

const run = (args: string[], input?: string) => runCli(h, args, input);

function file(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return name;
}

const ROD = Array.from({ length: 21 }, (_, k) => [k, 0, 0]);
const rodCsv = 'x,y,z\n' + ROD.map((p) => p.join(',')).join('\n') + '\n';

/** The CLI's run replayed here: the same moves from the same seed. */
function replay(flat: Float64Array, dim: number, tau: number, moves: number, seed: number): { accepted: number; points: Float64Array } {
  const f = createChainFolder(flat, { dim, thickness: tau });
  const rand = seededUniform(seed);
  const n = flat.length / dim;
  for (let k = 0; k < moves; k++) {
    const joint = Math.min(n - 2, Math.floor(rand() * (n - 1)));
    const angle = Math.PI * (2 * rand() - 1);
    if (dim === 3) {
      const z = 2 * rand() - 1, phi = 2 * Math.PI * rand(), r = Math.sqrt(Math.max(0, 1 - z * z));
      f.pivot({ joint, angle, axis: [r * Math.cos(phi), r * Math.sin(phi), z] });
    } else f.pivot({ joint, angle });
  }
  return { accepted: f.stats.accepted, points: f.points() };
}

describe.concurrent('skewline pivot', () => {
  it('--help, and usage mistakes exit 2', async () => {
    const r = await run(['pivot', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Pivot Monte Carlo/);
    const bad: [string[], RegExp][] = [
      [['pivot', 'a.csv'], /--moves is required/],
      [['pivot', 'a.csv', '--moves', '-1'], /--moves must be an integer/],
      [['pivot', 'a.csv', '--moves', '10', '--seed', 'x'], /--seed must be an integer/],
      [['pivot', 'a.csv', '--moves', '10', '--thickness', '-1'], /--thickness must be a length/],
      [['pivot', 'a.csv', 'b.csv', '--moves', '10'], /at most one input file/],
    ];
    for (const [args, re] of bad) {
      const b = await run(args);
      expect(b.code, args.join(' ')).toBe(2);
      expect(b.stderr).toMatch(re);
    }
  });

  it('issue 18: a seeded run of 3,000 moves on a thick 3D rod replays exactly in-process, and its chain has no contact', async () => {
    const name = file('rod.csv', rodCsv);
    const r = await run(['pivot', name, '--moves', '3000', '--seed', '7', '--thickness', '0.2', '-o', 'out.csv']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [head, row] = r.stdout.trim().split('\n');
    expect(head).toBe('moves,accepted,rate,seconds,moves_per_s');
    const [moves, accepted] = row.split(',').map(Number);
    const ref = replay(Float64Array.from(ROD.flat()), 3, 0.2, 3000, 7);
    expect(moves).toBe(3000);
    expect(accepted).toBe(ref.accepted);
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(3000);
    const lines = readFileSync(join(work, 'out.csv'), 'utf8').trim().split('\n');
    expect(lines[0]).toBe('x,y,z');
    const out = Float64Array.from(lines.slice(1).flatMap((l) => l.split(',').map(Number)));
    expect(Array.from(out)).toEqual(Array.from(ref.points));
    expect(chainContacts(out, { dim: 3, thickness: 0.2 }).count).toBe(0);
  });

  it('2D JSON in, JSON out; a chain in contact at the start is an error naming the pair', async () => {
    const arm = [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]];
    const r = await run(['pivot', file('arm.json', JSON.stringify(arm)), '--moves', '50', '--seed', '2', '--thickness', '0.1', '-o', '-']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as number[][];
    expect(out.length).toBe(5);
    expect(r.stderr).toMatch(/^moves,accepted/);
    expect(chainContacts(out, { thickness: 0.1 }).count).toBe(0);
    const bad = await run(['pivot', file('x.csv', '0,0\n2,0\n1,1\n1,-1\n'), '--moves', '5']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/x\.csv: .*segments 0 and 2/);
  });

  it('issue 17: skewline pivot keeps the CLI contract (empty input: the header alone; a bad row: file:line:column, exit 1, and -o writes no file)', async () => {
    const empty = await run(['pivot', file('empty.csv', ''), '--moves', '5']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('moves,accepted,rate,seconds,moves_per_s\n');
    expect(empty.stderr).toBe('');
    const bad = await run(['pivot', file('bad.json', '[[0,0],[1 0]]'), '--moves', '5', '-o', 'out.json']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^skewline: bad\.json:1:\d+: /);
    expect(existsSync(join(work, 'out.json'))).toBe(false);
  });
});
