// Browser bundles: tensor, autograd and nn bundle for browsers with no `node:` module and run
// in a page-like context without Node's globals; rpc and dist-autograd bundle too and throw one
// clear error naming the package (Note [Node-only packages in browser bundles]); the minified,
// gzipped tensor + autograd bundle stays within its budget (Note [Browser size budget]).
import { gzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { program } from './programs.js';
import { type Bundle, bundle, nodeSpecifiers, runInPage } from './run.js';

const consumer = inject('consumerDir');

/**
 * Note [Browser size budget]
 * `programs/everything.ts` keeps every export of @wiregrad/autograd (so all of tensor too),
 * minified by esbuild for browsers and gzipped: 49,238 bytes (136,619 minified) when a budget
 * was first set; 60,848 (189,649 minified) with the Web Worker pool, the conv kernels and the
 * relaxed-SIMD gemm, when it was set to 64 KiB, about 8 % above; 66,573 (207,962 minified) with
 * the in-place SIMD kernels (BinaryInto, in both WebAssembly builds), the heap ballasts of Note
 * [Telling V8 about heap blocks], the driven-pass API of Note [Driving a pass] and the typed kernel
 * table, when it was set to 68 KiB; 67,589 (215,310 minified) with axpyF32, ThresholdBackward
 * and the elementwise loops unrolled four vectors a turn (each wasm build 15.2 -> 17.3 KB raw).
 * About 12 KB of it are the two base64 builds of the WebAssembly kernels (plain and relaxed
 * SIMD). gpu.js is not in it: a page loads gpu.js's own browser build for the gpu device. Raise the budget
 * deliberately, with the reason in the commit, never to make a failing run pass unexamined.
 */
const BUDGET_GZIP_BYTES = 68 * 1024;

function expectNoNode(b: Bundle): void {
  expect(b.externals).toEqual([]);
  expect(b.modules.filter((m) => /node_modules\/(gpu\.js|zeromq|@msgpack)\/|\/platform\/node\.js$/.test(m))).toEqual(
    [],
  );
  expect(nodeSpecifiers(Buffer.from(b.bytes).toString('utf8'))).toEqual([]);
}

function lastLog(logs: string[]): unknown {
  const line = logs.filter((l) => l.startsWith('{')).pop();
  if (line === undefined) throw new Error(`the page printed no JSON:\n${logs.join('\n')}`);
  return JSON.parse(line) as unknown;
}

describe('esbuild --bundle --platform=browser of tensor, autograd and nn', () => {
  it('runs bundles in a context without Node globals (the control)', () => {
    const run = runInPage(
      'console.log([typeof process, typeof Buffer, typeof require, typeof global, typeof WebAssembly].join())',
    );
    expect(run).toEqual({ logs: ['undefined,undefined,undefined,undefined,object'], error: null });
  });

  it.each(['tensorMatmul', 'autogradFit', 'nnTrain'])(
    '%s bundles without Node and runs in a page-like context',
    async (name) => {
      const b = await bundle({
        consumer,
        program: name,
        platform: 'browser',
        format: 'iife',
        outDir: 'bundle-browser',
      });
      expectNoNode(b);
      expect(b.modules).toEqual(expect.arrayContaining(['node_modules/@wiregrad/tensor/dist/platform/browser.js']));
      const run = runInPage(Buffer.from(b.bytes).toString('utf8'));
      expect(run.error).toBeNull();
      program(name).check(lastLog(run.logs));
    },
  );

  it(`keeps all of tensor + autograd within ${BUDGET_GZIP_BYTES} bytes minified and gzipped`, async () => {
    const b = await bundle({
      consumer,
      program: 'everything',
      platform: 'browser',
      format: 'esm',
      minify: true,
      outDir: 'bundle-size',
    });
    expectNoNode(b);
    const gzipped = gzipSync(b.bytes, { level: 9 }).length;
    console.log(
      `tensor + autograd browser bundle: ${b.bytes.length} bytes minified, ${gzipped} bytes gzipped (budget ${BUDGET_GZIP_BYTES})`,
    );
    expect(gzipped).toBeGreaterThan(10_000); // not vacuous: the whole library is in it
    expect(gzipped).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });
});

describe('Node-only packages in a browser bundle (Note [Node-only packages in browser bundles])', () => {
  it.each([
    ['rpcImport', '@wiregrad/rpc'],
    ['distAutogradImport', '@wiregrad/dist-autograd'],
  ])('%s bundles, then throws one error naming %s', async (name, pkg) => {
    const b = await bundle({ consumer, program: name, platform: 'browser', format: 'iife', outDir: 'bundle-browser' });
    expectNoNode(b);
    const run = runInPage(Buffer.from(b.bytes).toString('utf8'));
    expect(run.logs).toEqual([]);
    expect(run.error).toEqual({
      name: 'PlatformError',
      code: 'UNSUPPORTED_PLATFORM',
      message: expect.stringContaining(`${pkg} runs only on Node.js`),
    });
  });
});
