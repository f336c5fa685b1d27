import { describe, expect, it } from 'vitest';
import { arange, cat, chunk, split, stack, tensor, zeros } from '../index.js';

const x234 = () => arange(24, { dtype: 'float32' }).reshape([2, 3, 4]);

describe('cat / stack', () => {
  it('match PyTorch, reading strided inputs', () => {
    const a = arange(4).reshape([2, 2]);
    expect(cat([a, a], 1).tolist()).toEqual([
      [0, 1, 0, 1],
      [2, 3, 2, 3],
    ]);
    expect(cat([a, a.t()], 0).tolist()).toEqual([
      [0, 1],
      [2, 3],
      [0, 2],
      [1, 3],
    ]);
    const x = x234();
    expect(cat([x.slice(1, 0, 1), x.slice(1, 2)], 1).tolist()).toEqual([
      [
        [0, 1, 2, 3],
        [8, 9, 10, 11],
      ],
      [
        [12, 13, 14, 15],
        [20, 21, 22, 23],
      ],
    ]);
    expect(cat([x, x], -1).shape).toEqual([2, 3, 8]);
    expect(stack([tensor([1, 2]), tensor([3, 4])], -1).tolist()).toEqual([
      [1, 3],
      [2, 4],
    ]);
    expect(stack([a, a], 2).shape).toEqual([2, 2, 2]);
    expect(stack([tensor(1), tensor(2)]).tolist()).toEqual([1, 2]);
  });

  it('always make a new tensor, promote dtypes, and skip 1-D empty tensors like torch', () => {
    const a = tensor([1, 2]);
    const single = cat([a]);
    expect(single.storage).not.toBe(a.storage);
    expect(cat([tensor([1]), tensor([2, 3], { dtype: 'float64' })]).dtype).toBe('float64');
    expect(cat([arange(2), tensor([true])]).tolist()).toEqual([0, 1, 1]);
    expect(cat([zeros([2, 3]), zeros([0])]).shape).toEqual([2, 3]);
    expect(cat([zeros([0]), zeros([0])]).shape).toEqual([0]);
    expect(cat([zeros([0, 3]), zeros([2, 3])]).shape).toEqual([2, 3]);
  });

  it('reject what torch rejects, with its messages', () => {
    const a = arange(4).reshape([2, 2]);
    expect(() => cat([a, arange(3).reshape([3, 1])], 0)).toThrow(
      'Sizes of tensors must match except in dimension 0. Expected size 2 but got size 1 for tensor number 1 in the list.',
    );
    expect(() => cat([zeros([2, 3]), zeros([3])])).toThrow('Tensors must have same number of dimensions: got 2 and 1');
    expect(() => cat([tensor(1), tensor(2)])).toThrow('zero-dimensional tensor (at position 0) cannot be concatenated');
    expect(() => cat([])).toThrow('torch.cat(): expected a non-empty list of Tensors');
    expect(() => cat([a], 2)).toThrow('Dimension out of range (expected to be in range of [-2, 1], but got 2)');
    expect(() => stack([zeros([2]), zeros([3])])).toThrow(
      'stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1',
    );
    expect(() => stack([])).toThrow('stack expects a non-empty TensorList');
  });
});

describe('split / chunk', () => {
  it('give views of consecutive pieces, like torch', () => {
    const r = arange(5);
    const pieces = split(r, 2);
    expect(pieces.map((t) => t.tolist())).toEqual([[0, 1], [2, 3], [4]]);
    expect(pieces.every((t) => t.storage === r.storage)).toBe(true);
    expect(split(r, [1, 4]).map((t) => t.numel)).toEqual([1, 4]);
    expect(split(r, [0, 5]).map((t) => t.numel)).toEqual([0, 5]);
    expect(
      x234()
        .split(3, -1)
        .map((t) => t.shape),
    ).toEqual([
      [2, 3, 3],
      [2, 3, 1],
    ]);
    expect(split(zeros([0]), 2).map((t) => t.shape)).toEqual([[0]]);
    expect(split(zeros([0]), 0).map((t) => t.shape)).toEqual([[0]]);
    expect(chunk(r, 2).map((t) => t.tolist())).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
    expect(chunk(zeros([5]), 3).map((t) => t.numel)).toEqual([2, 2, 1]);
    expect(chunk(zeros([6]), 4).map((t) => t.numel)).toEqual([2, 2, 2]);
    expect(chunk(zeros([2]), 5).map((t) => t.numel)).toEqual([1, 1]);
    expect(chunk(zeros([0]), 3).map((t) => t.numel)).toEqual([0, 0, 0]);
    expect(
      x234()
        .chunk(2, 1)
        .map((t) => t.shape),
    ).toEqual([
      [2, 2, 4],
      [2, 1, 4],
    ]);
  });

  it('reject what torch rejects, with its messages', () => {
    expect(() => split(zeros([5]), 0)).toThrow(
      'split_size can only be 0 if dimension size is 0, but got dimension size of 5',
    );
    expect(() => split(zeros([5]), -1)).toThrow('split expects split_size be non-negative, but got split_size=-1');
    expect(() => split(zeros([5]), [1, 3])).toThrow(
      "split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at dimension 0), but got split_sizes=[1, 3]",
    );
    expect(() => split(zeros([5]), [-1, 6])).toThrow(
      'split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[-1, 6]',
    );
    expect(() => split(tensor(1), 1)).toThrow('split expects at least a 1-dimensional tensor');
    expect(() => chunk(zeros([2]), 0)).toThrow('chunk expects `chunks` to be greater than 0, got: 0');
    expect(() => chunk(tensor(1), 1)).toThrow('chunk expects at least a 1-dimensional tensor');
  });
});
