/**
 * `skewline explore`: serves the explorer (the source documents' demos, see explorer/) on
 * 127.0.0.1 and prints its URL. In a clone it first builds the site with esbuild when it is
 * missing or older than its sources; an installed package serves the site it ships.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
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
 * A static file server for `dir` on 127.0.0.1:`port` (0: a free port). Serves GET and HEAD of
 * files inside `dir` only (`/` is index.html); anything else is 404 or 405. Resolves once
 * listening, with the server and its URL.
 */
export function serveStatic(dir: string, port: number): Promise<{ server: Server; url: string }> {
  const root = normalize(dir + sep);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(root, path));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${path}\n`);
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': statSync(file).size,
      'cache-control': 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const addr = server.address();
      const p = typeof addr === 'object' && addr !== null ? addr.port : port;
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
