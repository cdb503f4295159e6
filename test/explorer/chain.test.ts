/**
 * The chain builder in a real browser: contacts shown are `chainContacts`' for the chain on
 * screen, appending refuses a segment that would touch, the thickness slider changes the
 * contacts, the canvas is drawn, nothing lands on the console.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chainContacts } from '../../src/index.js';
import { describeBrowser, distinctColors, openPage, openSite, saveShot, type Site } from './browser.js';

let site: Site;

const points = async (page: import('playwright-core').Page): Promise<number[][]> => JSON.parse((await page.getByTestId('points').textContent()) ?? '[]') as number[][];

describeBrowser('explorer: Chain builder', () => {
  beforeAll(async () => {
    site = await openSite();
  }, 90_000);
  afterAll(async () => {
    await site?.close();
  });

  it('a random chain of hundreds of segments: contacts are the library\'s, the check is timed, the canvas drawn', async () => {
    const { page, problems } = await openPage(site, 'chain.html?random=400&seed=7&thickness=1');
    const P = await points(page);
    expect(P.length - 1).toBe(400);
    expect(await page.getByTestId('segments').textContent()).toBe('400');
    expect(await page.getByTestId('contacts').textContent()).toBe('0'); // built contact-free
    expect(await page.getByTestId('check-time').textContent()).toMatch(/^\d+(\.\d+)? ms$/);
    expect(await distinctColors(page, '[data-testid="canvas"]')).toBeGreaterThan(100);
    // a thicker chain touches itself: the page counts what chainContacts counts
    await page.getByTestId('thickness').fill('5');
    const shown = Number(await page.getByTestId('contacts').textContent());
    expect(shown).toBe(chainContacts(P, { dim: 3, thickness: 5 }).count);
    expect(shown).toBeGreaterThan(0);
    await saveShot(page, 'chain-contacts');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('appends from the keyboard, and refuses a segment that would touch the chain', async () => {
    // a square spiral whose next straight segment would cross the first one
    const chain = '0,0,0;10,0,0;10,10,0;0,10,0;0,2,0';
    const { page, problems } = await openPage(site, `chain.html?chain=${chain}&thickness=1`);
    await page.locator('#view').focus();
    expect(await page.getByTestId('segments').textContent()).toBe('4');
    // bend 90° with no twist turns towards +x: a segment of 5 from (0, 2) passes 2 from the first: accepted
    await page.locator('#bend').fill('90');
    await page.locator('#twist').fill('0');
    await page.locator('#len').fill('5');
    await page.locator('#view').focus();
    await page.keyboard.press('a');
    await page.waitForFunction(() => document.querySelector('[data-testid="segments"]')!.textContent === '5');
    let P = await points(page);
    expect(P[5].map((x) => Math.round(x * 1e9) / 1e9)).toEqual([5, 2, 0]);
    expect(chainContacts(P, { dim: 3, thickness: 1 }).count).toBe(0);
    await page.keyboard.press('Backspace');
    // one of 12 would cross the second segment: refused, nothing changes
    await page.locator('#len').fill('12');
    await page.locator('#view').focus();
    await page.keyboard.press('a');
    expect(await page.getByTestId('status').textContent()).toMatch(/Not appended/);
    P = await points(page);
    expect(P.length).toBe(5);
    expect(await page.getByTestId('segments').textContent()).toBe('4');
    expect(problems).toEqual([]);
    await page.close();
  });
});
