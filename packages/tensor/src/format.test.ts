import { describe, expect, it } from 'vitest';
import { arange, ones, tensor, zeros, type Tensor, type GradNode } from './index.js';

/** [the expression, the tensor, what PyTorch 1.13 prints for the same tensor] (torch's int64 tensors stand in for int32). */
const PYTORCH_PRINTS: [string, () => Tensor, string][] = [
  [
    'tensor([[1, 2], [3, 4]])',
    () =>
      tensor([
        [1, 2],
        [3, 4],
      ]),
    'tensor([[1., 2.],\n        [3., 4.]])',
  ],
  ['tensor([0.5, 1.25])', () => tensor([0.5, 1.25]), 'tensor([0.5000, 1.2500])'],
  ['tensor([-1.5, 22.25])', () => tensor([-1.5, 22.25]), 'tensor([-1.5000, 22.2500])'],
  ['tensor([0.03125, 0.09375, 1])', () => tensor([0.03125, 0.09375, 1]), 'tensor([0.0312, 0.0938, 1.0000])'],
  ['tensor([0.125, 0.375, 2.5])', () => tensor([0.125, 0.375, 2.5]), 'tensor([0.1250, 0.3750, 2.5000])'],
  ['tensor([1e-5, 1])', () => tensor([1e-5, 1]), 'tensor([1.0000e-05, 1.0000e+00])'],
  ['tensor([1.5e-4, 2.25])', () => tensor([1.5e-4, 2.25]), 'tensor([1.5000e-04, 2.2500e+00])'],
  ['tensor([1, 2000])', () => tensor([1, 2000]), 'tensor([1.0000e+00, 2.0000e+03])'],
  ['tensor([123456789, 1.5])', () => tensor([123456789, 1.5]), 'tensor([1.2346e+08, 1.5000e+00])'],
  [
    'tensor([Infinity, -Infinity, NaN, 1])',
    () => tensor([Infinity, -Infinity, NaN, 1]),
    'tensor([inf, -inf, nan, 1.])',
  ],
  ['tensor([NaN, 1.5])', () => tensor([NaN, 1.5]), 'tensor([   nan, 1.5000])'],
  ['tensor([NaN])', () => tensor([NaN]), 'tensor([nan])'],
  ['tensor(-0)', () => tensor(-0), 'tensor(-0.)'],
  ['tensor([-0, 0.5])', () => tensor([-0, 0.5]), 'tensor([-0.0000, 0.5000])'],
  ['tensor([0, 0])', () => tensor([0, 0]), 'tensor([0., 0.])'],
  ["tensor(2.5, { dtype: 'float64' })", () => tensor(2.5, { dtype: 'float64' }), 'tensor(2.5000, dtype=torch.float64)'],
  [
    'tensor(new Float64Array([1e-200]))',
    () => tensor(new Float64Array([1e-200])),
    'tensor([1.0000e-200], dtype=torch.float64)',
  ],
  [
    'tensor(new Float64Array([1e200, -3]))',
    () => tensor(new Float64Array([1e200, -3])),
    'tensor([1.0000e+200, -3.0000e+00], dtype=torch.float64)',
  ],
  ['tensor([[true], [false]])', () => tensor([[true], [false]]), 'tensor([[ True],\n        [False]])'],
  ['tensor([true, true])', () => tensor([true, true]), 'tensor([True, True])'],
  ['arange(4).reshape([2, 1, 2])', () => arange(4).reshape([2, 1, 2]), 'tensor([[[0, 1]],\n\n        [[2, 3]]])'],
  [
    'arange(-5, 100)',
    () => arange(-5, 100),
    'tensor([-5, -4, -3, -2, -1,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12,\n        13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,\n        31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,\n        49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66,\n        67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84,\n        85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99])',
  ],
  [
    'arange(1200).reshape([40, 30])',
    () => arange(1200).reshape([40, 30]),
    'tensor([[   0,    1,    2,  ...,   27,   28,   29],\n        [  30,   31,   32,  ...,   57,   58,   59],\n        [  60,   61,   62,  ...,   87,   88,   89],\n        ...,\n        [1110, 1111, 1112,  ..., 1137, 1138, 1139],\n        [1140, 1141, 1142,  ..., 1167, 1168, 1169],\n        [1170, 1171, 1172,  ..., 1197, 1198, 1199]])',
  ],
  [
    "arange(1200, { dtype: 'float32' }).reshape([2, 3, 200]).div(7)",
    () => arange(1200, { dtype: 'float32' }).reshape([2, 3, 200]).div(7),
    'tensor([[[0.0000e+00, 1.4286e-01, 2.8571e-01,  ..., 2.8143e+01,\n          2.8286e+01, 2.8429e+01],\n         [2.8571e+01, 2.8714e+01, 2.8857e+01,  ..., 5.6714e+01,\n          5.6857e+01, 5.7000e+01],\n         [5.7143e+01, 5.7286e+01, 5.7429e+01,  ..., 8.5286e+01,\n          8.5429e+01, 8.5571e+01]],\n\n        [[8.5714e+01, 8.5857e+01, 8.6000e+01,  ..., 1.1386e+02,\n          1.1400e+02, 1.1414e+02],\n         [1.1429e+02, 1.1443e+02, 1.1457e+02,  ..., 1.4243e+02,\n          1.4257e+02, 1.4271e+02],\n         [1.4286e+02, 1.4300e+02, 1.4314e+02,  ..., 1.7100e+02,\n          1.7114e+02, 1.7129e+02]]])',
  ],
  [
    "arange(2000, { dtype: 'float32' }).reshape([2, 1000])",
    () => arange(2000, { dtype: 'float32' }).reshape([2, 1000]),
    'tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 9.9700e+02, 9.9800e+02,\n         9.9900e+02],\n        [1.0000e+03, 1.0010e+03, 1.0020e+03,  ..., 1.9970e+03, 1.9980e+03,\n         1.9990e+03]])',
  ],
  [
    "arange(30, { dtype: 'float32' })",
    () => arange(30, { dtype: 'float32' }),
    'tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n        28., 29.])',
  ],
  [
    "arange(6, { dtype: 'float32' }).reshape([3, 2, 1]).mul(1.5)",
    () => arange(6, { dtype: 'float32' }).reshape([3, 2, 1]).mul(1.5),
    'tensor([[[0.0000],\n         [1.5000]],\n\n        [[3.0000],\n         [4.5000]],\n\n        [[6.0000],\n         [7.5000]]])',
  ],
  ['zeros([2000])', () => zeros([2000]), 'tensor([0., 0., 0.,  ..., 0., 0., 0.])'],
  ['zeros([2, 0, 3])', () => zeros([2, 0, 3]), 'tensor([], size=(2, 0, 3))'],
  ['zeros([0])', () => zeros([0]), 'tensor([])'],
  ["zeros([0], { dtype: 'float64' })", () => zeros([0], { dtype: 'float64' }), 'tensor([], dtype=torch.float64)'],
  ["zeros([0], { dtype: 'int32' })", () => zeros([0], { dtype: 'int32' }), 'tensor([], dtype=torch.int32)'],
  ["zeros([0], { dtype: 'bool' })", () => zeros([0], { dtype: 'bool' }), 'tensor([], dtype=torch.bool)'],
  [
    "ones([2], { dtype: 'float64', requiresGrad: true })",
    () => ones([2], { dtype: 'float64', requiresGrad: true }),
    'tensor([1., 1.], dtype=torch.float64, requires_grad=True)',
  ],
  [
    "arange(30, { dtype: 'float32', requiresGrad: true })",
    () => arange(30, { dtype: 'float32', requiresGrad: true }),
    'tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n        28., 29.], requires_grad=True)',
  ],
  [
    "arange(40, { dtype: 'float64' }).reshape([2, 20]).div(3)",
    () => arange(40, { dtype: 'float64' }).reshape([2, 20]).div(3),
    'tensor([[ 0.0000,  0.3333,  0.6667,  1.0000,  1.3333,  1.6667,  2.0000,  2.3333,\n          2.6667,  3.0000,  3.3333,  3.6667,  4.0000,  4.3333,  4.6667,  5.0000,\n          5.3333,  5.6667,  6.0000,  6.3333],\n        [ 6.6667,  7.0000,  7.3333,  7.6667,  8.0000,  8.3333,  8.6667,  9.0000,\n          9.3333,  9.6667, 10.0000, 10.3333, 10.6667, 11.0000, 11.3333, 11.6667,\n         12.0000, 12.3333, 12.6667, 13.0000]], dtype=torch.float64)',
  ],
  [
    "arange(100, { dtype: 'float64' })",
    () => arange(100, { dtype: 'float64' }),
    'tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n        28., 29., 30., 31., 32., 33., 34., 35., 36., 37., 38., 39., 40., 41.,\n        42., 43., 44., 45., 46., 47., 48., 49., 50., 51., 52., 53., 54., 55.,\n        56., 57., 58., 59., 60., 61., 62., 63., 64., 65., 66., 67., 68., 69.,\n        70., 71., 72., 73., 74., 75., 76., 77., 78., 79., 80., 81., 82., 83.,\n        84., 85., 86., 87., 88., 89., 90., 91., 92., 93., 94., 95., 96., 97.,\n        98., 99.], dtype=torch.float64)',
  ],
];

describe('toString prints like PyTorch', () => {
  it.each(PYTORCH_PRINTS)('%s', (_code, make, expected) => {
    expect(make().toString()).toBe(expected);
  });

  it('shows grad_fn from the node name, and the device of a non-cpu tensor', () => {
    const t = tensor([2, 2]);
    t.gradFn = { name: () => 'MulBackward0' } as GradNode;
    expect(t.toString()).toBe('tensor([2., 2.], grad_fn=<MulBackward0>)');
    expect(tensor([1, 2]).to('gpu').toString()).toBe("tensor([1., 2.], device='gpu:0')");
  });

  it('prints strided views by their values, and disposed tensors without reading them', () => {
    expect(arange(6, { dtype: 'float32' }).reshape([2, 3]).t().toString()).toBe(
      'tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]])',
    );
    expect(ones([3]).expand([2, 3]).toString()).toBe('tensor([[1., 1., 1.],\n        [1., 1., 1.]])');
    const d = zeros([2]);
    d.dispose();
    expect(d.toString()).toBe('tensor(<disposed>)');
  });
});
