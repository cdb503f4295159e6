/**
 * The chain builder in a real browser: contacts shown are `chainContacts`' for the chain on
 * screen, appending refuses a segment that would touch, the thickness slider changes the
 * contacts, the canvas is drawn, nothing lands on the console.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chainContacts, foldChain, segmentDistance } from '../../src/index.js';
import { centre, describeBrowser, distinctColors, drag, openPage, openSite, saveShot, type Site } from './browser.js';

let site: Site;

const points = async (page: import('playwright-core').Page): Promise<number[][]> => JSON.parse((await page.getByTestId('points').textContent()) ?? '[]') as number[][];

/** The chain as the page saves it (the Save button's download): for big chains, which the page does not print. */
async function saved(page: import('playwright-core').Page): Promise<number[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#save').click()]);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { points: number[][] }).points;
}

/** `after` is `before` moved by rigid turns about its joints (every segment keeps its length) and touches nothing (thickness 0). */
function expectRigidAndFree(before: number[][], after: number[][]): void {
  expect(after.length).toBe(before.length);
  let worst = 0;
  for (let v = 1; v < after.length; v++) {
    const l0 = Math.hypot(before[v][0] - before[v - 1][0], before[v][1] - before[v - 1][1], before[v][2] - before[v - 1][2]);
    const l1 = Math.hypot(after[v][0] - after[v - 1][0], after[v][1] - after[v - 1][1], after[v][2] - after[v - 1][2]);
    worst = Math.max(worst, Math.abs(l1 - l0) / l0);
  }
  expect(worst).toBeLessThan(1e-9); // rounding of many turns, far below a visible change
  expect(chainContacts(after, { dim: 3, thickness: 0 }).count).toBe(0);
}

/** The canvas as drawn now (after two animation frames). */
async function canvasShot(page: import('playwright-core').Page): Promise<string> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return (await page.locator('[data-testid="canvas"]').screenshot()).toString('base64');
}

