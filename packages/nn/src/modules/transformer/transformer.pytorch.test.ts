import { describe, expect, it } from 'vitest';
import { type NestedArray, type Tensor, zeros } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../../__tests__/fixture.js';
import { type Encoded, decode, decodeOptions, ramp } from '../../__tests__/maskFixture.js';
import {
  LayerNorm,
  type Module,
  Transformer,
  TransformerDecoder,
  TransformerDecoderLayer,
  TransformerEncoder,
  TransformerEncoderLayer,
} from '../../index.js';

interface LayerCase {
  inputs: Record<string, NestedArray>;
  opts: Record<string, Encoded>;
  outputs: NestedArray[];
  grads: Record<string, NestedArray>;
  stateDict: Record<string, NestedArray>;
  dparams: Record<string, NestedArray>;
  repr: string;
}
const A = loadFixture<{
  layers: Record<string, LayerCase>;
  errors: Record<string, string>;
  squareSubsequentMask: Encoded;
}>('attention');

const ff = { dimFeedforward: 16, dropout: 0 };
type AnyLayer = Module<[Tensor, ...never[]], Tensor>;
const make: Record<string, () => AnyLayer> = {
  encoderLayer: () => new TransformerEncoderLayer(8, 2, ff),
  encoderLayerNormFirstGeluBatchFirst: () =>
    new TransformerEncoderLayer(8, 4, {
      ...ff,
      activation: 'gelu',
      normFirst: true,
      batchFirst: true,
      layerNormEps: 1e-3,
    }),
  decoderLayer: () => new TransformerDecoderLayer(8, 2, ff),
  decoderLayerNormFirstBatchFirst: () =>
    new TransformerDecoderLayer(8, 2, { ...ff, normFirst: true, batchFirst: true }),
  encoder: () => new TransformerEncoder(new TransformerEncoderLayer(8, 2, ff), 2, { norm: new LayerNorm(8) }),
  decoder: () => new TransformerDecoder(new TransformerDecoderLayer(8, 2, { ...ff, normFirst: true }), 2),
  transformer: () =>
    new Transformer(8, 2, {
      ...ff,
      numEncoderLayers: 2,
      numDecoderLayers: 1,
      batchFirst: true,
      normFirst: true,
      activation: 'gelu',
    }),
} as unknown as Record<string, () => AnyLayer>;

describe('Transformer layers agree with PyTorch 1.13 (fixtures/attention.json)', () => {
  it.each(Object.keys(A.layers))('%s: state dict keys, printout, output, input and parameter gradients', (name) => {
    const c = A.layers[name]!;
    const m = make[name]!().to('float64');
    expect(Object.keys(m.stateDict())).toEqual(Object.keys(c.stateDict));
    expect(m.toString()).toBe(c.repr);
    m.loadStateDict(Object.fromEntries(Object.entries(c.stateDict).map(([k, v]) => [k, f64(v)])));
    const inputs = Object.values(c.inputs).map((v) => f64(v, true));
    const y = (m.forward as (...a: unknown[]) => Tensor)(...inputs, decodeOptions(c.opts));
    expectClose(y, c.outputs[0]!);
    y.mul(ramp(y)).sum().backward();
    Object.keys(c.inputs).forEach((n, i) => expectClose(inputs[i]!.grad!, c.grads[n]!));
    for (const [n, p] of m.namedParameters()) expectClose(p.grad!, c.dparams[n]!);
  });

  it('generateSquareSubsequentMask is -Infinity above the diagonal and 0 elsewhere', () => {
    expect(Transformer.generateSquareSubsequentMask(4, { dtype: 'float64' }).tolist()).toEqual(
      decode(A.squareSubsequentMask)!.tolist(),
    );
  });

  it("Transformer checks src and tgt with PyTorch's messages", () => {
    const t = new Transformer(6, 2, { dimFeedforward: 8 });
    expect(() => t.forward(zeros([4, 2, 6]), zeros([3, 3, 6]))).toThrow(A.errors.batch!);
    expect(() => t.forward(zeros([4, 2, 6]), zeros([3, 2, 5]))).toThrow(A.errors.features!);
  });
});
