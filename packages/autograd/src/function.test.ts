import { describe, expect, it } from 'vitest';
import { Function, type FunctionCtx, type Node, type Tensor, grad, tensor } from './index.js';

const leaf = (v: number[] = [1, 2]) => tensor(v, { dtype: 'float64', requiresGrad: true });

class Square extends Function {
  static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
    ctx.saveForBackward(x);
    return x.mul(x);
  }
  static override backward(ctx: FunctionCtx, g: Tensor): Tensor {
    const [x] = ctx.savedTensors;
    return g.mul(x!).mul(2);
  }
}

describe('custom Function (torch.autograd.Function)', () => {
  it('Square.apply records one node named after the class; saved tensors are freed after backward', () => {
    const x = leaf([3]);
    const y = Square.apply(x); // typed by forward: a Tensor
    expect((y.gradFn as Node).name()).toBe('SquareBackward');
    expect((y.gradFn as Node).nextFunctions[0]![0]!.name()).toBe('torch::autograd::AccumulateGrad');
    y.sum().backward(undefined, { retainGraph: true });
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual([12]);
    expect(() => y.sum().backward()).toThrow('Trying to backward through the graph a second time');
  });

  it('needsInputGrad has one entry per forward argument; backward returns one gradient per argument', () => {
    let needs: boolean[] = [];
    class Scale extends Function {
      static override forward(ctx: FunctionCtx, x: Tensor, factor: number, w: Tensor): Tensor {
        needs = ctx.needsInputGrad;
        ctx.factor = factor;
        return x.mul(w).mul(factor);
      }
      static override backward(ctx: FunctionCtx, g: Tensor): (Tensor | null)[] {
        return [g.mul(ctx.factor as number), null, null];
      }
    }
    const x = leaf([1, 2]);
    Scale.apply<Tensor>(x, 5, tensor([1, 1], { dtype: 'float64' }))
      .sum()
      .backward();
    expect(needs).toEqual([true, false, false]);
    expect(x.grad!.tolist()).toEqual([5, 5]);
  });

  it("PyTorch's errors for a wrong number of gradients and for a gradient of a non-tensor argument", () => {
    class TooFew extends Function {
      static override forward(_ctx: FunctionCtx, x: Tensor, _k: number): Tensor {
        return x.mul(2);
      }
      static override backward(_ctx: FunctionCtx, g: Tensor): Tensor | Tensor[] {
        return g;
      }
    }
    expect(() => TooFew.apply<Tensor>(leaf(), 3).sum().backward()).toThrow(
      'function TooFewBackward returned an incorrect number of gradients (expected 2, got 1)',
    );
    class NonTensorGrad extends TooFew {
      static override backward(_ctx: FunctionCtx, g: Tensor): Tensor[] {
        return [g, g];
      }
    }
    expect(() => NonTensorGrad.apply<Tensor>(leaf(), 3).sum().backward()).toThrow(
      'function NonTensorGradBackward returned a gradient different than None at position 2, but the corresponding forward input was not a Variable',
    );
  });

  it('markDirty: an input modified in place becomes an output with the new history', () => {
    class MulInPlace extends Function {
      static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
        x.mul_(3);
        ctx.markDirty(x);
        return x;
      }
      static override backward(_ctx: FunctionCtx, g: Tensor): Tensor {
        return g.mul(3);
      }
    }
    const x = leaf([1, 2]);
    const h = x.mul(1);
    const out = MulInPlace.apply<Tensor>(h);
    expect(out).toBe(h);
    expect((h.gradFn as Node).name()).toBe('MulInPlaceBackward');
    h.sum().backward();
    expect(x.grad!.tolist()).toEqual([3, 3]);
    expect(() => MulInPlace.apply<Tensor>(leaf())).toThrow(
      'a leaf tensor that requires grad has been used in an in-place operation.',
    );
  });

  it('inputs marked dirty must be returned', () => {
    class Forgets extends Function {
      static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
        ctx.markDirty(x);
        return x.mul(2);
      }
    }
    expect(() => Forgets.apply<Tensor>(leaf().mul(1))).toThrow(
      'Some elements marked as dirty during the forward method were not returned as output.',
    );
  });

  it('an input returned unchanged is a new tensor (a view) carrying the function node', () => {
    class Identity extends Function {
      static override forward(_ctx: FunctionCtx, x: Tensor): Tensor {
        return x;
      }
      static override backward(_ctx: FunctionCtx, g: Tensor): Tensor {
        return g.mul(10);
      }
    }
    const x = leaf();
    const y = Identity.apply<Tensor>(x);
    expect(y).not.toBe(x);
    expect(y.storage).toBe(x.storage);
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual([10, 10]);
  });

  it('markNonDifferentiable outputs do not require grad; their gradient is materialized as zeros unless disabled', () => {
    const seen: (number[] | null)[] = [];
    const make = (materialize: boolean) =>
      class SortLike extends Function {
        static override forward(ctx: FunctionCtx, x: Tensor): Tensor[] {
          const idx = x.mul(0);
          ctx.markNonDifferentiable(idx);
          ctx.setMaterializeGrads(materialize);
          return [x.mul(2), idx];
        }
        static override backward(_ctx: FunctionCtx, g: Tensor | null, gIdx: Tensor | null): Tensor {
          seen.push(gIdx ? (gIdx.tolist() as number[]) : null);
          return g!.mul(2);
        }
      };
    const [out, idx] = make(true).apply<Tensor[]>(leaf());
    expect(idx!.requiresGrad).toBe(false);
    out!.sum().backward();
    make(false).apply<Tensor[]>(leaf())[0]!.sum().backward();
    expect(seen).toEqual([[0, 0], null]);
  });

  it('saved tensors are version-checked', () => {
    const x = leaf().mul(1);
    const y = Square.apply<Tensor>(x);
    x.add_(1);
    expect(() => y.sum().backward()).toThrow(
      'one of the variables needed for gradient computation has been modified by an inplace operation: [torch.DoubleTensor [2]], which is output 0 of AddBackward0, is at version 1; expected version 0 instead.',
    );
  });

  it('without an input that requires grad nothing is recorded', () => {
    const y = Square.apply<Tensor>(tensor([2]));
    expect(y.gradFn).toBeNull();
    expect(y.requiresGrad).toBe(false);
    expect(
      grad(Square.apply<Tensor>(leaf([2])), leaf([2]), {
        allowUnused: true,
        gradOutputs: [tensor([1], { dtype: 'float64' })],
      }),
    ).toEqual([null]);
  });

  it('saveForBackward takes null as PyTorch takes None, and savedTensors gives it back in its place', () => {
    class Scale extends Function {
      static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
        ctx.saveForBackward(null, x, null);
        return x.mul(3);
      }
      static override backward(ctx: FunctionCtx, g: Tensor): Tensor {
        const [before, x, after] = ctx.savedTensors;
        expect([before, after]).toEqual([null, null]);
        return g.mul(3).add(x!.mul(0));
      }
    }
    const x = leaf([1, 2]);
    Scale.apply(x).sum().backward();
    expect(x.grad!.tolist()).toEqual([3, 3]);
  });
});
