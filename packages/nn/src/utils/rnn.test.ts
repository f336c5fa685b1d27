import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Tensor, gradcheck, manualSeed, randn } from '@wiregrad/autograd';
import { expectClose } from '../__tests__/fixture.js';
import { GRU, LSTM, packSequence, padPackedSequence } from '../index.js';

const r64 = (...shape: number[]) => randn(shape, { dtype: 'float64' });

describe('packed sequences', () => {
  it('a packed batch gives each sequence what it gives alone (property: any lengths, any order)', () => {
    manualSeed(7);
    const m = new LSTM(2, 3, { numLayers: 2, bidirectional: true }).to('float64');
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }), (lengths) => {
        const seqs = lengths.map((n) => r64(n, 2));
        const [out, [hN, cN]] = m.forward(packSequence(seqs, { enforceSorted: false }));
        const [padded] = padPackedSequence(out);
        seqs.forEach((s, i) => {
          const [y, [h, c]] = m.forward(s);
          expectClose(padded.select(1, i).narrow(0, 0, lengths[i]!), y.tolist() as number[][]);
          expectClose(hN.select(1, i), h.tolist() as number[][]);
          expectClose(cN.select(1, i), c.tolist() as number[][]);
        });
      }),
      { numRuns: 15 },
    );
  });

  it('gradients through packing, a bidirectional GRU and unpacking agree with finite differences', () => {
    manualSeed(8);
    const m = new GRU(2, 2, { bidirectional: true }).to('float64');
    const f = (a: Tensor, b: Tensor, c: Tensor, h0: Tensor) => {
      const [out, hN] = m.forward(packSequence([a, b, c], { enforceSorted: false }), h0);
      return [padPackedSequence(out, { batchFirst: true })[0], hN];
    };
    const leaves = [r64(2, 2), r64(3, 2), r64(1, 2), r64(2, 3, 2)].map((t) => t.requiresGrad_(true));
    expect(gradcheck(f, leaves, { raiseException: true })).toBe(true);
  });
});
