import { describe, expect, it } from 'vitest';
import {
  arange,
  gather,
  indexAdd,
  indexSelect,
  maskedFill,
  oneHot,
  ones,
  scatterAdd,
  sliceScatter,
  tensor,
  zeros,
} from '../index.js';

const idx = (v: number[], shape = [v.length]) => tensor(new Int32Array(v)).reshape(shape);
const x234 = () => arange(24, { dtype: 'float32' }).reshape([2, 3, 4]);

describe('gather / scatterAdd', () => {
  it('match PyTorch along every dim', () => {
    const x = x234();
    expect(x.gather(2, idx([3, 0, 1, 1, 2, 0, 0, 0, 3, 2, 1, 3], [2, 3, 2])).tolist()).toEqual([
      [
        [3, 0],
        [5, 5],
        [10, 8],
      ],
      [
        [12, 12],
        [19, 18],
        [21, 23],
      ],
    ]);
    expect(gather(x, 0, idx([1, 0, 1, 0, 0, 1, 0, 1], [2, 1, 4])).tolist()).toEqual([
      [[12, 1, 14, 3]],
      [[0, 13, 2, 15]],
    ]);
    expect(
      ones([3, 4])
        .scatterAdd(1, idx([0, 0, 3, 2, 1, 2], [2, 3]), arange(1, 7, { dtype: 'float32' }).reshape([2, 3]))
        .tolist(),
    ).toEqual([
      [4, 1, 1, 4],
      [1, 6, 11, 1],
      [1, 1, 1, 1],
    ]);
    // src larger than index: only the positions index covers are read
    expect(
      scatterAdd(
        zeros([3, 2]),
        0,
        idx([2, 0, 2, 2], [2, 2]),
        tensor([
          [1, 2, 9],
          [3, 4, 9],
        ]),
      ).tolist(),
    ).toEqual([
      [0, 2],
      [0, 0],
      [4, 4],
    ]);
  });

  it('read strided x and index, and cast src to x', () => {
    const x = x234().transpose(0, 2);
    const index = idx([0, 1, 1, 0], [2, 2]).t().unsqueeze(2);
    expect(x.gather(1, index).tolist()).toEqual([
      [[0], [4]],
      [[5], [1]],
    ]);
    expect(
      zeros([2], { dtype: 'int32' })
        .scatterAdd(0, idx([1, 1]), tensor([1.5, 2.5]))
        .tolist(),
    ).toEqual([0, 3]);
    expect(
      zeros([2], { dtype: 'bool' })
        .scatterAdd(0, idx([1, 1]), tensor([true, true]))
        .tolist(),
    ).toEqual([false, true]);
    expect(gather(tensor(5), 0, idx([0], [])).item()).toBe(5);
  });

  it("out-of-range indices are torch's error, never a wrong read", () => {
    const x = tensor([
      [1, 2],
      [3, 4],
    ]);
    expect(() => x.gather(1, idx([0, 2], [2, 1]))).toThrow('index 2 is out of bounds for dimension 1 with size 2');
    expect(() => x.gather(1, idx([0, -1], [2, 1]))).toThrow('index -1 is out of bounds for dimension 1 with size 2');
    expect(() => zeros([3]).scatterAdd(0, idx([5]), ones([1]))).toThrow(
      'index 5 is out of bounds for dimension 0 with size 3',
    );
  });

  it("check shapes and dtypes with torch's messages", () => {
    expect(() => zeros([2, 3]).gather(1, idx([0, 1]))).toThrow(
      'Index tensor must have the same number of dimensions as input tensor',
    );
    expect(() => zeros([2, 3]).gather(1, idx([0, 0, 0, 0, 0, 0], [3, 2]))).toThrow(
      'Size does not match at dimension 0 expected index [3, 2] to be smaller than self [2, 3] apart from dimension 1',
    );
    expect(() => zeros([2, 3]).scatterAdd(1, idx([0, 1], [1, 2]), ones([1, 1]))).toThrow(
      'expected index [1, 2] to be smaller than self [2, 3] apart from dimension 1 and to be smaller size than src [1, 1]',
    );
    expect(() => zeros([2]).gather(0, tensor([0]))).toThrow('gather(): Expected dtype int32 for index, got float32');
  });
});

