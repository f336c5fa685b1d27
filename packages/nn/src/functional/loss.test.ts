import { describe, expect, it } from 'vitest';
import { type Tensor, gradcheck, manualSeed, rand, randn, tensor } from '@wiregrad/autograd';
import * as F from './index.js';

const i32 = (v: number[]) => tensor(v, { dtype: 'int32' });
const leaf = (t: Tensor) => {
  const x = t.to('float64');
  x.requiresGrad = true;
  return x;
};

describe('losses: gradcheck in float64 for every loss and option', () => {
  manualSeed(5);
  const logits = () => leaf(randn([4, 3]));
  const target = i32([0, 2, 1, 2]);
  const weight = tensor([0.2, 1, 3], { dtype: 'float64' });
  const probs = randn([4, 3], { dtype: 'float64' }).softmax(1);
  const y = randn([5], { dtype: 'float64' });
  const [t6, w6] = [rand([6], { dtype: 'float64' }), rand([6], { dtype: 'float64' })];
  it.each([
    [
      'nllLoss with weights and ignoreIndex',
      (x: Tensor) => F.nllLoss(x.logSoftmax(1), target, { weight, ignoreIndex: 1 }),
      logits(),
    ],
    [
      'nllLoss over [N, C, d]',
      (x: Tensor) =>
        F.nllLoss(
          x.logSoftmax(1),
          tensor(
            [
              [0, 2],
              [1, 1],
            ],
            { dtype: 'int32' },
          ),
          { reduction: 'none' },
        ),
      leaf(randn([2, 3, 2])),
    ],
    [
      'crossEntropy with label smoothing, weights, ignoreIndex',
      (x: Tensor) => F.crossEntropy(x, target, { weight, ignoreIndex: 0, labelSmoothing: 0.2 }),
      logits(),
    ],
    [
      'crossEntropy with probabilities',
      (x: Tensor) => F.crossEntropy(x, probs, { labelSmoothing: 0.1, weight }),
      logits(),
    ],
    ['mseLoss', (x: Tensor) => F.mseLoss(x, y), leaf(randn([5]))],
    ['l1Loss', (x: Tensor) => F.l1Loss(x, y, { reduction: 'sum' }), leaf(randn([5]))],
    ['smoothL1Loss', (x: Tensor) => F.smoothL1Loss(x, y, { beta: 0.5, reduction: 'none' }), leaf(randn([5]))],
    ['huberLoss', (x: Tensor) => F.huberLoss(x, y, { delta: 0.7 }), leaf(randn([5]))],
    [
      'binaryCrossEntropy (the Function and its weight)',
      (x: Tensor) => F.binaryCrossEntropy(x, t6, { weight: w6 }),
      leaf(rand([6]).mul(0.8).add(0.1)),
    ],
    [
      'binaryCrossEntropyWithLogits with posWeight',
      (x: Tensor) => F.binaryCrossEntropyWithLogits(x, y.sigmoid(), { posWeight: tensor([2.5], { dtype: 'float64' }) }),
      leaf(randn([5])),
    ],
    [
      'klDiv batchmean',
      (x: Tensor) => F.klDiv(x, probs, { reduction: 'batchmean' }),
      leaf(randn([4, 3]).logSoftmax(1)),
    ],
    [
      'klDiv with log targets',
      (x: Tensor) => F.klDiv(x, probs.log(), { logTarget: true, reduction: 'sum' }),
      leaf(randn([4, 3])),
    ],
  ] as [string, (x: Tensor) => Tensor, Tensor][])('%s', (_name, f, x) => {
    expect(gradcheck(f, [x], { raiseException: true })).toBe(true);
  });
});

describe("losses check their arguments with PyTorch's messages", () => {
  const x = randn([3, 4]);
  it('reduction, batch size, class range, weights', () => {
    expect(() => F.crossEntropy(x, i32([0, 1, 2]), { reduction: 'avg' as never })).toThrow(
      'avg is not a valid value for reduction',
    );
    expect(() => F.nllLoss(x, i32([0, 1]))).toThrow('Expected input batch_size (3) to match target batch_size (2).');
    expect(() => F.nllLoss(x, i32([0, 1, 5]))).toThrow('Target 5 is out of bounds.');
    expect(() => F.nllLoss(x, i32([0, 1, -3]))).toThrow('Target -3 is out of bounds.');
    expect(() => F.nllLoss(x, i32([0, 1, 2]), { weight: tensor([1, 1]) })).toThrow(
      'weight tensor should be defined either for all 4 classes or no classes but got weight tensor of shape: [2]',
    );
    expect(() => F.nllLoss(randn([3, 4, 5]), i32([0, 1, 2]))).toThrow('Expected target size [3, 5], got [3]');
    expect(() => F.crossEntropy(x, i32([0, 1, 2]), { labelSmoothing: 1.5 })).toThrow(
      'label_smoothing must be between 0.0 and 1.0. Got: 1.5',
    );
    expect(() => F.crossEntropy(x, rand([3, 5]))).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE' }));
    expect(() => F.mseLoss(x, 3 as never)).toThrow("mse_loss(): argument 'target' must be a Tensor, not number");
  });

  it('binary cross entropy: sizes and the [0, 1] range', () => {
    expect(() => F.binaryCrossEntropy(rand([3]), rand([2]))).toThrow(
      'Using a target size ([2]) that is different to the input size ([3]) is deprecated. Please ensure they have the same size.',
    );
    expect(() => F.binaryCrossEntropy(rand([3]).mul(2).add(1), rand([3]))).toThrow(
      'all elements of input should be between 0 and 1',
    );
    expect(() => F.binaryCrossEntropyWithLogits(rand([3]), rand([2]))).toThrow(
      'Target size ([2]) must be the same as input size ([3])',
    );
    expect(() => F.klDiv(x, x, { reduction: 'foo' as never })).toThrow('foo is not a valid value for reduction');
  });

  it('nllLoss with every target ignored is NaN (0 / 0), as in PyTorch', () => {
    expect(F.nllLoss(x, i32([-100, -100, -100])).item()).toBeNaN();
  });

  it('crossEntropy on float32 logits gives a float32 loss that trains', () => {
    const logits = randn([3, 4], { requiresGrad: true });
    const loss = F.crossEntropy(logits, i32([1, 0, 3]));
    expect(loss.dtype).toBe('float32');
    loss.backward();
    expect(logits.grad!.shape).toEqual([3, 4]);
  });
});
