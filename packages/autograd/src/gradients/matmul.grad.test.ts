import { describe, expect, it } from 'vitest';
import { type Node, randn } from '../index.js';

describe('the gradient of mm (Note [Matrices through BatchMatMul])', () => {
  it('records one node for a product of two matrices, whose edges reach the leaves', () => {
    const a = randn([5, 3], { requiresGrad: true });
    const b = randn([3, 4], { requiresGrad: true });
    const c = a.mm(b);
    const node = c.gradFn as Node;
    expect(node.name()).toBe('BatchMatMulBackward0');
    expect(node.nextFunctions.map(([n]) => n?.name())).toEqual([
      'torch::autograd::AccumulateGrad',
      'torch::autograd::AccumulateGrad',
    ]);
  });

  it('gives matrices matrix gradients: dA = G Bᵀ and dB = Aᵀ G', () => {
    const a = randn([5, 3], { requiresGrad: true });
    const b = randn([3, 4], { requiresGrad: true });
    const g = randn([5, 4]);
    a.mm(b).backward(g);
    expect(a.grad!.shape).toEqual([5, 3]);
    expect(b.grad!.shape).toEqual([3, 4]);
    expect(a.grad!.tolist()).toEqual(g.mm(b.t()).tolist());
    expect(b.grad!.tolist()).toEqual(a.t().mm(g).tolist());
  });

  it("gives a transposed operand its gradient in the operand's layout, so a weight used as W.t() gets a contiguous gradient (Note [Gradients in their input's layout])", () => {
    const x = randn([6, 5], { requiresGrad: true, dtype: 'float64' });
    const w = randn([4, 5], { requiresGrad: true, dtype: 'float64' });
    const g = randn([6, 4], { dtype: 'float64' });
    const arriving: boolean[] = [];
    w.registerHook((grad) => void arriving.push(grad.isContiguous()));
    x.t().t().mm(w.t()).backward(g); // x.t().t() is x's own layout; w.t() is column by column
    expect(arriving).toEqual([true]); // what reaches the weight's AccumulateGrad, before any copy
    const expected = g.t().mm(x).tolist() as number[][];
    (w.grad!.tolist() as number[][]).forEach((row, i) =>
      row.forEach((v, j) => expect(v).toBeCloseTo(expected[i]![j]!, 12)),
    );
    // and a column-major first operand: dA = (B Gᵀ)ᵀ
    const a = randn([5, 6], { requiresGrad: true, dtype: 'float64' });
    const b = randn([5, 4], { dtype: 'float64' });
    a.t().mm(b).backward(g);
    expect(a.grad!.isContiguous()).toBe(true);
    const dA = b.mm(g.t()).tolist() as number[][];
    (a.grad!.tolist() as number[][]).forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(dA[i]![j]!, 12)));
  });
});
