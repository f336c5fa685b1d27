import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  arange,
  argmax,
  argmin,
  logsumexp,
  max,
  mean,
  min,
  ones,
  prod,
  std,
  sum,
  tensor,
  var_,
  type Tensor,
} from '../index.js';

const close = (digits: number) => (v: number) => expect.closeTo(v, digits);
const m = () => arange(6).reshape([2, 3]).to('float32');
// a 3x4 float64 matrix; the expected values below are PyTorch 1.13's
const X = () =>
  tensor(
    [
      [1, -2, 3.5, 0.25],
      [4, 5, -6, 7],
      [0.5, -1.5, 2, 8],
    ],
    { dtype: 'float64' },
  );
const cube = () => arange(24).reshape([2, 3, 4]).to('float64');

describe('sum, prod, mean', () => {
  it('reduce over all, one and several dims, with keepdim', () => {
    expect(m().sum().item()).toBe(15);
    expect(m().sum().shape).toEqual([]);
    expect(m().sum(0).tolist()).toEqual([3, 5, 7]);
    expect(m().sum(-1, true).tolist()).toEqual([[3], [12]]);
    expect(m().sum([0, 1]).shape).toEqual([]);
    expect(m().sum([0, 1], true).shape).toEqual([1, 1]);
    expect(m().mean(1).tolist()).toEqual([1, 4]);
    expect(m().prod(1).tolist()).toEqual([0, 60]);
    expect(X().prod().item()).toBe(-17640);
    expect(X().prod(0).tolist()).toEqual([2, 15, -42, 14]);
    expect(X().mean([0, 1]).item()).toBeCloseTo(1.8125, 12);
    expect(X().mean(0).tolist()).toEqual(
      [1.8333333333333333, 0.5, -0.16666666666666666, 5.083333333333333].map(close(12)),
    );
  });

  it('reduce 0-dim tensors over dim 0 or -1', () => {
    const s = tensor(5);
    expect(s.sum(0).item()).toBe(5);
    expect(s.sum(-1, true).shape).toEqual([]);
    expect(s.prod(0).item()).toBe(5);
    expect(s.max(0).values.item()).toBe(5);
    expect(s.max(0).indices.item()).toBe(0);
    expect(s.argmin(0).item()).toBe(0);
    expect(s.softmax(0).item()).toBe(1);
    expect(s.mean(0).item()).toBe(5);
    expect(logsumexp(s, 0).item()).toBeCloseTo(5, 6);
  });

  it('an empty dim list reduces every dim, as in torch', () => {
    expect(m().sum([]).item()).toBe(15);
    expect(m().mean([]).item()).toBe(2.5);
  });

  it('reduces over non-adjacent dims, in any order, and over strided inputs', () => {
    expect(cube().sum([0, 2]).tolist()).toEqual([60, 92, 124]);
    expect(cube().sum([2, 0]).tolist()).toEqual([60, 92, 124]);
    expect(cube().sum([0, 2], true).shape).toEqual([1, 3, 1]);
    expect(cube().permute([2, 0, 1]).sum(0).tolist()).toEqual([
      [6, 22, 38],
      [54, 70, 86],
    ]);
    expect(m().t().sum(1).tolist()).toEqual([3, 5, 7]);
    expect(m().slice(1, 0, null, 2).sum(0).tolist()).toEqual([3, 7]);
  });

  it('sums bool and int32 in int32; prod too', () => {
    expect(arange(4).sum().dtype).toBe('int32');
    expect(tensor([true, true, false]).sum().item()).toBe(2);
    expect(tensor([true, true, false]).sum().dtype).toBe('int32');
    expect(arange(1, 5).prod().item()).toBe(24);
    expect(tensor([true, true]).prod().dtype).toBe('int32');
  });

  it('sums float32 in a wider accumulator', () => {
    // 2^24 + 1 + 1 ... is lost by a float32 accumulator, not by ours
    const x = tensor([16777216, ...new Array<number>(100).fill(1)]);
    expect(x.sum().item()).toBe(16777316);
  });

  it("refuses mean of ints with PyTorch's message", () => {
    expect(() => arange(3).mean()).toThrow(
      'mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Int',
    );
    expect(() => mean(tensor([true]))).toThrow('Got: Bool');
  });

  it('checks dims', () => {
    expect(() => m().sum(2)).toThrow('Dimension out of range (expected to be in range of [-2, 1], but got 2)');
    expect(() => m().sum([0, -2])).toThrow('dim 0 appears multiple times in the list of dims');
  });
});

describe('var and std', () => {
  it('are unbiased by default; correction changes the divisor (values from PyTorch)', () => {
    expect(X().var().item()).toBeCloseTo(15.853693181818182, 12);
    expect(X().var(0).tolist()).toEqual(
      [3.5833333333333335, 15.25, 26.083333333333332, 17.770833333333336].map(close(12)),
    );
    expect(var_(X(), 1, false, { correction: 0 }).tolist()).toEqual(
      [3.8554687500000004, 25.25, 12.5625].map(close(12)),
    );
    expect(X().std().item()).toBeCloseTo(3.981669647499423, 12);
    expect(std(X(), 1).tolist()).toEqual([2.267294643402132, 5.802298395176403, 4.092676385936225].map(close(12)));
    expect(cube().var([0, 2]).tolist()).toEqual(
      [42.57142857142857, 42.57142857142857, 42.57142857142857].map(close(12)),
    );
    expect(m().var(1, true).shape).toEqual([2, 1]);
  });

  it('give NaN for one element, and refuse ints', () => {
    expect(tensor([1]).var().item()).toBeNaN();
    expect(() => arange(3).var()).toThrow('std and var only support floating point and complex dtypes');
    expect(() => arange(3).std()).toThrow('std and var only support floating point and complex dtypes');
  });
});

