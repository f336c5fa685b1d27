import { describe, expect, it } from 'vitest';
import { TensorError, batchNorm, layerNorm, ones, randn, tensor, zeros, type Tensor } from '../index.js';

const values = (t: Tensor): number[] => Array.from(t.toTypedArray(), Number);

/** (v - mean) / sqrt(var + eps) of one group of numbers, the variance biased: the formula, element by element. */
function normalized(group: number[], eps: number): number[] {
  const m = group.reduce((s, v) => s + v, 0) / group.length;
  const variance = group.reduce((s, v) => s + (v - m) ** 2, 0) / group.length;
  return group.map((v) => (v - m) / Math.sqrt(variance + eps));
}

const expectClose = (got: number[], want: number[]) => {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(g).toBeCloseTo(want[i]!, 10));
};

describe('layerNorm (torch.layer_norm)', () => {
  it('normalises each row over the last dims, then scales by weight and shifts by bias', () => {
    const x = randn([3, 2, 4], { dtype: 'float64' });
    const w = randn([2, 4], { dtype: 'float64' });
    const b = randn([2, 4], { dtype: 'float64' });
    const y = layerNorm(x, [2, 4], { weight: w, bias: b, eps: 1e-3 });
    expect(y.shape).toEqual([3, 2, 4]);
    const xs = values(x);
    const want = [0, 1, 2].flatMap((r) =>
      normalized(xs.slice(r * 8, r * 8 + 8), 1e-3).map((v, i) => v * values(w)[i]! + values(b)[i]!),
    );
    expectClose(values(y), want);
  });

  it('without weight and bias: zero mean and (eps aside) unit biased variance per row', () => {
    const x = randn([5, 6], { dtype: 'float64' });
    const xs = values(x);
    expectClose(
      values(layerNorm(x, [6])),
      [0, 1, 2, 3, 4].flatMap((r) => normalized(xs.slice(r * 6, r * 6 + 6), 1e-5)),
    );
  });

  it('rejects a normalized shape that is not the tail of the input shape (INVALID_SHAPE), and bad arguments (INVALID_ARGUMENT)', () => {
    expect(() => layerNorm(randn([2, 3]), [4])).toThrow(
      'Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 3]',
    );
    expect(() => layerNorm(randn([2, 3]), [])).toThrow(expect.objectContaining({ code: 'INVALID_SHAPE' }));
    expect(() => layerNorm(randn([2, 3]), 3 as unknown as number[])).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => layerNorm(randn([2, 3]), [3], { weight: [1, 2, 3] as unknown as Tensor })).toThrow(
      "layer_norm(): argument 'weight' must be Tensor, not array",
    );
    expect(() => layerNorm(randn([2, 3]), [3], { eps: '1' as unknown as number })).toThrow(TensorError);
  });
});

describe('batchNorm (torch.batch_norm)', () => {
  /** [N, C, L] -> each channel's values over N and L. */
  const channel = (t: Tensor, c: number): number[] => {
    const [N, C, L] = t.shape as [number, number, number];
    const xs = values(t);
    return Array.from({ length: N * L }, (_, k) => xs[Math.floor(k / L) * C * L + c * L + (k % L)]!);
  };

  it('training: each channel normalised over the batch and spatial dims; running stats move by momentum, the variance unbiased', () => {
    const x = randn([4, 3, 5], { dtype: 'float64' });
    const w = tensor([0.5, 2, -1], { dtype: 'float64' });
    const b = tensor([1, 0, 3], { dtype: 'float64' });
    const runningMean = zeros([3], { dtype: 'float64' });
    const runningVar = ones([3], { dtype: 'float64' });
    const y = batchNorm(x, w, b, runningMean, runningVar, { training: true, momentum: 0.3 });
    expect(y.shape).toEqual([4, 3, 5]);
    for (const c of [0, 1, 2]) {
      const group = channel(x, c);
      expectClose(
        channel(y, c),
        normalized(group, 1e-5).map((v) => v * values(w)[c]! + values(b)[c]!),
      );
      const m = group.reduce((s, v) => s + v, 0) / group.length;
      const unbiased = group.reduce((s, v) => s + (v - m) ** 2, 0) / (group.length - 1);
      expect(values(runningMean)[c]).toBeCloseTo(0.3 * m, 10);
      expect(values(runningVar)[c]).toBeCloseTo(0.7 + 0.3 * unbiased, 10);
    }
  });

  it('evaluation: the running stats normalise, and stay as they are', () => {
    const x = randn([2, 2], { dtype: 'float64' });
    const runningMean = tensor([0.5, -1], { dtype: 'float64' });
    const runningVar = tensor([4, 0.25], { dtype: 'float64' });
    const y = batchNorm(x, null, null, runningMean, runningVar, { eps: 0 });
    const xs = values(x);
    expectClose(values(y), [(xs[0]! - 0.5) / 2, (xs[1]! + 1) / 0.5, (xs[2]! - 0.5) / 2, (xs[3]! + 1) / 0.5]);
    expect(values(runningMean)).toEqual([0.5, -1]);
    expect(values(runningVar)).toEqual([4, 0.25]);
  });

  it('rejects inputs below 2 dims, one value per channel in training (INVALID_SHAPE), and a missing running stat in eval or bad arguments (INVALID_ARGUMENT)', () => {
    expect(() => batchNorm(randn([3]), null, null, null, null, { training: true })).toThrow(
      expect.objectContaining({ code: 'INVALID_SHAPE' }),
    );
    expect(() => batchNorm(randn([1, 3]), null, null, null, null, { training: true })).toThrow(
      'Expected more than 1 value per channel when training, got input of shape [1, 3]',
    );
    expect(() => batchNorm(randn([2, 3]), null, null, zeros([3]), null)).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: 'running_mean and running_var must be defined in evaluation mode',
      }),
    );
    expect(() => batchNorm(randn([2, 3]), null, null, null, null, { training: 1 as unknown as boolean })).toThrow(
      "batch_norm(): argument 'training' must be bool, not int",
    );
    expect(() => batchNorm(randn([2, 3]), undefined as unknown as null, null, null, null)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
