import { describe, expect, it } from 'vitest';
import { type Node, gradcheck, tensor, zeros, type Tensor } from '../index.js';

const leaf = (v: number[] | number[][]) => tensor(v, { dtype: 'float64', requiresGrad: true });

describe('Note [In-place on views]: writes into a view rebase the base (CopySlices)', () => {
  it('an in-place op on a view of a non-leaf scales that slice of the gradient', () => {
    const x = leaf([[1, 2, 3], [4, 5, 6]]);
    const y = x.mul(1);
    y.select(0, 1).mul_(10);
    expect((y.gradFn as Node).name()).toBe('CopySlices');
    expect(y.tolist()).toEqual([[1, 2, 3], [40, 50, 60]]);
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual([[1, 1, 1], [10, 10, 10]]);
  });

  it('a value that requires grad written into a view of a tensor that does not reaches the base (no silent zero)', () => {
    const w = leaf([2, 3]);
    const out = zeros([3], { dtype: 'float64' });
    const view = out.slice(0, 1, 3);
    view.copy_(w.mul(2));
    expect(out.requiresGrad).toBe(true);
    out.mul(tensor([1, 2, 3], { dtype: 'float64' })).sum().backward(undefined, { retainGraph: true });
    expect(w.grad!.tolist()).toEqual([4, 6]);
    w.grad = null;
    expect((view.gradFn as Node).name()).toBe('AsStridedBackward0');
    view.sum().backward();
    expect(w.grad!.tolist()).toEqual([2, 2]);
  });

  it('a view of a leaf that requires grad is still refused', () => {
    const x = leaf([1, 2]);
    expect(() => x.slice(0, 0, 1).fill_(0)).toThrow('a view of a leaf Variable that requires grad is being used in an in-place operation.');
  });

  it('gradcheck through strided and transposed views, copies and fills', () => {
    const r = (shape: number[], seed: number) => {
      const n = shape.reduce((a, b) => a * b, 1);
      const t = tensor(Array.from({ length: n }, (_, i) => Math.sin(seed + i)), { dtype: 'float64' }).reshape(shape);
      t.requiresGrad = true;
      return t;
    };
    const written = (a: Tensor, s: Tensor) => {
      const y = a.mul(1);
      y.slice(1, 0, null, 2).copy_(s.mul(s));
      y.t().select(0, 1).mul_(a.select(1, 3));
      y.narrow(0, 1, 1).fill_(0.5);
      return y.mul(y);
    };
    expect(gradcheck(written, [r([3, 4], 1), r([3, 2], 2)], { raiseException: true })).toBe(true);
  });
});
