import { describe, expect, it, vi } from 'vitest';
import type { NoAttrs } from './kernelSpecs.js';
import type { Tensor as TensorType } from './tensor.js';

declare module './kernelSpecs.js' {
  interface KernelSpecs {
    InstallOnceTestKernel: { inputs: readonly TensorType[]; attrs: NoAttrs };
  }
}
import {
  type AutogradHooks,
  type AutogradTensorMethods,
  TensorError,
  registerKernel,
  runKernel,
  setAutogradHooks,
  installAutogradMethods,
  tensor,
} from './internal.js';

// Nothing in this file imports @wiregrad/autograd, so the slots start empty (vitest isolates files).
const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TensorError);
    return (e as TensorError).code;
  }
  return undefined;
};

describe('hook slots install once (Note [Hook slots install once])', () => {
  it('setAutogradHooks: the same hooks again are a no-op; other hooks, or null, throw ALREADY_INSTALLED and leave the installed ones', () => {
    const seen: string[] = [];
    const hooks: AutogradHooks = { beforeKernel: (name) => void seen.push(name), afterKernel: () => {} };
    setAutogradHooks(hooks);
    setAutogradHooks(hooks);
    setAutogradHooks({ ...hooks });
    expect(code(() => setAutogradHooks({ beforeKernel: () => {}, afterKernel: () => {} }))).toBe('ALREADY_INSTALLED');
    expect(code(() => setAutogradHooks(null))).toBe('ALREADY_INSTALLED');
    tensor([1]).neg();
    expect(seen).toEqual(['Neg']);
  });

  it('installAutogradMethods: the same methods again are a no-op; other methods throw ALREADY_INSTALLED', () => {
    const methods = { retainGrad: () => {} } as unknown as AutogradTensorMethods;
    installAutogradMethods(methods);
    installAutogradMethods(methods);
    expect(code(() => installAutogradMethods({ retainGrad: () => {} } as unknown as AutogradTensorMethods))).toBe(
      'ALREADY_INSTALLED',
    );
  });
});

describe('registering a kernel twice (as tfjs)', () => {
  it('warns when another function takes a registered name and device, and the new one replaces it; the same function again is silent', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const first = () => [tensor([1])];
      registerKernel({ kernelName: 'InstallOnceTestKernel', device: 'cpu', kernelFunc: first });
      registerKernel({ kernelName: 'InstallOnceTestKernel', device: 'cpu', kernelFunc: first });
      expect(warn).not.toHaveBeenCalled();
      registerKernel({ kernelName: 'InstallOnceTestKernel', device: 'cpu', kernelFunc: () => [tensor([2])] });
      expect(warn.mock.calls).toEqual([
        ["The kernel 'InstallOnceTestKernel' for device 'cpu' is already registered; the new one replaces it."],
      ]);
      expect(runKernel('InstallOnceTestKernel', [tensor([0])])[0]!.tolist()).toEqual([2]);
    } finally {
      warn.mockRestore();
    }
  });
});
