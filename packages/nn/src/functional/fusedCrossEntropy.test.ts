import { describe, expect, it } from 'vitest';
import { type Tensor, grad, logSoftmax, manualSeed, randn, tensor } from '@wiregrad/autograd';
import { crossEntropy, nllLoss } from './index.js';
import type { Reduction } from './reduction.js';

/** The loss and the logits' gradient (for a random upstream gradient) of `loss`. */
function lossAndGrad(
  loss: (x: Tensor) => Tensor,
  dtype: 'float32' | 'float64',
  reduction: Reduction,
): { value: number[]; dx: number[]; name: string } {
  manualSeed(5);
  const x = randn([6, 5], { dtype }).mul(3);
  x.requiresGrad = true;
  const l = loss(x);
  l.backward(reduction === 'none' ? randn([6], { dtype }) : tensor(0.7, { dtype }));
  return { value: Array.from(l.toTypedArray()), dx: Array.from(x.grad!.toTypedArray()), name: l.gradFn!.name() };
}

const target = () => tensor(Int32Array.from([0, 4, 2, -100, 1, 4]));

function expectNear(got: number[], want: number[], tol: number): void {
  expect(got).toHaveLength(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i]!)).toBeLessThanOrEqual(tol * (1 + Math.abs(want[i]!))));
}

describe('fused cross-entropy (Note [Fused cross-entropy]) equals log_softmax + nll_loss', () => {
  const reductions: Reduction[] = ['mean', 'sum', 'none'];
  for (const dtype of ['float64', 'float32'] as const) {
    it.each(reductions)(`${dtype}, reduction %s, with an ignored target: loss and gradient`, (reduction) => {
      const fused = lossAndGrad((x) => crossEntropy(x, target(), { reduction }), dtype, reduction);
      const composite = lossAndGrad((x) => nllLoss(logSoftmax(x, 1), target(), { reduction }), dtype, reduction);
      expect(fused.name).toBe('CrossEntropyLossBackward');
      expect(composite.name).not.toBe(fused.name);
      const tol = dtype === 'float64' ? 1e-12 : 1e-5;
      expectNear(fused.value, composite.value, tol);
      expectNear(fused.dx, composite.dx, tol);
    });
  }

  it('double backward (createGraph) gives the composite second derivative', () => {
    const secondOf = (loss: (x: Tensor) => Tensor): number[] => {
      manualSeed(9);
      const x = randn([4, 3], { dtype: 'float64' });
      x.requiresGrad = true;
      const [g] = grad([loss(x)], [x], { createGraph: true });
      const [gg] = grad([g!.pow(2).sum()], [x]);
      return Array.from(gg!.toTypedArray());
    };
    const y = () => tensor(Int32Array.from([2, 0, 1, 2]));
    expectNear(
      secondOf((x) => crossEntropy(x, y())),
      secondOf((x) => nllLoss(logSoftmax(x, 1), y())),
      1e-12,
    );
  });

  it('checks targets as the composite does', () => {
    const x = randn([2, 3]);
    expect(() => crossEntropy(x, tensor(Int32Array.from([0, 3])))).toThrow('Target 3 is out of bounds.');
  });
});
