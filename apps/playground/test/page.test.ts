// End to end: builds the playground with Vite, serves it with Vite's preview server and drives it
// in headless Chromium (Debian's `chromium`, installed by .ci/run): trains on the cpu, then on the
// gpu device (gpu.js in WebGL2 mode on SwiftShader) through the page's own controls, and runs the
// repository's gpu parity specs in the parity page (Note [Parity specs in the browser]).
import { writeFileSync } from 'node:fs';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParityReport } from '../src/parity/main.js';
import type { PlaygroundState, Run } from '../src/main.js';
import { type Harness, startHarness, waitInPage } from './browser.js';

const STEPS = 120;

async function trainOn(page: Page, device: 'cpu' | 'gpu', errors: string[]): Promise<Run> {
  const before = await page.evaluate(() => window.playground.runs.length);
  await page.select('#device', device);
  await page.$eval('#steps', (el, n) => ((el as HTMLInputElement).value = String(n)), STEPS);
  await page.click('#train');
  await waitInPage(
    page,
    `window.playground.runs.length > ${before} || window.playground.error !== null`,
    'window.playground',
    errors,
    240_000,
  );
  const state = await page.evaluate(() => window.playground);
  if (state.error) throw new Error(`training on ${device} failed: ${state.error}`);
  return state.runs[before]!;
}

/** The largest |a - b| / (1 + |b|) over two loss curves. */
const maxRelDiff = (a: readonly number[], b: readonly number[]) =>
  Math.max(...a.map((v, i) => Math.abs(v - b[i]!) / (1 + Math.abs(b[i]!))));

describe('the playground in headless Chromium', () => {
  let h: Harness;
  let headers: Record<string, string> = {};
  let isolated = false;
  let title = '';
  let cpu: Run;
  let gpu: Run;
  let state: PlaygroundState;
  let shown: Record<string, string> = {};
  let screenshot: Uint8Array = new Uint8Array();
  let parity: ParityReport;

  beforeAll(async () => {
    h = await startHarness();
    const { page, response } = await h.open('/');
    expect(response?.status()).toBe(200);
    headers = response?.headers() ?? {};
    title = await page.title();
    isolated = await page.evaluate(() => crossOriginIsolated);
    cpu = await trainOn(page, 'cpu', h.errors);
    gpu = await trainOn(page, 'gpu', h.errors);
    state = await page.evaluate(() => window.playground);
    shown = await page.evaluate(() =>
      Object.fromEntries(
        ['status', 'run-device', 'step', 'loss', 'accuracy', 'rate', 'gpu-mode', 'gpu-backend'].map((id) => [
          id,
          document.getElementById(id)?.textContent ?? '',
        ]),
      ),
    );
    screenshot = await page.screenshot({ type: 'png', fullPage: true });
    // PLAYGROUND_SCREENSHOT=path keeps the picture (README.md's is one)
    if (process.env.PLAYGROUND_SCREENSHOT) writeFileSync(process.env.PLAYGROUND_SCREENSHOT, screenshot);
    const parityPage = await h.open('/parity.html');
    await waitInPage(parityPage.page, 'window.parity.done', 'window.parity', h.errors, 400_000);
    parity = await parityPage.page.evaluate(() => window.parity);
  }, 600_000);

  afterAll(async () => {
    await h?.close();
  });

  it('is served cross-origin isolated and loads without console errors', () => {
    expect(title).toBe('wiregrad playground');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['cross-origin-embedder-policy']).toBe('require-corp');
    expect(isolated).toBe(true);
    expect(h.errors).toEqual([]);
    expect(state.error).toBeNull();
    // a PNG of the page after both runs
    expect([...screenshot.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(screenshot.length).toBeGreaterThan(10_000);
  });

  it.each([
    ['cpu', () => cpu],
    ['gpu', () => gpu],
  ] as const)('trains on the %s device: every step ran, the loss fell, the rings are separated', (device, run) => {
    const { losses, accuracy, stepsPerSecond } = run();
    expect(run().device).toBe(device);
    expect(losses).toHaveLength(STEPS);
    for (const l of losses) expect(Number.isFinite(l)).toBe(true);
    // two balanced classes: cross-entropy starts near ln 2
    expect(losses[0]).toBeGreaterThan(0.5);
    expect(losses[STEPS - 1]).toBeLessThan(losses[0]! / 3);
    expect(accuracy).toBeGreaterThan(0.95);
    expect(stepsPerSecond).toBeGreaterThan(0);
  });

  it('shows the last run: device, steps, loss, accuracy, steps/s', () => {
    expect(shown.status).toBe('done');
    expect(shown['run-device']).toBe('gpu');
    expect(shown.step).toBe(String(STEPS));
    expect(Number(shown.loss)).toBeCloseTo(gpu.losses[STEPS - 1]!, 3);
    expect(shown.accuracy).toMatch(/^\d+\.\d%$/);
    expect(Number(shown.rate)).toBeGreaterThan(0);
  });

  it('runs the gpu device in WebGL2 mode on SwiftShader and says so', () => {
    expect(state.gpu).toMatchObject({ available: true, mode: 'webgl2', accelerated: true });
    expect(shown['gpu-mode']).toBe('webgl2');
    expect(shown['gpu-backend']).toMatch(/SwiftShader/);
  });

  it('gives the same losses on the cpu and the gpu to float32 tolerance (same seed, same start)', () => {
    // the same weights and data: the first loss differs by float32 rounding only
    expect(Math.abs(gpu.losses[0]! - cpu.losses[0]!)).toBeLessThan(1e-5);
    // rounding differences compound over the steps, slowly (measured: 2e-7 at most over 120 steps)
    expect(maxRelDiff(gpu.losses, cpu.losses)).toBeLessThan(1e-5);
    expect(Math.abs(gpu.accuracy - cpu.accuracy)).toBeLessThanOrEqual(0.01);
  });

  it("runs the repository's gpu parity specs in the page, on WebGL2, and they all pass", () => {
    expect(parity.error).toBeNull();
    expect(parity.mode).toBe('webgl2');
    expect(parity.files.sort()).toEqual(
      expect.arrayContaining([
        'packages/tensor/src/backends/gpu/opParity.test.ts',
        'packages/tensor/src/backends/gpu/windowParity.test.ts',
        'packages/autograd/src/gradients/gpuParity.test.ts',
        'packages/autograd/src/gradients/conv.gpuParity.test.ts',
      ]),
    );
    expect(parity.results.length).toBeGreaterThan(50);
    expect(parity.results.filter((r) => !r.ok)).toEqual([]);
    expect(h.errors).toEqual([]);
  });
});
