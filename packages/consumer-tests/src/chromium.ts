// Browser pages for the specs: a static server for a folder, with or without the headers that
// make a page cross-origin isolated, and Debian's headless Chromium (/usr/bin/chromium, which
// .ci/run installs, as for apps/playground) driven by puppeteer-core.
import { readFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

const CHROMIUM = '/usr/bin/chromium';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
};

/** The headers that make a page cross-origin isolated (SharedArrayBuffer, Note [Pool on the web] in tensor). */
const ISOLATION = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Serves `dir` on a free port of 127.0.0.1, with the isolation headers when `isolated`. */
export function serveDir(dir: string, isolated: boolean): Promise<Served> {
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
          'cache-control': 'no-store',
          ...(isolated ? ISOLATION : {}),
        });
        res.end(body);
      },
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      done({
        url: `http://127.0.0.1:${port}/`,
        close: () =>
          new Promise<void>((closed) => {
            server.closeAllConnections();
            server.close(() => closed());
          }),
      });
    });
  });
}

/** A page that loads `scripts` (with an empty icon, so no request fails for /favicon.ico). */
export function pageHtml(title: string, scripts: string): string {
  return `<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n<link rel="icon" href="data:,">\n${scripts}\n</head>\n</html>\n`;
}

export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
}

export interface PageResult {
  /** the JSON the page printed with console.log */
  json: unknown;
  /** console errors, uncaught errors and failed requests, in order */
  errors: string[];
}

/**
 * Opens `url` and resolves with the first JSON line the page prints with console.log; rejects
 * with what went wrong when it throws first, or prints nothing in `timeoutMs`.
 */
export async function pageJson(browser: Browser, url: string, timeoutMs = 120_000): Promise<PageResult> {
  const page = await browser.newPage();
  const errors: string[] = [];
  try {
    const json = await new Promise<unknown>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`${url} printed no JSON in ${timeoutMs} ms; errors: ${errors.join(' | ')}`)),
        timeoutMs,
      );
      const finish = (f: () => void): void => {
        clearTimeout(timer);
        f();
      };
      page.on('console', (msg) => {
        const text = msg.text();
        if (msg.type() === 'error') errors.push(text);
        else if (text.startsWith('{')) finish(() => done(JSON.parse(text) as unknown));
      });
      page.on('pageerror', (err) => {
        errors.push(`pageerror: ${String(err)}`);
        finish(() => fail(new Error(`${url} threw: ${String(err)}`)));
      });
      page.on('requestfailed', (req) => errors.push(`requestfailed: ${req.url()}`));
      page.goto(url).then(
        (response) => {
          if (response?.status() !== 200) finish(() => fail(new Error(`${url}: HTTP ${response?.status()}`)));
        },
        (e: unknown) => finish(() => fail(e as Error)),
      );
    });
    return { json, errors };
  } finally {
    await page.close();
  }
}
