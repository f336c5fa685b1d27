import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arange, tensor } from '../index.js';

const m = () => arange(6).reshape([2, 3]).to('float32');

describe('reductions', () => {
  it('sum/mean/prod over all, one and several dims, with keepdim', () => {
    expect(m().sum().item()).toBe(15);
    expect(m().sum(0).tolist()).toEqual([3, 5, 7]);
    expect(m().sum(-1, true).tolist()).toEqual([[3], [12]]);
    expect(m().sum([0, 1]).shape).toEqual([]);
    expect(m().mean(1).tolist()).toEqual([1, 4]);
    expect(m().prod(1).tolist()).toEqual([0, 60]);
    expect(arange(4).sum().dtype).toBe('int32');
    expect(tensor([true, true, false]).sum().item()).toBe(2);
  });

  it('reduces over non-adjacent dims', () => {
    const a = arange(24).reshape([2, 3, 4]).to('float64');
    expect(a.sum([0, 2]).tolist()).toEqual([60, 92, 124]);
  });

  it('var and std are unbiased by default (values from PyTorch)', () => {
    expect(m().var().item()).toBeCloseTo(3.5, 6);
    expect(m().std(0).tolist()).toEqual([2.1213202476501465, 2.1213202476501465, 2.1213202476501465]);
    expect(m().var(1, false, { correction: 0 }).tolist()).toEqual([0.6666666865348816, 0.6666666865348816]);
  });

  it('max/min: 0-dim without dim, {values, indices} with one', () => {
    expect(m().max().item()).toBe(5);
    const { values, indices } = m().max(1);
    expect(values.tolist()).toEqual([2, 5]);
    expect(indices.tolist()).toEqual([2, 2]);
    expect(indices.dtype).toBe('int32');
    expect(m().min(0, true).values.shape).toEqual([1, 3]);
    expect(m().argmax().item()).toBe(5);
    expect(m().argmin(1).tolist()).toEqual([0, 0]);
    expect(tensor([1, NaN, 3]).max().item()).toBeNaN();
  });

  it('mean of ints is an error, as in PyTorch', () => {
    expect(() => arange(3).mean()).toThrow('mean(): could not infer output dtype');
  });

  it('softmax, logSoftmax and logsumexp (values from PyTorch)', () => {
    const x = tensor([[1, 2, 3], [1000, 1000, 1000]], { dtype: 'float64' });
    const s = x.softmax(1).tolist() as number[][];
    expect(s[0]![0]).toBeCloseTo(0.09003057317038046, 12);
    expect(s[0]![2]).toBeCloseTo(0.6652409557748219, 12);
    expect(s[1]).toEqual([1 / 3, 1 / 3, 1 / 3].map((v) => expect.closeTo(v, 12)));
    expect((x.logSoftmax(1).tolist() as number[][])[0]![0]).toBeCloseTo(-2.4076059644443806, 12);
    expect(x.logsumexp(1).tolist()).toEqual([expect.closeTo(3.4076059644443806, 12), expect.closeTo(1001.0986122886681, 9)]);
  });

  it('property: the sum over all dims equals the sum of tolist()', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 60 }), (values) => {
        const t = tensor(values, { dtype: 'float64' });
        const flat = (t.tolist() as number[]).reduce((a, b) => a + b, 0);
        expect(t.sum().item()).toBe(flat);
        expect(t.reshape([values.length, 1]).sum([0, 1]).item()).toBe(flat);
      }),
    );
  });
});
