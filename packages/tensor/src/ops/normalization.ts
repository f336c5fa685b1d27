import { TensorError, fmtShape } from '../errors.js';
import type { Tensor } from '../tensor.js';
import { argumentError, checkBool, checkNumber, checkOptions, checkTensor } from '../validate.js';
import { add, mul, sub } from './binary.js';
import { detach, to } from './copy.js';
import { add_, mul_ } from './inplace.js';
import { mean } from './reduce.js';
import { rsqrt } from './unary.js';
import { reshape } from './view.js';

export interface LayerNormOptions {
  weight?: Tensor | null;
  bias?: Tensor | null;
  /** default 1e-5 */
  eps?: number;
}

/** A tensor argument that PyTorch's signature types `Optional[Tensor]`: null or a Tensor. */
function checkOptionalTensor(fn: string, name: string, v: unknown): asserts v is Tensor | null {
  if (v !== null) checkTensor(fn, name, v);
}

/**
 * PyTorch's torch.layer_norm: normalises over the last dims given by `normalizedShape` (biased
 * variance), then scales by `weight` and shifts by `bias`. Composed of differentiable ops, so it
 * runs on every device and its gradient is autograd's.
 */
export function layerNorm(x: Tensor, normalizedShape: readonly number[], opts: LayerNormOptions = {}): Tensor {
  checkTensor('layer_norm', 'input', x);
  checkOptions('layer_norm', 'options', opts);
  if (!Array.isArray(normalizedShape) || !normalizedShape.every((s) => Number.isInteger(s)))
    throw argumentError('layer_norm', 'normalized_shape', 'tuple of ints', normalizedShape);
  const { weight = null, bias = null, eps = 1e-5 } = opts;
  checkOptionalTensor('layer_norm', 'weight', weight);
  checkOptionalTensor('layer_norm', 'bias', bias);
  checkNumber('layer_norm', 'eps', eps);
  const k = normalizedShape.length;
  const tail = x.shape.slice(x.ndim - k);
  if (k === 0 || x.ndim < k || tail.some((s, i) => s !== normalizedShape[i])) {
    throw new TensorError(
      'INVALID_SHAPE',
      `Given normalized_shape=[${normalizedShape.join(', ')}], expected input with shape [*, ${normalizedShape.join(', ')}], but got input of size[${x.shape.join(', ')}]`,
    );
  }
  const dims = normalizedShape.map((_, i) => x.ndim - k + i);
  const centered = sub(x, mean(x, dims, true));
  const variance = mean(mul(centered, centered), dims, true);
  let y = mul(centered, rsqrt(add(variance, eps)));
  if (weight) y = mul(y, weight);
  if (bias) y = add(y, bias);
  return y;
}

export interface BatchNormOptions {
  /** batch statistics (and a running stats update) if true, the running stats if false (default) */
  training?: boolean;
  /** default 0.1 */
  momentum?: number;
  /** default 1e-5 */
  eps?: number;
}

/**
 * Note [Batch norm]
 * Normalises each channel (dim 1) over the batch and spatial dims. Training uses the batch's
 * mean and biased variance, and updates the running stats in place with
 * running = (1 - momentum) running + momentum stat, the variance term unbiased (n / (n - 1)),
 * as PyTorch. The update writes detached statistics into tensors that do not require grad, so
 * it records no graph without a grad-mode switch (which lives in @wiregrad/autograd). Evaluation
 * uses the running stats. Composed of differentiable ops, so the gradient flows through the batch
 * statistics exactly as PyTorch's batch_norm_backward.
 */
export function batchNorm(
  x: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  opts: BatchNormOptions = {},
): Tensor {
  checkTensor('batch_norm', 'input', x);
  checkOptionalTensor('batch_norm', 'weight', weight);
  checkOptionalTensor('batch_norm', 'bias', bias);
  checkOptionalTensor('batch_norm', 'running_mean', runningMean);
  checkOptionalTensor('batch_norm', 'running_var', runningVar);
  checkOptions('batch_norm', 'options', opts);
  const { training = false, momentum = 0.1, eps = 1e-5 } = opts;
  checkBool('batch_norm', 'training', training);
  checkNumber('batch_norm', 'momentum', momentum);
  checkNumber('batch_norm', 'eps', eps);
  if (x.ndim < 2)
    throw new TensorError(
      'INVALID_SHAPE',
      `batch_norm expects an input of at least 2 dims [N, C, ...], got ${fmtShape(x.shape)}`,
    );
  const C = x.shape[1]!;
  const statShape = x.shape.map((s, d) => (d === 1 ? s : 1));
  const dims = x.shape.map((_, d) => d).filter((d) => d !== 1);
  let batchMean: Tensor;
  let variance: Tensor;
  if (training) {
    const n = x.numel / C;
    if (n <= 1)
      throw new TensorError(
        'INVALID_SHAPE',
        `Expected more than 1 value per channel when training, got input of shape [${x.shape.join(', ')}]`,
      );
    batchMean = mean(x, dims, true);
    const centered = sub(x, batchMean);
    variance = mean(mul(centered, centered), dims, true);
    const update = (running: Tensor, stat: Tensor) =>
      add_(mul_(running, 1 - momentum), to(reshape(detach(stat), [C]), running.dtype), { alpha: momentum });
    if (runningMean) update(runningMean, batchMean);
    if (runningVar) update(runningVar, mul(detach(variance), n / (n - 1)));
  } else {
    if (!runningMean || !runningVar)
      throw new TensorError('INVALID_ARGUMENT', 'running_mean and running_var must be defined in evaluation mode');
    batchMean = reshape(runningMean, statShape);
    variance = reshape(runningVar, statShape);
  }
  let y = mul(sub(x, batchMean), rsqrt(add(variance, eps)));
  if (weight) y = mul(y, reshape(weight, statShape));
  if (bias) y = add(y, reshape(bias, statShape));
  return y;
}
