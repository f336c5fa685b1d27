import { describe, expect, it } from 'vitest';
import { tensor } from '@wiregrad/autograd';
import { clipGradNorm_, clipGradValue_ } from '../optim/index.js';

const withGrad = (v: number[], g: number[] | null) => {
  const p = tensor(v, { dtype: 'float64', requiresGrad: true });
  p.grad = g && tensor(g, { dtype: 'float64' });
  return p;
};

describe('clipGradNorm_ / clipGradValue_ (torch.nn.utils)', () => {
  it('leave gradients under the limit alone and return the norm; parameters without a gradient are skipped', () => {
    const a = withGrad([0, 0], [0.3, 0.4]);
    const b = withGrad([0], null);
    expect(clipGradNorm_([a, b], 1).item()).toBeCloseTo(0.5, 12);
    expect(a.grad!.tolist()).toEqual([0.3, 0.4]);
    expect(clipGradNorm_(a, 0.25).item()).toBeCloseTo(0.5, 12); // one tensor works too
    expect(a.grad!.tolist()).toEqual([expect.closeTo(0.15, 6), expect.closeTo(0.2, 6)]);
    expect(clipGradNorm_([b], 1).item()).toBe(0);
  });

  it('errorIfNonfinite reports a non-finite total norm', () => {
    const a = withGrad([0], [Infinity]);
    expect(() => clipGradNorm_([a], 1, { errorIfNonfinite: true })).toThrow(
      'The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped.',
    );
  });

  it('clipGradValue_ clamps every gradient in place', () => {
    const a = withGrad([0, 0, 0], [-3, 0.5, 2]);
    clipGradValue_([a], 1);
    expect(a.grad!.tolist()).toEqual([-1, 0.5, 1]);
    expect(() => clipGradValue_([a], '1' as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
