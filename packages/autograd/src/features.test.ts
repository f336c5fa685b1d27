import { describe, expect, it, vi } from 'vitest';
import type { FunctionCtx } from './index.js';
import {
  Function,
  checkpoint,
  detectAnomaly,
  grad,
  inferenceMode,
  isGradEnabled,
  noGrad,
  enableGrad,
  setGradEnabled,
  tensor,
  type Tensor,
  getRngState,
  setRngState,
  manualSeed,
  rand,
} from './index.js';

const leaf = (v: number[] = [1, 2]) => tensor(v, { dtype: 'float64', requiresGrad: true });

describe('backward and grad', () => {
  it('double backward: d²/dx² of x³ at 2 is 12', () => {
    const x = tensor(2, { dtype: 'float64', requiresGrad: true });
    const [d1] = grad(x.pow(3), x, { createGraph: true });
    expect(d1!.item()).toBe(12);
    const [d2] = grad(d1!, x);
    expect(d2!.item()).toBe(12);
  });

  it('accumulates into .grad across calls; grad() leaves .grad alone', () => {
    const x = leaf();
    x.mul(3).sum().backward();
    x.mul(3).sum().backward();
    expect(x.grad!.tolist()).toEqual([6, 6]);
    grad(x.mul(5).sum(), x);
    expect(x.grad!.tolist()).toEqual([6, 6]);
    x.grad = null;
    expect(x.grad).toBeNull();
  });

  it('takes explicit gradOutputs and refuses implicit ones for non-scalars', () => {
    const x = leaf();
    const y = x.mul(2);
    expect(() => y.backward()).toThrow('grad can be implicitly created only for scalar outputs');
    y.backward(tensor([1, 10], { dtype: 'float64' }));
    expect(x.grad!.tolist()).toEqual([2, 20]);
  });

  it("PyTorch's errors: no grad_fn, second backward, unused inputs", () => {
    expect(() => tensor([1]).sum().backward()).toThrow(
      'element 0 of tensors does not require grad and does not have a grad_fn',
    );
    const x = leaf();
    const y = x.exp().sum();
    y.backward();
    expect(() => y.backward()).toThrow('Trying to backward through the graph a second time');
    const z = x.exp().sum();
    z.backward(undefined, { retainGraph: true });
    z.backward();
    const unused = leaf();
    expect(() => grad(x.sum(), [x, unused])).toThrow(
      'One of the differentiated Tensors appears to not have been used in the graph',
    );
    expect(grad(x.sum(), [x, unused], { allowUnused: true })[1]).toBeNull();
    expect(grad(x.sum(), [x, unused], { materializeGrads: true })[1]!.tolist()).toEqual([0, 0]);
  });

  it('materialized zeros require grad under createGraph only, as PyTorch makes them', () => {
    const x = leaf();
    const unused = leaf();
    const [, plain] = grad(x.mul(x).sum(), [x, unused], { materializeGrads: true });
    expect(plain!.requiresGrad).toBe(false);
    const [gx, gu] = grad(x.mul(x).sum(), [x, unused], { materializeGrads: true, createGraph: true });
    expect(gu!.tolist()).toEqual([0, 0]);
    expect(gu!.requiresGrad).toBe(true);
    // they are leaves of the new graph: a second grad() can differentiate through them
    const [ggx, ggu] = grad(gx!.add(gu!).sum(), [x, gu!]);
    expect(ggx!.tolist()).toEqual([2, 2]);
    expect(ggu!.tolist()).toEqual([1, 1]);
  });

  it('reduces broadcast gradients to the input shape', () => {
    const a = leaf([1, 2, 3]);
    const b = tensor([[1], [2]], { dtype: 'float64', requiresGrad: true });
    a.mul(b).sum().backward();
    expect(a.grad!.tolist()).toEqual([3, 3, 3]);
    expect(b.grad!.tolist()).toEqual([[6], [6]]);
  });
});

