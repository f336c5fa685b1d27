// The spec's harness: builds the app with Vite into a temporary folder, serves it with Vite's preview
// server (the COOP/COEP headers of vite.config.ts) on a free port, and opens pages in Debian's
// headless Chromium through puppeteer-core (no browser download), collecting console errors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type HTTPResponse, type Page } from 'puppeteer-core';
import { build, preview, type PreviewServer } from 'vite';

const CHROMIUM = '/usr/bin/chromium';
const CONFIG = fileURLToPath(new URL('../vite.config.ts', import.meta.url));

export interface Harness {
  browser: Browser;
  url: string;
  /** console errors, page errors and failed requests of every page opened */
  errors: string[];
  open(path: string): Promise<{ page: Page; response: HTTPResponse | null }>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const outDir = mkdtempSync(join(tmpdir(), 'wiregrad-playground-'));
  let server: PreviewServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    try {
      await browser?.close();
    } finally {
      await server?.close();
      rmSync(outDir, { recursive: true, force: true });
    }
  };
  try {
    await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    server = await preview({
      configFile: CONFIG,
      logLevel: 'warn',
      build: { outDir },
      preview: { port: 0, host: '127.0.0.1', strictPort: false, open: false },
    });
    const url = server.resolvedUrls?.local[0];
    if (!url) throw new Error('the preview server reports no url');
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
    });
    const errors: string[] = [];
    const open = async (path: string) => {
      const page = await browser!.newPage();
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`${msg.text()} (${msg.location().url ?? ''})`);
      });
      page.on('pageerror', (err) => errors.push(`pageerror: ${String(err)}`));
      page.on('requestfailed', (req) => errors.push(`requestfailed: ${req.url()}`));
      const response = await page.goto(new URL(path, url).href, { waitUntil: 'load' });
      return { page, response };
    };
    return { browser, url, errors, open, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Waits until `done` holds in the page; on timeout fails with the page's state and the console errors. */
export async function waitInPage(page: Page, done: string, state: string, errors: string[], timeout: number) {
  try {
    await page.waitForFunction(done, { timeout, polling: 200 });
  } catch (e) {
    const seen = await page.evaluate(state).catch(() => 'unreadable');
    throw new Error(`the page did not finish: ${JSON.stringify(seen)}; console errors: ${errors.join(' | ')}`, {
      cause: e,
    });
  }
}
