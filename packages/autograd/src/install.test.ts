import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installAutogradMethods, setAutogradHooks } from '@wiregrad/tensor/internal';
import { TensorError, getGradient, registerGradient, tensor } from './index.js';

describe("importing @wiregrad/autograd fills tensor's hook slots once (Note [Hook slots install once])", () => {
  afterEach(() => vi.restoreAllMocks());

  it('setAutogradHooks(null) or other hooks throw ALREADY_INSTALLED, and graph recording goes on', () => {
    for (const replace of [
      () => setAutogradHooks(null),
      () => setAutogradHooks({ beforeKernel: () => {}, afterKernel: () => {} }),
      () => installAutogradMethods({} as never),
    ]) {
      expect(replace).toThrow(TensorError);
      expect(replace).toThrow(/already installed/);
    }
    const x = tensor([1, 2], { requiresGrad: true });
    x.mul(3).sum().backward();
    expect(x.grad!.tolist()).toEqual([3, 3]);
  });

  it('registering another gradient for a kernel that has one warns (as tfjs) and replaces it; the same rule again is silent', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const name = 'InstallTestKernel';
    const rule = { kernelName: name, gradFunc: () => [null] };
    registerGradient(rule);
    registerGradient(rule);
    expect(warn).not.toHaveBeenCalled();
    const other = { kernelName: name, gradFunc: () => [null] };
    registerGradient(other);
    expect(warn.mock.calls).toEqual([
      [`The gradient for kernel '${name}' is already registered; the new one replaces it.`, 'RegistrationWarning'],
    ]);
    expect(getGradient(name)).toBe(other);
  });

  it('importing the package registers no kernel and no gradient twice: a fresh process prints no warning', () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const r = spawnSync(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "import '@wiregrad/autograd'; console.log('imported')",
      ],
      { cwd, encoding: 'utf8', timeout: 60_000 },
    );
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: 'imported\n',
      stderr: '',
    });
  });
});
