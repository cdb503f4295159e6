/**
 * The package as users get it: built with the publishing tsconfig, resolved through its
 * package.json "exports" from a consumer folder. A browser bundle (esbuild) works and runs
 * without Node; require() works where Node can load ES modules that way and explains itself
 * where it cannot.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
let root = '';
let app = '';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'skewline-pkg-'));
  const pkg = join(root, 'pkg');
  mkdirSync(pkg);
  for (const f of ['package.json', 'cjs', 'data', 'README.md', 'LICENSE']) cpSync(join(REPO, f), join(pkg, f), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(pkg, 'node_modules'));
  execFileSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(REPO, 'tsconfig.build.json'), '--outDir', join(pkg, 'dist')], {
    encoding: 'utf8',
  });
  app = join(root, 'app');
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  symlinkSync(pkg, join(app, 'node_modules', 'skewline'));
}, 60_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

describe('the published package', () => {
  it('bundles for the browser with esbuild (no node: imports) and the bundle runs without Node', async () => {
    writeFileSync(
      join(app, 'entry.js'),
      `import { closestPoints, segment } from 'skewline';
       const r = closestPoints(segment([0, 0, 0], [1, 0, 0]), segment({ x: 1, y: 0, z: 1 }, { x: 1, y: 1, z: 1 }));
       globalThis.result = { distance: r.distance, c: r.c, d: r.d, p: r.p };`,
    );
    const out = await build({ entryPoints: [join(app, 'entry.js')], bundle: true, platform: 'browser', format: 'iife', write: false, absWorkingDir: app, logLevel: 'silent' });
    const code = out.outputFiles[0].text;
    expect(code).not.toMatch(/["']node:/);
    // A bare context: no require, no process, no Buffer — as in a browser.
    const ctx = vm.createContext({});
    vm.runInContext(code, ctx);
    expect(vm.runInContext('typeof process', ctx)).toBe('undefined');
    const result = vm.runInContext('result', ctx) as { distance: number; c: number[]; d: number[]; p: number[] };
    // Rhodes' gem example: C = (1,0,0), D = (1,0,1), P = (1,0,0.5).
    expect(JSON.parse(JSON.stringify(result))).toEqual({ distance: 1, c: [1, 0, 0], d: [1, 0, 1], p: [1, 0, 0.5] });
  });

  it('keeps the Node-only worker pool out of the main entry (skewline/parallel)', async () => {
    writeFileSync(join(app, 'par.mjs'), `import { segmentDistancesParallel, maxThreads } from 'skewline/parallel'; console.log(typeof segmentDistancesParallel, maxThreads() >= 1);`);
    expect(execFileSync(process.execPath, [join(app, 'par.mjs')], { encoding: 'utf8' }).trim()).toBe('function true');
    const main = readFileSync(join(root, 'pkg', 'dist', 'src', 'index.js'), 'utf8');
    expect(main).not.toMatch(/from '\.\/parallel/);
  });

  it("require('skewline') works where Node can require ES modules, and says what to do where it cannot", () => {
    writeFileSync(join(app, 'use.cjs'), `const s = require('skewline'); console.log(s.segmentDistance([0, 0], [1, 0], [0, 2], [1, 2]));`);
    expect(execFileSync(process.execPath, [join(app, 'use.cjs')], { encoding: 'utf8' }).trim()).toBe('2');
    let message = '';
    try {
      execFileSync(process.execPath, ['--no-experimental-require-module', join(app, 'use.cjs')], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      message = String((e as { stderr?: string }).stderr);
    }
    expect(message).toMatch(/skewline is an ES module/);
    expect(message).toMatch(/await import\('skewline'\)/);
    expect(message).not.toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });
  it('has no install-time scripts (consumers see no install-scripts warning) and ships no source maps', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string>; files: string[] };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[hook], hook).toBeUndefined();
    const built = execFileSync('find', [join(root, 'pkg', 'dist'), '-name', '*.map'], { encoding: 'utf8' });
    expect(built).toBe('');
  });
});
