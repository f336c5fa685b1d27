import { describe, expect, it } from 'vitest';
import { arange, ones, randn, tensor } from '../index.js';

function naive(a: number[][], b: number[][]): number[][] {
  return a.map((row) => b[0]!.map((_, j) => row.reduce((s, v, k) => s + v * b[k]![j]!, 0)));
}

describe('matmul', () => {
  it('2-D matches the naive product for sizes that are not multiples of the block', () => {
    const a = randn([7, 5], { dtype: 'float64' });
    const b = randn([5, 6], { dtype: 'float64' });
    const got = a.matmul(b).tolist() as number[][];
    const want = naive(a.tolist() as number[][], b.tolist() as number[][]);
    got.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(want[i]![j]!, 12)));
  });

  it('reads transposed operands by stride', () => {
    const a = arange(6).reshape([3, 2]).to('float32');
    expect(a.t().matmul(a).tolist()).toEqual([[20, 26], [26, 35]]);
  });

  it('follows PyTorch rules for 1-D and batched operands', () => {
    const v = tensor([1, 2]);
    const m = tensor([[1, 2], [3, 4]]);
    expect(v.matmul(v).item()).toBe(5);
    expect(m.matmul(v).tolist()).toEqual([5, 11]);
    expect(v.matmul(m).tolist()).toEqual([7, 10]);
    expect(ones([4, 1, 2, 3]).matmul(ones([5, 3, 2])).shape).toEqual([4, 5, 2, 2]);
    expect(ones([2, 2, 3]).bmm(ones([2, 3, 4])).shape).toEqual([2, 2, 4]);
    expect(tensor([1, 2]).outer(tensor([3, 4, 5])).tolist()).toEqual([[3, 4, 5], [6, 8, 10]]);
  });

  it("throws PyTorch's messages", () => {
    expect(() => ones([2, 3]).matmul(ones([4, 5]))).toThrow('mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)');
    expect(() => ones([2, 3]).mm(ones([3, 2], { dtype: 'float64' }))).toThrow('expected m1 and m2 to have the same dtype, but got: float != double');
    expect(() => tensor(1).matmul(ones([2]))).toThrow('both arguments to matmul need to be at least 1D');
    expect(() => ones([3]).dot(ones([4]))).toThrow('inconsistent tensor size');
  });

  it('int32 matmul is exact', () => {
    const a = arange(4).reshape([2, 2]);
    expect(a.matmul(a).tolist()).toEqual([[2, 3], [6, 11]]);
    expect(a.matmul(a).dtype).toBe('int32');
  });
});
