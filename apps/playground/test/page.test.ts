// End to end: builds the playground with Vite, serves it with Vite's preview server and drives it
// in headless Chromium (Debian's `chromium`, installed by .ci/run) through its own controls: every
// setting, the input validation, play/pause/step/reset, training on both devices in lockstep
// (gpu.js in WebGL2 mode on SwiftShader), a shared link, a screenshot; then the repository's gpu
// parity specs in the parity page (Note [Parity specs in the browser]). The steps share one page
// and run in order.
import { writeFileSync } from 'node:fs';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaygroundState } from '../src/main.js';
import type { ParityReport } from '../src/parity/main.js';
import { DEFAULTS, type Field, POINTS, type Settings, toQuery } from '../src/settings.js';
import { type Harness, startHarness, waitInPage } from './browser.js';
import { colourCounts } from './pixels.js';

const state = (page: Page): Promise<PlaygroundState> => page.evaluate(() => window.playground);
const shown = (page: Page, id: string) => page.$eval(`#${id}`, (el) => el.textContent ?? '');

/** Sets a control's text as a user would leave it (a `change` event). */
async function setControl(page: Page, field: Field, text: string): Promise<void> {
  await page.$eval(
    `#${field}`,
    (el, value) => {
      const control = el as HTMLInputElement | HTMLSelectElement;
      control.value = value;
      control.dispatchEvent(new Event('change'));
    },
    text,
  );
}

