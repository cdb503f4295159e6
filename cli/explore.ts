/**
 * `skewline explore`: serves the explorer (the source documents' demos, see explorer/) on
 * 127.0.0.1 and prints its URL. In a clone it first builds the site with esbuild when it is
 * missing or older than its sources; an installed package serves the site it ships.
 */
import { existsSync } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { Io } from './closest.js';

/** What `skewline explore` was asked to do. */
export interface ExploreOptions {
  /** Port to listen on; 0 picks a free one. */
  port: number;
  /** Build even when the site looks current. */
  rebuild: boolean;
}

/** Default port (`--port` changes it; `--port 0` picks a free one). */
export const DEFAULT_PORT = 5317;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * A static file server for `dir` on 127.0.0.1:`port` (0: a free port). Resolves once listening,
 * with the server and its URL. What it serves and refuses:
 * - GET and HEAD only (405 otherwise); `/` and any folder path is its index.html;
 * - only regular files whose real path (symbolic links resolved) lies inside the real `dir`:
 *   a path that climbs out (`..`, `%2e%2e`) or a link inside `dir` that points outside it is 404,
 *   as is anything missing;
 * - only requests whose `Host` header names this server — `127.0.0.1`, `localhost` or `[::1]`
 *   with its port — so a page on another site cannot reach it by DNS rebinding (403);
 * - a file it may not read (EACCES) is 403, any other failure 500: one request never stops the
 *   server, and a read that fails after the headers went out ends only that response.
 */
export function serveStatic(dir: string, port: number): Promise<{ server: Server; url: string }> {
  const root = normalize(dir + sep);
  let realRoot: string | undefined;
  let hosts: Set<string> = new Set();
  const text = (res: ServerResponse, code: number, body: string): void => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
  };
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hosts.has((req.headers.host ?? '').toLowerCase())) {
      text(res, 403, 'forbidden: this server answers only to 127.0.0.1, localhost and [::1] on its own port\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      text(res, 400, 'bad request\n');
      return;
    }
    if (path.includes('\0')) {
      text(res, 400, 'bad request\n');
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    const notFound = (): void => text(res, 404, `not found: ${path}\n`);
    const file = normalize(join(root, path));
    if (!file.startsWith(root)) return notFound();
    let real: string;
    let size: number;
    try {
      realRoot ??= (await realpath(root)) + sep;
      real = await realpath(file);
      if (!real.startsWith(realRoot)) return notFound(); // a link out of the site
      const st = await stat(real);
      if (!st.isFile()) return notFound();
      size = st.size;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return notFound();
      text(res, code === 'EACCES' || code === 'EPERM' ? 403 : 500, code === 'EACCES' || code === 'EPERM' ? `forbidden: ${path}\n` : 'internal error\n');
      return;
    }
    // Open before answering, so that an unreadable file is a 403 and not a broken 200.
    let fh: FileHandle;
    try {
      fh = await open(real, 'r');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      text(res, code === 'EACCES' || code === 'EPERM' ? 403 : 500, code === 'EACCES' || code === 'EPERM' ? `forbidden: ${path}\n` : 'internal error\n');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(real)] ?? 'application/octet-stream',
      'content-length': size,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    if (req.method === 'HEAD') {
      await fh.close();
      res.end();
      return;
    }
    const stream = fh.createReadStream();
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  };
  const server = createServer((req, res) => {
    answer(req, res).catch(() => text(res, 500, 'internal error\n'));
  });
  server.on('clientError', (_e, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const addr = server.address();
      const p = typeof addr === 'object' && addr !== null ? addr.port : port;
      hosts = new Set([`127.0.0.1:${p}`, `localhost:${p}`, `[::1]:${p}`, ...(p === 80 ? ['127.0.0.1', 'localhost', '[::1]'] : [])]);
      resolve({ server, url: `http://127.0.0.1:${p}/` });
    });
  });
}

/**
 * Runs the command: builds the site if needed, serves it, prints the URL, and resolves with the
 * exit code when the server stops (SIGINT/SIGTERM: 0) or cannot start (1).
 * @param root the package root (the repository in a clone).
 */
export async function runExplore(opts: ExploreOptions, io: Io, root: string): Promise<number> {
  const site = join(root, 'explorer', 'dist');
  const sources = existsSync(join(root, 'explorer', 'src'));
  if (sources) {
    let builder: typeof import('../scripts/build-explorer.js');
    try {
      builder = await import('../scripts/build-explorer.js');
    } catch (e) {
      io.stderr.write(`skewline explore: cannot load the explorer's build script (${(e as Error).message}); run 'npm ci' first\n`);
      return 1;
    }
    if (opts.rebuild || builder.needsBuild(site)) {
      io.stderr.write('skewline explore: building the explorer (esbuild)…\n');
      try {
        await builder.buildExplorer({ outdir: site });
      } catch (e) {
        io.stderr.write(`skewline explore: the build failed: ${(e as Error).message}\n`);
        return 1;
      }
    }
  }
  if (!existsSync(join(site, 'index.html'))) {
    io.stderr.write(`skewline explore: no explorer site at ${site} (this package was published without it; run 'npm run build:explorer' in a clone)\n`);
    return 1;
  }
  let served: { server: Server; url: string };
  try {
    served = await serveStatic(site, opts.port);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    io.stderr.write(
      code === 'EADDRINUSE'
        ? `skewline explore: port ${opts.port} is in use; pick another with --port N, or --port 0 for a free one\n`
        : `skewline explore: cannot listen on 127.0.0.1:${opts.port}: ${(e as Error).message}\n`,
    );
    return 1;
  }
  io.stdout.write(`skewline explorer: ${served.url}\n  segments  ${served.url}segments.html\n  chain     ${served.url}chain.html\n  kicker    ${served.url}kicker.html\n(Ctrl-C to stop)\n`);
  return new Promise<number>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      served.server.close(() => resolve(0));
      served.server.closeAllConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
