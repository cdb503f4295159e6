/**
 * Builds the explorer (explorer/: the source documents' demos, driven by the library) into a
 * self-contained static site: the HTML pages and the stylesheet copied as they are, one
 * minified script per page bundled with esbuild (Three.js and skewline inside, no module
 * scripts, so the pages work from any static host and even from file://).
 *
 *     npm run build:explorer            writes explorer/dist/
 *     tsx scripts/build-explorer.ts DIR writes DIR/
 *
 * `npx skewline explore` calls {@link buildExplorer} itself when the site is missing or older
 * than its sources.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder above this file with a package.json (scripts/ run by tsx, or dist/scripts/ compiled). */
export const REPO = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();
/** Where the explorer's sources live. */
export const EXPLORER = join(REPO, 'explorer');
/** The default output folder (gitignored). */
export const DEFAULT_OUT = join(EXPLORER, 'dist');
/** The pages: `<name>.html` and its script `src/<name>.ts` (index has no script of its own). */
export const PAGES = ['segments', 'chain', 'kicker'] as const;

/** Options of {@link buildExplorer}. */
export interface BuildOptions {
  /** Output folder (created); default explorer/dist. */
  outdir?: string;
  /** Minify the scripts (default true). */
  minify?: boolean;
  /** Write linked source maps (default false: the package ships none). */
  sourcemap?: boolean;
}

/** Builds the site; resolves to the output folder. Throws with esbuild's messages on a compile error. */
export async function buildExplorer(options: BuildOptions = {}): Promise<string> {
  const outdir = resolve(options.outdir ?? DEFAULT_OUT);
  const { build } = await import('esbuild');
  // a fresh folder: no stale pages, scripts or source maps from an earlier build
  if (existsSync(join(outdir, 'BUILT'))) rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  for (const f of readdirSync(EXPLORER)) {
    if (f.endsWith('.html') || f.endsWith('.css') || f.endsWith('.svg')) copyFileSync(join(EXPLORER, f), join(outdir, f));
  }
  await build({
    entryPoints: Object.fromEntries(PAGES.filter((p) => existsSync(join(EXPLORER, 'src', `${p}.ts`))).map((p) => [p, join(EXPLORER, 'src', `${p}.ts`)])),
    outdir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: options.minify ?? true,
    sourcemap: options.sourcemap === true ? 'linked' : false,
    legalComments: 'linked',
    logLevel: 'warning',
    absWorkingDir: REPO,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  writeFileSync(join(outdir, 'BUILT'), `${new Date().toISOString()}\n`);
  return outdir;
}

/** Newest modification time (ms) of the explorer's and the library's sources. */
export function sourcesTime(): number {
  let newest = 0;
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'dist' || e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk(EXPLORER);
  walk(join(REPO, 'src'));
  return newest;
}

/** True when `outdir` holds no finished build, or one older than the sources (when the sources are present). */
export function needsBuild(outdir: string = DEFAULT_OUT): boolean {
  const stamp = join(outdir, 'BUILT');
  if (!existsSync(stamp)) return true;
  if (!existsSync(join(EXPLORER, 'src'))) return false; // an installed package: prebuilt only
  return statSync(stamp).mtimeMs < sourcesTime();
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  const dev = args.includes('--dev');
  const out = await buildExplorer({ outdir: dir ?? DEFAULT_OUT, sourcemap: dev || args.includes('--sourcemap'), minify: !dev });
  process.stdout.write(`explorer built in ${out}\n`);
}