/** Pixels of two same-sized PNG screenshots that differ by more than 2 in a channel (decoded by the page). */
async function differentPixels(page: import('playwright-core').Page, a: string, b: string): Promise<number> {
  return page.evaluate(async ([a64, b64]) => {
    const data = await Promise.all(
      [a64, b64].map(async (s) => {
        const img = new Image();
        img.src = `data:image/png;base64,${s}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const ctx = c.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, c.width, c.height).data;
      }),
    );
    const [A, B] = data;
    if (A.length !== B.length) return Infinity;
    let n = 0;
    for (let i = 0; i < A.length; i += 4) if (Math.max(Math.abs(A[i] - B[i]), Math.abs(A[i + 1] - B[i + 1]), Math.abs(A[i + 2] - B[i + 2])) > 2) n++;
    return n;
  }, [a, b]);
}

/** The page's own timings of a big chain's frame: the text and the data-* attributes, numbers in range. */
async function assertFrameFigures(page: import('playwright-core').Page): Promise<void> {
  expect(await page.getByTestId('frame-time').textContent()).toMatch(/^read \d+(\.\d+)? · render \d+(\.\d+)? ms · \d+\.\d fps$/);
  const d = await page.evaluate(() => ({ ...document.body.dataset }));
  for (const key of ['foldMs', 'updateMs', 'renderMs', 'fps']) {
    const x = Number(d[key]);
    expect(Number.isFinite(x) && x >= 0, `${key} = ${d[key]}`).toBe(true);
  }
  expect(Number(d.fps)).toBeGreaterThan(0);
  expect(Number(d.fps)).toBeLessThan(1000);
}

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
    // a half-turn fold in the middle: it goes as far as the chain lets it, and stays contact-free
    await page.locator('#step').fill('180');
    await page.locator('#view').focus();
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(() => /Bend at joint 200/.test(document.querySelector('[data-testid="status"]')!.textContent!));
    expect(await page.getByTestId('fold-time').textContent()).toMatch(/^\d+(\.\d+)? ms$/);
    const F = await points(page);
    expect(F).not.toEqual(P);
    expect(F.slice(0, 201)).toEqual(P.slice(0, 201)); // the part before the joint stays
    expect(chainContacts(F, { dim: 3, thickness: 1 }).count).toBe(0);
    // a thicker chain touches itself: the page counts what chainContacts counts
    await page.getByTestId('thickness').fill('5');
    const shown = Number(await page.getByTestId('contacts').textContent());
    expect(shown).toBe(chainContacts(F, { dim: 3, thickness: 5 }).count);
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

  // A U: the last arm, bent at joint 2 about +z, swings down onto the first arm. With thickness 1
  // it must stop where its tip is 1 above the first arm: sin θ = 0.3, θ ≈ 17.4576°, not at 90°.
  const U = '0,0,0;10,0,0;10,4,0;0,4,0';
  const UP = [[0, 0, 0], [10, 0, 0], [10, 4, 0], [0, 4, 0]];

  it('folding into itself by keys stops at first contact: the angle and the pose are foldChain\'s', async () => {
    const { page, problems } = await openPage(site, `chain.html?chain=${U}&thickness=1&joint=2`);
    await page.locator('#step').fill('90');
    await page.locator('#view').focus();
    await page.keyboard.press('ArrowUp'); // bend + at joint 2
    await page.waitForFunction(() => /stopped at first contact/.test(document.querySelector('[data-testid="status"]')!.textContent!));
    const P = await points(page);
    const stop = foldChain(UP, { dim: 3, joint: 2, angle: Math.PI / 2, axis: [0, 0, 1], thickness: 1 });
    expect(stop.blocked).toBe(true);
    expect(stop.contact).toEqual({ i: 0, j: 2 });
    expect((stop.angle * 180) / Math.PI).toBeCloseTo((Math.asin(0.3) * 180) / Math.PI, 9);
    // the page shows the library's pose
    expect(P).toEqual(stop.points);
    expect(await page.getByTestId('fold').textContent()).toMatch(/blocked at 17\.4576\d*° of 90° by 0–2/);
    const d = segmentDistance(P[0], P[1], P[2], P[3]);
    expect(d).toBeGreaterThanOrEqual(1);
    expect(d).toBeLessThan(1 + 1e-5);
    expect(await page.getByTestId('contacts').textContent()).toBe('0');
    await page.waitForTimeout(600); // the fold's motion, then the final pose
    await saveShot(page, 'chain-fold');
    // back the other way is free: the whole angle
    await page.locator('#step').fill('30');
    await page.locator('#view').focus();
    await page.keyboard.press('ArrowDown'); // bend −
    await page.waitForFunction(() => /Bend at joint 2: -30° of -30°/.test(document.querySelector('[data-testid="status"]')!.textContent!));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('dragging the tip into the chain stops at contact too', async () => {
    const { page, problems } = await openPage(site, `chain.html?chain=${U}&thickness=1&joint=1`);
    const tip = await centre(page, 'tip-label');
    // towards vertex 1, (10, 0, 0): in the chain's plane, straight through the first arm
    const target = await centre(page, 'joint-label');
    await drag(page, tip, target, 20);
    const P = await points(page);
    expect(P[3]).not.toEqual(UP[3]); // it moved
    expect(chainContacts(P, { dim: 3, thickness: 1 }).count).toBe(0);
    const d = segmentDistance(P[0], P[1], P[2], P[3]);
    expect(d).toBeGreaterThanOrEqual(1);
    expect(d).toBeLessThan(1 + 1e-6); // it got to contact and stayed there
    expect(await page.getByTestId('status').textContent()).toMatch(/stopped at first contact/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('loads a chain from a file, in a small window', async () => {
    const { page, problems } = await openPage(site, 'chain.html', { width: 420, height: 760 });
    const pts = [[0, 0, 0], [3, 0, 0], [3, 3, 0], [0, 3, 1], [0, 0.5, 1]];
    await page.getByTestId('file').setInputFiles({ name: 'arm.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ points: pts })) });
    await page.waitForFunction(() => document.querySelector('[data-testid="segments"]')!.textContent === '4');
    expect(await points(page)).toEqual(pts);
    // no thickness given: a tenth of the median segment length (3), as the page says
    expect(await page.getByTestId('thickness-out').textContent()).toBe('0.3');
    expect(await page.getByTestId('contacts').textContent()).toBe(String(chainContacts(pts, { dim: 3, thickness: 0.3 }).count));
    expect(await page.getByTestId('status').textContent()).toMatch(/Loaded 4 segments from arm\.json/);
    expect(await distinctColors(page, '[data-testid="canvas"]')).toBeGreaterThan(20);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('issue 17 item 8: the status follows Backspace and the thickness slider', async () => {
    const { page, problems } = await openPage(site, 'chain.html?chain=0,0,0;10,0,0;10,3,0;0,3,0&thickness=1');
    expect(await page.getByTestId('status').textContent()).toMatch(/^Loaded 3 segments/);
    await page.getByTestId('thickness').fill('2.5');
    expect(await page.getByTestId('status').textContent()).toBe('Thickness 2.5: no contacts.');
    await page.getByTestId('thickness').fill('6');
    expect(await page.getByTestId('status').textContent()).toBe('Thickness 6: 1 contact.');
    await page.getByTestId('thickness').fill('1');
    await page.locator('#view').focus();
    await page.keyboard.press('Backspace');
    expect(await page.getByTestId('status').textContent()).toBe('Removed segment 2; 2 segments left.');
    expect(await page.getByTestId('segments').textContent()).toBe('2');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('issue 17 item 8: a long drag reports the whole swing, in plain degrees', async () => {
    const { page, problems } = await openPage(site, `chain.html?chain=${U}&thickness=1&joint=1`);
    const before = await points(page);
    const tip = await centre(page, 'tip-label');
    // up and away from the first arm, in many small steps
    await drag(page, tip, { x: tip.x + 40, y: tip.y - 260 }, 30);
    const P = await points(page);
    const d0 = [before[3][0] - before[2][0], before[3][1] - before[2][1], before[3][2] - before[2][2]];
    const d1 = [P[3][0] - P[2][0], P[3][1] - P[2][1], P[3][2] - P[2][2]];
    const cr = [d0[1] * d1[2] - d0[2] * d1[1], d0[2] * d1[0] - d0[0] * d1[2], d0[0] * d1[1] - d0[1] * d1[0]];
    const swing = (Math.atan2(Math.hypot(...cr), d0[0] * d1[0] + d0[1] * d1[1] + d0[2] * d1[2]) * 180) / Math.PI;
    const text = (await page.getByTestId('status').textContent())!;
    const m = /^Drag at joint 2: the segment swung ([\d.]+)° in all\.$/.exec(text);
    expect(m, text).not.toBeNull();
    expect(Number(m![1])).toBeCloseTo(swing, 3);
    expect(swing).toBeGreaterThan(20); // the whole drag, not its last step
    expect(text).not.toMatch(/e-\d/);
    expect(await page.getByTestId('fold').textContent()).not.toMatch(/e-\d/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('issue 17 item 8: ?chain= with unit segments gets a thickness relative to them (no blobs)', async () => {
    const { page, problems } = await openPage(site, 'chain.html?chain=0,0,0;1,0,0;1,1,0;2,1,0;2,2,0;3,2,0');
    expect(await page.getByTestId('thickness-out').textContent()).toBe('0.1');
    expect(await page.getByTestId('contacts').textContent()).toBe('0');
    expect(await page.getByTestId('status').textContent()).toMatch(/Loaded 5 segments from the URL \(thickness 0\.1\)/);
    await saveShot(page, 'chain-unit-segments');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('issue 18: a 100,000-segment chain is dragged by continuous folds on the tree and runs the pivot Monte Carlo live', async () => {
    const { page, problems } = await openPage(site, 'chain.html?big=100000&seed=3');
    expect(await page.getByTestId('segments').textContent()).toBe('100000');
    expect(await page.getByTestId('status').textContent()).toMatch(/held for pivots/);
    const before = await saved(page);
    expect(before.length).toBe(100_001);
    // a drag in the middle of the chain: each step one continuous fold (ChainFolder.fold on the held tree)
    const from = await centre(page, 'joint-label');
    const tipBefore = await centre(page, 'tip-label');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 90, from.y - 140, { steps: 12 });
    // while the drag holds, the head is a kept picture and only the tail is drawn; once let go,
    // the whole line is drawn again: the same image (the labels, which move, hidden)
    await page.addStyleTag({ content: '.tag3d { visibility: hidden }' });
    const split = await canvasShot(page);
    await page.mouse.up();
    const whole = await canvasShot(page);
    expect(await differentPixels(page, whole, split)).toBe(0);
    await page.addStyleTag({ content: '.tag3d { visibility: visible }' });
    const text = (await page.getByTestId('status').textContent())!;
    const m = /^Drag at joint (\d+): the segment swung ([\d.]+)° in all/.exec(text);
    expect(m, text).not.toBeNull();
    const k = Number(m![1]);
    expect(Number(m![2])).toBeGreaterThan(0); // through a dense walk the tail soon meets the head: it stops there
    expect(await page.getByTestId('fold-time').textContent()).toMatch(/^\d+(\.\d+)? ms \(fold\)$/);
    await assertFrameFigures(page);
    // the page read back only the turned part: vertices k + 1 … 100,000
    const read = await page.evaluate(() => ({ ...document.body.dataset }));
    expect(Number(read.readFrom)).toBe(k + 1);
    expect(Number(read.updated)).toBe(100_000 - k);
    const tipAfter = await centre(page, 'tip-label');
    expect(Math.hypot(tipAfter.x - tipBefore.x, tipAfter.y - tipBefore.y)).toBeGreaterThan(1); // the tail moved on screen
    // the page's pose (its Save) is a rigid fold of the chain at joint k, contact-free
    const after = await saved(page);
    expect(after.slice(0, k + 1)).toEqual(before.slice(0, k + 1));
    expect(after[100_000]).not.toEqual(before[100_000]);
    expectRigidAndFree(before, after);
    // the Monte Carlo: moves per second and the acceptance rate, live, and the chain redrawn every frame
    await page.getByTestId('mc').click();
    await page.waitForFunction(() => /[1-9][\d,]* moves\/s/.test(document.querySelector('[data-testid="mc-rate"]')!.textContent!), null, { timeout: 20_000 });
    const frames0 = Number(await page.evaluate(() => document.body.dataset.frames));
    await page.waitForTimeout(1500);
    const acc = (await page.getByTestId('mc-accept').textContent())!;
    const a = /^([\d.]+)% of ([\d,]+)$/.exec(acc);
    expect(a, acc).not.toBeNull();
    expect(Number(a![2].replaceAll(',', ''))).toBeGreaterThan(100);
    expect(Number(a![1])).toBeGreaterThan(50); // a thin random walk accepts nearly every move
    expect(Number(a![1])).toBeLessThanOrEqual(100);
    const rate = Number((await page.getByTestId('mc-rate').textContent())!.replace(/ moves\/s$/, '').replaceAll(',', ''));
    expect(rate).toBeGreaterThan(0);
    expect(rate).toBeLessThan(1e7);
    expect(Number(await page.evaluate(() => document.body.dataset.frames))).toBeGreaterThan(frames0 + 1); // drawn live
    await assertFrameFigures(page);
    console.log(`big chain (shared box under load): frame ${(await page.getByTestId('frame-time').textContent())!}; pivot Monte Carlo ${(await page.getByTestId('mc-rate').textContent())!}, accepted ${acc}`);
    await saveShot(page, 'chain-big-monte-carlo');
    await page.getByTestId('mc').click();
    expect(await page.getByTestId('mc').textContent()).toBe('Pivot Monte Carlo');
    expect(await page.getByTestId('status').textContent()).toMatch(/^Pivot Monte Carlo: [\d,]+ moves in [\d.]+ s, [\d.]+% accepted\.$/);
    const mc = await saved(page);
    expect(mc[100_000]).not.toEqual(after[100_000]);
    expectRigidAndFree(after, mc);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
