import { describe, it } from 'vitest';
import { type NestedArray, type Tensor, tensor } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import * as F from './index.js';

type Inputs = Record<string, NestedArray>;
const T = loadFixture<{ inputs: Inputs; cases: Record<string, { value: NestedArray; grad: NestedArray }> }>('losses');
const I = T.inputs;
const i32 = (v: NestedArray) => tensor(v, { dtype: 'int32' });
const W = () => f64(I.weight!);

/** Each case: the loss of `x` as PyTorch computed it in fixtures/generate.py, and the tensor x starts from. */
const cases: [string, (x: Tensor) => Tensor, NestedArray][] = [
  ['nllMean', (x) => F.nllLoss(x.logSoftmax(1), i32(I.target!)), I.logits!],
  [
    'nllSumWeightIgnore',
    (x) => F.nllLoss(x.logSoftmax(1), i32(I.target!), { weight: W(), ignoreIndex: 2, reduction: 'sum' }),
    I.logits!,
  ],
  ['nllNoneKdim', (x) => F.nllLoss(x.logSoftmax(1), i32(I.target4!), { reduction: 'none' }), I.logits4!],
  ['ceMean', (x) => F.crossEntropy(x, i32(I.target!)), I.logits!],
  ['ceWeight', (x) => F.crossEntropy(x, i32(I.target!), { weight: W() }), I.logits!],
  ['ceIgnore', (x) => F.crossEntropy(x, i32(I.target!), { ignoreIndex: 2 }), I.logits!],
  ['ceSmoothing', (x) => F.crossEntropy(x, i32(I.target!), { labelSmoothing: 0.1 }), I.logits!],
  [
    'ceSmoothingWeightIgnore',
    (x) => F.crossEntropy(x, i32(I.target!), { weight: W(), ignoreIndex: 1, labelSmoothing: 0.2 }),
    I.logits!,
  ],
  [
    'ceSmoothingNone',
    (x) => F.crossEntropy(x, i32(I.target!), { ignoreIndex: 0, labelSmoothing: 0.3, reduction: 'none' }),
    I.logits!,
  ],
  [
    'ceKdimSmoothingSum',
    (x) => F.crossEntropy(x, i32(I.target4!), { labelSmoothing: 0.1, reduction: 'sum' }),
    I.logits4!,
  ],
  ['ceOneSample', (x) => F.crossEntropy(x, i32(I.target1!)), I.logits1!],
  ['ceProbs', (x) => F.crossEntropy(x, f64(I.probs!)), I.logits!],
  ['ceProbsWeightSmoothing', (x) => F.crossEntropy(x, f64(I.probs!), { weight: W(), labelSmoothing: 0.25 }), I.logits!],
  ['ceProbsNone', (x) => F.crossEntropy(x, f64(I.probs!), { reduction: 'none' }), I.logits!],
  ['mse', (x) => F.mseLoss(x, f64(I.y5!)), I.x5!],
  ['l1Sum', (x) => F.l1Loss(x, f64(I.y5!), { reduction: 'sum' }), I.x5!],
  ['smoothL1', (x) => F.smoothL1Loss(x, f64(I.y5!), { beta: 0.5 }), I.x5!],
  ['smoothL1None', (x) => F.smoothL1Loss(x, f64(I.y5!), { reduction: 'none' }), I.x5!],
  ['huber', (x) => F.huberLoss(x, f64(I.y5!), { delta: 0.7 }), I.x5!],
  ['huberNone', (x) => F.huberLoss(x, f64(I.y5!), { reduction: 'none' }), I.x5!],
  ['bce', (x) => F.binaryCrossEntropy(x, f64(I.t6!)), I.p6!],
  ['bceWeightNone', (x) => F.binaryCrossEntropy(x, f64(I.t6!), { weight: f64(I.w6!), reduction: 'none' }), I.p6!],
  ['bceEdges', (x) => F.binaryCrossEntropy(x, f64([1, 0, 1, 0])), [0, 1, 1, 0]],
  ['bceLogits', (x) => F.binaryCrossEntropyWithLogits(x, f64(I.y5!).sigmoid()), I.x5!],
  [
    'bceLogitsPosWeight',
    (x) =>
      F.binaryCrossEntropyWithLogits(x, f64(I.y5!).sigmoid(), {
        weight: f64([1, 2, 0.5, 1, 1]),
        posWeight: f64([I.posWeight as number]),
        reduction: 'sum',
      }),
    I.x5!,
  ],
  [
    'bceLogitsLarge',
    (x) => F.binaryCrossEntropyWithLogits(x, f64([1, 0, 0.5]), { reduction: 'none' }),
    [800, -800, 30],
  ],
  ['klDivMean', (x) => F.klDiv(x, f64(I.tp!), { reduction: 'mean' }), I.lp!],
  ['klDivBatchmean', (x) => F.klDiv(x, f64(I.tp!), { reduction: 'batchmean' }), I.lp!],
  ['klDivZeros', (x) => F.klDiv(x, f64([[0, 0.5, 0.5, 0]]), { reduction: 'sum' }), [(I.lp as number[][])[0]!]],
  ['klDivLogTarget', (x) => F.klDiv(x, f64(I.tp!).log(), { reduction: 'none', logTarget: true }), I.lp!],
];

describe('losses agree with PyTorch 1.13: value and input gradient (fixtures/losses.json)', () => {
  it.each(cases)('%s', (name, f, x0) => {
    const x = f64(x0, true);
    const v = f(x);
    v.sum().backward();
    expectClose(v, T.cases[name]!.value);
    expectClose(x.grad!, T.cases[name]!.grad);
  });
});
