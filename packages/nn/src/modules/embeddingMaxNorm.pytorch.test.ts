import { describe, expect, it } from 'vitest';
import { type NestedArray, noGrad, tensor } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import * as F from '../functional/index.js';
import { Embedding } from '../index.js';

interface MaxNormCase {
  ys: NestedArray[];
  weights: NestedArray[];
  dweight: NestedArray;
  repr: string;
}
const T = loadFixture<{
  embedding: { weight: NestedArray; inputs: NestedArray[]; cases: Record<string, MaxNormCase> };
}>('fixes').embedding;

const cases: [string, ConstructorParameters<typeof Embedding>[2]][] = [
  ['maxNorm', { maxNorm: 1.5 }],
  ['maxNormPadding', { maxNorm: 1.0, paddingIdx: 2 }],
  ['maxNormL1', { maxNorm: 2.0, normType: 1 }],
  ['maxNormInf', { maxNorm: 0.8, normType: Infinity }],
];

describe("Embedding's maxNorm agrees with PyTorch 1.13 (fixtures/fixes.json)", () => {
  it.each(cases)(
    '%s: each lookup first renormalises the rows it reads, in place, and leaves the others alone',
    (name, opts) => {
      const c = T.cases[name]!;
      const e = new Embedding(6, 3, opts).to('float64');
      expect(e.toString()).toBe(c.repr);
      noGrad(() => e.weight.copy_(f64(T.weight)));
      T.inputs.forEach((ids, i) => {
        const y = e.forward(tensor(ids, { dtype: 'int32' }));
        expectClose(y, c.ys[i]!);
        expectClose(e.weight, c.weights[i]!);
      });
      e.weight.grad = null;
      const y = e.forward(tensor(T.inputs[0]!, { dtype: 'int32' }));
      y.mul(f64(Array.from({ length: y.numel }, (_, i) => -1 + (2 * i) / (y.numel - 1))).reshape([...y.shape]))
        .sum()
        .backward();
      expectClose(e.weight.grad!, c.dweight);
    },
  );

  it('F.embedding with maxNorm renormalises the weight it is given; without it the weight is untouched', () => {
    const w = f64(T.weight);
    const ids = tensor(T.inputs[0]!, { dtype: 'int32' });
    F.embedding(ids, w);
    expectClose(w, T.weight);
    F.embedding(ids, w, { maxNorm: 1.5 });
    expectClose(w, T.cases.maxNorm!.weights[0]!);
  });
});
