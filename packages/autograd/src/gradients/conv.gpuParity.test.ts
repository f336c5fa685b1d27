import { describe, expect, it } from 'vitest';
import {
  adaptiveAvgPool2d,
  avgPool2d,
  batchNorm,
  conv1d,
  conv2d,
  dropout,
  embedding,
  layerNorm,
  manualSeed,
  maxPool2d,
  maxPool2dWithIndices,
  randn,
  tensor,
  type Tensor,
} from '../index.js';

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

/** Every input's gradient of `f` on `dev`, from the same cpu values, weighted so that each output element counts differently. */
function gradsOf(dev: 'cpu' | 'gpu:0', inputs: Tensor[], f: (...xs: Tensor[]) => Tensor): number[][] {
  const xs = inputs.map((t) => t.detach().clone().to(dev).requiresGrad_());
  const y = f(...xs);
  manualSeed(5);
  y.mul(randn(y.shape).to(dev)).sum().backward();
  return xs.map((x) => {
    expect(x.grad!.device.toString()).toBe(dev);
    return Array.from(x.grad!.cpu().toTypedArray(), Number);
  });
}

describe('every conv, pooling, normalization, dropout and embedding op differentiates on the gpu device as on the cpu', () => {
  manualSeed(6);
  it.each([
    [
      "conv2d with dilation, groups and 'same' padding (an even kernel: asymmetric), with a bias",
      [randn([2, 4, 7, 6]), randn([6, 2, 2, 3]), randn([6])],
      (x: Tensor, w: Tensor, b: Tensor) => conv2d(x, w, b, { dilation: [2, 1], groups: 2, padding: 'same' }),
    ],
    [
      'conv2d with a stride pair, a padding pair and depthwise groups',
      [randn([1, 3, 8, 9]), randn([3, 1, 3, 2])],
      (x: Tensor, w: Tensor) => conv2d(x, w, null, { stride: [2, 1], padding: [1, 2], groups: 3 }),
    ],
    [
      "conv1d with groups, dilation and 'same' padding, with a bias",
      [randn([2, 4, 9]), randn([4, 2, 3]), randn([4])],
      (x: Tensor, w: Tensor, b: Tensor) => conv1d(x, w, b, { groups: 2, dilation: 2, padding: 'same' }),
    ],
    [
      'maxPool2d with dilation and padding (the gradient goes through the indices)',
      [randn([2, 2, 7, 8])],
      (x: Tensor) => maxPool2d(x, 2, { dilation: 2, padding: 1 }),
    ],
    [
      'maxPool2dWithIndices values',
      [randn([1, 3, 6, 6])],
      (x: Tensor) => maxPool2dWithIndices(x, 3, { stride: 2, ceilMode: true }).values,
    ],
    [
      'avgPool2d without the padding in the divisor, and adaptiveAvgPool2d',
      [randn([2, 2, 7, 5])],
      (x: Tensor) =>
        avgPool2d(x, 3, { stride: 2, padding: 1, countIncludePad: false })
          .sum()
          .add(adaptiveAvgPool2d(x, [3, 2])),
    ],
    [
      'batchNorm in training, with weight and bias',
      [randn([4, 3, 2, 3]), randn([3]), randn([3])],
      (x: Tensor, w: Tensor, b: Tensor) => batchNorm(x, w, b, null, null, { training: true }),
    ],
    [
      'layerNorm with weight and bias',
      [randn([2, 3, 4]), randn([4]), randn([4])],
      (x: Tensor, w: Tensor, b: Tensor) => layerNorm(x, [4], { weight: w, bias: b }),
    ],
    [
      'dropout (one seeded mask, drawn on the cpu)',
      [randn([3, 7])],
      (x: Tensor) => {
        manualSeed(2);
        return dropout(x, 0.3, true);
      },
    ],
    [
      'embedding with paddingIdx',
      [randn([4, 3])],
      (w: Tensor) => embedding(w, tensor(new Int32Array([3, 0, 3, 1])).to(w.device), { paddingIdx: 0 }),
    ],
  ] as [string, Tensor[], (...xs: Tensor[]) => Tensor][])('%s', (_name, inputs, f) => {
    const cpu = gradsOf('cpu', inputs, f);
    const gpu = gradsOf('gpu:0', inputs, f);
    expect(gpu.map((g) => g.length)).toEqual(inputs.map((t) => t.numel));
    gpu.forEach((g, k) =>
      g.forEach((v, i) => expect(Math.abs(v - cpu[k]![i]!)).toBeLessThanOrEqual(1e-4 + 1e-4 * Math.abs(cpu[k]![i]!))),
    );
  });
});
