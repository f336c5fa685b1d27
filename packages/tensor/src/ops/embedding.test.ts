import { describe, expect, it } from 'vitest';
import { embedding, randn, tensor } from '../index.js';

const idx = (v: number[], shape = [v.length]) => tensor(new Int32Array(v)).reshape(shape);

describe('embedding (torch.embedding)', () => {
  const rows = [
    [0, 1],
    [10, 11],
    [20, 21],
  ];
  const weight = tensor(rows);

  it('picks the rows of weight by index: [...indices, dim]', () => {
    const y = embedding(weight, idx([2, 0, 1, 2], [2, 2]));
    expect(y.shape).toEqual([2, 2, 2]);
    expect(y.tolist()).toEqual([
      [rows[2], rows[0]],
      [rows[1], rows[2]],
    ]);
    expect(embedding(weight, idx([1], [])).tolist()).toEqual(rows[1]);
  });

  it('paddingIdx (negative from the end) changes no value', () => {
    expect(embedding(weight, idx([2, 0]), { paddingIdx: -1 }).tolist()).toEqual([rows[2], rows[0]]);
  });

  it('rejects non-int32 indices, out-of-range indices or padding (INVALID_ARGUMENT) and a weight that is not 2-D (INVALID_SHAPE)', () => {
    expect(() => embedding(weight, tensor([0, 1]))).toThrow(
      "Expected tensor for argument #1 'indices' to have an int32 dtype; but got float32 instead (while checking arguments for embedding)",
    );
    expect(() => embedding(weight, idx([0, 3]))).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'index out of range in self' }),
    );
    expect(() => embedding(weight, idx([-1]))).toThrow('index out of range in self');
    expect(() => embedding(weight, idx([0]), { paddingIdx: 3 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'Padding_idx must be within num_embeddings' }),
    );
    expect(() => embedding(weight, idx([0]), { paddingIdx: 0.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => embedding(randn([3]), idx([0]))).toThrow(
      expect.objectContaining({ code: 'INVALID_SHAPE', message: "'weight' must be 2-D" }),
    );
  });
});
