import { describe, expect, it } from 'vitest';
import {
  Function,
  type FunctionCtx,
  type Tensor,
  arange,
  inferenceMode,
  isInference,
  ones,
  randn,
  manualSeed,
  tensor,
} from './index.js';

const SAVE_ERROR =
  'Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal tensor and use it in autograd.';
const leaf = () => tensor([1, 2], { requiresGrad: true });

describe('inference tensors (Note [Inference tensors])', () => {
  it('every tensor allocated under inferenceMode is one, by creation ops as by kernels, and so are its views', () => {
    manualSeed(0);
    const made = inferenceMode(() => [tensor([1, 2]), ones([2]), randn([2]), arange(2), tensor([1, 2]).mul(2)]);
    for (const t of made) {
      expect(t.isInference()).toBe(true);
      expect(isInference(t.view([2, 1]))).toBe(true);
    }
    expect(tensor([1, 2]).isInference()).toBe(false);
  });

  it('a view of a normal tensor, or an in-place write into one, under inferenceMode stays normal', () => {
    const x = tensor([1, 2, 3]);
    const v = inferenceMode(() => x.narrow(0, 1, 2).add_(1));
    expect([x.isInference(), v.isInference()]).toEqual([false, false]);
    expect(x.tolist()).toEqual([1, 3, 4]);
  });

  it('ops on inference tensors outside inferenceMode give normal tensors', () => {
    const t = inferenceMode(() => ones([2]));
    expect(t.mul(2).isInference()).toBe(false);
  });

  it("an op that records a node and saves an inference tensor throws PyTorch's error; one that saves none works", () => {
    const t = inferenceMode(() => ones([2]));
    expect(() => leaf().mul(t)).toThrow(SAVE_ERROR);
    expect(() => t.mul(leaf())).toThrow(SAVE_ERROR);
    const x = leaf();
    x.add(t).sum().backward();
    expect(x.grad!.tolist()).toEqual([1, 1]);
    // the documented workaround: a clone is a normal tensor
    expect(leaf().mul(t.clone()).requiresGrad).toBe(true);
  });

  it('a custom Function cannot save one either', () => {
    class Keep extends Function {
      static override forward(ctx: FunctionCtx, x: Tensor, c: Tensor): Tensor {
        ctx.saveForBackward(c);
        return x.mul(c);
      }
      static override backward(ctx: FunctionCtx, g: Tensor): Tensor[] {
        return [g.mul(ctx.savedTensors[0]!)];
      }
    }
    expect(() =>
      Keep.apply(
        leaf(),
        inferenceMode(() => ones([2])),
      ),
    ).toThrow(SAVE_ERROR);
  });

  it('the scalars interned for `x.mul(2.5)` stay normal when first used under inferenceMode (Note [Wrapped scalars])', () => {
    inferenceMode(() => ones([2]).mul(2.5).add(0.125));
    const x = leaf();
    x.mul(2.5).add(0.125).sum().backward();
    expect(x.grad!.tolist()).toEqual([2.5, 2.5]);
  });

  it('requiresGrad may be set on an inference tensor inside inferenceMode only', () => {
    const t = inferenceMode(() => ones([2]));
    expect(() => (t.requiresGrad = true)).toThrow(
      'Setting requiresGrad: true on inference tensor outside InferenceMode is not allowed.',
    );
    expect(inferenceMode(() => ones([2]).requiresGrad_().requiresGrad)).toBe(true);
  });
});
