// Vite and webpack, with their defaults for browsers and no polyfill, bundle programs that use
// tensor, autograd and nn (the `browser` condition picks each package's platform module): no
// `node:` module and no warning, and the pages print in Chromium what the programs print on
// Node. esbuild's browser bundles are browser.test.ts's.
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildPage } from './bundlers.js';
import { launchChromium, pageJson, serveDir } from './chromium.js';
import { program } from './programs.js';
import { nodeSpecifiers } from './run.js';

const consumer = inject('consumerDir');

describe.each(['vite', 'webpack'] as const)('%s builds a page of each program', (bundler) => {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(['tensorMatmul', 'autogradFit', 'nnTrain'])(
    '%s: no node: module, no warning, and in Chromium it prints what it prints on Node',
    async (name) => {
      const page = await buildPage(bundler, consumer, name, `page-${bundler}`);
      expect(page.warnings).toEqual([]);
      expect(page.scripts.length).toBeGreaterThan(0);
      expect(page.scripts.flatMap(nodeSpecifiers)).toEqual([]);
      // the whole library is in it (about 100 KB minified and more), not a stub
      expect(page.scripts.join('').length).toBeGreaterThan(50_000);
      const served = await serveDir(page.dir, false);
      try {
        const { json, errors } = await pageJson(browser!, served.url);
        expect(errors).toEqual([]);
        program(name).check(json);
      } finally {
        await served.close();
      }
    },
  );
});
