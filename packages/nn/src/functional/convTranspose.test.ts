import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randn } from '@wiregrad/autograd';
import { conv2d, convTranspose1d, convTranspose2d, conv1d } from './index.js';

describe('Note [Transposed convolution]', () => {
  it('convTranspose2d is the adjoint of conv2d: <conv2d(x, w), y> = <x, convTranspose2d(y, w)>, outputPadding restoring x’s size', () => {
    fc.assert(
      fc.property(
        fc.record({
          h: fc.integer({ min: 3, max: 7 }),
          w: fc.integer({ min: 3, max: 7 }),
          k: fc.integer({ min: 1, max: 3 }),
          s: fc.integer({ min: 1, max: 3 }),
          p: fc.integer({ min: 0, max: 1 }),
          d: fc.integer({ min: 1, max: 2 }),
          groups: fc.constantFrom(1, 2),
        }),
        ({ h, w, k, s, p, d, groups }) => {
          fc.pre(Math.min(h, w) + 2 * p >= d * (k - 1) + 1);
          const x = randn([2, 2 * groups, h, w], { dtype: 'float64' });
          const weight = randn([3 * groups, 2, k, k], { dtype: 'float64' });
          const y = conv2d(x, weight, null, { stride: s, padding: p, dilation: d, groups });
          const r = randn([...y.shape], { dtype: 'float64' });
          const [oh, ow] = y.shape.slice(2) as [number, number];
          const outputPadding: [number, number] = [
            h - ((oh - 1) * s - 2 * p + d * (k - 1) + 1),
            w - ((ow - 1) * s - 2 * p + d * (k - 1) + 1),
          ];
          const t = convTranspose2d(r, weight, null, { stride: s, padding: p, dilation: d, groups, outputPadding });
          expect(t.shape).toEqual(x.shape);
          expect(y.mul(r).sum().item()).toBeCloseTo(x.mul(t).sum().item(), 9);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('convTranspose1d is the adjoint of conv1d', () => {
    const x = randn([2, 4, 12], { dtype: 'float64' });
    const weight = randn([6, 2, 3], { dtype: 'float64' });
    const y = conv1d(x, weight, null, { stride: 2, padding: 1, dilation: 2, groups: 2 });
    const r = randn([...y.shape], { dtype: 'float64' });
    const t = convTranspose1d(r, weight, null, { stride: 2, padding: 1, dilation: 2, groups: 2, outputPadding: 1 });
    expect(t.shape).toEqual(x.shape);
    expect(y.mul(r).sum().item()).toBeCloseTo(x.mul(t).sum().item(), 9);
  });
});
