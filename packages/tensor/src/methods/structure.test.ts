import { describe, expect, it } from 'vitest';
import { arange, tensor, zeros, Tensor } from '../index.js';

const METHODS = [
  'reshape',
  'view',
  'transpose',
  'permute',
  't',
  'squeeze',
  'unsqueeze',
  'expand',
  'flatten',
  'narrow',
  'slice',
  'select',
  'contiguous',
  'clone',
  'detach',
  'to',
  'cpu',
  'gpu',
  'item',
  'tolist',
  'toTypedArray',
  'gather',
  'scatterAdd',
  'indexSelect',
  'indexAdd',
  'maskedFill',
  'split',
  'chunk',
  'add_',
  'sub_',
  'mul_',
  'div_',
  'clamp_',
  'copy_',
  'fill_',
  'zero_',
  'uniform_',
  'normal_',
] as const;

describe('structure methods on Tensor.prototype', () => {
  it('are installed for every structure op of the API', () => {
    expect(
      METHODS.filter((m) => typeof (Tensor.prototype as unknown as Record<string, unknown>)[m] !== 'function'),
    ).toEqual([]);
  });

  it('pass `this` as the first argument of the free function', () => {
    const x = arange(6).reshape([2, 3]);
    expect(x.t().shape).toEqual([3, 2]);
    expect(x.narrow(1, 1, 2).tolist()).toEqual([
      [1, 2],
      [4, 5],
    ]);
    expect(x.chunk(3, 1).map((c) => c.tolist())).toEqual([
      [[0], [3]],
      [[1], [4]],
      [[2], [5]],
    ]);
    expect(x.gather(1, tensor(new Int32Array([2, 0])).reshape([2, 1])).tolist()).toEqual([[2], [3]]);
    const z = zeros([2]);
    expect(z.add_(tensor([1, 2]), { alpha: 2 }).tolist()).toEqual([2, 4]);
    expect(z.clamp_(null, 3).tolist()).toEqual([2, 3]);
  });
});
