#!/usr/bin/env node
// The skewline command. An installed package runs its compiled CLI (dist/); a fresh clone, which
// has no dist/ until `npm run build`, runs the TypeScript source through tsx (a dev dependency),
// so `npm ci && npx skewline closest` works without a build step or an install script.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/cli/skewline.js', import.meta.url);
let main;
if (existsSync(dist)) {
  ({ main } = await import(dist.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(new URL('../cli/skewline.ts', import.meta.url).href));
}
process.exitCode = await main(process.argv.slice(2), process);
