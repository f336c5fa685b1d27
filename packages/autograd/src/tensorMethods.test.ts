import { describe, expect, it } from 'vitest';
import { arange, tensor, unbind } from './index.js';

const leaf = (shape: number[]) =>
  arange(
    shape.reduce((p, s) => p * s, 1),
    { dtype: 'float64' },
  ).reshape(shape);

describe('tensor methods as PyTorch has them, seen by autograd', () => {
  it('view to the same shape is a new view with its own ViewBackward0, not the tensor itself', () => {
    const x = leaf([2, 3]).requiresGrad_();
    const v = x.view([2, 3]);
    expect(v).not.toBe(x);
    expect(v.gradFn?.name()).toBe('ViewBackward0');
    expect(x.viewAs(v).gradFn?.name()).toBe('ViewBackward0');
    expect(v.gradFn?.nextFunctions[0]![0]?.name()).toBe('torch::autograd::AccumulateGrad');
    v.mul(v).sum().backward();
    expect(x.grad!.tolist()).toEqual(x.mul(2).tolist());
  });

  it('unbind: each piece carries its gradient back into its own row', () => {
    const x = leaf([3, 2]).requiresGrad_();
    const [a, b, c] = unbind(x);
    a!.mul(1).add(b!.mul(2)).add(c!.mul(3)).sum().backward();
    expect(x.grad!.tolist()).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  it('requiresGrad_() sets the flag on a leaf and returns the tensor; on a non-leaf only true is accepted', () => {
    const x = tensor([1, 2]);
    expect(x.requiresGrad_()).toBe(x);
    expect(x.requiresGrad).toBe(true);
    expect(x.requiresGrad_(false).requiresGrad).toBe(false);
    const y = x.requiresGrad_().mul(2);
    expect(y.requiresGrad_()).toBe(y);
    expect(() => y.requiresGrad_(false)).toThrow('you can only change requires_grad flags of leaf variables.');
    expect(() => tensor([1], { dtype: 'int32' }).requiresGrad_()).toThrow(
      'only Tensors of floating point dtype can require gradients',
    );
  });
});
