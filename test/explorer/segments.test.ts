/**
 * The Segments page in a real browser: the numbers it shows are the library's (for endpoints
 * from the URL, after a mouse drag, after keyboard moves), the canvas is drawn, the switches
 * work, nothing lands on the console.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closestPoints, line, ray, segment } from '../../src/index.js';
import { centre, describeBrowser, distinctColors, drag, numbers, openPage, openSite, saveShot, type Site } from './browser.js';

let site: Site;

describeBrowser('explorer: Segments page', () => {
  beforeAll(async () => {
    site = await openSite();
  }, 90_000);
  afterAll(async () => {
    await site?.close();
  });

  // Endpoints with long expansions, so a rounded display could not pass.
  const a0 = [0.1, 0.2, 1 / 3], a1 = [2.7, -0.4, 2.2];
  const b0 = [-1 / 7, 1.9, -0.6], b1 = [1.3, -1.1, Math.PI / 2];
  const query = `a=${[...a0, ...a1].join(',')}&b=${[...b0, ...b1].join(',')}`;

  it('shows closestPoints of the URL\'s endpoints at full precision, draws the scene, logs nothing', async () => {
    const { page, problems } = await openPage(site, `segments.html?${query}`);
    const r = closestPoints(segment(a0, a1), segment(b0, b1));
    expect(await page.getByTestId('distance').textContent()).toBe(String(r.distance));
    expect(await page.getByTestId('s').textContent()).toBe(String(r.s));
    expect(await page.getByTestId('t').textContent()).toBe(String(r.t));
    expect(await page.getByTestId('relation').textContent()).toBe(r.relation);
    expect(await numbers(page, 'a')).toEqual([...a0, ...a1]);
    expect(await distinctColors(page, '[data-testid="canvas"]')).toBeGreaterThan(100);
    expect(await distinctColors(page, '[data-testid="square"]')).toBeGreaterThan(100);
    await saveShot(page, 'segments-url', false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('dragging an endpoint with the mouse moves it; the new distance is the library\'s, and the URL follows', async () => {
    const { page, problems } = await openPage(site, `segments.html?${query}`);
    const before = await page.getByTestId('distance').textContent();
    const shotBefore = await page.locator('[data-testid="canvas"]').screenshot();
    const from = await centre(page, 'handle-a1');
    await drag(page, from, { x: from.x - 90, y: from.y + 60 });
    const ends = await numbers(page, 'a');
    expect(ends.slice(0, 3)).toEqual(a0); // a₀ stayed
    expect(ends.slice(3)).not.toEqual(a1); // a₁ moved
    const r = closestPoints(segment(ends.slice(0, 3), ends.slice(3)), segment(b0, b1));
    const shown = await page.getByTestId('distance').textContent();
    expect(shown).toBe(String(r.distance));
    expect(shown).not.toBe(before);
    expect((await page.locator('[data-testid="canvas"]').screenshot()).equals(shotBefore)).toBe(false);
    // the URL now holds the dragged pair: a reload shows the same distance
    await page.waitForFunction((a) => location.search.includes(`a=${a}`), ends.join(','));
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.getByTestId('distance').textContent()).toBe(shown);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works from the keyboard: select, move, infinite lines, kinds', async () => {
    const { page, problems } = await openPage(site, `segments.html?${query}`);
    await page.locator('#view').focus();
    await page.keyboard.press('3'); // b₀
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    const b = await numbers(page, 'b');
    expect(b[0]).toBeGreaterThan(b0[0]);
    expect(b[1]).toBeGreaterThan(b0[1]);
    expect(b.slice(2)).toEqual([b0[2], ...b1]);
    let r = closestPoints(segment(a0, a1), segment(b.slice(0, 3), b.slice(3)));
    expect(await page.getByTestId('distance').textContent()).toBe(String(r.distance));
    await page.keyboard.press('i');
    r = closestPoints(line(a0, a1), line(b.slice(0, 3), b.slice(3)));
    expect(await page.getByTestId('distance').textContent()).toBe(String(r.distance));
    await page.keyboard.press('i');
    await page.getByTestId('kind-a').selectOption('ray');
    const dir = a1.map((x, k) => x - a0[k]);
    r = closestPoints(ray(a0, dir), segment(b.slice(0, 3), b.slice(3)));
    expect(await page.getByTestId('distance').textContent()).toBe(String(r.distance));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('rotates through parallel: the plain s jumps end to end, the stable one does not', async () => {
    const { page, problems } = await openPage(site, 'segments.html?stable=1');
    await saveShot(page, 'segments'); // the default pair, for the README
    await page.keyboard.press('r');
    await page.waitForTimeout(2500);
    // it is moving: several readings over a second differ (two readings alone could straddle
    // the triangle wave's turning point and show the same rounded angle)
    const angles = new Set<string | null>();
    for (let k = 0; k < 6; k++) {
      angles.add(await page.getByTestId('angle').textContent());
      await page.waitForTimeout(200);
    }
    expect(angles.size).toBeGreaterThan(1);
    expect(await distinctColors(page, '#chart')).toBeGreaterThan(20);
    await saveShot(page, 'segments-rotate');
    // the jump it illustrates, from the library itself (the page plots these same calls)
    const at = (th: number): [number[], number[]] => [[0.4 - 2.6 * Math.cos(th), 1, 0.7 - 2.6 * Math.sin(th)], [0.4 + 2.6 * Math.cos(th), 1, 0.7 + 2.6 * Math.sin(th)]];
    const a = segment([-3, 0, 0], [3, 0, 0]);
    const plain = (th: number): number => closestPoints(a, segment(...at(th))).s;
    const stable = (th: number): number => closestPoints(a, segment(...at(th)), { stable: true }).s;
    let plainJump = 0, stableJump = 0;
    const n = 2000, swing = (14 * Math.PI) / 180;
    for (let k = 0; k < n; k++) {
      const t0 = -swing + (2 * swing * k) / n, t1 = -swing + (2 * swing * (k + 1)) / n;
      plainJump = Math.max(plainJump, Math.abs(plain(t1) - plain(t0)));
      stableJump = Math.max(stableJump, Math.abs(stable(t1) - stable(t0)));
    }
    expect(plainJump).toBeGreaterThan(0.4); // end to end through parallel
    expect(stableJump).toBeLessThan(0.01); // steps of 0.014° move it by less than 1% of the segment
    expect(problems).toEqual([]);
    await page.close();
  });

  it('issue 17: R borrows the scene for the rotation and puts the user\'s pair, kinds and switches back when it stops', async () => {
    const { page, problems } = await openPage(site, `segments.html?${query}&kb=ray&inf=1`);
    const distance = await page.getByTestId('distance').textContent();
    const search = await page.evaluate(() => location.search);
    await page.locator('#view').focus();
    await page.keyboard.press('r');
    await page.waitForTimeout(400);
    expect(await numbers(page, 'a')).toEqual([-3, 0, 0, 3, 0, 0]); // the demo pair is on screen
    await page.keyboard.press('r'); // stop
    expect(await numbers(page, 'a')).toEqual([...a0, ...a1]);
    expect(await numbers(page, 'b')).toEqual([...b0, ...b1]);
    expect(await page.getByTestId('kind-b').inputValue()).toBe('ray');
    expect(await page.getByTestId('distance').textContent()).toBe(distance);
    expect(await page.evaluate(() => location.search)).toBe(search);
    expect(await page.getByTestId('status').textContent()).toMatch(/your pair is back/);
    // Esc stops it the same way
    await page.keyboard.press('r');
    await page.waitForTimeout(200);
    await page.keyboard.press('Escape');
    expect(await numbers(page, 'a')).toEqual([...a0, ...a1]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('parallel segments with overlapping shadows: the middle of the locus, marked not unique', async () => {
    const { page, problems } = await openPage(site, 'segments.html?a=0,0,0,4,0,0&b=1,1,0,6,1,0');
    const r = closestPoints(segment([0, 0, 0], [4, 0, 0]), segment([1, 1, 0], [6, 1, 0]));
    expect(r.unique).toBe(false);
    expect(await page.getByTestId('distance').textContent()).toBe(String(r.distance));
    expect(await page.getByTestId('relation').textContent()).toBe('parallel (not unique: the middle of the locus)');
    expect(await numbers(page, 'c')).toEqual(r.c);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits a small window (phone size) without errors', async () => {
    const { page, problems } = await openPage(site, `segments.html?${query}`, { width: 390, height: 700 });
    expect(await distinctColors(page, '[data-testid="canvas"]')).toBeGreaterThan(50);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describeBrowser('explorer: "GPU stall due to ReadPixels" under Chromium\'s default GL', () => {
  let plain: Site;
  beforeAll(async () => {
    plain = await openSite(true);
  }, 90_000);
  afterAll(async () => {
    await plain?.close();
  });

  it('issue 17: the pages never read pixels back (CPU picking); the note comes from Chromium\'s compositor, as for a bare WebGL canvas', async () => {
    // Count every readPixels the page makes, from before its scripts run.
    const context = await plain.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => {
      const w = window as unknown as { readPixelsCalls: number };
      w.readPixelsCalls = 0;
      for (const C of [WebGLRenderingContext, WebGL2RenderingContext]) {
        const orig = C.prototype.readPixels as (...a: unknown[]) => void;
        C.prototype.readPixels = function (this: unknown, ...a: unknown[]) {
          w.readPixelsCalls++;
          orig.apply(this, a);
        } as typeof C.prototype.readPixels;
      }
    });
    const notes = async (path: string, act: (page: import('playwright-core').Page) => Promise<void>): Promise<{ warnings: string[]; reads: number }> => {
      const page = await context.newPage();
      const warnings: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') warnings.push(m.text());
      });
      page.on('pageerror', (e) => warnings.push(`uncaught: ${e.message}`));
      await page.goto(plain.url + path);
      await act(page);
      await page.waitForTimeout(500);
      const reads = await page.evaluate(() => (window as unknown as { readPixelsCalls: number }).readPixelsCalls);
      await page.close();
      return { warnings, reads };
    };
    const use = async (page: import('playwright-core').Page): Promise<void> => {
      await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
      const box = (await page.getByTestId('canvas').boundingBox())!;
      await drag(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, { x: box.x + box.width / 2 + 80, y: box.y + box.height / 2 + 30 });
      await page.mouse.move(box.x + 100, box.y + 100);
      await page.keyboard.press('f');
    };
    const STALL = /GPU stall due to ReadPixels/;
    // First (Chromium says it once or twice per browser, then no more): a page with nothing but
    // a WebGL canvas, shown, gets the note, with no readPixels of its own.
    const bare = await notes('index.html', async (page) => {
      await page.setContent('<canvas width="64" height="64"></canvas><script>const g = document.querySelector("canvas").getContext("webgl2"); g.clearColor(0, 0, 1, 1); g.clear(g.COLOR_BUFFER_BIT);</script>');
    });
    expect(bare.reads).toBe(0);
    expect(bare.warnings.length).toBeGreaterThan(0);
    expect(bare.warnings.every((w) => STALL.test(w)), bare.warnings.join('\n')).toBe(true);
    // The explorer's WebGL pages: no readPixels at all (picking is CPU raycasting), and no other warning.
    for (const path of ['segments.html', 'chain.html']) {
      const { warnings, reads } = await notes(path, use);
      expect(reads, path).toBe(0);
      expect(warnings.filter((w) => !STALL.test(w)), path).toEqual([]);
    }
    await context.close();
  }, 120_000);
});
