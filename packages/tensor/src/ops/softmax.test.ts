import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arange, logSoftmax, softmax, tensor, type NestedArray } from '../index.js';

const closeAll = (got: NestedArray, want: NestedArray, digits = 12): void => {
  expect(got).toEqual(
    JSON.parse(JSON.stringify(want), (_k, v: unknown) => (typeof v === 'number' ? expect.closeTo(v, digits) : v)),
  );
};
// [2, 2, 3] float64; the expected values below are PyTorch 1.13's
const Z = () =>
  tensor(
    [
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      [
        [-1, 0, 1],
        [7, -7, 0.5],
      ],
    ],
    { dtype: 'float64' },
  );

describe('softmax and logSoftmax', () => {
  it('along the last dim, and along inner dims (values from PyTorch)', () => {
    closeAll(Z().logSoftmax(2).tolist(), [
      [
        [-2.4076059644443806, -1.4076059644443804, -0.4076059644443804],
        [-2.4076059644443806, -1.4076059644443804, -0.4076059644443804],
      ],
      [
        [-2.4076059644443806, -1.4076059644443804, -0.4076059644443804],
        [-0.0015031404398526571, -14.001503140439853, -6.501503140439852],
      ],
    ]);
    closeAll(Z().softmax(0).tolist(), [
      [
        [0.8807970779778823, 0.8807970779778823, 0.8807970779778823],
        [0.04742587317756679, 0.9999938558253978, 0.995929862284104],
      ],
      [
        [0.11920292202211755, 0.11920292202211755, 0.11920292202211755],
        [0.9525741268224334, 6.144174602214718e-6, 0.004070137715896127],
      ],
    ]);
    closeAll(softmax(Z(), -2).tolist(), [
      [
        [0.04742587317756679, 0.04742587317756679, 0.04742587317756679],
        [0.9525741268224334, 0.9525741268224334, 0.9525741268224334],
      ],
      [
        [0.00033535013046647816, 0.9990889488055994, 0.6224593312018546],
        [0.9996646498695336, 0.0009110511944006454, 0.37754066879814546],
      ],
    ]);
  });

  it('is stable for large inputs and keeps float32', () => {
    const big = tensor([[1000, 1000, 1000]]);
    expect(big.softmax(1).dtype).toBe('float32');
    closeAll(big.softmax(1).tolist(), [[1 / 3, 1 / 3, 1 / 3]], 6);
    closeAll(logSoftmax(tensor([[-1000, 0]], { dtype: 'float64' }), 1).tolist(), [[-1000, 0]]);
  });

  it('gives NaN where torch does (all -inf, +inf, NaN) and -inf for a -inf entry of logSoftmax', () => {
    expect(
      tensor([[-Infinity, -Infinity]])
        .softmax(1)
        .tolist(),
    ).toEqual([[NaN, NaN]]);
    expect(
      tensor([[Infinity, 1]])
        .softmax(1)
        .tolist(),
    ).toEqual([[NaN, NaN]]);
    expect(
      tensor([[NaN, 1]])
        .softmax(1)
        .tolist(),
    ).toEqual([[NaN, NaN]]);
    expect(
      tensor([[-Infinity, -Infinity]])
        .logSoftmax(1)
        .tolist(),
    ).toEqual([[NaN, NaN]]);
    expect(
      tensor([[-Infinity, 0]])
        .logSoftmax(1)
        .tolist(),
    ).toEqual([[-Infinity, 0]]);
  });

  it('reads strided inputs, computes ints in float32 and checks the dim', () => {
    const z = Z();
    closeAll(z.permute([2, 1, 0]).softmax(2).tolist(), z.softmax(0).permute([2, 1, 0]).tolist());
    expect(arange(3).softmax(0).dtype).toBe('float32');
    expect(() => Z().softmax(3)).toThrow('Dimension out of range (expected to be in range of [-3, 2], but got 3)');
  });

  it('property: softmax sums to 1 along its dim and exp(logSoftmax) == softmax', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 0, max: 1 }),
        (xs, dim) => {
          const x = tensor(xs, { dtype: 'float64' }).reshape([2, 3]);
          const s = x.softmax(dim);
          closeAll(s.sum(dim).tolist(), dim === 0 ? [1, 1, 1] : [1, 1]);
          closeAll(x.logSoftmax(dim).exp().tolist(), s.tolist());
        },
      ),
    );
  });
});
