/**
 * The `skewline` CLI, run as a user runs it: a spawned `node` process on the compiled
 * `cli/skewline.js`. `beforeAll` compiles cli/ and src/ with tsc into a private folder under
 * node_modules/.cache (so the test never runs a stale dist/ and never races another build),
 * which resolves `cli-progress` from the repository's node_modules like the installed bin does.
 *
 * Results are checked two ways: the documents' worked cases against their published numbers,
 * and every other row against `closestPoints` called in this process (the CLI must transport
 * results faithfully: each printed number reads back to the identical double).
 */
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCli, runCli, REPO, type CliHarness, type Run } from './harness.js';
import { closestPoints, line, point, ray, segment } from '../../src/index.js';
import type { ClosestResult, Kind, Primitive } from '../../src/index.js';
import { csvHeader, mulberry32, writePairs } from '../../scripts/big-input.js';

let h: CliHarness;
let SCRIPT = '';
let work = '';

/** Runs the compiled CLI with `args`, feeding `input` to stdin (or /dev/null, as when CI runs it with no standard input). */
const run = (args: string[], input?: string): Promise<Run> => runCli(h, args, input);

/** Writes `text` to a file in the work folder and returns its name (relative to the CLI's cwd). */
function file(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return name;
}

/** Files left in the work folder that are the CLI's temporaries (for the output `target`, or any). */
function temporaries(target = ''): string[] {
  return readdirSync(work).filter((f) => f.startsWith(`.skewline-${target}`));
}

function parseCsv(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trimEnd().split('\n');
  const cols = head.split(',');
  return rows.map((r) => {
    // the bundled names may be quoted and contain commas
    const fields: string[] = [];
    const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(r)) !== null && fields.length < cols.length) {
      fields.push(m[1].startsWith('"') ? m[1].slice(1, -1).replaceAll('""', '"') : m[1]);
    }
    return Object.fromEntries(cols.map((c, i) => [c, fields[i]]));
  });
}

function build(kind: Kind, p0: number[], p1: number[]): Primitive {
  return kind === 'segment' ? segment(p0, p1) : kind === 'line' ? line(p0, p1) : kind === 'ray' ? ray(p0, p1) : point(p0);
}

const AXES = ['x', 'y', 'z', 'w'];

/** Expects a CSV output row to hold exactly `r` (every number reading back to the same double). */
function expectCsvRow(row: Record<string, string>, r: ClosestResult): void {
  const dim = r.c.length;
  const ax = dim <= 4 ? AXES.slice(0, dim) : Array.from({ length: dim }, (_, i) => `x${i + 1}`);
  expect(Number(row.distance)).toBe(r.distance);
  ax.forEach((x, i) => {
    expect(Number(row[`c${x}`])).toBe(r.c[i]);
    expect(Number(row[`d${x}`])).toBe(r.d[i]);
    expect(Number(row[`p${x}`])).toBe(r.p[i]);
  });
  expect(Number(row.s)).toBe(r.s);
  expect(Number(row.t)).toBe(r.t);
  expect(row.relation).toBe(r.relation);
  expect(row.unique).toBe(String(r.unique));
}

/** Seeded random pairs with a few exact cases mixed in (crossing, parallel, zero-length). */
function pairs(seed: number, n: number, dim: number): number[][][] {
  const rnd = mulberry32(seed);
  const pt = () => Array.from({ length: dim }, () => Math.round((rnd() - 0.5) * 2e6) / 1024);
  const out: number[][][] = [];
  for (let i = 0; i < n; i++) {
    const a0 = pt();
    const a1 = i % 7 === 3 ? a0.slice() : pt();
    const b0 = pt();
    const b1 = i % 5 === 2 ? b0.map((x, k) => x + (a1[k] - a0[k])) : pt(); // parallel to a
    out.push([a0, a1, b0, b1]);
  }
  return out;
}

beforeAll(() => {
  h = compileCli('closest');
  SCRIPT = h.script;
  work = h.work;
}, 60_000);

