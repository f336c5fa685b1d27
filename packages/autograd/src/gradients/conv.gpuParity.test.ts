import { describe, expect, it } from 'vitest';
import { avgPool2d, conv2d, manualSeed, maxPool2d, randn, type Tensor } from '../index.js';

/** Input and weight gradients of a conv -> maxPool -> avgPool chain on `dev`, from the same values. */
function grads(dev: 'cpu' | 'gpu:0', x0: Tensor, w0: Tensor): number[][] {
  const x = x0.detach().clone().to(dev);
  const w = w0.detach().clone().to(dev);
  x.requiresGrad = true;
  w.requiresGrad = true;
  const y = avgPool2d(maxPool2d(conv2d(x, w, null, { padding: 1, stride: [1, 2] }), 2, { ceilMode: true }), 2, {
    padding: 1,
  });
  y.mul(y).sum().backward();
  return [Array.from(x.grad!.cpu().toTypedArray(), Number), Array.from(w.grad!.cpu().toTypedArray(), Number)];
}

describe('conv and pooling gradients on the gpu device (Col2Im and Im2Col there)', () => {
  it('equal the cpu gradients to float32 rounding', () => {
    manualSeed(4);
    const x = randn([2, 3, 9, 10]);
    const w = randn([4, 3, 3, 3]);
    const cpu = grads('cpu', x, w);
    const gpu = grads('gpu:0', x, w);
    gpu.forEach((g, k) =>
      g.forEach((v, i) => expect(Math.abs(v - cpu[k]![i]!)).toBeLessThanOrEqual(1e-4 + 1e-4 * Math.abs(cpu[k]![i]!))),
    );
  });
});
