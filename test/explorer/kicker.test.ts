/**
 * The kicker in a real browser: a mouse drag from the ball launches it in the dragged
 * direction, the canvas is drawn, and the tutorial's naive ball escapes the table at top speed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closestPoints, point, segment } from '../../src/index.js';
import { describeBrowser, distinctColors, drag, numbers, openPage, openSite, saveShot, type Site } from './browser.js';

let site: Site;

describeBrowser('explorer: Kicker', () => {
  beforeAll(async () => {
    site = await openSite();
  }, 90_000);
  afterAll(async () => {
    await site?.close();
  });

  /** Is (x, y) inside the closed polygon made by the first `n` walls (even-odd rule)? */
  const inside = (x: number, y: number, walls: number[][][], n: number): boolean => {
    let c = false;
    for (let k = 0; k < n; k++) {
      const [[x0, y0], [x1, y1]] = walls[k];
      if (y0 > y !== y1 > y && x < x0 + ((y - y0) * (x1 - x0)) / (y1 - y0)) c = !c;
    }
    return c;
  };

  for (const [preset, outer] of [['kicker', 8], ['spike', 6]] as const) {
    it(`at a thousand table widths per second skewline's ball stays on the table (${preset}), the naive one escapes`, async () => {
      const { page, problems } = await openPage(site, `kicker.html?preset=${preset}&speed=1000&naive=1&launch=1`);
      const walls = JSON.parse((await page.getByTestId('walls').textContent()) ?? '[]') as number[][][];
      const R = 0.015;
      let worst = Infinity;
      const end = Date.now() + 3000;
      while (Date.now() < end) {
        const [x, y] = await numbers(page, 'ball');
        expect(inside(x, y, walls, outer), `(${x}, ${y})`).toBe(true);
        for (const w of walls) worst = Math.min(worst, closestPoints(point([x, y]), segment(w[0], w[1])).distance);
        await page.waitForTimeout(100);
      }
      expect(worst).toBeGreaterThanOrEqual(R * (1 - 1e-12));
      expect(Number(await page.getByTestId('steps').textContent())).toBeGreaterThan(5);
      expect(Number(await page.getByTestId('hits').textContent())).toBeGreaterThan(100);
      const escaped = Number(((await page.getByTestId('naive').textContent()) ?? '').match(/escaped (\d+)/)?.[1]);
      expect(escaped).toBeGreaterThan(2);
      expect(await distinctColors(page, '[data-testid="canvas"]')).toBeGreaterThan(10);
      if (preset === 'kicker') await saveShot(page, 'kicker-1000');
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it('a mouse drag from the ball launches it the way it was dragged', async () => {
    // the slowest speed, so that no bounce can turn the ball before the readout is taken
    const { page, problems } = await openPage(site, 'kicker.html?speed=0.1');
    const canvas = (await page.getByTestId('canvas').boundingBox())!;
    const [x, y] = await numbers(page, 'ball');
    // the table (x 0…1, y 0…0.6) fits the canvas with a 5 % margin each side: find the ball on screen
    const sc = Math.min((canvas.width * 0.9) / 1, (canvas.height * 0.86) / 0.6);
    const sx = canvas.x + canvas.width / 2 + sc * (x - 0.5), sy = canvas.y + canvas.height / 2 - sc * (y - 0.3);
    await page.mouse.move(sx, sy);
    await page.mouse.down();
    await page.mouse.move(sx + 100, sy + 100, { steps: 8 }); // down and to the right
    await page.mouse.up();
    await page.waitForFunction(() => !document.getElementById('velocity')!.textContent!.startsWith('(0, 0)'));
    const [v, hits] = await page.evaluate(() => [document.getElementById('velocity')!.textContent ?? '', document.querySelector('[data-testid="hits"]')!.textContent]);
    expect(hits).toBe('0');
    const [vx, vy] = (v.match(/-?\d+(\.\d+)?(e-?\d+)?/g) ?? []).map(Number);
    expect(vx).toBeGreaterThan(0);
    expect(vy).toBeLessThan(0); // screen down is table −y
    expect(Math.abs((Math.atan2(vy, vx) * 180) / Math.PI + 45)).toBeLessThan(1); // the way it was dragged
    // and it moves (stepped by bounceBall at the display rate)
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="steps"]')!.textContent) > 3);
    expect(await numbers(page, 'ball')).not.toEqual([x, y]);
    await saveShot(page, 'kicker', false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works from the keyboard, and in a small window', async () => {
    // at the slowest speed (0.1 widths/s) the ball needs seconds to reach a wall 0.5 away, so a
    // slow box's late frames cannot turn it before the readout is taken (CI once read 175°)
    const { page, problems } = await openPage(site, 'kicker.html?preset=gon&speed=0.1', { width: 420, height: 760 });
    await page.locator('#view').focus();
    await page.keyboard.press('ArrowLeft'); // aim 5° further anticlockwise: 35°
    await page.keyboard.press(' ');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="steps"]')!.textContent) > 2);
    // the velocity and the bounce count from one frame's readout
    const [text, hits] = await page.evaluate(() => [document.getElementById('velocity')!.textContent ?? '', document.querySelector('[data-testid="hits"]')!.textContent]);
    expect(hits).toBe('0');
    const v = text.match(/-?\d+(\.\d+)?(e-?\d+)?/g)!.map(Number);
    expect((Math.atan2(v[1], v[0]) * 180) / Math.PI).toBeCloseTo(35, 1); // the readout has 5 digits
    expect(await distinctColors(page, '[data-testid="canvas"]')).toBeGreaterThan(10);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('edits the table: a corner dragged moves both walls that meet there; W and a drag add a wall', async () => {
    const { page, problems } = await openPage(site, 'kicker.html');
    const walls = async (): Promise<number[][][]> => JSON.parse((await page.getByTestId('walls').textContent()) ?? '[]') as number[][][];
    const before = await walls();
    const canvas = (await page.getByTestId('canvas').boundingBox())!;
    // table → screen as the page fits it: the walls' box, 90 % × 86 % of the canvas, centred
    let ws = before;
    const at = (x: number, y: number): { x: number; y: number } => {
      const xs = ws.flatMap((w) => [w[0][0], w[1][0]]), ys = ws.flatMap((w) => [w[0][1], w[1][1]]);
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      const sc = Math.min((canvas.width * 0.9) / (x1 - x0), (canvas.height * 0.86) / (y1 - y0));
      return { x: canvas.x + canvas.width / 2 + sc * (x - (x0 + x1) / 2), y: canvas.y + canvas.height / 2 - sc * (y - (y0 + y1) / 2) };
    };
    // the corner (0.94, 0) ends wall 0 and starts wall 1
    await drag(page, at(0.94, 0), at(0.9, -0.05), 6);
    const moved = await walls();
    expect(moved[0][1]).toEqual(moved[1][0]);
    expect(moved[0][1]).not.toEqual(before[0][1]);
    expect(moved[0][0]).toEqual(before[0][0]);
    ws = moved; // the view refits the table after an edit
    await page.locator('#view').focus();
    await page.keyboard.press('w');
    await drag(page, at(0.4, 0.45), at(0.6, 0.5), 6);
    const added = await walls();
    expect(added.length).toBe(before.length + 1);
    const [[x0, y0], [x1, y1]] = added[added.length - 1];
    expect(Math.hypot(x0 - 0.4, y0 - 0.45)).toBeLessThan(0.01);
    expect(Math.hypot(x1 - 0.6, y1 - 0.5)).toBeLessThan(0.01);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('issue 17: the status follows a speed change after a launch (no stale "Launched at …")', async () => {
    const { page, problems } = await openPage(site, 'kicker.html?speed=2&launch=1');
    expect(await page.getByTestId('status').textContent()).toMatch(/^Launched at [\d.]+ table widths per second/);
    await page.locator('#view').focus();
    await page.keyboard.press('ArrowUp');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const shown = ((await page.getByTestId('speed-out').textContent()) ?? '').replace(' widths/s', '');
    const text = (await page.getByTestId('status').textContent()) ?? '';
    expect(text).not.toMatch(/Launched at/);
    expect(text).toMatch(/^Speed changed to [\d.]+ table widths per second/);
    expect(Number(/to ([\d.]+)/.exec(text)![1])).toBeCloseTo(Number(shown), 2);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('issue 17: after a preset change the naive-ball box and its readout agree', async () => {
    const { page, problems } = await openPage(site, 'kicker.html?naive=1&launch=1');
    await page.getByTestId('preset').selectOption('gon');
    expect(await page.getByTestId('naive-toggle').isChecked()).toBe(true);
    await page.waitForFunction(() => document.querySelector('[data-testid="naive"]')!.textContent === 'on: starts with the next launch (T)', undefined, { timeout: 5000 });
    await page.locator('#view').focus();
    await page.keyboard.press(' ');
    await page.waitForFunction(() => /escaped \d+ time/.test(document.querySelector('[data-testid="naive"]')!.textContent ?? ''));
    await page.keyboard.press('t');
    expect(await page.getByTestId('naive-toggle').isChecked()).toBe(false);
    await page.waitForFunction(() => document.querySelector('[data-testid="naive"]')!.textContent === 'off (T)');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('issue 17: a post (a zero-length wall) is drawn as a visible post, wider than a handle dot', async () => {
    const { page, problems } = await openPage(site, 'kicker.html?preset=kicker');
    const walls = JSON.parse((await page.getByTestId('walls').textContent()) ?? '[]') as number[][][];
    const post = walls.find((w) => w[0][0] === w[1][0] && w[0][1] === w[1][1])!;
    expect(post).toBeDefined();
    const box = (await page.getByTestId('canvas').boundingBox())!;
    const xs = walls.flatMap((w) => [w[0][0], w[1][0]]), ys = walls.flatMap((w) => [w[0][1], w[1][1]]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const sc = Math.min((box.width * 0.9) / (x1 - x0), (box.height * 0.86) / (y1 - y0));
    const cx = box.width / 2 + sc * (post[0][0] - (x0 + x1) / 2), cy = box.height / 2 - sc * (post[0][1] - (y0 + y1) / 2);
    const png = await page.getByTestId('canvas').screenshot();
    // the pixels 5.5 px from the post's centre, in eight directions: outside the 4 px handle dot
    const ring = await page.evaluate(async ({ b64, cx, cy }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d', { willReadFrequently: true })!;
      ctx.drawImage(img, 0, 0);
      const k = img.width / document.querySelector('[data-testid="canvas"]')!.getBoundingClientRect().width;
      const out: number[][] = [];
      for (let a = 0; a < 8; a++) {
        const x = Math.round((cx + 5.5 * Math.cos((a * Math.PI) / 4)) * k), y = Math.round((cy + 5.5 * Math.sin((a * Math.PI) / 4)) * k);
        out.push(Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3)));
      }
      return out;
    }, { b64: png.toString('base64'), cx, cy });
    // the post's colour (#c8d0da, or the handle dot's blue at its edge), not the felt (#17301f)
    for (const [r, g, b] of ring) expect(Math.max(r, g, b), JSON.stringify(ring)).toBeGreaterThan(120);
    await saveShot(page, 'kicker-post', false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the index page links the three pages', async () => {
    const { page, problems } = await (async () => {
      const page = await site.browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
      });
      await page.goto(site.url);
      return { page, problems };
    })();
    for (const name of ['segments', 'chain', 'kicker']) expect(await page.locator(`.card[href="${name}.html"]`).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });
});
