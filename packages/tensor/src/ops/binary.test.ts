import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arange, broadcastShapes, tensor, zeros, TensorError } from '../index.js';

describe('binary ops', () => {
  it('add/sub/mul/div with broadcasting', () => {
    const a = tensor([[1, 2, 3]]);
    const b = tensor([[10], [20]]);
    expect(a.add(b).tolist()).toEqual([[11, 12, 13], [21, 22, 23]]);
    expect(b.sub(a).tolist()).toEqual([[9, 8, 7], [19, 18, 17]]);
    expect(a.mul(b).tolist()).toEqual([[10, 20, 30], [20, 40, 60]]);
    expect(tensor([3, 6]).div(tensor([2, 4])).tolist()).toEqual([1.5, 1.5]);
  });

  it('add and sub take alpha', () => {
    expect(tensor([1, 2]).add(tensor([1, 1]), { alpha: 3 }).tolist()).toEqual([4, 5]);
    expect(tensor([1, 2]).sub(1, { alpha: 2 }).tolist()).toEqual([-1, 0]);
  });

  it('promotes types like PyTorch', () => {
    const i = arange(3); // int32
    expect(i.add(1).dtype).toBe('int32');
    expect(i.add(1.5).dtype).toBe('float32');
    expect(i.div(2).dtype).toBe('float32');
    expect(i.div(2).tolist()).toEqual([0, 0.5, 1]);
    expect(tensor([1], { dtype: 'float32' }).add(tensor(1, { dtype: 'float64' })).dtype).toBe('float32');
    expect(tensor([1], { dtype: 'float32' }).add(tensor([1], { dtype: 'float64' })).dtype).toBe('float64');
    expect(tensor([true]).add(tensor([true])).dtype).toBe('bool');
    expect(tensor([true]).add(1).dtype).toBe('int32');
    expect(i.mul(tensor(2.5)).dtype).toBe('float32');
  });

  it('comparisons give bool', () => {
    const a = tensor([1, 2, 3]);
    expect(a.eq(2).tolist()).toEqual([false, true, false]);
    expect(a.ne(2).tolist()).toEqual([true, false, true]);
    expect(a.lt(2).tolist()).toEqual([true, false, false]);
    expect(a.le(2).tolist()).toEqual([true, true, false]);
    expect(a.gt(2).tolist()).toEqual([false, false, true]);
    expect(a.ge(2).dtype).toBe('bool');
  });

  it('pow, maximum, minimum (NaN propagates)', () => {
    expect(tensor([2, 3]).pow(2).tolist()).toEqual([4, 9]);
    expect(tensor([1, NaN, 5]).maximum(tensor([2, 2, 2])).tolist()).toEqual([2, NaN, 5]);
    expect(tensor([1, 4]).minimum(tensor([2, 2])).tolist()).toEqual([1, 2]);
  });

  it('works on strided views (transposed, sliced)', () => {
    const m = arange(6).reshape([2, 3]);
    expect(m.t().add(m.t()).tolist()).toEqual([[0, 6], [2, 8], [4, 10]]);
    expect(m.slice(1, 0, null, 2).mul(10).tolist()).toEqual([[0, 20], [30, 50]]);
  });

  it("throws PyTorch's broadcasting message", () => {
    expect(() => tensor([[1, 2, 3]]).add(tensor([[1, 2, 3, 4]]))).toThrow(
      'The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1',
    );
    expect(() => tensor([true]).sub(tensor([false]))).toThrow(TensorError);
  });

  it('property: the result shape is the broadcast of both shapes, and each element is a+b', () => {
    const dim = fc.integer({ min: 1, max: 3 });
    fc.assert(
      fc.property(fc.array(dim, { minLength: 0, maxLength: 3 }), fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), (shape, ones) => {
        const other = shape.map((s, i) => (ones[i] ? 1 : s));
        const a = arange(shape.reduce((p, s) => p * s, 1)).reshape(shape);
        const b = zeros(other).add(1);
        const r = a.add(b);
        expect(r.shape).toEqual(broadcastShapes(shape, other));
        expect(r.sum().item()).toBeCloseTo(a.sum().item() + r.numel, 6);
      }),
    );
  });
});
