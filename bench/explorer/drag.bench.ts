/**
 * The explorer's chain page with a big chain (`chain.html?big=N`, 10⁵ segments by default) in
 * headless Chromium (Debian's /usr/bin/chromium, WebGL on SwiftShader, as the browser tests run
 * it): the wall time of one drag step (one Playwright mouse move, answered when the page has
 * handled it) and the animation frames per step, the frames per second while a 60 Hz pointer
 * drags without waiting for the page (moves sent every 16 ms over --hand-ms), and the pivot Monte
 * Carlo's moves per second and frames per second, with the page's own timings (fold, pose
 * read-back and buffer update, render call) where it reports them (body data-* attributes).
 *
 * With --base REF the same is measured on the explorer of git REF (built from `git archive`
 * into test-output/), the two interleaved round by round in one process, so a change in the
 * machine's load touches both alike. With --profile, a CDP CPU profile of one drag on the
 * current page (unminified build) prints the functions with the most self time.
 *
 * Run: node --import tsx bench/explorer/drag.bench.ts [--n 100000] [--at tip|joint] [--steps 30] [--hand-ms 2000] [--rounds 3] [--mc-ms 3000] [--base main] [--profile]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildExplorer, REPO } from '../../scripts/build-explorer.js';
import { serveStatic } from '../../cli/explore.js';
import { machine } from '../harness.js';

const CHROMIUM = process.env.SKEWLINE_CHROMIUM ?? '/usr/bin/chromium';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
function sarg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Site {
  name: string;
  url: string;
  close(): Promise<void>;
}

/** Builds an explorer from `root` (a checkout: explorer/ and src/) into a temporary folder and serves it. */
async function site(name: string, root: string | null, minify = true): Promise<Site> {
  const out = mkdtempSync(join(tmpdir(), 'skewline-drag-'));
  if (root === null) await buildExplorer({ outdir: out, minify });
  else {
    // the other checkout's own build script, run from inside it (its node_modules: the repo's, found upwards)
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-explorer.ts'), out], { cwd: root, stdio: 'inherit' });
  }
  const { server, url } = await serveStatic(out, 0);
  return {
    name,
    url,
    async close() {
      await new Promise<void>((r) => (server as Server).close(() => r()));
      rmSync(out, { recursive: true, force: true });
    },
  };
}

