/**
 * `skewline explore` as a user runs it from a clone (the TypeScript source through tsx, as
 * bin/skewline.js does without a dist/): it builds the site if needed, serves it on 127.0.0.1,
 * prints the URL, serves the pages and nothing outside the site, and stops cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

function start(args: string[]): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/skewline.ts', 'explore', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '', err = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
  const exit = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function waitFor<T>(f: () => T | undefined, ms: number): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('skewline explore', () => {
  it('--port 0 serves the site on a free port, prints the URL, and stops on SIGTERM', async () => {
    const run = start(['--port', '0']);
    const url = await waitFor(() => /http:\/\/127\.0\.0\.1:(\d+)\//.exec(run.out())?.[0], 90_000);
    expect(url).not.toMatch(/:0\//);
    const index = await fetch(url);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    expect(await index.text()).toContain('skewline explorer');
    for (const page of ['segments', 'chain', 'kicker']) {
      const html = await fetch(`${url}${page}.html`);
      expect(html.status, page).toBe(200);
      const js = await fetch(`${url}${page}.js`);
      expect(js.status, `${page}.js`).toBe(200);
      expect(js.headers.get('content-type')).toMatch(/javascript/);
    }
    expect((await fetch(`${url}style.css`)).status).toBe(200);
    // nothing outside the site
    expect((await fetch(`${url}..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${url}%2e%2e/%2e%2e/package.json`)).status).toBe(404);
    expect((await fetch(`${url}nope.html`)).status).toBe(404);
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  }, 120_000);

  it('says so when the port is taken, and rejects a bad --port', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = start(['--port', String(port)]);
      expect(await run.exit).toBe(1);
      expect(run.err()).toMatch(new RegExp(`port ${port} is in use.*--port 0`));
    } finally {
      blocker.close();
    }
    const bad = start(['--port', 'http']);
    expect(await bad.exit).toBe(2);
    expect(bad.err()).toMatch(/--port must be an integer/);
    const help = start(['--help']);
    expect(await help.exit).toBe(0);
    expect(help.out()).toMatch(/Usage: skewline explore/);
  }, 120_000);
});
