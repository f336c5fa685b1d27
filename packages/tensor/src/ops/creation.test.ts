import { describe, expect, it } from 'vitest';
import { arange, eye, full, linspace, ones, onesLike, tensor, zeros, zerosLike, TensorError } from '../index.js';

describe('creation', () => {
  it('tensor() infers dtype and shape', () => {
    expect(tensor(3).shape).toEqual([]);
    expect(tensor(3).dtype).toBe('float32');
    expect(tensor([[1, 2], [3, 4]]).shape).toEqual([2, 2]);
    expect(tensor([true, false]).dtype).toBe('bool');
    expect(tensor(new Float64Array([1, 2])).dtype).toBe('float64');
    expect(tensor(new Int32Array([1, 2])).dtype).toBe('int32');
    expect(tensor([1.7, -1.7], { dtype: 'int32' }).tolist()).toEqual([1, -1]);
    expect(tensor([]).shape).toEqual([0]);
  });

  it('rejects ragged nested arrays and bad values', () => {
    expect(() => tensor([[1, 2], [3]])).toThrow(TensorError);
    expect(() => tensor([[1, 2], [3]])).toThrow('ragged');
    expect(() => tensor([1, 'a' as unknown as number])).toThrow('expected a number or boolean at index [1], got string');
    expect(() => tensor([1], { dtype: 'int64' as never })).toThrow('unknown dtype int64');
  });

  it('zeros/ones/full/eye/linspace/arange', () => {
    expect(zeros([2]).tolist()).toEqual([0, 0]);
    expect(ones([2], { dtype: 'int32' }).tolist()).toEqual([1, 1]);
    expect(full([2], 7).tolist()).toEqual([7, 7]);
    expect(eye(2, 3).tolist()).toEqual([[1, 0, 0], [0, 1, 0]]);
    expect(linspace(0, 1, 5).tolist()).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(arange(4).tolist()).toEqual([0, 1, 2, 3]);
    expect(arange(4).dtype).toBe('int32');
    expect(arange(1, 2, 0.25).tolist()).toEqual([1, 1.25, 1.5, 1.75]);
    expect(arange(5, 0, -2).tolist()).toEqual([5, 3, 1]);
    const z = zerosLike(arange(3));
    expect(z.dtype).toBe('int32');
    expect(onesLike(z, { dtype: 'float64' }).dtype).toBe('float64');
  });

  it('rejects invalid shapes', () => {
    expect(() => zeros([NaN])).toThrow('invalid shape');
    expect(() => zeros([-1])).toThrow('invalid shape');
    expect(() => zeros([2.5])).toThrow('invalid shape');
    expect(() => arange(0, 5, 0)).toThrow('step must be nonzero');
  });

  it('requiresGrad only on floating point', () => {
    expect(tensor([1], { requiresGrad: true }).requiresGrad).toBe(true);
    expect(() => arange(3).requiresGrad = true).toThrow('only Tensors of floating point dtype can require gradients');
  });
});
