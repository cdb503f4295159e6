/**
 * The kicker in a real browser: a mouse drag from the ball launches it in the dragged
 * direction, the canvas is drawn, and the tutorial's naive ball escapes the table at top speed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, distinctColors, numbers, openPage, openSite, saveShot, type Site } from './browser.js';

let site: Site;

describeBrowser('explorer: Kicker', () => {
  beforeAll(async () => {
    site = await openSite();
  }, 90_000);
  afterAll(async () => {
    await site?.close();
  });

  it('the naive ball escapes at a thousand table widths per second', async () => {
    const { page, problems } = await openPage(site, 'kicker.html?speed=1000&naive=1&launch=1');
    await page.waitForTimeout(1500);
    const escaped = Number(((await page.getByTestId('naive').textContent()) ?? '').match(/escaped (\d+)/)?.[1]);
    expect(escaped).toBeGreaterThan(3);
    expect(await distinctColors(page, '[data-testid="canvas"]')).toBeGreaterThan(10);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('dragging from the ball aims it; the ball rests until launched', async () => {
    const { page, problems } = await openPage(site, 'kicker.html');
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
    const v = (await page.locator('#velocity').textContent()) ?? '';
    const [vx, vy] = (v.match(/-?\d+(\.\d+)?(e-?\d+)?/g) ?? []).map(Number);
    expect(vx).toBeGreaterThan(0);
    expect(vy).toBeLessThan(0); // screen down is table −y
    expect(Math.abs((Math.atan2(vy, vx) * 180) / Math.PI + 45)).toBeLessThan(1); // the way it was dragged
    await saveShot(page, 'kicker');
    expect(problems).toEqual([]);
    await page.close();
  });
});
