/**
 * bin/skewline.js picks what to run: in a clone the TypeScript sources (never a stale dist/),
 * in an installed package (no sources) the compiled dist/. Checked on a scratch package laid out
 * like each, with stand-in CLIs that say which one ran.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'skewline-bin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pkg(name: string, withSource: boolean, withDist: boolean): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'bin'), { recursive: true });
  copyFileSync(join(REPO, 'bin', 'skewline.js'), join(root, 'bin', 'skewline.js'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  const stub = (which: string): string =>
    `export async function main(argv: string[], io: { stdout: { write(s: string): void } }): Promise<number> { io.stdout.write('${which} ' + argv.join(' ') + '\\n'); return 0; }\n`;
  if (withSource) {
    mkdirSync(join(root, 'cli'));
    writeFileSync(join(root, 'cli', 'skewline.ts'), stub('source'));
  }
  if (withDist) {
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(root, 'dist', 'cli', 'skewline.js'), "export async function main(argv, io) { io.stdout.write('dist ' + argv.join(' ') + '\\n'); return 0; }\n");
  }
  return root;
}

const run = (root: string, env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [join(root, 'bin', 'skewline.js'), 'closest', 'x'], { encoding: 'utf8', env: { ...process.env, ...env } });

describe('bin/skewline.js', () => {
  it('issue 17: in a clone with a stale dist/ (after npm run build or npm pack) it runs the sources, not dist/', () => {
    const clone = pkg('clone', true, true);
    expect(readFileSync(join(clone, 'dist', 'cli', 'skewline.js'), 'utf8')).toMatch(/export async function main\(argv, io\)/);
    const r = run(clone);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('source closest x\n');
    expect(run(clone, { SKEWLINE_DIST: '1' }).stdout).toBe('dist closest x\n');
  }, 60_000);

  it('an installed package (no sources) runs dist/; a clone without a build runs the sources', () => {
    expect(run(pkg('installed', false, true)).stdout).toBe('dist closest x\n');
    expect(run(pkg('fresh', true, false)).stdout).toBe('source closest x\n');
  }, 60_000);

  it('issue 17: npm pack\'s tarball is ignored by git', () => {
    const r = spawnSync('git', ['check-ignore', '-q', 'skewline-0.1.0.tgz'], { cwd: REPO });
    expect(r.status).toBe(0);
  });
});
