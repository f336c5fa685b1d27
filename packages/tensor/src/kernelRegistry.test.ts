import { describe, expect, it } from 'vitest';
import { KernelNames, TensorError, getKernel, hasKernel, runKernel, tensor } from './index.js';
import type { NoAttrs } from './kernelSpecs.js';
import type { Tensor } from './tensor.js';

declare module './kernelSpecs.js' {
  interface KernelSpecs {
    NoSuchKernel: { inputs: readonly Tensor[]; attrs: NoAttrs };
  }
}

describe('kernel registry', () => {
  it('has a cpu kernel for every kernel name', () => {
    expect(KernelNames.ALL_KERNELS.filter((k) => !hasKernel(k, 'cpu'))).toEqual([]);
  });

  it('names the kernel and the device when one is missing', () => {
    expect(() => getKernel('NoSuchKernel', 'gpu')).toThrow("kernel 'NoSuchKernel' is not registered for device 'gpu'");
    try {
      runKernel('NoSuchKernel', [tensor([1]).to('gpu')]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TensorError);
      expect((e as TensorError).code).toBe('KERNEL_NOT_REGISTERED');
    }
  });

  it("refuses to mix devices with PyTorch's message", () => {
    const onGpu = tensor([1]).to('gpu:0');
    expect(() => tensor([1]).add(onGpu)).toThrow(
      'Expected all tensors to be on the same device, but found at least two devices, cpu and gpu:0!',
    );
  });
});
