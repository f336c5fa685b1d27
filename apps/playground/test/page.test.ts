// End to end: builds the playground, serves it on a free port of 127.0.0.1 and opens it in
// headless Chromium (Debian's `chromium`, installed by .ci/run; driven by puppeteer-core, no
// browser download). The page trains its MLP on the cpu device; the spec reads the page's
// published results and checks the loss fell, the accuracy, and that the console stayed clean.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.js';
import type { PlaygroundResult } from '../src/main.js';
import { type Served, serve } from '../src/serve.js';

const CHROMIUM = '/usr/bin/chromium';

describe('the playground page in headless Chromium', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'wiregrad-playground-'));
  let served: Served | undefined;
  let browser: Browser | undefined;
  const consoleErrors: string[] = [];
  let result: PlaygroundResult;
  let title = '';
  let shown: Record<string, string> = {};
  let screenshot: Uint8Array = new Uint8Array();

  beforeAll(async () => {
    await build(outDir);
    served = await serve(outDir);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
    });
    const page = await browser.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(`${msg.text()} (${msg.location().url ?? ''})`);
    });
    page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${String(err)}`));
    page.on('requestfailed', (req) => consoleErrors.push(`requestfailed: ${req.url()}`));
    const response = await page.goto(served.url, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    try {
      await page.waitForFunction(() => window.playground?.done === true, { timeout: 90_000 });
    } catch (e) {
      const state = await page.evaluate(() => JSON.stringify(window.playground)).catch(() => 'unreadable');
      throw new Error(`the page did not finish: ${state}; console errors: ${consoleErrors.join(' | ')}`, { cause: e });
    }
    screenshot = await page.screenshot({ type: 'png' });
    result = await page.evaluate(() => window.playground);
    title = await page.title();
    shown = await page.evaluate(() =>
      Object.fromEntries(
        ['status', 'step', 'loss', 'accuracy', 'gpu-mode'].map((id) => [
          id,
          document.getElementById(id)?.textContent ?? '',
        ]),
      ),
    );
  });

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await served?.close();
      rmSync(outDir, { recursive: true, force: true });
    }
  });

  it('loads without console errors and finishes training', () => {
    expect(title).toBe('wiregrad playground');
    expect(result.error).toBeNull();
    expect(consoleErrors).toEqual([]);
    expect(result.steps).toBe(150);
    expect(shown.status).toBe('done');
    expect(shown.step).toBe('150');
    // a PNG of the page as it ended (README.md's picture is one)
    expect([...screenshot.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(screenshot.length).toBeGreaterThan(10_000);
  });

  it('the loss fell', () => {
    const { losses } = result;
    expect(losses).toHaveLength(150);
    for (const l of losses) expect(Number.isFinite(l)).toBe(true);
    const first = losses[0] ?? NaN;
    const last = losses[losses.length - 1] ?? NaN;
    // two balanced classes: cross-entropy starts near ln 2
    expect(first).toBeGreaterThan(0.5);
    expect(last).toBeLessThan(0.2);
    expect(last).toBeLessThan(first / 3);
    expect(Number(shown.loss)).toBeCloseTo(last, 3);
  });

  it('classifies the training rings with accuracy above 95%', () => {
    expect(result.accuracy).toBeGreaterThan(0.95);
    expect(shown.accuracy).toMatch(/^\d+\.\d%$/);
    expect(result.stepsPerSecond).toBeGreaterThan(0);
  });

  it('runs ops on the gpu device in WebGL2 mode (gpu.js on SwiftShader) that agree with the cpu', () => {
    expect(result.gpu?.mode).toBe('webgl2');
    expect(shown['gpu-mode']).toBe('webgl2');
    const ops = result.gpu?.ops ?? {};
    expect(Object.keys(ops).sort()).toEqual(['add+mul', 'exp,tanh', 'matmul', 'softmax', 'sum(1)']);
    // float32 on both devices: the differences are rounding, a few ulps of the results
    for (const [op, diff] of Object.entries(ops)) expect({ op, diff: diff < 1e-4 }).toEqual({ op, diff: true });
  });
});