describe('max, min, argmax, argmin', () => {
  it('give a 0-dim tensor without a dim and {values, indices} with one', () => {
    expect(m().max().item()).toBe(5);
    expect(m().max().shape).toEqual([]);
    const { values, indices } = m().max(1);
    expect(values.tolist()).toEqual([2, 5]);
    expect(indices.tolist()).toEqual([2, 2]);
    expect(indices.dtype).toBe('int32');
    expect(m().min(0, true).values.shape).toEqual([1, 3]);
    expect(min(m(), 0).indices.tolist()).toEqual([0, 0, 0]);
    expect(cube().max(1).values.tolist()).toEqual([
      [8, 9, 10, 11],
      [20, 21, 22, 23],
    ]);
    expect(cube().max(1).indices.tolist()).toEqual([
      [2, 2, 2, 2],
      [2, 2, 2, 2],
    ]);
  });

  it('argmax/argmin index the flattened tensor without a dim; keepdim keeps ones', () => {
    expect(m().argmax().item()).toBe(5);
    expect(m().argmin(1).tolist()).toEqual([0, 0]);
    expect(argmax(cube(), undefined, true).shape).toEqual([1, 1, 1]);
    expect(argmin(cube(), 2, true).shape).toEqual([2, 3, 1]);
    expect(m().t().argmax(0).tolist()).toEqual([2, 2]);
  });

  it('keep the first of tied extremes and the first NaN, like torch', () => {
    expect(tensor([3, 1, 3]).argmax().item()).toBe(0);
    expect(tensor([1, NaN, 3, NaN]).max().item()).toBeNaN();
    const r = max(tensor([1, NaN, 3, NaN]), 0);
    expect(r.values.item()).toBeNaN();
    expect(r.indices.item()).toBe(1);
    expect(
      tensor([
        [1, NaN],
        [NaN, 2],
        [5, 0],
      ])
        .argmin(0)
        .tolist(),
    ).toEqual([1, 0]);
  });

  it('keep the dtype of their input', () => {
    expect(arange(4).max().dtype).toBe('int32');
    expect(tensor([true, false]).max().tolist()).toBe(true);
  });

  it("refuse empty reductions with PyTorch's messages", () => {
    expect(() => ones([0]).max()).toThrow(
      "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
    );
    expect(() => ones([0, 3]).min(0)).toThrow('min(): Expected reduction dim 0 to have non-zero size.');
    expect(ones([0, 3]).max(1).values.shape).toEqual([0]);
    expect(() => ones([0]).argmax()).toThrow(
      'argmax(): Expected reduction dim to be specified for input.numel() == 0.',
    );
    expect(() => ones([0, 3]).argmin(0)).toThrow('argmin(): Expected reduction dim 0 to have non-zero size.');
  });
});

describe('logsumexp', () => {
  it('matches PyTorch, including large values and infinities', () => {
    expect(X().logsumexp(1).tolist()).toEqual([3.617735014853701, 7.169847926808519, 8.003101872591884].map(close(12)));
    expect(X().logsumexp([0, 1]).item()).toBeCloseTo(8.372657226645128, 12);
    expect(X().logsumexp(0, true).shape).toEqual([1, 4]);
    expect(logsumexp(tensor([1000, 1000], { dtype: 'float64' }), 0).item()).toBeCloseTo(1000 + Math.LN2, 9);
    expect(logsumexp(tensor([-Infinity, -Infinity]), 0).item()).toBe(-Infinity);
    expect(logsumexp(tensor([Infinity, 1]), 0).item()).toBe(Infinity);
    expect(logsumexp(arange(3), 0).dtype).toBe('float32');
    expect(logsumexp(ones([2, 0]), 1).tolist()).toEqual([-Infinity, -Infinity]);
  });
});

describe('reduction laws (properties)', () => {
  it('the sum over all dims equals the sum of tolist(), in any shape', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 5 }),
        (values, cols) => {
          const t = tensor(values, { dtype: 'float64' });
          const flat = values.reduce((a, b) => a + b, 0);
          expect(t.sum().item()).toBe(flat);
          const n = values.length - (values.length % cols);
          if (n > 0) {
            const grid = t.slice(0, 0, n).reshape([n / cols, cols]);
            expect(grid.sum([0, 1]).item()).toBe(values.slice(0, n).reduce((a, b) => a + b, 0));
            expect(sum(grid.sum(0)).item()).toBe(grid.t().sum(0).sum().item());
          }
        },
      ),
    );
  });

  it('max and argmax agree, and mean * n == sum', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 30 }), (values) => {
        const t: Tensor = tensor(values, { dtype: 'float64' });
        expect(t.max().item()).toBe(Math.max(...values));
        expect(values[t.argmax().item()]).toBe(Math.max(...values));
        expect(t.argmin().item()).toBe(values.indexOf(Math.min(...values)));
        expect(mean(t).item() * values.length).toBeCloseTo(t.sum().item(), 9);
        expect(prod(t.clamp(1, 2)).item()).toBe(values.reduce((p, v) => p * Math.min(Math.max(v, 1), 2), 1));
      }),
    );
  });
});
