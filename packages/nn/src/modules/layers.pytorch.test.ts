import { describe, expect, it } from 'vitest';
import { type NestedArray, noGrad, tensor } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import {
  BatchNorm1d,
  BatchNorm2d,
  Embedding,
  GELU,
  LayerNorm,
  Linear,
  Module,
  ModuleDict,
  ModuleList,
  Sequential,
} from '../index.js';

interface Step {
  x: NestedArray;
  y: NestedArray;
  dx: NestedArray;
  dparams: Record<string, NestedArray>;
  buffers: Record<string, NestedArray>;
}
interface Fixture {
  layers: Record<string, { params: Record<string, NestedArray>; steps: Step[]; eval: NestedArray }>;
  embedding: { weight: NestedArray; input: NestedArray; y: NestedArray; dweight: NestedArray };
  netKeys: string[];
  netRepr: string;
}
const T = loadFixture<Fixture>('modules');

/** r = linspace(-1, 1) over y's elements, as generate.py weights the output before backward. */
const ramp = (n: number) => Array.from({ length: n }, (_, i) => (n === 1 ? -1 : -1 + (2 * i) / (n - 1)));

function setParams(m: Module, values: Record<string, NestedArray>): void {
  noGrad(() => {
    for (const [name, p] of m.namedParameters()) if (values[name]) p.copy_(f64(values[name]));
  });
}

const layers: [string, () => Module][] = [
  ['batchNorm1d', () => new BatchNorm1d(3)],
  ['batchNorm1d3d', () => new BatchNorm1d(3, { momentum: 0.3 })],
  ['batchNorm2dCumulative', () => new BatchNorm2d(2, { momentum: null })],
  ['batchNorm2dNoAffineNoStats', () => new BatchNorm2d(2, { affine: false, trackRunningStats: false })],
  ['layerNorm', () => new LayerNorm([3, 4])],
  ['layerNormNoAffine', () => new LayerNorm(4, { eps: 1e-3, elementwiseAffine: false })],
  ['geluTanh', () => new GELU({ approximate: 'tanh' })],
];

describe('layers agree with PyTorch 1.13 (fixtures/modules.json)', () => {
  it.each(layers)(
    '%s: outputs, input and parameter gradients, running stats per training step; then eval mode',
    (name, make) => {
      const { params, steps, eval: evalOut } = T.layers[name]!;
      const m = make().to('float64');
      expect(m.namedParameters().map(([n]) => n)).toEqual(Object.keys(params));
      setParams(m, params);
      m.train();
      for (const s of steps) {
        m.zeroGrad();
        const x = f64(s.x, true);
        const y = m.forward(x);
        expectClose(y, s.y);
        y.mul(f64(ramp(y.numel)).reshape([...y.shape]))
          .sum()
          .backward();
        expectClose(x.grad!, s.dx);
        for (const [n, p] of m.namedParameters()) expectClose(p.grad!, s.dparams[n]!);
        for (const [n, b] of m.namedBuffers()) expectClose(b, s.buffers[n]!);
      }
      m.eval();
      expectClose(m.forward(f64(steps.at(-1)!.x)), evalOut);
    },
  );

  it('Embedding: rows picked by index; the padding row gets no gradient', () => {
    const { embedding } = T;
    const e = new Embedding(5, 3, { paddingIdx: 1 }).to('float64');
    noGrad(() => e.weight.copy_(f64(embedding.weight)));
    const y = e.forward(tensor(embedding.input, { dtype: 'int32' }));
    expectClose(y, embedding.y);
    y.mul(f64(ramp(y.numel)).reshape([...y.shape]))
      .sum()
      .backward();
    expectClose(e.weight.grad!, embedding.dweight);
  });

  it("a net of Sequential, ModuleList and ModuleDict has PyTorch's state dict keys and printout", () => {
    class Net extends Module {
      features = new Sequential(new Linear(4, 3), new BatchNorm1d(3));
      heads = new ModuleList([new Linear(3, 2), new Linear(3, 1, { bias: false })]);
      extra = new ModuleDict({ emb: new Embedding(5, 2), ln: new LayerNorm(2) });
      forward() {
        return tensor(0);
      }
    }
    expect(Object.keys(new Net().stateDict())).toEqual(T.netKeys);
    expect(new Net().toString()).toBe(T.netRepr);
  });
});