describe('in-place and versions', () => {
  it("errors when a saved tensor was modified in place (PyTorch's message)", () => {
    const x = leaf();
    const y = x.sigmoid();
    y.mul_(2);
    expect(() => y.sum().backward()).toThrow(
      'one of the variables needed for gradient computation has been modified by an inplace operation: [torch.DoubleTensor [2]], which is output 0 of SigmoidBackward0, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True).',
    );
  });

  it('refuses in-place on a leaf that requires grad, allows it under noGrad', () => {
    const x = leaf();
    expect(() => x.add_(1)).toThrow('a leaf tensor that requires grad is being used in an in-place operation.');
    noGrad(() => x.add_(1));
    expect(x.tolist()).toEqual([2, 3]);
  });

  it('y.mul_(w) with w requiring grad: the product keeps the old value of y (PyTorch saves original_self)', () => {
    const x = leaf([1, 2]);
    const w = leaf([3, 4]);
    const y = x.mul(2);
    y.mul_(w);
    y.sum().backward();
    expect(w.grad!.tolist()).toEqual([2, 4]);
    expect(x.grad!.tolist()).toEqual([6, 8]);
  });

  it('in-place on a non-leaf rebases its history with correct gradients', () => {
    const x = leaf([1, 2]);
    const y = x.mul(1);
    y.mul_(3);
    y.add_(x);
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual([4, 4]);
  });
});

describe('grad modes', () => {
  it('noGrad, enableGrad, setGradEnabled', () => {
    const x = leaf();
    expect(noGrad(() => x.mul(2)).requiresGrad).toBe(false);
    expect(noGrad(() => enableGrad(() => x.mul(2))).requiresGrad).toBe(true);
    setGradEnabled(false);
    expect(isGradEnabled()).toBe(false);
    setGradEnabled(true);
  });

  it('inference tensors cannot be saved for backward', () => {
    const t = inferenceMode(() => tensor([1, 2], { dtype: 'float64' }).mul(2));
    expect(() => leaf().mul(t).sum().backward()).toThrow('Inference tensors cannot be saved for backward');
  });

  it('anomaly mode names the node that returned NaN', () => {
    const x = tensor([-1], { dtype: 'float64', requiresGrad: true });
    // its warnings are anomalyMode.test.ts's subject
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    expect(() => detectAnomaly(() => x.sqrt().sum().backward())).toThrow(
      "Function 'SqrtBackward0' returned nan values in its 0th output.",
    );
    warn.mockRestore();
  });
});

describe('custom Function', () => {
  it('sums a broadcast gradient and rejects an incompatible one (validate_outputs)', () => {
    class Broadcasting extends Function {
      static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
        ctx.shape = [2, 3];
        return x.clone();
      }
      static override backward(ctx: FunctionCtx, g: Tensor): Tensor {
        return (ctx.shape as number[]).length === 2 ? g.expand([2, 3]) : tensor([1, 1, 1], { dtype: 'float64' });
      }
    }
    const x = tensor([[1, 2, 3]], { dtype: 'float64', requiresGrad: true });
    Broadcasting.apply<Tensor>(x).sum().backward();
    expect(x.grad!.tolist()).toEqual([[2, 2, 2]]);
    class Wrong extends Broadcasting {
      static override forward(ctx: FunctionCtx, t: Tensor): Tensor {
        ctx.shape = [3];
        return t.clone();
      }
    }
    expect(() => Wrong.apply<Tensor>(x).sum().backward()).toThrow(
      'Function WrongBackward returned an invalid gradient at index 0 - got [3] but expected shape compatible with [1, 3]',
    );
  });
});

describe('checkpoint', () => {
  it('gives the same gradients as the plain computation', () => {
    const f = (t: Tensor) => t.exp().mul(t).sin();
    const a = leaf([0.5, 1.5]);
    f(a).sum().backward();
    const b = leaf([0.5, 1.5]);
    checkpoint(f, b).sum().backward();
    expect(b.grad!.tolist()).toEqual(a.grad!.tolist());
  });

  it("recomputes with the forward's random numbers and leaves the generator where it was (preserve_rng_state)", () => {
    // dropout-like: the mask is drawn inside the checkpointed function
    const f = (t: Tensor) => t.mul(rand(t.shape, { dtype: 'float64' }).gt(0.5)).mul(t);
    manualSeed(11);
    const a = leaf([0.5, 1.5, 2.5, 3.5, 4.5, 5.5]);
    f(a).sum().backward();
    const after = rand([1]).item();
    manualSeed(11);
    const b = leaf([0.5, 1.5, 2.5, 3.5, 4.5, 5.5]);
    const out = checkpoint(f, b);
    const state = getRngState();
    out.sum().backward();
    expect(b.grad!.tolist()).toEqual(a.grad!.tolist());
    expect(getRngState()).toEqual(state);
    expect(rand([1]).item()).toBe(after);
    expect(() => setRngState([0, 0, 0, 0])).toThrow('setRngState expects the four uint32 words');
  });

  it('is incompatible with grad(), with PyTorch message', () => {
    const b = leaf();
    expect(() => grad(checkpoint((t) => t.mul(2), b).sum(), b)).toThrow('Checkpointing is not compatible with .grad()');
  });
});