/** git REF's explorer/, src/ and scripts/ in test-output/base-REF (inside the repo, so node_modules resolve). */
function checkout(ref: string): string {
  const dir = join(REPO, 'test-output', `base-${ref.replace(/[^\w.-]/g, '_')}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['archive', ref, 'explorer', 'src', 'scripts', 'package.json'], { cwd: REPO, maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return dir;
}

/** Counts animation frames (a rAF loop of its own: it never asks for a render) and presented frames, from page start. */
const COUNTER = `(() => {
  const c = { raf: 0, t: [] };
  window.__frames = c;
  const loop = (now) => { c.raf++; if (c.on) c.t.push(now); requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
})();`;

interface Round {
  step: number[]; // ms per mouse step
  handFps: number; // animation frames per second under a 60 Hz pointer
  frames: number; // animation frames during the drag
  dragMs: number;
  page: Record<string, string>; // the page's own timings after the drag
  mcRate: string;
  mcFps: number;
  mcWall: number; // moves per wall-clock second
  mcPage: Record<string, string>;
}

const median = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[s.length >> 1];
};

/** Where the drag starts: the vertex under the tip's label (the last) or the joint's (the middle one). */
const AT = process.argv.includes('--at') ? process.argv[process.argv.indexOf('--at') + 1] : 'tip';
async function tipOf(page: Page): Promise<{ x: number; y: number }> {
  const box = await page.getByTestId(AT === 'joint' ? 'joint-label' : 'tip-label').boundingBox();
  if (box === null) throw new Error(`no ${AT} label`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function round(browser: Browser, s: Site, n: number, steps: number, mcMs: number, handMs: number): Promise<Round> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(COUNTER);
  await page.goto(`${s.url}chain.html?big=${n}&seed=3`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await page.waitForTimeout(300);
  const tip = await tipOf(page);
  await page.mouse.move(tip.x, tip.y);
  await page.mouse.down();
  const f0 = await page.evaluate(() => (window as unknown as { __frames: { raf: number } }).__frames.raf);
  const step: number[] = [];
  const d0 = performance.now();
  for (let k = 1; k <= steps; k++) {
    const t0 = performance.now();
    await page.mouse.move(tip.x - (120 * k) / steps, tip.y + (80 * k) / steps);
    step.push(performance.now() - t0);
  }
  // the last step drawn: two frames
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const dragMs = performance.now() - d0;
  const f1 = await page.evaluate(() => (window as unknown as { __frames: { raf: number } }).__frames.raf);
  // a hand's drag: pointer moves every 16 ms for hand-ms (a 60 Hz mouse), not waiting for the page
  const cdp = await page.context().newCDPSession(page);
  const sent: Promise<unknown>[] = [];
  const end = { x: tip.x - 120, y: tip.y + 80 };
  const h0 = await page.evaluate(() => (window as unknown as { __frames: { raf: number } }).__frames.raf);
  const hs = performance.now();
  for (let k = 1; performance.now() - hs < handMs; k++) {
    const u = (k % 60) / 60, w = Math.sin(Math.PI * u);
    sent.push(cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: end.x + 60 * w, y: end.y - 90 * w, button: 'left', buttons: 1 }));
    await new Promise((r) => setTimeout(r, 16));
  }
  await Promise.all(sent);
  const handFps = ((await page.evaluate(() => (window as unknown as { __frames: { raf: number } }).__frames.raf)) - h0) / ((performance.now() - hs) / 1000);
  await cdp.detach();
  await page.mouse.up();
  const data = (): Promise<Record<string, string>> => page.evaluate(() => ({ ...document.body.dataset }) as Record<string, string>);
  const pageAfterDrag = await data();
  // the Monte Carlo for mcMs
  await page.getByTestId('mc').click();
  await page.waitForTimeout(300);
  const moves = async (): Promise<number> => Number(/of ([\d,]+)/.exec((await page.getByTestId('mc-accept').textContent()) ?? '')?.[1].replaceAll(',', '') ?? NaN);
  const m0 = await page.evaluate(() => (window as unknown as { __frames: { raf: number } }).__frames.raf);
  const n0 = await moves();
  const t0 = performance.now();
  await page.waitForTimeout(mcMs);
  const m1 = await page.evaluate(() => (window as unknown as { __frames: { raf: number } }).__frames.raf);
  const n1 = await moves();
  const secs = (performance.now() - t0) / 1000;
  const mcFps = (m1 - m0) / secs;
  const mcWall = (n1 - n0) / secs;
  const mcRate = (await page.getByTestId('mc-rate').textContent()) ?? '';
  const mcPage = await data();
  await page.getByTestId('mc').click();
  await page.close();
  return { step, handFps, frames: f1 - f0, dragMs, page: pageAfterDrag, mcRate, mcFps, mcWall, mcPage };
}

/** A CPU profile of one drag: the functions with the most self time. */
async function profile(browser: Browser, s: Site, n: number, steps: number): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${s.url}chain.html?big=${n}&seed=3`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await page.waitForTimeout(300);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const tip = await tipOf(page);
  await page.mouse.move(tip.x, tip.y);
  await page.mouse.down();
  await cdp.send('Profiler.start');
  const t0 = performance.now();
  for (let k = 1; k <= steps; k++) await page.mouse.move(tip.x - (120 * k) / steps, tip.y + (80 * k) / steps);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const wall = performance.now() - t0;
  const { profile: prof } = await cdp.send('Profiler.stop');
  await page.mouse.up();
  const self = new Map<string, number>();
  const byId = new Map(prof.nodes.map((nd) => [nd.id, nd]));
  const dt = prof.timeDeltas ?? [];
  (prof.samples ?? []).forEach((id, k) => {
    const nd = byId.get(id)!;
    const f = nd.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (dt[k] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`\nCPU profile of a ${steps}-step drag on the main thread (wall ${wall.toFixed(0)} ms, sampled ${total.toFixed(0)} ms):`);
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${(ms / steps).toFixed(2).padStart(7)} ms/step  ${k}`);
  await page.close();
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`drag bench skipped: no ${CHROMIUM}`);
    return;
  }
  const n = arg('--n', 100_000), steps = arg('--steps', 30), rounds = arg('--rounds', 3), mcMs = arg('--mc-ms', 3000), handMs = arg('--hand-ms', 2000);
  const base = sarg('--base');
  const sites: Site[] = [await site('this checkout', null)];
  if (base !== undefined) sites.push(await site(base, checkout(base)));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--use-angle=swiftshader'] });
  console.log(`explorer chain page, ${n.toLocaleString('en')} segments, headless Chromium (SwiftShader) — ${machine()}`);
  try {
    if (process.argv.includes('--profile')) {
      const dev = await site('this checkout (unminified)', null, false);
      await profile(browser, dev, n, steps);
      await dev.close();
    }
    const all = sites.map(() => [] as Round[]);
    for (let r = 0; r < rounds; r++) for (let i = 0; i < sites.length; i++) all[i].push(await round(browser, sites[i], n, steps, mcMs, handMs));
    console.log(`\n${rounds} rounds, interleaved; a drag of ${steps} steps from the ${AT === 'joint' ? 'middle vertex' : 'tip'}, then the Monte Carlo for ${mcMs} ms:`);
    console.log('| page | drag step, ms (median) | frames per drag step | drag fps, 60 Hz pointer | MC moves/s of pivot time (last round) | MC moves per wall second | MC fps |');
    console.log('|---|---:|---:|---:|---|---:|---:|');
    sites.forEach((s, i) => {
      const R = all[i];
      const stepMs = median(R.flatMap((x) => x.step));
      const fpd = median(R.map((x) => x.frames / steps));
      const fps = median(R.map((x) => x.handFps));
      console.log(`| ${s.name} | ${stepMs.toFixed(1)} | ${fpd.toFixed(2)} | ${fps.toFixed(1)} | ${R[R.length - 1].mcRate} | ${median(R.map((x) => x.mcWall)).toFixed(0)} | ${median(R.map((x) => x.mcFps)).toFixed(1)} |`);
      const last = R[R.length - 1];
      if (Object.keys(last.page).some((k) => k !== 'ready')) console.log(`    ${s.name}, the page's own figures after the drag: ${JSON.stringify(last.page)}; during the MC: ${JSON.stringify(last.mcPage)}`);
    });
  } finally {
    await browser.close();
    for (const s of sites) await s.close();
  }
}

await main();