describe('indexSelect / indexAdd', () => {
  it('match PyTorch', () => {
    expect(
      x234()
        .indexSelect(2, idx([3, 0, 3]))
        .tolist(),
    ).toEqual([
      [
        [3, 0, 3],
        [7, 4, 7],
        [11, 8, 11],
      ],
      [
        [15, 12, 15],
        [19, 16, 19],
        [23, 20, 23],
      ],
    ]);
    expect(
      zeros([2, 4])
        .indexAdd(1, idx([3, 0, 3]), arange(6, { dtype: 'float32' }).reshape([2, 3]))
        .tolist(),
    ).toEqual([
      [1, 0, 0, 2],
      [4, 0, 0, 8],
    ]);
    const x = arange(6).reshape([3, 2]);
    expect(indexSelect(x.t(), 1, idx([2, 0])).tolist()).toEqual([
      [4, 0],
      [5, 1],
    ]);
    expect(indexAdd(zeros([3, 2], { dtype: 'int32' }), 0, idx([2, 2]), x.slice(0, 0, 2)).tolist()).toEqual([
      [0, 0],
      [0, 0],
      [2, 4],
    ]);
    expect(x.indexSelect(0, idx([1, 1, 1]).slice(0, null, null, 2)).tolist()).toEqual([
      [2, 3],
      [2, 3],
    ]);
    expect(x.indexSelect(0, idx([], [0])).shape).toEqual([0, 2]);
  });

  it("refuse bad indices and shapes with torch's messages", () => {
    const x = arange(6).reshape([3, 2]);
    expect(() => x.indexSelect(0, idx([3]))).toThrow('index 3 is out of bounds for dimension 0 with size 3');
    expect(() => x.indexSelect(0, idx([-1]))).toThrow('index -1 is out of bounds for dimension 0 with size 3');
    expect(() => x.indexSelect(0, idx([0, 1], [1, 2]))).toThrow('index_select(): Index is supposed to be a vector');
    expect(() => zeros([3]).indexAdd(0, idx([1]), ones([2]))).toThrow(
      'index_add_(): Number of indices (1) should be equal to source.size(dim): (2), for dim: 0',
    );
    expect(() => zeros([3, 2]).indexAdd(0, idx([1]), ones([1, 3]))).toThrow(
      'index_add_(): Source/destination tensor must have same slice shapes',
    );
    expect(() => zeros([3]).indexAdd(0, idx([5]), ones([1]))).toThrow(
      'index 5 is out of bounds for dimension 0 with size 3',
    );
  });
});

describe('maskedFill / oneHot / sliceScatter', () => {
  it('maskedFill broadcasts mask and x, and casts the value to x like torch', () => {
    expect(
      x234()
        .select(0, 0)
        .maskedFill(tensor([[true], [false], [true]]), -1.5)
        .tolist(),
    ).toEqual([
      [-1.5, -1.5, -1.5, -1.5],
      [4, 5, 6, 7],
      [-1.5, -1.5, -1.5, -1.5],
    ]);
    expect(
      arange(3)
        .maskedFill(tensor([true, false, true]), 1.7)
        .tolist(),
    ).toEqual([1, 1, 1]);
    expect(arange(3).maskedFill(tensor([true, false, true]), 1.7).dtype).toBe('int32');
    expect(
      tensor([true, false])
        .maskedFill(tensor([true, false]), 0.5)
        .tolist(),
    ).toEqual([true, false]);
    expect(maskedFill(zeros([3]), ones([2, 3], { dtype: 'bool' }), 1).shape).toEqual([2, 3]);
    expect(() => zeros([3]).maskedFill(ones([3]), 1)).toThrow(
      'masked_fill_ only supports boolean masks, but got mask with dtype float32',
    );
    expect(() => zeros([2, 3]).maskedFill(ones([2], { dtype: 'bool' }), 1)).toThrow(
      'The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1',
    );
  });

  it('oneHot matches F.one_hot, inferring the class count from the largest index', () => {
    expect(oneHot(idx([0, 2]), 3).tolist()).toEqual([
      [1, 0, 0],
      [0, 0, 1],
    ]);
    expect(oneHot(idx([0, 2])).tolist()).toEqual([
      [1, 0, 0],
      [0, 0, 1],
    ]);
    expect(oneHot(idx([1, 0], [2, 1]), 2).shape).toEqual([2, 1, 2]);
    expect(oneHot(idx([], [0]), 3).shape).toEqual([0, 3]);
    expect(() => oneHot(idx([3]), 3)).toThrow('Class values must be smaller than num_classes.');
    expect(() => oneHot(idx([0, -1]), 3)).toThrow('Class values must be non-negative.');
    expect(() => oneHot(idx([], [0]))).toThrow('Can not infer total number of classes from empty tensor.');
  });

  it('sliceScatter writes src into the slice of zeros (the gradient of slice)', () => {
    expect(sliceScatter(tensor([7, 8]), [5], 0, 1, 5, 2).tolist()).toEqual([0, 7, 0, 8, 0]);
    expect(sliceScatter(tensor([[1], [2]]), [2, 3], 1, 2, 3).tolist()).toEqual([
      [0, 0, 1],
      [0, 0, 2],
    ]);
    expect(sliceScatter(zeros([2, 0]), [2, 3], 1, 3, 3).tolist()).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(() => sliceScatter(tensor([7, 8, 9]), [5], 0, 1, 5, 2)).toThrow(
      'slice_scatter: expected src to have a size equal to the slice of self',
    );
    expect(() => sliceScatter(tensor([7]), [5], 0, 4, 7)).toThrow('expected 0 <= start <= end <= 5');
  });
});
