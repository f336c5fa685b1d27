import { describe, expect, it } from 'vitest';
import { type NestedArray, type Tensor, noGrad, zeros } from '@wiregrad/autograd';
import { expectClose, f64, jsShapes, loadFixture } from '../../__tests__/fixture.js';
import { type Encoded, decode, decodeOptions, ramp } from '../../__tests__/maskFixture.js';
import { MultiheadAttention, type MultiheadAttentionForwardOptions, functional as F } from '../../index.js';

interface Result {
  outputs: NestedArray[];
  grads: Record<string, NestedArray>;
  stateDict: Record<string, NestedArray>;
  dparams: Record<string, NestedArray>;
  repr: string;
}
interface SdpaCase extends Omit<Result, 'stateDict' | 'dparams' | 'repr'> {
  q: NestedArray;
  k: NestedArray;
  v: NestedArray;
  mask: Encoded;
  isCausal: boolean;
}
interface MhaCase extends Result {
  inputs: Record<string, NestedArray>;
  opts: Record<string, Encoded | boolean>;
  weightsNone: boolean;
}
const A = loadFixture<{ sdpa: Record<string, SdpaCase>; mha: Record<string, MhaCase>; errors: Record<string, string> }>(
  'attention',
);

const lossOf = (ys: Tensor[]) => ys.map((y) => y.mul(ramp(y)).sum()).reduce((a, b) => a.add(b));

describe('F.scaledDotProductAttention agrees with PyTorch 1.13 (fixtures/attention.json)', () => {
  it.each(Object.keys(A.sdpa))('%s: output and the gradients of query, key and value', (name) => {
    const c = A.sdpa[name]!;
    const [q, k, v] = [f64(c.q, true), f64(c.k, true), f64(c.v, true)];
    const y = F.scaledDotProductAttention(q, k, v, { attnMask: decode(c.mask), isCausal: c.isCausal });
    expectClose(y, c.outputs[0]!);
    lossOf([y]).backward();
    for (const [n, t] of [
      ['q', q],
      ['k', k],
      ['v', v],
    ] as const)
      expectClose(t.grad!, c.grads[n]!);
  });

  it('dropoutP 1 drops every weight; is_causal and attnMask together are refused', () => {
    const q = f64([[[1, 2]], [[3, 4]]]);
    expectClose(F.scaledDotProductAttention(q, q, q, { dropoutP: 1 }), [[[0, 0]], [[0, 0]]]);
    expect(() =>
      F.scaledDotProductAttention(q, q, q, { isCausal: true, attnMask: zeros([1, 1], { dtype: 'bool' }) }),
    ).toThrow('Explicit attn_mask should not be set when is_causal=True');
  });
});

describe('MultiheadAttention agrees with PyTorch 1.13 (fixtures/attention.json)', () => {
  const make: Record<string, () => MultiheadAttention> = {
    selfAttention: () => new MultiheadAttention(8, 2),
    kdimVdimBatchFirstPadding: () => new MultiheadAttention(8, 4, { kdim: 6, vdim: 5, batchFirst: true }),
    crossBoolMasks: () => new MultiheadAttention(6, 3),
    float3dMaskAndPadding: () => new MultiheadAttention(6, 2, { bias: false }),
    biasKvZeroAttn: () => new MultiheadAttention(6, 2, { addBiasKv: true, addZeroAttn: true }),
    unbatched: () => new MultiheadAttention(6, 2),
    noWeights: () => new MultiheadAttention(4, 2, { batchFirst: true }),
  };
  it.each(Object.keys(A.mha))('%s: state dict keys, output, weights, and input and parameter gradients', (name) => {
    const c = A.mha[name]!;
    const m = make[name]!().to('float64').eval();
    expect(Object.keys(m.stateDict())).toEqual(Object.keys(c.stateDict));
    m.loadStateDict(Object.fromEntries(Object.entries(c.stateDict).map(([k, v]) => [k, f64(v)])));
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, f64(v, true)]));
    const q = inputs.query!;
    const k = inputs.key ?? q;
    const [out, w] = m.forward(q, k, inputs.value ?? k, decodeOptions(c.opts) as MultiheadAttentionForwardOptions);
    expect(w === null).toBe(c.weightsNone);
    const ys = w ? [out, w] : [out];
    ys.forEach((y, i) => expectClose(y, c.outputs[i]!));
    lossOf(ys).backward();
    for (const [n, t] of Object.entries(inputs)) expectClose(t.grad!, c.grads[n]!);
    for (const [n, p] of m.namedParameters()) expectClose(p.grad!, c.dparams[n]!);
    expect(m.toString()).toBe(c.repr);
  });

  it("raises PyTorch's messages", () => {
    const x = noGrad(() => zeros([4, 2, 6]));
    const m = new MultiheadAttention(6, 2);
    const bool = (...s: number[]) => zeros(s, { dtype: 'bool' });
    expect(() => new MultiheadAttention(6, 4)).toThrow(A.errors.divisible!);
    expect(() => m.forward(x, zeros([4, 6]), x)).toThrow(A.errors.keyDims!);
    expect(() => m.forward(zeros([6]), x, x)).toThrow(A.errors.queryDims!);
    expect(() => m.forward(x, x, x, { attnMask: zeros([3, 4]) })).toThrow(jsShapes(A.errors.mask2d!));
    expect(() => m.forward(x, x, x, { attnMask: zeros([2, 4, 4]) })).toThrow(jsShapes(A.errors.mask3d!));
    expect(() => m.forward(x, x, x, { keyPaddingMask: bool(2, 3) })).toThrow(jsShapes(A.errors.padding!));
  });
});
