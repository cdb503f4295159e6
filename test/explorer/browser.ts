/**
 * Shared by the explorer's browser tests: Debian's Chromium driven by playwright-core (never a
 * browser downloaded by a test tool), the explorer built into a private folder and served by
 * the CLI's own static server, console problems collected, pixels counted, screenshots saved.
 *
 * Without /usr/bin/chromium the browser tests are skipped with a loud message on stderr (and
 * vitest counts them as skipped, never as passed); with SKEWLINE_BROWSER=required (set by
 * .ci/run after it installed Chromium) a missing browser is a failure instead.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { buildExplorer } from '../../scripts/build-explorer.js';
import { serveStatic } from '../../cli/explore.js';

/** Debian's Chromium (SKEWLINE_CHROMIUM overrides the path, e.g. to try the skip path). */
export const CHROMIUM = process.env.SKEWLINE_CHROMIUM ?? '/usr/bin/chromium';
export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const HAVE_BROWSER = existsSync(CHROMIUM);
const REQUIRED = process.env.SKEWLINE_BROWSER === 'required';

/**
 * `describe` for browser tests: runs them when Chromium is there; otherwise skips them with a
 * loud message (or, when the browser is required, fails).
 */
export function describeBrowser(name: string, body: () => void): void {
  if (HAVE_BROWSER) {
    describe(name, body);
    return;
  }
  const msg = `\n${'!'.repeat(78)}\n!! BROWSER TESTS SKIPPED (${name}): ${CHROMIUM} is missing.\n!! Install it with: apt-get install -y chromium   (.ci/run does this)\n${'!'.repeat(78)}\n`;
  process.stderr.write(msg);
  if (REQUIRED) {
    describe(name, () => {
      it('needs Chromium (SKEWLINE_BROWSER=required)', () => {
        throw new Error(`${CHROMIUM} is missing but SKEWLINE_BROWSER=required`);
      });
    });
  } else {
    describe.skip(`${name} [SKIPPED: no ${CHROMIUM}]`, body);
  }
}

/** A built, served explorer and a browser. */
export interface Site {
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Builds the explorer into a temporary folder, serves it on a free port, launches Chromium.
 * @param defaultGl launch Chromium with its default GL (ANGLE on Vulkan SwiftShader without a
 *   GPU), as a user's Chromium without GPU acceleration runs, instead of ANGLE's GL SwiftShader.
 */
export async function openSite(defaultGl = false): Promise<Site> {
  const dir = mkdtempSync(join(tmpdir(), 'skewline-explorer-'));
  await buildExplorer({ outdir: dir });
  const { server, url } = await serveStatic(dir, 0);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // SwiftShader through ANGLE: WebGL without a GPU, and without the GL driver's
    // "GPU stall due to ReadPixels" performance note that the default path logs once or twice
    // per WebGL canvas (Chromium's software compositor reading each presented frame back; a
    // bare WebGL canvas gets it too: see segments.test.ts).
    args: defaultGl ? ['--headless', '--no-sandbox'] : ['--headless', '--no-sandbox', '--use-angle=swiftshader'],
  });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      await new Promise<void>((r) => (server as Server).close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A page with its console errors and warnings and uncaught exceptions collected in `problems`. */
export async function openPage(site: Site, path: string, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; problems: string[] }> {
  const page = await site.browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.stack ?? e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto(site.url + path);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return { page, problems };
}

/**
 * Distinct colours (quantised to 5 bits a channel) in a screenshot of `selector`: a blank
 * canvas has one or two, a drawn scene hundreds. Decoded by the page itself (no PNG library).
 */
export async function distinctColors(page: Page, selector: string): Promise<number> {
  const png = await page.locator(selector).first().screenshot();
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length; i += 4) seen.add(((d[i] >> 3) << 10) | ((d[i + 1] >> 3) << 5) | (d[i + 2] >> 3));
    return seen.size;
  }, png.toString('base64'));
}

/**
 * Saves a screenshot as test-output/explorer/<name>.png; with SKEWLINE_SCREENSHOTS=docs also as
 * docs/explorer/<name>.png (the README's pictures) unless `docs` is false. Returns the test-output path.
 */
export async function saveShot(page: Page, name: string, docs = true): Promise<string> {
  const out = join(REPO, 'test-output', 'explorer');
  mkdirSync(out, { recursive: true });
  // element screenshots scroll their element into view: show each panel from its top
  await page.evaluate(() => document.querySelectorAll('.panel').forEach((p) => (p.scrollTop = 0)));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const png = await page.screenshot();
  const path = join(out, `${name}.png`);
  writeFileSync(path, png);
  if (docs && process.env.SKEWLINE_SCREENSHOTS === 'docs') {
    const docs = join(REPO, 'docs', 'explorer');
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, `${name}.png`), png);
  }
  return path;
}

/** Reads all the numbers in an element's text. */
export async function numbers(page: Page, testid: string): Promise<number[]> {
  const text = (await page.getByTestId(testid).textContent()) ?? '';
  return (text.match(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi) ?? []).map(Number);
}

/** The centre of an element on screen (for a 3D label: the point it is attached to). */
export async function centre(page: Page, testid: string): Promise<{ x: number; y: number }> {
  const box = await page.getByTestId(testid).boundingBox();
  if (box === null) throw new Error(`${testid} is not on screen`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Drags the mouse from `a` to `b` in `steps` moves, like a hand. */
export async function drag(page: Page, a: { x: number; y: number }, b: { x: number; y: number }, steps = 12): Promise<void> {
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps });
  await page.mouse.up();
}
