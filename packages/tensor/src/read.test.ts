import { describe, expect, it } from 'vitest';
import { arange, memory, tensor, zeros } from './index.js';

describe('reading values', () => {
  it('item, tolist and toTypedArray of views', () => {
    const t = arange(6).reshape([2, 3]).t();
    expect(t.tolist()).toEqual([[0, 3], [1, 4], [2, 5]]);
    const arr = t.toTypedArray();
    expect(arr).toBeInstanceOf(Int32Array);
    expect(Array.from(arr)).toEqual([0, 3, 1, 4, 2, 5]);
    expect(tensor([[7]]).item()).toBe(7);
    expect(() => arange(6).item()).toThrow('a Tensor with 6 elements cannot be converted to Scalar');
    expect(tensor(true).tolist()).toBe(true);
  });

  it('dispose frees the storage; later use throws', () => {
    const before = memory().tensors;
    const x = zeros([1000]);
    expect(memory().tensors).toBe(before + 1);
    expect(memory().cpuBytes).toBeGreaterThanOrEqual(4000);
    x.dispose();
    expect(memory().tensors).toBe(before);
    expect(() => x.add(1)).toThrow('disposed');
  });

  it('mixing devices names both', async () => {
    expect(() => tensor([1]).to('gpu')).toThrow(/gpu/);
  });
});
