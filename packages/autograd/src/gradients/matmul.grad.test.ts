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
});
