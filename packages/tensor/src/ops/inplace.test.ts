import { describe, expect, it } from 'vitest';
import { arange, ones, tensor, zeros, TensorError } from '../index.js';

describe('in-place ops', () => {
  it('compute, write into this, bump the version once per op and return this', () => {
    const x = zeros([2]);
    expect(x.add_(1)).toBe(x);
    x.mul_(3).sub_(1).div_(2).clamp_(0, 0.75);
    expect(x.tolist()).toEqual([0.75, 0.75]);
    expect(x.version).toBe(5);
    expect(x.zero_()).toBe(x);
    expect(x.fill_(2)).toBe(x);
    expect(x.tolist()).toEqual([2, 2]);
    expect(x.version).toBe(7);
  });

  it('match PyTorch values (float32 rounding, alpha, clamp)', () => {
    expect(tensor([1, 2, 3]).div_(3).tolist()).toEqual([0.3333333432674408, 0.6666666865348816, 1]);
    expect(tensor([-2, 0.5, 3]).clamp_(-1, 1).tolist()).toEqual([-1, 0.5, 1]);
    expect(
      tensor([1, 2])
        .add_(tensor([10, 20]), { alpha: 2 })
        .tolist(),
    ).toEqual([21, 42]);
    expect(tensor([1, 2]).sub_(1, { alpha: 3 }).tolist()).toEqual([-2, -1]);
    expect(arange(4).mul_(3).tolist()).toEqual([0, 3, 6, 9]);
  });

  it('write through views: the base sees the change and shares the version', () => {
    const base = zeros([3, 4]);
    const col = base.select(1, 2);
    col.add_(tensor([1, 2, 3]));
    const block = base.slice(0, 1).slice(1, 0, 4, 2);
    block.fill_(-1);
    expect(base.tolist()).toEqual([
      [0, 0, 1, 0],
      [-1, 0, -1, 0],
      [-1, 0, -1, 0],
    ]);
    expect(base.version).toBe(2);
    expect(col.version).toBe(2);
    base.t().zero_();
    expect(block.version).toBe(3);
    expect(base.sum().item()).toBe(0);
  });

  it('copy_ broadcasts, casts (truncating into int32, 0/1 into bool) and keeps x', () => {
    const x = zeros([2, 2], { dtype: 'int32' });
    expect(x.copy_(tensor([1.9, -2.5]))).toBe(x);
    expect(x.tolist()).toEqual([
      [1, -2],
      [1, -2],
    ]);
    const b = zeros([3], { dtype: 'bool' }).copy_(tensor([0, -0.5, NaN]));
    expect(b.tolist()).toEqual([false, true, true]);
    const f = zeros([3], { dtype: 'float64' }).copy_(tensor([true, false, true]));
    expect(f.tolist()).toEqual([1, 0, 1]);
  });

  it("refuses results that cannot be cast to the target, with PyTorch's message", () => {
    const ints = arange(3);
    expect(() => ints.add_(1.5)).toThrow("result type Float can't be cast to the desired output type Int");
    expect(ints.version).toBe(0);
    expect(() => tensor([true]).add_(1)).toThrow("result type Int can't be cast to the desired output type Bool");
    expect(() => arange(3).clamp_(0.5)).toThrow(TensorError);
  });

  it('refuses results that do not fit the target shape', () => {
    expect(() => zeros([2]).add_(ones([2, 2]))).toThrow(
      "output with shape [2] doesn't match the broadcast shape [2, 2]",
    );
    expect(() => zeros([2]).copy_(zeros([3]))).toThrow(
      'The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0',
    );
  });

  it('refuses writes into expanded views (aliased elements), but fill_ is allowed like torch', () => {
    const e = zeros([3]).expand([2, 3]);
    expect(() => e.add_(1)).toThrow(
      'unsupported operation: more than one element of the written-to tensor refers to a single memory location',
    );
    expect(() => e.copy_(ones([2, 3]))).toThrow('Please clone() the tensor before performing the operation.');
    expect(e.fill_(4).tolist()).toEqual([
      [4, 4, 4],
      [4, 4, 4],
    ]);
    expect(zeros([1]).expand([1, 1]).add_(1).tolist()).toEqual([[1]]);
  });

  it('fill_ casts the value to the dtype', () => {
    expect(zeros([2], { dtype: 'int32' }).fill_(2.7).tolist()).toEqual([2, 2]);
    expect(zeros([2], { dtype: 'bool' }).fill_(3).tolist()).toEqual([true, true]);
    expect(zeros([2]).fill_(true).tolist()).toEqual([1, 1]);
  });
});
