import { describe, expect, it } from 'vitest';
import { type Tensor, gradcheck, manualSeed, randn, tensor, zeros } from '@wiregrad/autograd';
import * as F from './index.js';

const leaf = (t: Tensor) => {
  const x = t.to('float64');
  x.requiresGrad = true;
  return x;
};

describe('functional layers: gradcheck in float64', () => {
  manualSeed(9);
  const w = leaf(randn([3]));
  const b = leaf(randn([3]));
  it.each([
    [
      'batchNorm in training (through the batch statistics), with weight and bias',
      (x: Tensor, wt: Tensor, bs: Tensor) => F.batchNorm(x, null, null, { weight: wt, bias: bs, training: true }),
      [leaf(randn([4, 3, 2])), w, b],
    ],
    [
      'batchNorm in eval mode (running stats)',
      (x: Tensor) =>
        F.batchNorm(x, tensor([0.1, -0.2, 0.3], { dtype: 'float64' }), tensor([1.5, 0.5, 2], { dtype: 'float64' })),
      [leaf(randn([2, 3]))],
    ],
    [
      'layerNorm over the last two dims',
      (x: Tensor, wt: Tensor) => F.layerNorm(x, [2, 3], wt.reshape([1, 3]).expand([2, 3])),
      [leaf(randn([2, 2, 3])), w],
    ],
    // (with paddingIdx the padding row's gradient is zero on purpose, so finite differences disagree there: see the fixture spec)
    [
      'embedding (gradient of the weight, repeated indices summed)',
      (wt: Tensor) =>
        F.embedding(
          tensor(
            [
              [0, 2],
              [2, 1],
            ],
            { dtype: 'int32' },
          ),
          wt,
        ),
      [leaf(randn([3, 4]))],
    ],
    ['gelu with the tanh approximation', (x: Tensor) => F.gelu(x, { approximate: 'tanh' }), [leaf(randn([6]))]],
    [
      'dropout (one fixed mask)',
      (x: Tensor) => {
        manualSeed(1);
        return F.dropout(x, 0.4);
      },
      [leaf(randn([8]))],
    ],
  ] as [string, (...t: Tensor[]) => Tensor, Tensor[]][])('%s', (_name, f, inputs) => {
    expect(gradcheck(f, inputs, { raiseException: true })).toBe(true);
  });
});

describe('functional layers: behaviour', () => {
  it('dropout keeps each element with probability 1 - p, scaled by 1/(1 - p); identity when not training', () => {
    manualSeed(2);
    const x = zeros([20000]).add(1);
    const y = F.dropout(x, 0.25);
    const v = Array.from(y.toTypedArray());
    expect(new Set(v.map((e) => e.toFixed(6)))).toEqual(new Set(['0.000000', (1 / 0.75).toFixed(6)]));
    expect(v.filter((e) => e === 0).length / v.length).toBeCloseTo(0.25, 1);
    expect(F.dropout(x, 0.25, false)).toBe(x);
    expect(F.dropout(x, 1).sum().item()).toBe(0);
    expect(() => F.dropout(x, 1.5)).toThrow('dropout probability has to be between 0 and 1, but got 1.5');
  });

  it('batchNorm refuses one value per channel in training, as PyTorch', () => {
    expect(() => F.batchNorm(randn([1, 3]), null, null, { training: true })).toThrow(
      'Expected more than 1 value per channel when training, got input of shape [1, 3]',
    );
  });

  it('layerNorm names a shape mismatch', () => {
    expect(() => F.layerNorm(randn([2, 3]), [4])).toThrow(
      'Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 3]',
    );
  });

  it('embedding checks indices', () => {
    expect(() => F.embedding(tensor([0, 3], { dtype: 'int32' }), randn([3, 2]))).toThrow('index out of range in self');
    expect(() => F.embedding(tensor([0, 1]), randn([3, 2]))).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
