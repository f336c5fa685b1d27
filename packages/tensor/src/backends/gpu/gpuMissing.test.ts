import Module from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { TensorError, tensor } from '../../index.js';
import { gpuInfo, loadGpu } from './gpuRuntime.js';

// See Note [gpu.js is an optional peer]. gpu.js is installed here, so its absence is simulated
// where Node looks it up: every require of 'gpu.js' fails as it does when the package is missing.
// This file's own module graph (vitest isolates files), so gpu.js was never loaded in it.
interface Resolver {
  _resolveFilename(request: string, ...rest: unknown[]): string;
}
const resolver = Module as unknown as Resolver;
const resolve = resolver._resolveFilename.bind(resolver);
resolver._resolveFilename = (request, ...rest) => {
  if (request === 'gpu.js') throw Object.assign(new Error("Cannot find module 'gpu.js'"), { code: 'MODULE_NOT_FOUND' });
  return resolve(request, ...rest);
};
afterAll(() => {
  resolver._resolveFilename = resolve;
});

const MESSAGE =
  'the gpu device needs the package gpu.js (an optional peer dependency of @wiregrad/tensor): install it with `npm install gpu.js`';

describe('the gpu device without gpu.js installed', () => {
  it('gpuInfo() reports it unavailable and not accelerated', () => {
    expect(gpuInfo()).toEqual({ available: false, mode: 'cpu', devices: 0, accelerated: false });
  });

  it('moving a tensor there throws MISSING_DEPENDENCY naming the package; the cpu device works', () => {
    const x = tensor([1, 2]);
    const error = (() => {
      try {
        x.to('gpu');
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(TensorError);
    expect((error as TensorError).code).toBe('MISSING_DEPENDENCY');
    expect((error as TensorError).message).toContain(MESSAGE);
    expect((error as TensorError).message).toContain("Cannot find module 'gpu.js'");
    expect(x.mul(2).tolist()).toEqual([2, 4]);
  });

  it('loadGpu() rejects with the same error, from the platform loader or an import()', async () => {
    await expect(loadGpu()).rejects.toMatchObject({
      code: 'MISSING_DEPENDENCY',
      message: expect.stringContaining(MESSAGE),
    });
    const absent = () =>
      Promise.reject(Object.assign(new Error("Cannot find package 'gpu.js'"), { code: 'ERR_MODULE_NOT_FOUND' }));
    await expect(loadGpu(absent)).rejects.toMatchObject({
      code: 'MISSING_DEPENDENCY',
      message: expect.stringContaining("Cannot find package 'gpu.js'"),
    });
  });
});
