import { describe, expect, it } from 'vitest';
import {
  adaptiveAvgPool2d,
  avgPool2d,
  col2im,
  conv1d,
  conv2d,
  im2col,
  manualSeed,
  maxPool2dWithIndices,
  randn,
  type Tensor,
} from '../../index.js';

/** The op on the cpu and on gpu:0 from the same float32 inputs agree to float32 rounding; -inf/NaN must match exactly. */
function parity(f: (...t: Tensor[]) => Tensor, ...inputs: Tensor[]): void {
  const cpu = Array.from(f(...inputs).toTypedArray(), Number);
  const gpu = Array.from(
    f(...inputs.map((t) => t.to('gpu:0')))
      .cpu()
      .toTypedArray(),
    Number,
  );
  expect(gpu).toHaveLength(cpu.length);
  gpu.forEach((v, i) => {
    const w = cpu[i]!;
    if (!Number.isFinite(w)) expect(Object.is(v, w)).toBe(true);
    else expect(Math.abs(v - w)).toBeLessThanOrEqual(1e-5 + 1e-5 * Math.abs(w));
  });
}

describe('Im2Col and Col2Im on the gpu device (Note [im2col])', () => {
  manualSeed(21);
  it.each([
    [
      'im2col with stride, padding and dilation, a transposed input, -inf padding',
      (x: Tensor) =>
        im2col(x.transpose(2, 3), [2, 3], { stride: [2, 1], padding: 1, dilation: [1, 2], padValue: -Infinity }),
      [randn([2, 3, 7, 6])],
    ],
    [
      'col2im (overlapping windows sum)',
      (c: Tensor) => col2im(c, [5, 6], [2, 3], { dilation: [1, 2], padding: 1, stride: [2, 1] }),
      [randn([2, 12, 12])],
    ],
    [
      'conv2d with groups and an asymmetric same padding',
      (x: Tensor, w: Tensor) => conv2d(x, w, null, { groups: 2, padding: 'same' }),
      [randn([2, 4, 6, 5]), randn([6, 2, 2, 4])],
    ],
    [
      'conv1d with a bias',
      (x: Tensor, w: Tensor, b: Tensor) => conv1d(x, w, b, { stride: 2, padding: 1 }),
      [randn([2, 3, 9]), randn([4, 3, 3]), randn([4])],
    ],
    [
      'maxPool2d values (ceil mode)',
      (x: Tensor) => maxPool2dWithIndices(x, 3, { stride: 2, padding: 1, ceilMode: true }).values,
      [randn([2, 3, 8, 7])],
    ],
    ['maxPool2d indices', (x: Tensor) => maxPool2dWithIndices(x, 2).indices, [randn([1, 2, 6, 6])]],
    [
      'avgPool2d without the padding in the divisor',
      (x: Tensor) => avgPool2d(x, 3, { stride: 2, padding: 1, countIncludePad: false }),
      [randn([2, 3, 7, 7])],
    ],
    ['adaptiveAvgPool2d', (x: Tensor) => adaptiveAvgPool2d(x, [3, 2]), [randn([2, 3, 7, 5])]],
  ] as [string, (...t: Tensor[]) => Tensor, Tensor[]][])('%s: the gpu gives the cpu values', (_name, f, inputs) => {
    parity(f, ...inputs);
  });
});
