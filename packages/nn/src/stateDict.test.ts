import { describe, expect, it } from 'vitest';
import { type NestedArray, tensor, zeros } from '@wiregrad/autograd';
import { expectClose, f64, jsShapes, loadFixture } from './__tests__/fixture.js';
import { Linear, ReLU, Sequential, crossEntropy } from './index.js';

interface Fixture {
  nestedKeys: string[];
  missingUnexpected: string;
  sizeMismatch: string;
  notATensor: string;
  nonStrict: { missing: string[]; unexpected: string[] };
  nonStrictSizeMismatch: string;
  mlp: {
    x: number[][];
    target: number[];
    stateDict: Record<string, NestedArray>;
    loss: number;
    lossSum: number;
    grads: Record<string, NestedArray>;
  };
}
const T = loadFixture<Fixture>('modules');
const mlp3 = () => new Sequential(new Linear(2, 3), new ReLU(), new Linear(3, 1));

describe('stateDict / loadStateDict (PyTorch 1.13 keys and messages, fixtures/modules.json)', () => {
  it("keys are PyTorch's", () => {
    const nested = new Sequential(new Sequential(new Linear(2, 3), new ReLU()), new Linear(3, 1, { bias: false }));
    expect(Object.keys(nested.stateDict())).toEqual(T.nestedKeys);
  });

  it('values are detached and share storage with the parameters', () => {
    const m = mlp3();
    const sd = m.stateDict();
    expect(sd['0.weight']!.requiresGrad).toBe(false);
    expect(sd['0.weight']!.storage).toBe(m.layers[0]!.parameters()[0]!.storage);
    expect(m.stateDict({ keepVars: true })['0.weight']).toBe(m.parameters()[0]);
  });

  it('a round trip copies every value in place, keeping the Parameter objects', () => {
    const a = mlp3();
    const b = mlp3();
    const params = b.parameters();
    expect(b.loadStateDict(a.stateDict())).toEqual({ missingKeys: [], unexpectedKeys: [] });
    expect(b.parameters()).toEqual(params);
    for (const [k, v] of Object.entries(a.stateDict())) expect(b.stateDict()[k]!.tolist()).toEqual(v.tolist());
  });

  it('a model loaded with weights PyTorch saved gives PyTorch’s loss and gradients', () => {
    const { mlp } = T;
    const model = new Sequential(new Linear(2, 3), new ReLU(), new Linear(3, 3)).to('float64');
    model.loadStateDict(Object.fromEntries(Object.entries(mlp.stateDict).map(([k, v]) => [k, f64(v)])));
    const target = tensor(new Int32Array(mlp.target));
    const loss = crossEntropy(model.forward(f64(mlp.x)), target);
    expect(loss.item()).toBeCloseTo(mlp.loss, 12);
    expect(crossEntropy(model.forward(f64(mlp.x)), target, { reduction: 'sum' }).item()).toBeCloseTo(mlp.lossSum, 12);
    loss.backward();
    for (const [name, p] of model.namedParameters()) expectClose(p.grad!, mlp.grads[name]!);
  });

  it("missing and unexpected keys: PyTorch's message, word for word", () => {
    const sd = { '0.weight': zeros([3, 2]), '2.weight': zeros([1, 3]), extra: zeros([1]), '0.bias.x': zeros([1]) };
    expect(() => mlp3().loadStateDict(sd)).toThrow(T.missingUnexpected);
    expect(() => mlp3().loadStateDict(sd)).toThrow(expect.objectContaining({ code: 'STATE_DICT' }));
  });

  it("a shape mismatch raises PyTorch's message with the shapes as JS writes them, strict or not", () => {
    expect(() => mlp3().loadStateDict({ ...mlp3().stateDict(), '0.weight': zeros([2, 2]) })).toThrow(
      jsShapes(T.sizeMismatch),
    );
    expect(() => mlp3().loadStateDict({ '2.bias': zeros([2]) }, { strict: false })).toThrow(
      jsShapes(T.nonStrictSizeMismatch),
    );
  });

  it('a value that is not a tensor is named', () => {
    const bad = { ...mlp3().stateDict(), '2.bias': 5 } as unknown as Record<string, never>;
    const prefix = T.notATensor.slice(0, T.notATensor.indexOf('received'));
    expect(() => mlp3().loadStateDict(bad)).toThrow(`${prefix}received number`);
  });

  it('strict: false returns the missing and unexpected keys in PyTorch’s order', () => {
    const r = mlp3().loadStateDict(
      { '0.weight': zeros([3, 2]), '1.foo': zeros([1]), bar: zeros([1]) },
      { strict: false },
    );
    expect(r).toEqual({ missingKeys: T.nonStrict.missing, unexpectedKeys: T.nonStrict.unexpected });
  });

  it('values are cast to the parameter dtype on load', () => {
    const m = mlp3();
    m.loadStateDict(Object.fromEntries(Object.entries(mlp3().stateDict()).map(([k, v]) => [k, v.to('float64')])));
    expect(m.parameters().map((p) => p.dtype)).toEqual(['float32', 'float32', 'float32', 'float32']);
  });
});
