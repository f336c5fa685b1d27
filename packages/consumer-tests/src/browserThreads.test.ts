// The cpu kernels in Chromium (Note [Pool on the web] in tensor): a cross-origin-isolated page
// runs them on a pool of Web Workers sharing the WebAssembly memory, a page without isolation
// on its one thread, and both give the bytes Node gives, split for the same 4 threads.
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, pageHtml, pageJson, serveDir } from './chromium.js';
import { bundle, lastJson, runNode } from './run.js';

const consumer = inject('consumerDir');

interface KernelBytes {
  isolated: boolean | null;
  wasm: boolean;
  relaxedSimd: boolean;
  poolThreads: number;
  digests: Record<string, string>;
}

describe('the cpu kernels in Chromium give the bytes they give on Node (programs/kernelBytes.ts)', () => {
  let onNode: KernelBytes;
  let pageDir = '';
  let browser: Browser | undefined;

  beforeAll(async () => {
    const options = { consumer, program: 'kernelBytes', format: 'esm' } as const;
    const forNode = await bundle({ ...options, platform: 'node', outDir: 'threads-node' });
    onNode = lastJson(await runNode(forNode.file, { cwd: consumer, timeoutMs: 120_000 })) as KernelBytes;
    const forPage = await bundle({ ...options, platform: 'browser', outDir: 'threads-page' });
    pageDir = dirname(forPage.file);
    writeFileSync(
      join(pageDir, 'index.html'),
      pageHtml('kernel bytes', `<script type="module" src="./${basename(forPage.file)}"></script>`),
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('on Node: the WebAssembly kernels on a pool of 4 threads', () => {
    expect(onNode).toEqual({
      isolated: null,
      wasm: true,
      relaxedSimd: expect.any(Boolean),
      poolThreads: 4,
      digests: expect.any(Object),
    });
    expect(Object.keys(onNode.digests).sort()).toEqual(
      ['exp', 'matmul', 'mulAdd', 'sigmoid', 'softmax', 'sum', 'sumRows'].sort(),
    );
  });

  it.each([
    ['cross-origin isolated: on 3 Web Workers and the page', true, 4],
    ['not isolated: all on the page', false, 1],
  ])('a page %s', async (_what, isolated, poolThreads) => {
    const served = await serveDir(pageDir, isolated);
    try {
      const { json, errors } = await pageJson(browser!, served.url);
      expect(errors).toEqual([]);
      // either build of the gemm (Note [Relaxed SIMD gemm]): the program's inputs make them agree
      expect(json).toEqual({
        isolated,
        wasm: true,
        relaxedSimd: expect.any(Boolean),
        poolThreads,
        digests: onNode.digests,
      });
    } finally {
      await served.close();
    }
  });
});