describe('the playground in headless Chromium', () => {
  let h: Harness;
  let page: Page;
  let headers: Record<string, string> = {};
  const settled = (p: Page, more = '') =>
    waitInPage(p, `!window.playground.busy ${more}`, 'window.playground', h.errors, 240_000);

  beforeAll(async () => {
    h = await startHarness();
    const opened = await h.open('/');
    page = opened.page;
    await page.setViewport({ width: 1100, height: 900 });
    expect(opened.response?.status()).toBe(200);
    headers = opened.response?.headers() ?? {};
    await settled(page);
  }, 600_000);

  afterAll(async () => {
    await h?.close();
  });

  it('is served cross-origin isolated, opens with the default settings in the controls and the URL', async () => {
    expect(await page.title()).toBe('wiregrad playground');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['cross-origin-embedder-policy']).toBe('require-corp');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    const s = await state(page);
    expect(s).toMatchObject({ settings: DEFAULTS, invalid: {}, step: 0, playing: false, error: null });
    expect(await shown(page, 'status')).toBe('ready');
    expect(await page.$eval('#hidden', (el) => (el as HTMLInputElement).value)).toBe('8,8');
    expect(await page.$eval('#learningRate', (el) => (el as HTMLInputElement).value)).toBe('0.03');
    expect(await page.evaluate(() => location.search)).toBe(toQuery(DEFAULTS));
    expect(await page.$eval('#share', (el) => (el as HTMLAnchorElement).href)).toBe(page.url());
    // the boundary of the untrained model is drawn at once
    expect(s.boundaryDraws).toBe(1);
    expect(h.errors).toEqual([]);
  });

  it.each([
    ['dataset', 'xor', 'xor'],
    ['noise', '0.2', 0.2],
    ['trainPercent', '60', 60],
    ['hidden', '6, 4', [6, 4]],
    ['activation', 'relu', 'relu'],
    ['learningRate', '0.05', 0.05],
    ['batchSize', '20', 20],
    ['l2', '0.001', 0.001],
    ['seed', '7', 7],
    ['device', 'gpu', 'gpu'],
    ['device', 'cpu', 'cpu'],
  ] as const)('takes %s = "%s" into the settings and the URL, and starts over', async (field, text, value) => {
    await page.click('#step');
    await setControl(page, field, text);
    await settled(page, '&& window.playground.step === 0');
    const s = await state(page);
    expect(s.settings[field]).toEqual(value);
    expect(s.invalid).toEqual({});
    expect(await page.$eval(`#${field}`, (el) => el.getAttribute('aria-invalid'))).toBe('false');
    expect(new URLSearchParams(await page.evaluate(() => location.search)).get(field)).toBe(
      Array.isArray(value) ? value.join(',') : String(value),
    );
    expect(await page.$eval('#share', (el) => (el as HTMLAnchorElement).href)).toBe(page.url());
  });

  it.each([
    ['batchSize', '-5', `a whole number from 1 to ${POINTS} (got -5)`],
    ['batchSize', 'abc', `a whole number from 1 to ${POINTS} (got "abc")`],
    ['learningRate', '', 'a number from 0.00001 to 10 (got "")'],
    ['hidden', '8, x', 'hidden layer 2: a whole number from 1 to 32 (got "x")'],
    ['noise', '0.9', 'a number from 0 to 0.5 (got 0.9)'],
  ] as const)('refuses %s = "%s": says why beside it, and waits for a valid value', async (field, text, error) => {
    const before = await state(page);
    const url = page.url();
    await page.$eval(`#${field}`, (el) => ((el as HTMLInputElement).value = ''));
    // typed in: marked as it is typed, before it is left
    await page.type(`#${field}`, text);
    if (text === '') await page.$eval(`#${field}`, (el) => el.dispatchEvent(new Event('input')));
    expect(await shown(page, `${field}-error`)).toBe(error);
    expect(await page.$eval(`#${field}`, (el) => el.getAttribute('aria-invalid'))).toBe('true');
    expect(await shown(page, 'status')).toBe(`fix ${field} to train`);
    expect(await page.$eval('#play', (el) => (el as HTMLButtonElement).disabled)).toBe(true);
    expect(await page.$eval('#step', (el) => (el as HTMLButtonElement).disabled)).toBe(true);
    const after = await state(page);
    expect(after.settings).toEqual(before.settings);
    expect(after.invalid).toEqual({ [field]: error });
    expect(page.url()).toBe(url);
    // the setting's own value again: the error goes, nothing restarts
    await setControl(page, field, String(before.settings[field]));
    expect(await shown(page, `${field}-error`)).toBe('');
    expect((await state(page)).invalid).toEqual({});
    expect(await page.$eval('#play', (el) => (el as HTMLButtonElement).disabled)).toBe(false);
  });

  it('steps, plays with the boundary redrawn as it trains, pauses, and resets', async () => {
    await page.click('#step');
    await page.click('#step');
    let s = await state(page);
    expect(s.step).toBe(2);
    expect(s.curves.cpu?.train).toHaveLength(2);
    expect(await shown(page, 'step-count')).toBe('2');
    const draws = s.boundaryDraws;
    await page.click('#play');
    expect(await shown(page, 'play')).toBe('pause');
    await waitInPage(page, 'window.playground.step >= 80', 'window.playground', h.errors, 120_000);
    expect((await state(page)).playing).toBe(true);
    await page.click('#play');
    s = await state(page);
    expect(s.playing).toBe(false);
    expect(await shown(page, 'status')).toBe('paused');
    // redrawn between bursts of steps while it played, not only at the end
    expect(s.boundaryDraws - draws).toBeGreaterThan(3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await state(page)).step).toBe(s.step);
    const { train, test } = s.curves.cpu!;
    expect(train).toHaveLength(s.step);
    expect(test).toHaveLength(s.step);
    expect(train.at(-1)).toBeLessThan(train[0]!);
    expect(test.every(Number.isFinite)).toBe(true);
    expect(Number(await shown(page, 'train-loss'))).toBeCloseTo(train.at(-1)!, 3);
    expect(Number(await shown(page, 'test-loss'))).toBeCloseTo(test.at(-1)!, 3);
    expect(await shown(page, 'accuracy')).toMatch(/^\d+\.\d% \/ \d+\.\d%$/);
    await page.click('#reset');
    await settled(page, '&& window.playground.step === 0');
    s = await state(page);
    expect(s.curves).toEqual({ cpu: { train: [], test: [] } });
    expect(await shown(page, 'status')).toBe('ready');
  });

  let both: PlaygroundState;
  let screenshot: Uint8Array = new Uint8Array();

  it('trains on both devices in lockstep: the same curves to float32 rounding, and their difference shown', async () => {
    await setControl(page, 'device', 'both');
    await settled(page, '&& window.playground.step === 0');
    await page.click('#play');
    await waitInPage(page, 'window.playground.step >= 20', 'window.playground', h.errors, 240_000);
    await page.click('#play');
    both = await state(page);
    const { cpu, gpu } = both.curves;
    expect(gpu?.train).toHaveLength(both.step);
    expect(cpu?.train).toHaveLength(both.step);
    const rel = (a: number[], b: number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i]!) / (1 + Math.abs(b[i]!))));
    // the same weights, data and batches: float32 rounding only, compounding slowly over the steps
    expect(rel(gpu!.train, cpu!.train)).toBeLessThan(1e-5);
    expect(rel(gpu!.test, cpu!.test)).toBeLessThan(1e-5);
    expect(both.largestDifference).not.toBeNull();
    expect(both.largestDifference).toBeLessThan(1e-4);
    expect(Number(await shown(page, 'difference'))).toBeCloseTo(both.largestDifference!, 6);
    expect(both.gpu).toMatchObject({ available: true, mode: 'webgl2', accelerated: true });
    expect(await shown(page, 'gpu-mode')).toBe('webgl2');
    expect(await shown(page, 'gpu-backend')).toMatch(/SwiftShader/);
    expect(both.error).toBeNull();
    expect(h.errors).toEqual([]);
    screenshot = await page.screenshot({ type: 'png', fullPage: true });
    // PLAYGROUND_SCREENSHOT=path keeps the picture (README.md's is one)
    if (process.env.PLAYGROUND_SCREENSHOT) writeFileSync(process.env.PLAYGROUND_SCREENSHOT, screenshot);
  });

  it("shows the boundary, both devices' curves and their difference in the screenshot", async () => {
    expect([...screenshot.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const count = (id: string) => colourCounts(page, screenshot, id);
    const boundary = await count('boundary');
    const loss = await count('loss-chart');
    const difference = await count('difference-chart');
    // both classes' colours in the boundary's picture, the cpu (blue) and gpu (orange) curves in the chart
    expect(boundary.orange).toBeGreaterThan(500);
    expect(boundary.blue).toBeGreaterThan(500);
    expect(loss.cpuLine).toBeGreaterThan(100);
    expect(loss.gpuLine).toBeGreaterThan(100);
    expect(difference.purple).toBeGreaterThan(100);
  });

  it('opens a shared link with its settings, and marks a bad value in it', async () => {
    const shared: Settings = { ...DEFAULTS, dataset: 'spirals', hidden: [16, 16, 8], activation: 'relu', seed: 3 };
    const opened = await h.open(`/${toQuery(shared)}`);
    await settled(opened.page);
    expect((await state(opened.page)).settings).toEqual(shared);
    expect(await opened.page.$eval('#dataset', (el) => (el as HTMLSelectElement).value)).toBe('spirals');
    expect(await opened.page.$eval('#hidden', (el) => (el as HTMLInputElement).value)).toBe('16,16,8');
    const bad = await h.open('/?dataset=moons&noise=0.3');
    await settled(bad.page);
    const s = await state(bad.page);
    expect(s.settings).toEqual({ ...DEFAULTS, noise: 0.3 });
    expect(s.invalid).toEqual({ dataset: 'one of circles, xor, spirals, gaussians (got "moons")' });
    expect(await shown(bad.page, 'dataset-error')).toBe(s.invalid.dataset);
    expect(await shown(bad.page, 'status')).toBe('fix dataset to train');
    await bad.page.close();
    await opened.page.close();
  });

  it("runs the repository's gpu parity specs in the page, on WebGL2, and they all pass", async () => {
    const parityPage = await h.open('/parity.html');
    await waitInPage(parityPage.page, 'window.parity.done', 'window.parity', h.errors, 400_000);
    const parity: ParityReport = await parityPage.page.evaluate(() => window.parity);
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
  }, 600_000);
});
