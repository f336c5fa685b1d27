import { describe, expect, it } from 'vitest';
import { dropout, manualSeed, ones, rand, randn, type Tensor } from '../index.js';

const values = (t: Tensor): number[] => Array.from(t.toTypedArray(), Number);

describe('dropout (torch.dropout)', () => {
  it('zeroes where the seeded generator draws below p and scales the rest by 1/(1 - p)', () => {
    const x = randn([4, 5]);
    manualSeed(3);
    const u = values(rand([4, 5]));
    manualSeed(3);
    const y = dropout(x, 0.3, true);
    expect(y.shape).toEqual([4, 5]);
    const xs = values(x);
    values(y).forEach((v, i) => expect(v).toBeCloseTo(u[i]! >= 0.3 ? xs[i]! / 0.7 : 0, 5));
  });

  it('is the input itself when not training or with p = 0, and zeros with p = 1', () => {
    const x = randn([3]);
    expect(dropout(x, 0.5, false)).toBe(x);
    expect(dropout(x, 0, true)).toBe(x);
    expect(values(dropout(ones([3]), 1, true))).toEqual([0, 0, 0]);
  });

  it('rejects p outside [0, 1] and arguments of the wrong type (INVALID_ARGUMENT)', () => {
    expect(() => dropout(randn([2]), 1.5, true)).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: 'dropout probability has to be between 0 and 1, but got 1.5',
      }),
    );
    expect(() => dropout(randn([2]), Number.NaN, true)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => dropout(randn([2]), 0.5, undefined as unknown as boolean)).toThrow(
      "dropout(): argument 'train' must be bool, not undefined",
    );
  });
});
