import { describe, expect, it } from 'vitest';
import { type Node, gradcheck, tensor, zeros, type Tensor } from '../index.js';

const leaf = (v: number[] | number[][]) => tensor(v, { dtype: 'float64', requiresGrad: true });

describe('Note [In-place on views]: writes into a view rebase the base (CopySlices)', () => {
  it('an in-place op on a view of a non-leaf scales that slice of the gradient', () => {
    const x = leaf([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const y = x.mul(1);
    y.select(0, 1).mul_(10);
    expect((y.gradFn as Node).name()).toBe('CopySlices');
    expect(y.tolist()).toEqual([
      [1, 2, 3],
      [40, 50, 60],
    ]);
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual([
      [1, 1, 1],
      [10, 10, 10],
    ]);
  });

  it('a value that requires grad written into a view of a tensor that does not reaches the base (no silent zero)', () => {
    const w = leaf([2, 3]);
    const out = zeros([3], { dtype: 'float64' });
    const view = out.slice(0, 1, 3);
    view.copy_(w.mul(2));
    expect(out.requiresGrad).toBe(true);
    out
      .mul(tensor([1, 2, 3], { dtype: 'float64' }))
      .sum()
      .backward(undefined, { retainGraph: true });
    expect(w.grad!.tolist()).toEqual([4, 6]);
    w.grad = null;
    expect((view.gradFn as Node).name()).toBe('AsStridedBackward0');
    view.sum().backward();
    expect(w.grad!.tolist()).toEqual([2, 2]);
  });

  it('a view of a leaf that requires grad is still refused', () => {
    const x = leaf([1, 2]);
    expect(() => x.slice(0, 0, 1).fill_(0)).toThrow(
      'a view of a leaf tensor that requires grad is being used in an in-place operation.',
    );
  });

  it('gradcheck through strided and transposed views, copies and fills', () => {
    const r = (shape: number[], seed: number) => {
      const n = shape.reduce((a, b) => a * b, 1);
      const t = tensor(
        Array.from({ length: n }, (_, i) => Math.sin(seed + i)),
        { dtype: 'float64' },
      ).reshape(shape);
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

describe('Note [Views after in-place writes]: views taken before a write see it in backward', () => {
  const leafOf = (v: number[]) => tensor(v, { dtype: 'float64', requiresGrad: true });

  it('a view of a base written in place afterwards regenerates its history (AsStridedBackward0)', () => {
    const a = leafOf([1, 2, 3]);
    const b = a.mul(1);
    const v = b.slice(0, 0, 2);
    expect((v.gradFn as Node).name()).toBe('SliceBackward0');
    b.mul_(2);
    expect(v.tolist()).toEqual([2, 4]);
    expect((v.gradFn as Node).name()).toBe('AsStridedBackward0');
    v.sum().backward();
    expect(a.grad!.tolist()).toEqual([2, 2, 0]);
  });

  it('a write through one view reaches another view of the same base, and views of views', () => {
    const a = leafOf([1, 2, 3]);
    const b = a.mul(1);
    const v1 = b.slice(0, 0, 2);
    const v2 = b.slice(0, 1, 3).reshape([2, 1]);
    v1.mul_(3);
    v2.sum().backward();
    expect(a.grad!.tolist()).toEqual([0, 3, 1]);
  });

  it('a view of a base that did not require grad starts requiring it once a value that does is written in', () => {
    const x = leafOf([5, 6, 7]);
    const b = zeros([3], { dtype: 'float64' });
    const v = b.slice(0, 0, 2);
    expect(v.requiresGrad).toBe(false);
    b.copy_(x);
    expect(v.requiresGrad).toBe(true);
    v.mul(v).sum().backward();
    expect(x.grad!.tolist()).toEqual([10, 12, 0]);
  });

  it('a view whose storage was not written keeps the history it was made with', () => {
    const a = leafOf([1, 2]);
    const v = a.mul(2).t();
    const node = v.gradFn;
    expect(v.gradFn).toBe(node);
    expect((node as Node).name()).not.toBe('AsStridedBackward0');
  });
});

describe('in-place ops name their nodes like torch', () => {
  it('add_ AddBackward0, sub_ SubBackward0, mul_ MulBackward0, div_ DivBackward0, clamp_ ClampBackward1, copy_ CopyBackwards, fill_ FillBackward0', () => {
    const x = () => tensor([1, 2], { dtype: 'float64', requiresGrad: true }).mul(1);
    const names = [
      x().add_(1),
      x().sub_(1),
      x().mul_(2),
      x().div_(2),
      x().clamp_(0, 1),
      x().copy_(tensor([3, 4], { dtype: 'float64', requiresGrad: true })),
      x().fill_(3),
    ].map((t: Tensor) => (t.gradFn as Node).name());
    expect(names).toEqual([
      'AddBackward0',
      'SubBackward0',
      'MulBackward0',
      'DivBackward0',
      'ClampBackward1',
      'CopyBackwards',
      'FillBackward0',
    ]);
  });
});
