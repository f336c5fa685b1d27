import { describe, expect, it } from 'vitest';
import {
  KernelNames,
  adaptiveAvgPool2d,
  avgPool2d,
  batchNorm,
  col2im,
  conv1d,
  conv2d,
  dropout,
  embedding,
  getGradient,
  gradcheck,
  im2col,
  layerNorm,
  manualSeed,
  maxPool2d,
  randn,
  tensor,
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

/** The normalization, dropout and embedding composites (Note [Batch norm]). */
const layerCases: Case[] = [
  [
    'batchNorm in training (through the batch statistics), with weight and bias',
    (x, w, b) => batchNorm(x, w, b, null, null, { training: true }),
    () => [r([4, 3, 2, 2]), r([3]), r([3])],
  ],
  [
    'batchNorm in evaluation (the running stats)',
    (x, w) =>
      batchNorm(x, w, null, tensor([0.1, -0.2], { dtype: 'float64' }), tensor([1.5, 0.5], { dtype: 'float64' })),
    () => [r([3, 2, 4]), r([2])],
  ],
  [
    'layerNorm over the last two dims, with weight and bias',
    (x, w, b) => layerNorm(x, [2, 3], { weight: w, bias: b }),
    () => [r([2, 2, 3]), r([2, 3]), r([2, 3])],
  ],
  [
    'dropout (one fixed mask)',
    (x) => {
      manualSeed(1);
      return dropout(x, 0.4, true);
    },
    () => [r([8])],
  ],
  [
    'embedding (repeated indices summed into the weight gradient)',
    (w) => embedding(w, tensor(new Int32Array([0, 2, 2, 1])).reshape([2, 2])),
    () => [r([3, 4])],
  ],
];

describe('gradcheck (float64 finite differences) for convolution and pooling', () => {
  it.each(cases)('%s', (_name, fn, inputs) => {
    expect(gradcheck(fn, inputs(), { raiseException: true })).toBe(true);
  });

  it('Im2Col and Col2Im have gradient rules', () => {
    expect([KernelNames.Im2Col, KernelNames.Col2Im].filter((k) => !getGradient(k))).toEqual([]);
  });
});

describe('gradcheck (float64 finite differences) for batchNorm, layerNorm, dropout and embedding', () => {
  it.each(layerCases)('%s', (_name, fn, inputs) => {
    expect(gradcheck(fn, inputs(), { raiseException: true })).toBe(true);
  });

  it("embedding's paddingIdx row gets no gradient (PyTorch's embedding backward skips it)", () => {
    const w = r([3, 2]);
    embedding(w, tensor(new Int32Array([1, 2, 1])), { paddingIdx: 1 })
      .sum()
      .backward();
    expect(w.grad!.tolist()).toEqual([
      [0, 0],
      [0, 0],
      [1, 1],
    ]);
  });
});
