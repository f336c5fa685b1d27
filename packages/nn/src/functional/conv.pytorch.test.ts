import { describe, expect, it } from 'vitest';
import type { NestedArray, Tensor } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import * as F from './index.js';

type Case = {
  inputs: Record<string, NestedArray>;
  y: NestedArray;
  grads: Record<string, NestedArray>;
  indices?: NestedArray;
};
const T = loadFixture<Record<string, Case>>('conv');

/** Each case as generate.py called PyTorch; inputs by name, all float64 leaves. */
const cases: [string, (t: Record<string, Tensor>) => Tensor | [Tensor, Tensor]][] = [
  ['conv2d', ({ x, w, b }) => F.conv2d(x!, w!, b!)],
  ['conv2dStridePad', ({ x, w, b }) => F.conv2d(x!, w!, b!, { stride: 2, padding: 1 })],
  ['conv2dStridePairPadPair', ({ x, w }) => F.conv2d(x!, w!, null, { stride: [1, 2], padding: [2, 0] })],
  ['conv2dDilation', ({ x, w, b }) => F.conv2d(x!, w!, b!, { dilation: 2, padding: 1 })],
  ['conv2dGroups', ({ x, w, b }) => F.conv2d(x!, w!, b!, { groups: 2 })],
  ['conv2dDepthwise', ({ x, w }) => F.conv2d(x!, w!, null, { groups: 3, padding: 1 })],
  ['conv2dSameEvenKernel', ({ x, w }) => F.conv2d(x!, w!, null, { padding: 'same' })],
  ['conv2dSameDilated', ({ x, w }) => F.conv2d(x!, w!, null, { padding: 'same', dilation: [2, 1] })],
  ['conv2dValidUnbatched', ({ x, w }) => F.conv2d(x!, w!, null, { padding: 'valid' })],
  ['conv1d', ({ x, w, b }) => F.conv1d(x!, w!, b!, { stride: 2, padding: 1 })],
  ['conv1dGroupsSame', ({ x, w }) => F.conv1d(x!, w!, null, { groups: 2, padding: 'same', dilation: 2 })],
  ['maxPool2d', ({ x }) => F.maxPool2d(x!, 3, { stride: 2, padding: 1, returnIndices: true })],
  [
    'maxPool2dDilationCeil',
    ({ x }) => F.maxPool2d(x!, [2, 3], { stride: 2, dilation: [2, 1], ceilMode: true, returnIndices: true }),
  ],
  ['maxPool2dTies', ({ x }) => F.maxPool2d(x!, 2, { stride: 1, returnIndices: true })],
  ['maxPool2dUnbatched', ({ x }) => F.maxPool2d(x!, 2, { returnIndices: true })],
  ['avgPool2d', ({ x }) => F.avgPool2d(x!, 3, { stride: 2, padding: 1 })],
  [
    'avgPool2dExcludePadCeil',
    ({ x }) => F.avgPool2d(x!, 3, { stride: 2, padding: 1, countIncludePad: false, ceilMode: true }),
  ],
  ['avgPool2dCeilIncludePad', ({ x }) => F.avgPool2d(x!, [2, 3], { stride: [2, 2], ceilMode: true })],
  ['avgPool2dDivisor', ({ x }) => F.avgPool2d(x!, 2, { divisorOverride: 3 })],
  ['adaptiveAvgPool2d', ({ x }) => F.adaptiveAvgPool2d(x!, [3, 2])],
  ['adaptiveAvgPool2dGlobal', ({ x }) => F.adaptiveAvgPool2d(x!, 1)],
  ['adaptiveAvgPool2dKeepHeight', ({ x }) => F.adaptiveAvgPool2d(x!, [null, 4])],
  ['unfold', ({ x }) => F.unfold(x!, [2, 3], { dilation: [1, 2], padding: 1, stride: [2, 1] })],
  ['fold', ({ c }) => F.fold(c!, [5, 6], [2, 3], { dilation: [1, 2], padding: 1, stride: [2, 1] })],
];

describe('convolution and pooling agree with PyTorch 1.13: outputs, indices, gradients (fixtures/conv.json)', () => {
  it.each(cases)('%s', (name, f) => {
    const c = T[name]!;
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, f64(v, true)]));
    const out = f(inputs);
    const [y, indices] = Array.isArray(out) ? out : [out, null];
    expectClose(y, c.y);
    if (c.indices) expect(indices!.tolist()).toEqual(c.indices);
    const r = f64(
      Array.from({ length: y.numel }, (_, i) => (y.numel === 1 ? -1 : -1 + (2 * i) / (y.numel - 1))),
    ).reshape([...y.shape]);
    y.mul(r).sum().backward();
    for (const [k, g] of Object.entries(c.grads)) expectClose(inputs[k]!.grad!, g);
  });
});
