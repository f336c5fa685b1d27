import { describe, expect, it } from 'vitest';
import { type Tensor, gradcheck, manualSeed, noGrad, randn } from '@wiregrad/autograd';
import { expectClose } from '../../__tests__/fixture.js';
import {
  MultiheadAttention,
  Transformer,
  TransformerEncoder,
  TransformerEncoderLayer,
  functional as F,
} from '../../index.js';

const leaf = (t: Tensor) => t.requiresGrad_(true);
const r64 = (...shape: number[]) => randn(shape, { dtype: 'float64' });

describe('attention gradients agree with finite differences (gradcheck, float64)', () => {
  manualSeed(5);
  it('scaledDotProductAttention with a float mask, and causal', () => {
    const mask = r64(3, 4);
    const f = (q: Tensor, k: Tensor, v: Tensor) => [
      F.scaledDotProductAttention(q, k, v, { attnMask: mask }),
      F.scaledDotProductAttention(q, k.narrow(1, 0, 3), v.narrow(1, 0, 3), { isCausal: true }),
    ];
    expect(gradcheck(f, [leaf(r64(2, 3, 2)), leaf(r64(2, 4, 2)), leaf(r64(2, 4, 3))], { raiseException: true })).toBe(
      true,
    );
  });

  it('scaledDotProductAttention with dropout (one fixed mask)', () => {
    const f = (q: Tensor, k: Tensor, v: Tensor) => {
      manualSeed(2);
      return F.scaledDotProductAttention(q, k, v, { dropoutP: 0.3 });
    };
    expect(gradcheck(f, [leaf(r64(3, 2)), leaf(r64(4, 2)), leaf(r64(4, 2))], { raiseException: true })).toBe(true);
  });

  it('multi-head attention over query, key, value and the packed projection, with padding and bias_k/v', () => {
    const m = new MultiheadAttention(4, 2, { addBiasKv: true, addZeroAttn: true }).to('float64');
    const kpm = noGrad(() => r64(2, 3).gt(0.5));
    const f = (q: Tensor, k: Tensor, v: Tensor, w: Tensor) =>
      F.multiHeadAttentionForward(
        q,
        k,
        v,
        2,
        {
          inProjWeight: w,
          inProjBias: m.in_proj_bias,
          biasK: m.bias_k,
          biasV: m.bias_v,
          outProjWeight: m.out_proj.weight,
          outProjBias: m.out_proj.bias,
        },
        { keyPaddingMask: kpm, addZeroAttn: true },
      ) as Tensor[];
    const w = leaf(m.in_proj_weight!.detach().clone());
    expect(
      gradcheck(f, [leaf(r64(2, 2, 4)), leaf(r64(3, 2, 4)), leaf(r64(3, 2, 4)), w], { raiseException: true }),
    ).toBe(true);
  });
});

describe('attention layers: modes and construction', () => {
  it('MultiheadAttention: xavier-uniform projections, zero biases; dropout on the weights in training mode only', () => {
    manualSeed(0);
    const m = new MultiheadAttention(16, 4, { dropout: 0.5 }).to('float64');
    const bound = Math.sqrt(6 / (16 + 48));
    const w = [...m.in_proj_weight!.toTypedArray()].map(Math.abs);
    expect(Math.max(...w)).toBeLessThanOrEqual(bound);
    expect(Math.max(...w)).toBeGreaterThan(0.9 * bound);
    expect([...m.in_proj_bias!.toTypedArray(), ...m.out_proj.bias!.toTypedArray()].every((b) => b === 0)).toBe(true);
    const x = r64(5, 2, 16);
    const [a] = m.eval().forward(x, x, x);
    expectClose(m.forward(x, x, x)[0], a.tolist() as number[][][]);
    const [[t1, w1], [t2]] = [m.train().forward(x, x, x), m.forward(x, x, x)];
    expect(t1.sub(t2).abs().max().item()).toBeGreaterThan(1e-6);
    expect(w1!.shape).toEqual([2, 5, 5]);
  });

  it('TransformerEncoder deep-copies its layer: equal values, separate parameters', () => {
    const layer = new TransformerEncoderLayer(8, 2, { dimFeedforward: 16 });
    const enc = new TransformerEncoder(layer, 2);
    const [l0, l1] = [enc.layers.at(0)!, enc.layers.at(1)!];
    expect(l0.linear1.weight).not.toBe(l1.linear1.weight);
    expect(l0.linear1.weight).not.toBe(layer.linear1.weight);
    expect(l1.linear1.weight.tolist()).toEqual(layer.linear1.weight.tolist());
  });

  it('Transformer re-draws every matrix xavier-uniform, as PyTorch', () => {
    const t = new Transformer(8, 2, { numEncoderLayers: 1, numDecoderLayers: 1, dimFeedforward: 32 });
    for (const [name, p] of t.namedParameters()) {
      if (p.ndim < 2) continue;
      const [out, inp] = p.shape as [number, number];
      const bound = Math.sqrt(6 / (out + inp));
      expect(Math.max(...[...p.toTypedArray()].map(Math.abs)), name).toBeLessThanOrEqual(bound);
    }
  });
});
