#!/usr/bin/env node
// The skewline command.
//
// In a clone (the TypeScript sources cli/ and src/ are beside this folder, and tsx, a dev
// dependency, is installed) it always runs the sources through tsx, so an edit to src/ or cli/
// takes effect at once, even after `npm run build` or `npm pack` left a dist/ behind: a stale
// dist/ is never run by mistake. An installed package ships no sources, only dist/, and runs
// its compiled CLI. SKEWLINE_DIST=1 forces dist/ (to try a build from a clone).
import { existsSync } from 'node:fs';

const source = new URL('../cli/skewline.ts', import.meta.url);
const dist = new URL('../dist/cli/skewline.js', import.meta.url);

/** tsx's loader when it can be loaded here, else undefined. */
async function tsx() {
  try {
    return await import('tsx/esm/api');
  } catch {
    return undefined;
  }
}

let main;
const loader = process.env.SKEWLINE_DIST === '1' || !existsSync(source) ? undefined : await tsx();
if (loader !== undefined) {
  loader.register();
  ({ main } = await import(source.href));
} else if (existsSync(dist)) {
  ({ main } = await import(dist.href));
} else {
  process.stderr.write(
    existsSync(source)
      ? "skewline: the sources need tsx to run ('npm ci' installs it) or a build ('npm run build')\n"
      : 'skewline: this package has no compiled CLI (dist/cli/skewline.js is missing)\n',
  );
  process.exit(1);
}
process.exitCode = await main(process.argv.slice(2), process);
