import { describe, expect, it } from 'vitest';
import { gpuLanePushes } from '../__tests__/lanePushes.js';
import { getEngine, randn, device } from '../index.js';

describe('autograd on the gpu device (gpu.js)', () => {
  it("runs gpu nodes on the gpu device's lane and cpu nodes on the caller (Note [Device lanes])", () => {
    let w = randn([4, 3]);
    let c = randn([3]);
    const pushed = gpuLanePushes(() => {
      w = randn([4, 3]).to('gpu');
      w.requiresGrad = true;
      c = randn([3], { requiresGrad: true });
      // a gpu part (matmul, relu, sum) feeding a cpu part (mul by a cpu leaf)
      randn([2, 4]).to('gpu').matmul(w).relu().sum(0).cpu().mul(c).sum().backward();
    });
    expect(w.grad!.device.toString()).toBe('gpu:0');
    expect(c.grad!.device.toString()).toBe('cpu');
    expect(pushed).toEqual([
      'SumBackward0',
      'ReluBackward0',
      // mm is one node (Note [Matrices through BatchMatMul])
      'BatchMatMulBackward0',
      'torch::autograd::AccumulateGrad',
    ]);
    expect(pushed.some((n) => n.startsWith('MulBackward'))).toBe(false);
    expect(getEngine().lane(device('gpu:0')).queue.empty()).toBe(true);
  });
});
