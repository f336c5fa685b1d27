// A tiny static server (node:http) for the built playground: `pnpm --filter playground serve
// [port]` serves dist/ on 127.0.0.1. It sends the COOP/COEP headers that make the page
// cross-origin isolated (what a multi-threaded cpu pool needs; see README.md).
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
};

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Serves `dir` on 127.0.0.1:`port` (0: a free port); resolves once it listens. */
export function serve(dir: string, port = 0): Promise<Served> {
  const root = resolve(dir);
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'cross-origin-opener-policy': 'same-origin',
          'cross-origin-embedder-policy': 'require-corp',
          'cache-control': 'no-store',
        });
        res.end(body);
      },
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address() as AddressInfo;
      resolvePromise({
        url: `http://127.0.0.1:${actual}/`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  const served = await serve(dir, Number(process.argv[2] ?? 8080));
  console.log(`playground: serving ${dir} at ${served.url} (Ctrl-C stops)`);
}
