/**
 * `skewline explore` as a user runs it from a clone (the TypeScript source through tsx, as
 * bin/skewline.js does without a dist/): it builds the site if needed, serves it on 127.0.0.1,
 * prints the URL, serves the pages and nothing outside the site, and stops cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

/** A GET with node's http, with a chosen Host header: status and body. */
function get(port: number, path: string, host = `127.0.0.1:${port}`): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (s: string) => (body += s));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('skewline explore: the server under hostile requests (issue 19)', () => {
  // The server runs in its own process (as an unprivileged user when the tests run as root, so
  // that a mode-600 file is really unreadable to it), on a free port, serving a scratch site.
  let site = '';
  let port = 0;
  let server: ChildProcess | undefined;
  beforeAll(async () => {
    site = mkdtempSync(join(tmpdir(), 'skewline-serve-'));
    chmodSync(site, 0o755);
    writeFileSync(join(site, 'index.html'), '<p>skewline explorer</p>\n');
    writeFileSync(join(site, 'secret.txt'), 'not for you\n');
    chmodSync(site, 0o755);
    symlinkSync('/etc/passwd', join(site, 'passwd.txt'));
    symlinkSync('/etc', join(site, 'etc'));
    writeFileSync(join(site, 'readable.txt'), 'fine\n');
    symlinkSync(join(site, 'readable.txt'), join(site, 'inside-link.txt'));
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    // unreadable to the server: mode 000 (as root, the server runs as another user: root's
    // own reads ignore the mode)
    if (process.getuid?.() === 0) chownSync(join(site, 'secret.txt'), 0, 0);
    chmodSync(join(site, 'secret.txt'), 0o000);
    const code = `const { serveStatic } = await import(${JSON.stringify(join(REPO, 'cli', 'explore.ts'))}); const s = await serveStatic(${JSON.stringify(site)}, 0); console.log(s.url);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], ...asUser, env: { ...process.env, TSX_TSCONFIG_PATH: join(REPO, 'tsconfig.json') },
    });
    children.push(child);
    server = child;
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
    const url = await waitFor(() => {
      if (child.exitCode !== null) throw new Error(`the server exited: ${err}`);
      return /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)?.[1];
    }, 60_000);
    port = Number(url);
  }, 90_000);
  afterAll(() => {
    server?.kill('SIGKILL');
    rmSync(site, { recursive: true, force: true });
  });

  it('issue 19: a request for an unreadable file (EACCES) is answered 403 and the server lives on', async () => {
    expect((await get(port, '/secret.txt')).status).toBe(403);
    expect(server!.exitCode).toBe(null);
    const after = await get(port, '/');
    expect(after.status).toBe(200);
    expect(after.body).toContain('skewline explorer');
  });

  it('issue 19: a symbolic link inside the site to a file or folder outside it is not followed (404)', async () => {
    expect((await get(port, '/passwd.txt')).status).toBe(404);
    expect((await get(port, '/etc/passwd')).status).toBe(404);
    expect((await get(port, '/etc/hostname')).status).toBe(404);
    expect((await get(port, '/..%2f..%2fetc%2fpasswd')).status).toBe(404);
    expect((await get(port, '/%00')).status).toBe(400);
    // a link that stays inside the site is served
    expect(await get(port, '/inside-link.txt')).toEqual({ status: 200, body: 'fine\n' });
  });

  it('issue 19: a foreign Host header (DNS rebinding) is refused with 403; localhost, 127.0.0.1 and [::1] on its port are served', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1', `localhost.evil.example:${port}`]) {
      expect((await get(port, '/', host)).status, host).toBe(403);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await get(port, '/', host)).status, host).toBe(200);
    }
  });

  it('issue 19: binds to 127.0.0.1 only and answers 200 concurrent requests (good and bad mixed)', async () => {
    const paths = Array.from({ length: 200 }, (_, i) => ['/', '/secret.txt', '/passwd.txt', '/nope', '/readable.txt'][i % 5]);
    const want = [200, 403, 404, 404, 200];
    const got = await Promise.all(paths.map((p) => get(port, p)));
    got.forEach((r, i) => expect(r.status, paths[i]).toBe(want[i % 5]));
    expect(server!.exitCode).toBe(null);
    // not on another address of this machine
    const others = Object.values(networkInterfaces()).flat().filter((a) => a !== undefined && !a.internal && a.family === 'IPv4');
    for (const a of others) {
      await expect(new Promise((resolve, reject) => {
        const s = connect({ host: a!.address, port }, () => resolve('connected'));
        s.on('error', reject);
      })).rejects.toThrow(/ECONNREFUSED/);
    }
  });
});
