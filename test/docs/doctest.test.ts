/**
 * Docs that cannot drift (issue 17): every claimed output in README.md and docs/**.md is run and
 * compared with the text. See test/support/doctest.ts for the conventions.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fencedBlocks, instrument, looksLikeUncheckedClaim, mismatch, parseExpected } from '../support/doctest.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(REPO, 'test-output', 'doctest');

function markdownFiles(): string[] {
  const files = [join(REPO, 'README.md')];
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) {
        if (f !== 'api') walk(p);
      } else if (f.endsWith('.md')) files.push(p);
    }
  };
  walk(join(REPO, 'docs'));
  return files;
}

const UNREACHED = Symbol('unreached');

function skewlineBin(): string {
  const bin = join(OUT, 'bin');
  mkdirSync(bin, { recursive: true });
  const sh = join(bin, 'skewline');
  writeFileSync(sh, `#!/bin/sh\nexec node --import tsx "${join(REPO, 'cli', 'skewline.ts')}" "$@"\n`);
  chmodSync(sh, 0o755);
  return bin;
}

describe('issue 17: docs that run', () => {
  for (const file of markdownFiles()) {
    const name = relative(REPO, file);
    const md = readFileSync(file, 'utf8');
    const blocks = fencedBlocks(md);

    it(`${name}: no output claim goes unchecked (write "// → value")`, () => {
      const loose: string[] = [];
      for (const b of blocks) {
        if (b.lang !== 'ts' && b.lang !== 'js') continue;
        b.lines.forEach((l, k) => {
          if (looksLikeUncheckedClaim(l)) loose.push(`${name}:${b.start + k}: ${l.trim()}`);
        });
      }
      expect(loose).toEqual([]);
    });

    blocks.forEach((b, bi) => {
      if ((b.lang === 'ts' || b.lang === 'js') && b.lines.some((l) => l.includes('// →'))) {
        it(`${name}:${b.start}: every "// →" claim holds`, async () => {
          mkdirSync(OUT, { recursive: true });
          const { code, claims } = instrument(b, {
            main: pathToFileURL(join(REPO, 'src', 'index.ts')).href,
            parallel: pathToFileURL(join(REPO, 'src', 'parallel', 'index.ts')).href,
          });
          const g = globalThis as unknown as { __doc: unknown[] };
          g.__doc = claims.map(() => UNREACHED);
          const path = join(OUT, `${name.replace(/[^\w]+/g, '_')}_${bi}.ts`);
          writeFileSync(path, code);
          await import(/* @vite-ignore */ `${pathToFileURL(path).href}?t=${Date.now()}`);
          const wrong: string[] = [];
          claims.forEach((c, k) => {
            const where = `${name}:${c.line}: ${c.expr}`;
            if (g.__doc[k] === UNREACHED) {
              wrong.push(`${where}: never evaluated (claims must be at the block's top level)`);
              return;
            }
            let m: string | null;
            try {
              m = mismatch(g.__doc[k], parseExpected(c.text).value);
            } catch (err) {
              m = `cannot parse the claim: ${(err as Error).message}`;
            }
            if (m) wrong.push(`${where}: ${m}`);
          });
          expect(wrong).toEqual([]);
        });
      }
      if (b.lang === 'console') {
        it(`${name}:${b.start}: the console session prints what it shows`, () => {
          const bin = skewlineBin();
          const steps: { cmd: string; out: string[] }[] = [];
          for (const l of b.lines) {
            if (l.startsWith('$ ')) steps.push({ cmd: l.slice(2), out: [] });
            else if (steps.length > 0) steps[steps.length - 1].out.push(l);
          }
          for (const s of steps) {
            const cmd = s.cmd.replace(/\bnpx skewline\b/g, 'skewline');
            let got: string;
            try {
              got = execFileSync('bash', ['-c', `${cmd} 2>&1`], {
                cwd: REPO,
                encoding: 'utf8',
                env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1' },
                stdio: ['ignore', 'pipe', 'pipe'],
              });
            } catch (err) {
              got = String((err as { stdout?: string }).stdout ?? '');
            }
            expect(got.trimEnd(), `${name}:${b.start}: $ ${s.cmd}`).toBe(s.out.join('\n').trimEnd());
          }
        });
      }
    });
  }
});
