import { describe, expect, it } from 'vitest';
import { arange, cat, chunk, oneHot, sliceScatter, split, stack, tensor, zeros } from '../index.js';

const idx = (v: number[], shape = [v.length]) => tensor(new Int32Array(v)).reshape(shape);

describe('indexing', () => {
  it('gather / scatterAdd (torch.gather semantics)', () => {
    const x = tensor([[1, 2], [3, 4]]);
    expect(x.gather(1, idx([0, 0, 1, 0], [2, 2])).tolist()).toEqual([[1, 1], [4, 3]]);
    expect(zeros([2, 2]).scatterAdd(1, idx([0, 0, 1, 0], [2, 2]), ones22()).tolist()).toEqual([[2, 0], [1, 1]]);
    expect(() => x.gather(1, idx([0, 2], [2, 1]))).toThrow('index 2 is out of bounds for dimension 1 with size 2');
  });

  it('indexSelect / indexAdd', () => {
    const x = arange(6).reshape([3, 2]);
    expect(x.indexSelect(0, idx([2, 0])).tolist()).toEqual([[4, 5], [0, 1]]);
    expect(zeros([3, 2], { dtype: 'int32' }).indexAdd(0, idx([2, 2]), x.slice(0, 0, 2)).tolist()).toEqual([[0, 0], [0, 0], [2, 4]]);
    expect(() => x.indexSelect(0, idx([3]))).toThrow('index 3 is out of bounds for dimension 0 with size 3');
  });

  it('maskedFill broadcasts the mask; oneHot; sliceScatter', () => {
    const x = tensor([[1, 2], [3, 4]]);
    expect(x.maskedFill(tensor([true, false]), -1).tolist()).toEqual([[-1, 2], [-1, 4]]);
    expect(oneHot(idx([0, 2]), 3).tolist()).toEqual([[1, 0, 0], [0, 0, 1]]);
    expect(() => oneHot(idx([3]), 3)).toThrow('Class values must be smaller than num_classes');
    expect(sliceScatter(tensor([7, 8]), [5], 0, 1, 5, 2).tolist()).toEqual([0, 7, 0, 8, 0]);
  });

  it('cat, stack, split, chunk', () => {
    const a = arange(4).reshape([2, 2]);
    expect(cat([a, a], 1).tolist()).toEqual([[0, 1, 0, 1], [2, 3, 2, 3]]);
    expect(cat([tensor([1]), tensor([2, 3], { dtype: 'float64' })]).dtype).toBe('float64');
    expect(stack([a, a], 2).shape).toEqual([2, 2, 2]);
    expect(split(arange(5), 2).map((t) => t.tolist())).toEqual([[0, 1], [2, 3], [4]]);
    expect(split(arange(5), [1, 4]).map((t) => t.numel)).toEqual([1, 4]);
    expect(chunk(arange(5), 2).map((t) => t.tolist())).toEqual([[0, 1, 2], [3, 4]]);
    expect(() => cat([a, arange(3).reshape([3, 1])], 0)).toThrow('Sizes of tensors must match except in dimension 0');
  });
});

function ones22() {
  return tensor([[1, 1], [1, 1]]);
}
