import { describe, expect, it } from 'vitest';
import { arange, item, memory, tensor, tolist, toTypedArray, zeros } from './index.js';

describe('reading values', () => {
  it('item() reads one element of any view; other sizes are an error', () => {
    expect(tensor([[7]]).item()).toBe(7);
    expect(item(arange(6).reshape([2, 3]).select(1, 2).select(0, 1))).toBe(5);
    expect(tensor(true).item()).toBe(1);
    expect(tensor(0.1).item()).toBe(0.10000000149011612);
    expect(() => arange(6).item()).toThrow('a Tensor with 6 elements cannot be converted to Scalar');
    expect(() => zeros([0]).item()).toThrow('a Tensor with 0 elements cannot be converted to Scalar');
  });

  it('tolist() nests by shape, with booleans for bool and a bare value for 0-dim', () => {
    expect(arange(6).reshape([2, 3]).t().tolist()).toEqual([
      [0, 3],
      [1, 4],
      [2, 5],
    ]);
    expect(tensor([[true], [false]]).tolist()).toEqual([[true], [false]]);
    expect(tensor(true).tolist()).toBe(true);
    expect(tensor(2.5).tolist()).toBe(2.5);
    expect(tolist(zeros([2, 0]))).toEqual([[], []]);
    expect(zeros([0, 2]).tolist()).toEqual([]);
  });

  it('toTypedArray() is a contiguous copy of the right typed array per dtype', () => {
    const t = arange(6).reshape([2, 3]).t();
    const arr = t.toTypedArray();
    expect(arr).toBeInstanceOf(Int32Array);
    expect(Array.from(arr)).toEqual([0, 3, 1, 4, 2, 5]);
    expect(toTypedArray(zeros([2]))).toBeInstanceOf(Float32Array);
    expect(toTypedArray(zeros([2], { dtype: 'float64' }))).toBeInstanceOf(Float64Array);
    expect(Array.from(tensor([true, false]).toTypedArray())).toEqual([1, 0]);
    expect(tensor([true]).toTypedArray()).toBeInstanceOf(Uint8Array);
    const base = arange(4);
    const copy = base.slice(0, 1, 3).toTypedArray();
    copy[0] = 99;
    expect(base.tolist()).toEqual([0, 1, 2, 3]);
    expect(Array.from(copy)).toEqual([99, 2]);
  });

  it('a tensor on another device is moved with the ToDevice kernel first', () => {
    const onGpu = tensor([
      [1.5, 2],
      [3, 4],
    ]).to('gpu');
    expect(onGpu.device.toString()).toBe('gpu:0');
    expect(onGpu.t().tolist()).toEqual([
      [1.5, 3],
      [2, 4],
    ]);
    expect(onGpu.sum().item()).toBe(10.5);
    expect(() => onGpu.storage.data).toThrow('storage lives on gpu:0; call .cpu() to read it on the host');
  });

  it('dispose frees the storage; later use throws', () => {
    const before = memory().tensors;
    const x = zeros([1000]);
    expect(memory().tensors).toBe(before + 1);
    expect(memory().cpuBytes).toBeGreaterThanOrEqual(4000);
    x.dispose();
    expect(memory().tensors).toBe(before);
    expect(() => x.tolist()).toThrow('Tensor storage was disposed');
    expect(() => x.add(1)).toThrow('disposed');
  });
});