afterAll(() => h?.dispose());

describe.concurrent('skewline --help and usage errors', () => {
  it('prints help for the program and for closest, exit 0', async () => {
    for (const args of [['--help'], ['-h'], ['closest', '--help'], ['closest', '-h'], ['--help', 'closest']]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/Usage:/);
      expect(r.stderr).toBe('');
    }
    expect((await run(['closest', '--help'])).stdout).toMatch(/--format csv\|ndjson/);
  });

  it('prints the version', async () => {
    const r = await run(['--version']);
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it.each([
    [[], /a command is needed/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['--frob'], /unknown option '--frob'/],
    [['closest', '--frob'], /skewline closest: unknown option '--frob'/],
    [['closest', '--format', 'xml'], /'--format' must be one of csv, ndjson \(got 'xml'\)/],
    [['closest', '--a', 'circle'], /'--a' must be one of segment, ray, line, point/],
    [['closest', '-o'], /'-o' needs a value/],
    [['closest', 'a.csv', 'b.csv'], /at most one input file/],
    [['closest', '--stats=yes'], /'--stats' takes no value/],
  ])('%j → exit 2', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});

describe.concurrent('skewline closest on the bundled examples', () => {
  it('gives the documents\' worked cases (CSV)', async () => {
    const r = await run(['closest']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const rows = parseCsv(r.stdout);
    const lines = readFileSync(join(REPO, 'data', 'examples.ndjson'), 'utf8').trim().split('\n');
    expect(rows).toHaveLength(lines.length);

    // Rhodes, Game Programming Gems 2 §2.3: C=(1,0,0), D=(1,0,1), P=(1,0,0.5)
    const rhodes = rows.find((x) => x.name.startsWith('Rhodes gem (GPG2'))!;
    expect([rhodes.cx, rhodes.cy, rhodes.cz]).toEqual(['1', '0', '0']);
    expect([rhodes.dx, rhodes.dy, rhodes.dz]).toEqual(['1', '0', '1']);
    expect([rhodes.px, rhodes.py, rhodes.pz]).toEqual(['1', '0', '0.5']);
    expect(rhodes.distance).toBe('1');

    // The tutorial: (4,7)–(16,3) and (1,1)–(17,5) meet at (13,4) with t1 = t2 = 3/4
    const tut = rows.find((x) => x.name.startsWith('Tutorial (2D): P1=(4,7)'))!;
    expect([tut.cx, tut.cy, tut.cz, tut.cw]).toEqual(['13', '4', '', '']);
    expect([tut.dx, tut.dy]).toEqual(['13', '4']);
    expect([tut.s, tut.t, tut.distance, tut.relation]).toEqual(['0.75', '0.75', '0', 'intersecting']);

    const overlap = rows.find((x) => x.name.startsWith('Parallel overlapping'))!;
    expect([overlap.relation, overlap.unique, overlap.cx]).toEqual(['overlapping', 'false', '3']);
    const zero = rows.find((x) => x.name.startsWith('Zero-length'))!;
    expect(zero.relation).toBe('degenerate');
    const rays = rows.find((x) => x.name.startsWith('Rays (Q&A 003): skew'))!;
    expect([rays.cx, rays.cy, rays.cz, rays.distance, rays.s, rays.t]).toEqual(['2', '0', '0', '1', '2', '1']);
    expect(rows.filter((x) => x.cw !== '').length).toBeGreaterThanOrEqual(3); // the 4D rows
  });

  it('agrees with closestPoints on every bundled row (NDJSON output)', async () => {
    const r = await run(['closest', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const inp = readFileSync(join(REPO, 'data', 'examples.ndjson'), 'utf8').trim().split('\n');
    inp.forEach((text, i) => {
      const row = JSON.parse(text) as { name: string; a: number[][]; b: number[][]; aKind?: Kind; bKind?: Kind };
      const want = closestPoints(build(row.aKind ?? 'segment', row.a[0], row.a[1] ?? row.a[0]), build(row.bKind ?? 'segment', row.b[0], row.b[1] ?? row.b[0]));
      expect(out[i]).toEqual({
        name: row.name,
        distance: want.distance,
        c: want.c,
        d: want.d,
        p: want.p,
        s: want.s,
        t: want.t,
        relation: want.relation,
        unique: want.unique,
      });
    });
  });
});

describe.concurrent('skewline closest round trips', () => {
  it.each([2, 3])('CSV in %iD, every number read back exactly', async (dim) => {
    const ps = pairs(20240 + dim, 300, dim);
    const text = csvHeader(dim) + '\n' + ps.map((p) => p.flat().join(',')).join('\n') + '\n';
    const r = await run(['closest', file(`rt${dim}.csv`, text)]);
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout);
    expect(rows).toHaveLength(ps.length);
    expect(Object.keys(rows[0])).toEqual(
      ['distance', ...['c', 'd', 'p'].flatMap((q) => AXES.slice(0, dim).map((x) => q + x)), 's', 't', 'relation', 'unique'],
    );
    ps.forEach(([a0, a1, b0, b1], i) => expectCsvRow(rows[i], closestPoints(segment(a0, a1), segment(b0, b1))));
  });

  it('NDJSON in 4D and 6D, --format ndjson, from stdin', async () => {
    const ps = [...pairs(4, 100, 4), ...pairs(6, 50, 6)];
    const text = ps.map(([a0, a1, b0, b1]) => JSON.stringify({ a: [a0, a1], b: [b0, b1] })).join('\n');
    const r = await run(['closest', '-', '--format', 'ndjson'], text);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out).toHaveLength(ps.length);
    ps.forEach(([a0, a1, b0, b1], i) => {
      const want = closestPoints(segment(a0, a1), segment(b0, b1));
      expect(out[i]).toEqual({ distance: want.distance, c: want.c, d: want.d, p: want.p, s: want.s, t: want.t, relation: want.relation, unique: want.unique });
    });
  });

  it('CSV with numbered axes (a0x1…b1x5) in 5D', async () => {
    const ps = pairs(5, 40, 5);
    const head = ['a0', 'a1', 'b0', 'b1'].flatMap((p) => [1, 2, 3, 4, 5].map((k) => `${p}x${k}`)).join(',');
    const r = await run(['closest', file('rt5.csv', head + '\n' + ps.map((p) => p.flat().join(',')).join('\n'))]);
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout);
    ps.forEach(([a0, a1, b0, b1], i) => expectCsvRow(rows[i], closestPoints(segment(a0, a1), segment(b0, b1))));
  });

  it('kinds: --a ray --b line, and --a point without a1 columns', async () => {
    const ps = pairs(77, 60, 3).filter(([a0, a1, b0, b1]) => a0.some((x, k) => x !== a1[k]) && b0.some((x, k) => x !== b1[k]));
    const text = csvHeader(3) + '\n' + ps.map((p) => p.flat().join(',')).join('\n');
    const r = await run(['closest', file('rays.csv', text), '--a', 'ray', '--b', 'line']);
    expect(r.code, r.stderr).toBe(0);
    parseCsv(r.stdout).forEach((row, i) => {
      const [a0, a1, b0, b1] = ps[i];
      expectCsvRow(row, closestPoints(ray(a0, a1), line(b0, b1)));
    });

    const head = 'a0x,a0y,a0z,b0x,b0y,b0z,b1x,b1y,b1z';
    const ptext = head + '\n' + ps.map(([a0, , b0, b1]) => [...a0, ...b0, ...b1].join(',')).join('\n');
    const q = await run(['closest', file('points.csv', ptext), '--a=point']);
    expect(q.code, q.stderr).toBe(0);
    parseCsv(q.stdout).forEach((row, i) => {
      const [a0, , b0, b1] = ps[i];
      expectCsvRow(row, closestPoints(point(a0), segment(b0, b1)));
    });
  });

  it('skips blank lines, accepts CRLF, a BOM, quoted fields, any column order and a name column', async () => {
    const text =
      '\ufeffname,b0x,b0y,b1x,b1y,a0x,a0y,a1x,a1y\r\n' +
      '\r\n' +
      '"tutorial, 2D ✓",1,1,17,5,4,7,16,3\r\n' +
      '   \r\n' +
      'plain,"0","0","1","0",0,1,1,1\r\n';
    const r = await run(['closest', file('crlf.csv', text)]);
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout);
    expect(rows.map((x) => x.name)).toEqual(['tutorial, 2D ✓', 'plain']);
    expect([rows[0].cx, rows[0].cy, rows[0].s, rows[0].t]).toEqual(['13', '4', '0.75', '0.75']);
    expect(rows[1].distance).toBe('1');
  });

  it('a header without rows gives a header without rows; an empty input gives the 3D header (NDJSON: nothing)', async () => {
    const h = await run(['closest', file('head-only.csv', 'a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\n')]);
    expect(h).toMatchObject({ code: 0, stderr: '', stdout: 'distance,cx,cy,dx,dy,px,py,s,t,relation,unique\n' });
    const e = await run(['closest', file('empty.ndjson', '\n\n'), '--format', 'ndjson']);
    expect(e).toEqual({ code: 0, stdout: '', stderr: '' });
    const p = await run(['closest'], '');
    expect(p).toEqual({ code: 0, stdout: 'distance,cx,cy,cz,dx,dy,dz,px,py,pz,s,t,relation,unique\n', stderr: '' });
  });

  it('-o FILE writes the file (and nothing to stdout); the extension picks NDJSON', async () => {
    const r = await run(['closest', '-o', 'out.csv']);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(work, 'out.csv'), 'utf8')).toBe((await run(['closest'])).stdout);
    const n = await run(['closest', '--output', 'out.ndjson']);
    expect(n.code).toBe(0);
    expect(readFileSync(join(work, 'out.ndjson'), 'utf8')).toBe((await run(['closest', '--format', 'ndjson'])).stdout);
    expect(temporaries('out.')).toEqual([]);
  });
});

