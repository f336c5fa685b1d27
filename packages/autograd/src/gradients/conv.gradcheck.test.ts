import { describe, expect, it } from 'vitest';
import {
  KernelNames,
  adaptiveAvgPool2d,
  avgPool2d,
  col2im,
  conv1d,
  conv2d,
  getGradient,
  gradcheck,
  im2col,
  manualSeed,
  maxPool2d,
  randn,
  type Tensor,
} from '../index.js';

manualSeed(11);
const r = (shape: number[]) => {
  const t = randn(shape, { dtype: 'float64' });
  t.requiresGrad = true;
  return t;
};

type Case = [name: string, fn: (...t: Tensor[]) => Tensor, inputs: () => Tensor[]];

/** Im2Col and Col2Im (each the other's gradient), and the conv and pooling composites over them (Note [im2col]). */
const cases: Case[] = [
  [
    'Im2Col (stride, padding, dilation)',
    (x) => im2col(x, [2, 3], { stride: [2, 1], padding: 1, dilation: [1, 2] }),
    () => [r([2, 2, 5, 6])],
  ],
  ['Col2Im', (c) => col2im(c, [4, 5], 2, { padding: [1, 0] }), () => [r([1, 8, 20])]],
  [
    'Im2Col twice differentiated (createGraph through Col2Im)',
    (x) => im2col(im2col(x, 2).reshape([1, 4, 3, 3]), 2),
    () => [r([1, 1, 4, 4])],
  ],
  [
    'conv2d: input, weight and bias',
    (x, w, b) => conv2d(x, w, b, { stride: 2, padding: 1 }),
    () => [r([2, 3, 5, 5]), r([4, 3, 3, 3]), r([4])],
  ],
  [
    'conv2d with groups and dilation',
    (x, w) => conv2d(x, w, null, { groups: 2, dilation: 2, padding: 'same' }),
    () => [r([1, 4, 5, 5]), r([2, 2, 2, 3])],
  ],
  ['conv1d', (x, w) => conv1d(x, w, null, { stride: 2, padding: 2 }), () => [r([2, 2, 7]), r([3, 2, 3])]],
  [
    'maxPool2d (ties are improbable in random data)',
    (x) => maxPool2d(x, 3, { stride: 2, padding: 1 }),
    () => [r([2, 2, 5, 6])],
  ],
  [
    'maxPool2d with ceil mode and dilation',
    (x) => maxPool2d(x, 2, { dilation: 2, ceilMode: true }),
    () => [r([1, 2, 6, 7])],
  ],
  [
    'avgPool2d without the padding in the divisor, ceil mode',
    (x) => avgPool2d(x, 3, { stride: 2, padding: 1, countIncludePad: false, ceilMode: true }),
    () => [r([1, 2, 6, 8])],
  ],
  ['adaptiveAvgPool2d', (x) => adaptiveAvgPool2d(x, [3, 2]), () => [r([2, 2, 7, 5])]],
];

describe('gradcheck (float64 finite differences) for convolution and pooling', () => {
  it.each(cases)('%s', (_name, fn, inputs) => {
    expect(gradcheck(fn, inputs(), { raiseException: true })).toBe(true);
  });

  it('Im2Col and Col2Im have gradient rules', () => {
    expect([KernelNames.Im2Col, KernelNames.Col2Im].filter((k) => !getGradient(k))).toEqual([]);
  });
});
