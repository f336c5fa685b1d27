import { describe, expect, it } from 'vitest';
import { type Node, type Tensor, arange, grad, gradcheck, noGrad, select, tensor } from '../index.js';

/** arange(n) reshaped, float64, as a leaf that requires grad. */
const leaf = (...shape: number[]) =>
  arange(
    shape.reduce((a, b) => a * b, 1),
    { dtype: 'float64' },
  )
    .reshape(shape)
    .requiresGrad_();
const nodeOf = (t: Tensor) => t.gradFn as Node;

describe("select records one SelectBackward0, as PyTorch's select", () => {
  it('named SelectBackward0, straight on the input (no Slice or Reshape node between)', () => {
    const x = leaf(2, 3);
    const row = x.select(0, 1);
    expect(nodeOf(row).name()).toBe('SelectBackward0');
    expect(nodeOf(row).nextFunctions.map(([fn, nr]) => [fn?.name(), nr])).toEqual([
      ['torch::autograd::AccumulateGrad', 0],
    ]);
    expect(row.storage).toBe(x.storage);
    expect(nodeOf(select(x.mul(2), -1, 0)).name()).toBe('SelectBackward0');
  });

  it("a view of a select is a view of the same base, its node's input is SelectBackward0", () => {
    const x = leaf(2, 3, 2);
    const v = x.select(0, 1).select(1, 0);
    expect(nodeOf(v).name()).toBe('SelectBackward0');
    expect(nodeOf(v).nextFunctions[0]![0]!.name()).toBe('SelectBackward0');
    expect(v.tolist()).toEqual([6, 8, 10]);
    expect(v.storage).toBe(x.storage);
  });

  it('the gradient is select_backward: zeros of the input shape with the gradient at the index', () => {
    const x = leaf(2, 3);
    const [g] = grad(
      x
        .select(1, -2)
        .mul(tensor([5, 7], { dtype: 'float64' }))
        .sum(),
      [x],
    );
    expect(g!.tolist()).toEqual([
      [0, 5, 0],
      [0, 7, 0],
    ]);
  });

  it('gradcheck and gradgradcheck in float64, any dim, negative indices', () => {
    expect(
      gradcheck((a) => [a.select(0, 1), a.select(2, -1), a.select(1, 0).select(0, -1)], [leaf(3, 2, 4).mul(0.1)], {
        raiseException: true,
      }),
    ).toBe(true);
    const x = leaf(3, 2);
    const [g] = grad(x.select(0, 2).pow(3).sum(), [x], { createGraph: true });
    const [gg] = grad(g!.sum(), [x]);
    expect(gg!.tolist()).toEqual([
      [0, 0],
      [0, 0],
      [24, 30],
    ]);
  });

  it('an in-place write into a select view reaches the base (CopySlices), with grad mode on or off', () => {
    const x = leaf(2, 2);
    const b = x.mul(1);
    const w = tensor([3, 4], { dtype: 'float64', requiresGrad: true });
    b.select(0, 1).mul_(w);
    expect(nodeOf(b).name()).toBe('CopySlices');
    const [gx, gw] = grad(b.sum(), [x, w]);
    expect(gx!.tolist()).toEqual([
      [1, 1],
      [3, 4],
    ]);
    expect(gw!.tolist()).toEqual([2, 3]);
    const plain = leaf(2, 2).detach();
    noGrad(() => plain.select(1, 0).fill_(9));
    expect(plain.tolist()).toEqual([
      [9, 1],
      [9, 3],
    ]);
  });
});
