import { describe, expect, it } from 'vitest';
import { AutogradError, Function, type FunctionCtx, type Tensor, grad, onceDifferentiable, tensor } from './index.js';

/** x -> x^3 with a hand-written backward marked once-differentiable. */
class Cube extends Function {
  static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
    ctx.saveForBackward(x);
    return x.pow(3);
  }
  static override backward = onceDifferentiable((ctx: FunctionCtx, g: Tensor | null) => {
    const [x] = ctx.savedTensors;
    return g!.mul(x!.pow(2)).mul(3);
  });
}

describe('onceDifferentiable (torch.autograd.function.once_differentiable)', () => {
  it('a first backward works, with or without createGraph', () => {
    const x = tensor([2], { dtype: 'float64', requiresGrad: true });
    expect(grad(Cube.apply<Tensor>(x).sum(), x)[0]!.tolist()).toEqual([12]);
    const [g] = grad(Cube.apply<Tensor>(x).sum(), x, { createGraph: true });
    expect(g!.tolist()).toEqual([12]);
  });

  it("differentiating its backward fails with PyTorch's message", () => {
    const x = tensor([2], { dtype: 'float64', requiresGrad: true });
    const y = Cube.apply<Tensor>(x);
    const [g] = grad(y.sum(), x, {
      createGraph: true,
      gradOutputs: tensor(1, { dtype: 'float64', requiresGrad: true }),
    });
    expect(g!.requiresGrad).toBe(true);
    expect(() => g!.sum().backward()).toThrow(AutogradError);
    expect(() =>
      grad(Cube.apply<Tensor>(x).sum(), x, {
        createGraph: true,
        gradOutputs: tensor(1, { dtype: 'float64', requiresGrad: true }),
      })[0]!
        .sum()
        .backward(),
    ).toThrow('trying to differentiate twice a function that was marked with @once_differentiable');
  });

  it('its backward records no graph of its own', () => {
    const x = tensor([2], { dtype: 'float64', requiresGrad: true });
    const [g] = grad(Cube.apply<Tensor>(x).sum(), x, { createGraph: true });
    // the seed did not require grad: nothing to guard, and no graph through the saved x either
    expect(g!.requiresGrad).toBe(false);
  });
});
