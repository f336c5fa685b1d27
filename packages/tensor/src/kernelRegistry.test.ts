import { describe, expect, it } from 'vitest';
import { KernelNames, Storage, Tensor, TensorError, device, getKernel, hasKernel, tensor } from './index.js';

describe('kernel registry', () => {
  it('has a cpu kernel for every kernel name', () => {
    expect(KernelNames.ALL_KERNELS.filter((k) => !hasKernel(k, 'cpu'))).toEqual([]);
  });

  it("names the kernel and the device when one is missing", () => {
    expect(() => getKernel('Add', 'gpu')).toThrow("kernel 'Add' is not registered for device 'gpu'");
    const onGpu = new Tensor(new Storage(device('gpu:0'), 'float32', 1, new Float32Array([1])), [1]);
    try {
      onGpu.exp();
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TensorError);
      expect((e as TensorError).code).toBe('KERNEL_NOT_REGISTERED');
    }
  });

  it("refuses to mix devices with PyTorch's message", () => {
    const onGpu = new Tensor(new Storage(device('gpu:0'), 'float32', 1, new Float32Array([1])), [1]);
    expect(() => tensor([1]).add(onGpu)).toThrow('Expected all tensors to be on the same device, but found at least two devices, cpu and gpu:0!');
  });
});
