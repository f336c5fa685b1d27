import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arange, tensor, zeros } from '../index.js';

const grid = (shape: number[]) => arange(shape.reduce((p, s) => p * s, 1)).reshape(shape);

describe('views share storage', () => {
  it('reshape/view of a contiguous tensor is a view', () => {
    const a = arange(6);
    const v = a.view([2, 3]);
    expect(v.storage).toBe(a.storage);
    expect(v.strides).toEqual([3, 1]);
    v.fill_(7);
    expect(a.tolist()).toEqual([7, 7, 7, 7, 7, 7]);
  });

  it('reshape copies only when strides cannot express it; view refuses', () => {
    const t = grid([2, 3]).t();
    expect(t.isContiguous()).toBe(false);
    const r = t.reshape([6]);
    expect(r.storage).not.toBe(t.storage);
    expect(r.tolist()).toEqual([0, 3, 1, 4, 2, 5]);
    expect(() => t.view([6])).toThrow("view size is not compatible with input tensor's size and stride");
    expect(grid([2, 3]).reshape([-1, 2]).shape).toEqual([3, 2]);
    expect(() => grid([2, 3]).reshape([4, -1])).toThrow("shape '[4, -1]' is invalid for input of size 6");
  });

  it('transpose, permute, t, squeeze, unsqueeze, flatten', () => {
    const a = grid([2, 3, 4]);
    expect(a.permute([2, 0, 1]).shape).toEqual([4, 2, 3]);
    expect(a.permute([2, 0, 1]).strides).toEqual([1, 12, 4]);
    expect(a.transpose(0, 2).shape).toEqual([4, 3, 2]);
    expect(a.unsqueeze(1).shape).toEqual([2, 1, 3, 4]);
    expect(a.unsqueeze(-1).shape).toEqual([2, 3, 4, 1]);
    expect(zeros([1, 3, 1]).squeeze().shape).toEqual([3]);
    expect(zeros([1, 3, 1]).squeeze(0).shape).toEqual([3, 1]);
    expect(a.flatten(1).shape).toEqual([2, 12]);
    expect(a.flatten().shape).toEqual([24]);
    expect(() => a.t()).toThrow('t() expects a tensor with <= 2 dimensions, but self is 3D');
  });

  it('expand uses stride 0 and checks sizes', () => {
    const e = tensor([[1], [2]]).expand([2, 3]);
    expect(e.strides).toEqual([1, 0]);
    expect(e.tolist()).toEqual([[1, 1, 1], [2, 2, 2]]);
    expect(tensor([1, 2]).expand([3, -1]).shape).toEqual([3, 2]);
    expect(() => tensor([1, 2]).expand([3])).toThrow('The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0');
  });

  it('narrow, slice (python rules), select', () => {
    const a = grid([4, 3]);
    expect(a.narrow(0, 1, 2).tolist()).toEqual([[3, 4, 5], [6, 7, 8]]);
    expect(a.slice(0, -2).tolist()).toEqual([[6, 7, 8], [9, 10, 11]]);
    expect(a.slice(0, 0, 100, 3).tolist()).toEqual([[0, 1, 2], [9, 10, 11]]);
    expect(a.slice(1, 5, 9).shape).toEqual([4, 0]);
    expect(a.select(1, -1).tolist()).toEqual([2, 5, 8, 11]);
    expect(() => a.select(0, 4)).toThrow('index 4 out of range');
    expect(() => a.narrow(0, 3, 2)).toThrow('exceeds dimension size');
  });

  it('in-place writes through a view bump the shared version', () => {
    const a = zeros([2, 2]);
    const row = a.select(0, 1);
    row.add_(5);
    expect(a.tolist()).toEqual([[0, 0], [5, 5]]);
    expect(a.version).toBe(1);
    expect(row.version).toBe(1);
  });

  it('contiguous() returns the same tensor when already contiguous', () => {
    const a = grid([2, 3]);
    expect(a.contiguous()).toBe(a);
    const c = a.t().contiguous();
    expect(c.strides).toEqual([2, 1]);
    expect(c.tolist()).toEqual([[0, 3], [1, 4], [2, 5]]);
  });

  it('rejects bad dims', () => {
    expect(() => grid([2, 3]).transpose(0, 2)).toThrow('Dimension out of range (expected to be in range of [-2, 1], but got 2)');
    expect(() => grid([2]).unsqueeze(-3)).toThrow('Dimension out of range');
  });

  const shapeArb = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 });

  it('property: a permuted view and its contiguous copy read equal', () => {
    fc.assert(
      fc.property(shapeArb.chain((s) => fc.tuple(fc.constant(s), fc.shuffledSubarray(s.map((_, i) => i), { minLength: s.length, maxLength: s.length }))), ([shape, perm]) => {
        const v = grid(shape).permute(perm);
        expect(v.contiguous().tolist()).toEqual(v.tolist());
        expect(Array.from(v.toTypedArray())).toEqual(Array.from(v.contiguous().toTypedArray()));
      }),
    );
  });

  it('property: transposing twice is the identity (same storage, same values)', () => {
    fc.assert(
      fc.property(shapeArb.filter((s) => s.length >= 2), (shape) => {
        const a = grid(shape);
        const back = a.transpose(0, -1).transpose(0, -1);
        expect(back.storage).toBe(a.storage);
        expect(back.strides).toEqual(a.strides);
        expect(back.tolist()).toEqual(a.tolist());
      }),
    );
  });

  it('property: reshape round trips', () => {
    fc.assert(
      fc.property(shapeArb, (shape) => {
        const a = grid(shape);
        expect(a.reshape([-1]).reshape(shape).tolist()).toEqual(a.tolist());
      }),
    );
  });
});
