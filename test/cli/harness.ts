/**
 * Runs the `skewline` CLI as a user does, for the CLI tests: `compileCli()` compiles cli/ and
 * src/ with tsc into a private folder under node_modules/.cache (never a stale dist/, never a
 * race with another build), and `runCli()` spawns `node` on it with arguments and stdin.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** A compiled CLI and a scratch folder it runs in. */
export interface CliHarness {
  script: string;
  work: string;
  dispose(): void;
}

/** The outcome of one run. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Compiles the CLI (call from beforeAll, with a generous timeout). */
export function compileCli(name: string): CliHarness {
  const build = join(REPO, 'node_modules', '.cache', 'skewline-cli-test', `${name}-${process.pid}-${Date.now().toString(36)}`);
  const script = join(build, 'cli', 'skewline.js');
  mkdirSync(build, { recursive: true });
  const config = join(build, 'tsconfig.json');
  writeFileSync(config, JSON.stringify({
    extends: join(REPO, 'tsconfig.build.json'),
    compilerOptions: { outDir: build, rootDir: REPO, declaration: false, sourceMap: false, noEmit: false },
    files: [join(REPO, 'cli', 'skewline.ts')],
    include: [],
  }));
  try {
    execFileSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { encoding: 'utf8' });
  } catch (e) {
    if (!existsSync(script)) throw new Error(`tsc failed:\n${(e as { stdout?: string }).stdout ?? String(e)}`, { cause: e });
  }
  const work = mkdtempSync(join(tmpdir(), `skewline-${name}-`));
  return {
    script,
    work,
    dispose() {
      rmSync(build, { recursive: true, force: true });
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** How to spawn a run: another folder, or (when the tests run as root) another user. */
export interface RunOptions {
  cwd?: string;
  uid?: number;
  gid?: number;
}

/** Runs the compiled CLI with `args` in the harness' folder, feeding `input` to stdin (or /dev/null). */
export function runCli(h: CliHarness, args: string[], input?: string, opts: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [h.script, ...args], { cwd: h.work, ...opts, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(input);
    }
  });
}