describe.concurrent('skewline closest bad input: exit 1, file:line: column, no output file', () => {
  const HEAD3 = csvHeader(3);
  const GOOD3 = '0,0,0,1,0,0,1,0,1,1,1,1';
  const cases: [string, string, string[], RegExp][] = [
    ['nan.csv', `${HEAD3}\n${GOOD3}\n0,0,0,1,0,0,1,0,1,1,abc,1\n`, [], /^skewline: nan\.csv:3: column b1y: not a number \("abc"\)\n$/],
    ['empty-field.csv', `${HEAD3}\n0,0,0,1,0,0,1,0,,1,1,1\n`, [], /empty-field\.csv:2: column b0z: empty/],
    ['inf.csv', `${HEAD3}\n0,0,0,1,0,Infinity,1,0,1,1,1,1\n`, [], /inf\.csv:2: column a1z: not a finite number \("Infinity"\)/],
    ['overflow.csv', `${HEAD3}\n0,0,0,1,0,1e400,1,0,1,1,1,1\n`, [], /overflow\.csv:2: column a1z: not a finite number \("1e400"\)/],
    ['hex.csv', `${HEAD3}\n0x10,0,0,1,0,0,1,0,1,1,1,1\n`, [], /hex\.csv:2: column a0x: not a number \("0x10"\)/],
    ['count.csv', `${HEAD3}\n${GOOD3}\n${GOOD3}\n0,0,0,1,0,0,1,0,1,1,1\n`, [], /count\.csv:4: expected 12 columns as in the header, found 11/],
    ['header.csv', `a0x,a0y,a0z,a1x,a1y,a1z,b0x,b0y,b0z,b1x,b1y,b1q\n${GOOD3}\n`, [], /header\.csv:1: header: column 12 \("b1q"\) is not a known column/],
    ['missing.csv', `a0x,a0y,a0z,a1x,a1y,a1z,b0x,b0y,b0z,b1x,b1y\n${GOOD3}\n`, [], /missing\.csv:1: header: missing column b1z/],
    ['noheader.csv', `${GOOD3}\n`, [], /noheader\.csv:1: header: column 1 \("0"\) is not a known column/],
    ['zero-ray.csv', `${HEAD3}\n${GOOD3}\n0,0,0,0,0,0,1,0,1,1,1,1\n`, ['--a', 'ray'], /zero-ray\.csv:3: columns a1x…a1z: ray: direction is the zero vector/],
    ['bad.ndjson', '{"a":[[0,0],[1,0]],"b":[[0,1],[1,1]]}\n{"a":[[0,0],[1,0]],"b":[[0,1],[1,1]]\n', [], /bad\.ndjson:2:37: invalid JSON/],
    ['field.ndjson', '\n{"a":[[0,0],[1,0]],"b":[[0,1],[1,"x"]]}\n', [], /field\.ndjson:2: field b\[1\]\[1\]: not a number \("x"\)/],
    ['nob.ndjson', '{"a":[[0,0],[1,0]]}\n', [], /nob\.ndjson:1: field b: missing/],
    ['mixed-row.ndjson', '{"a":[[0,0,0],[1,0,0]],"b":[[0,1],[1,1]]}\n', [], /mixed-row\.ndjson:1: field b\[0\]: dimension 2 differs from a\[0\]'s 3/],
    ['mixed-rows.ndjson', '{"a":[[0,0],[1,0]],"b":[[0,1],[1,1]]}\n{"a":[[0,0,0],[1,0,0]],"b":[[0,1,0],[1,1,0]]}\n', [], /mixed-rows\.ndjson:2: dimension 3 differs from the first row's 2; .*--format ndjson/],
    ['kind.ndjson', '{"aKind":"seg","a":[[0,0],[1,0]],"b":[[0,1],[1,1]]}\n', [], /kind\.ndjson:1: field aKind: must be one of segment, ray, line, point \(got "seg"\)/],
    ['sameline.ndjson', '{"a":[[1,1],[1,1]],"b":[[0,1],[1,1]]}\n', ['--a', 'line'], /sameline\.ndjson:1: fields a\[0\], a\[1\]: line: p0 and p1 are the same point/],
  ];

  it.each(cases)('%s', async (name, text, extra, message) => {
    file(name, text);
    const r = await run(['closest', name, '-o', `${name}.out`, ...extra]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(existsSync(join(work, `${name}.out`))).toBe(false);
    expect(temporaries(`${name}.out-`)).toEqual([]);
  });

  it('a missing file, a directory, and an unwritable output', async () => {
    const m = await run(['closest', 'no-such.csv']);
    expect(m).toMatchObject({ code: 1, stdout: '' });
    expect(m.stderr).toBe("skewline: cannot read 'no-such.csv': no such file or directory\n");
    const d = await run(['closest', '.']);
    expect(d.code).toBe(1);
    expect(d.stderr).toMatch(/cannot read '\.': is a directory/);
    const o = await run(['closest', '-o', 'no-such-dir/out.csv']);
    expect(o.code).toBe(1);
    expect(o.stderr).toMatch(/cannot write 'no-such-dir\/out\.csv': no such file or directory/);
  });

  it('a late error deletes the partial output and keeps an existing target untouched', async () => {
    const ps = pairs(9, 30_000, 3);
    const body = ps.map((p) => p.flat().join(',')).join('\n');
    file('late.csv', `${csvHeader(3)}\n${body}\n1,2,3,4,5,6,7,8,9,10,11,zz\n`);
    writeFileSync(join(work, 'keep.csv'), 'previous contents\n');
    const r = await run(['closest', 'late.csv', '-o', 'keep.csv']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(`late.csv:${ps.length + 2}: column b1z: not a number ("zz")`);
    expect(readFileSync(join(work, 'keep.csv'), 'utf8')).toBe('previous contents\n');
    expect(temporaries('keep.csv-')).toEqual([]);
  });

  it('Ctrl-C (SIGINT) during a run deletes the temporary file and leaves no output', async () => {
    file('sigint.csv', `${csvHeader(3)}\n` + pairs(13, 100_000, 3).map((p) => p.flat().join(',')).join('\n'));
    const child = spawn(process.execPath, [SCRIPT, 'closest', 'sigint.csv', '-o', 'sigint.out'], { cwd: work });
    const closed = once(child, 'close');
    while (temporaries('sigint.out-').length === 0 && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGINT');
    const [code] = (await closed) as [number | null];
    expect(code).toBe(130);
    expect(existsSync(join(work, 'sigint.out'))).toBe(false);
    expect(temporaries('sigint.out-')).toEqual([]);
  });

  it('stops quietly when stdout is closed early (| head)', async () => {
    file('many.csv', `${csvHeader(3)}\n` + pairs(11, 40_000, 3).map((p) => p.flat().join(',')).join('\n'));
    const child = spawn(process.execPath, [SCRIPT, 'closest', 'many.csv'], { cwd: work });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('skewline closest progress and large input', () => {
  it('draws no progress bar when stderr is not a terminal, one with --progress', async () => {
    file('bar.csv', `${csvHeader(3)}\n` + pairs(3, 300, 3).map((p) => p.flat().join(',')).join('\n'));
    const quiet = await run(['closest', 'bar.csv', '-o', 'p.csv']);
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
    const bar = await run(['closest', 'bar.csv', '-o', 'p.csv', '--progress']);
    expect(bar.code).toBe(0);
    expect(bar.stderr).toMatch(/skewline closest . reading \|.*\| 100% .* 300 rows \| \d+ s/);
  });

  it('streams 200,000 rows in bounded memory', async () => {
    const N = 200_000;
    const big = join(work, 'big.csv');
    const out = createWriteStream(big);
    await writePairs(out, N, 3, 'csv', 12345);
    out.end();
    await once(out, 'close');
    const quarter = join(work, 'quarter.csv');
    writeFileSync(quarter, readFileSync(big, 'utf8').split('\n').slice(0, N / 4 + 1).join('\n') + '\n');

    const rss = (r: Run) => Number(/peak RSS ([\d.]+) MiB/.exec(r.stderr)?.[1]);
    const q = await run(['closest', quarter, '-o', 'quarter.out.csv', '--stats']);
    const b = await run(['closest', big, '-o', 'big.out.csv', '--stats']);
    expect(q.code, q.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/^skewline: 200000 rows in [\d.]+ s, \d+ rows\/s, peak RSS [\d.]+ MiB\n$/);
    const text = readFileSync(join(work, 'big.out.csv'), 'utf8');
    expect(text.split('\n').length - 2).toBe(N); // header + N rows + the final newline
    // Streaming, the peak is reached within the first 50,000 rows (V8's young generation and
    // the I/O buffers) and stays flat. The extra 150,000 rows are ~35 MB of input and ~45 MB
    // of output: holding either in memory would add more than this.
    const note = `peak RSS ${rss(q)} MiB on ${N / 4} rows, ${rss(b)} MiB on ${N}`;
    expect(rss(b) - rss(q), note).toBeLessThan(24);
    expect(rss(b), note).toBeLessThan(256);
  }, 60_000);
});

describe('skewline closest: what a new user hit (each failed before its fix)', () => {
  const pairCsv = 'a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\n0,0,2,0,1,-1,1,1\n0,0,1,0,0,1,1,1\n';

  it('-o through a symlink writes the real file and keeps the link', async () => {
    file('real.csv', 'old\n');
    symlinkSync('real.csv', join(work, 'link.csv'));
    const r = await run(['closest', file('in1.csv', pairCsv), '-o', 'link.csv']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(lstatSync(join(work, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(work, 'real.csv'), 'utf8')).toMatch(/^distance,/);
    expect(temporaries()).toEqual([]);
  });

  it('-o to a FIFO (like /dev/null or /dev/stdout) writes through it and leaves it a FIFO', async () => {
    const fifo = join(work, 'pipe.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.setEncoding('utf8').on('data', (s: string) => (got += s));
    const closed = once(reader, 'close');
    const r = await run(['closest', file('in2.csv', pairCsv), '-o', fifo]);
    await closed;
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(got).toMatch(/^distance,.*\n.*\n.*\n$/);
  });

  it('-o keeps a 0600 file 0600, refuses a read-only file, and -o - is stdout', async () => {
    file('private.csv', 'x\n');
    chmodSync(join(work, 'private.csv'), 0o600);
    expect((await run(['closest', file('in3.csv', pairCsv), '-o', 'private.csv'])).code).toBe(0);
    expect(statSync(join(work, 'private.csv')).mode & 0o777).toBe(0o600);
    file('locked.csv', 'keep\n');
    chmodSync(join(work, 'locked.csv'), 0o444);
    const ro = await run(['closest', 'in3.csv', '-o', 'locked.csv']);
    expect(ro.code).toBe(1);
    expect(ro.stderr).toMatch(/cannot write 'locked.csv': it is read-only/);
    expect(readFileSync(join(work, 'locked.csv'), 'utf8')).toBe('keep\n');
    const dash = await run(['closest', 'in3.csv', '-o', '-']);
    expect(dash.code).toBe(0);
    expect(dash.stdout).toMatch(/^distance,/);
    expect(existsSync(join(work, '-'))).toBe(false);
  });

  it('-o onto the input, or into a directory, is refused before anything is read', async () => {
    file('self.csv', pairCsv);
    const r = await run(['closest', 'self.csv', '-o', 'self.csv']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/it is the input file/);
    expect(readFileSync(join(work, 'self.csv'), 'utf8')).toBe(pairCsv);
    mkdirSync(join(work, 'adir'), { recursive: true });
    // stdin stays open and silent: a run that read its input first would hang, not fail
    const child = spawn(process.execPath, [SCRIPT, 'closest', '-', '-o', 'adir'], { cwd: work });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    const [code] = (await once(child, 'close')) as [number];
    expect(code).toBe(1);
    expect(err).toMatch(/cannot write 'adir': is a directory/);
    const missing = await run(['closest', 'self.csv', '-o', 'no/such/dir/out.csv']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no such file or directory/);
  });

  it('SIGHUP cleans up like SIGINT: exit 129, no temporary file, no target', async () => {
    const child = spawn(process.execPath, [SCRIPT, 'closest', '-', '-o', 'hup.csv'], { cwd: work });
    child.stdin.write(pairCsv);
    // stdin stays open, so the run waits for more: poll until its temporary exists (a fixed
    // wait failed on a loaded machine), for at most 20 s
    for (let t = 0; temporaries('hup.csv').length === 0 && child.exitCode === null && t < 2000; t++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(temporaries('hup.csv').length).toBe(1);
    child.kill('SIGHUP');
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(129);
    expect(temporaries('hup.csv')).toEqual([]);
    expect(existsSync(join(work, 'hup.csv'))).toBe(false);
  });

  it('piped input is read (cat my.csv | skewline closest), not replaced by the bundled examples', async () => {
    const piped = await run(['closest'], pairCsv);
    const named = await run(['closest', 'in3.csv']);
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    expect(piped.stdout).toBe(named.stdout);
  });

  it('a 70 MB line fails fast, naming the line, without reading on', async () => {
    const big = join(work, 'longline.csv');
    writeFileSync(big, 'a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\n' + '1'.repeat(70 << 20) + '\n0,0,1,0,0,1,1,1\n');
    const r = await run(['closest', 'longline.csv', '--stats']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^skewline: longline\.csv:2: longer than 64 MiB/);
    rmSync(big);
  });

  it('prints -0 as -0 in CSV and NDJSON (round trips keep the sign)', async () => {
    const text = 'a0x,a0y,b0x,b0y\n-0,1,-0,-1\n';
    const csv = await run(['closest', file('negz.csv', text), '--a', 'point', '--b', 'point']);
    expect(csv.stdout.split('\n')[1]).toBe('2,-0,1,-0,-1,-0,0,0,0,apart,true');
    const nd = await run(['closest', 'negz.csv', '--a', 'point', '--b', 'point', '--format', 'ndjson']);
    expect(nd.stdout).toContain('"c":[-0,1]');
    expect((JSON.parse(nd.stdout) as { c: number[] }).c[0]).toBe(-0);
  });

  it('keeps a name that first appears after row 1 (NDJSON to CSV), quoting it so the CSV reads back', async () => {
    const name = 'second, "quoted", on one line';
    const text = [{ a: [[0, 0], [1, 0]], b: [[0, 1], [1, 1]] }, { name, a: [[0, 0], [1, 0]], b: [[0, 2], [1, 2]] }].map((o) => JSON.stringify(o)).join('\n');
    const r = await run(['closest', file('late-name.ndjson', text)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith('name,distance,')).toBe(true);
    // read it back as RFC 4180 (one record per line: a name with a line break is refused, see contract.test.ts)
    const rec = r.stdout.split('\n')[2];
    expect(rec.startsWith('"second, ""quoted"", on one line",2,')).toBe(true);
    // and the CLI reads its own quoting back from CSV input
    const csvIn = `name,a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\n"${name.replaceAll('"', '""')}",0,0,1,0,0,2,1,2\n`;
    const back = await run(['closest', file('named.csv', csvIn), '--format', 'ndjson']);
    expect(back.code, back.stderr).toBe(0);
    expect((JSON.parse(back.stdout) as { name: string }).name).toBe(name);
  });

  it('reads CR-only line ends, and its messages carry no raw \\r', async () => {
    const ok = await run(['closest', file('mac.csv', pairCsv.replaceAll('\n', '\r'))]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe((await run(['closest', 'in3.csv'])).stdout);
    const bad = await run(['closest', file('macbad.csv', 'a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y\r0,0,1,0,0,1,1,abc\r')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('skewline: macbad.csv:2: column b1y: not a number ("abc")\n');
  });

  it('tolerates a trailing comma after the header (and on rows)', async () => {
    const r = await run(['closest', file('trail.csv', 'a0x,a0y,a1x,a1y,b0x,b0y,b1x,b1y,\n0,0,2,0,1,-1,1,1,\n0,0,1,0,0,1,1,1\n')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe((await run(['closest', 'in3.csv'])).stdout);
  });

  it('reads a .json file holding an array, or one pretty-printed object', async () => {
    const rows = [{ a: [[0, 0], [2, 0]], b: [[1, -1], [1, 1]] }, { a: [[0, 0], [1, 0]], b: [[0, 1], [1, 1]] }];
    const arr = await run(['closest', file('arr.json', JSON.stringify(rows, null, 2))]);
    expect(arr.code, arr.stderr).toBe(0);
    expect(arr.stdout).toBe((await run(['closest', 'in3.csv'])).stdout);
    const one = await run(['closest', file('one.json', JSON.stringify(rows[0], null, 2)), '--format', 'ndjson']);
    expect(one.code, one.stderr).toBe(0);
    expect((JSON.parse(one.stdout) as { distance: number }).distance).toBe(0);
    const broken = await run(['closest', file('broken.json', '[\n{"a": [[0,0],[1,0]]\n')]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/expected NDJSON \(one JSON object per line\) or one JSON document/);
  });

  it('--help wins over other flags, even invalid ones', async () => {
    const r = await run(['closest', '--a', 'bogus', '--frob', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: skewline closest/);
  });
});
