import { type Tensor, noGrad, rsqrt } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/** Normalises over the last dims given by `normalizedShape` (biased variance), then scales and shifts. */
export function layerNorm(
  x: Tensor,
  normalizedShape: readonly number[],
  weight: Tensor | null = null,
  bias: Tensor | null = null,
  eps = 1e-5,
): Tensor {
  const k = normalizedShape.length;
  const tail = x.shape.slice(x.ndim - k);
  if (k === 0 || x.ndim < k || tail.some((s, i) => s !== normalizedShape[i])) {
    throw new NnError(
      'INVALID_SHAPE',
      `Given normalized_shape=[${normalizedShape.join(', ')}], expected input with shape [*, ${normalizedShape.join(', ')}], but got input of size[${x.shape.join(', ')}]`,
    );
  }
  const dims = normalizedShape.map((_, i) => x.ndim - k + i);
  const mean = x.mean(dims, true);
  const centered = x.sub(mean);
  const variance = centered.mul(centered).mean(dims, true);
  let y = centered.mul(rsqrt(variance.add(eps)));
  if (weight) y = y.mul(weight);
  if (bias) y = y.add(bias);
  return y;
}

export interface BatchNormOptions {
  weight?: Tensor | null;
  bias?: Tensor | null;
  training?: boolean;
  momentum?: number;
  eps?: number;
}

/**
 * Note [Batch norm]
 * Normalises each channel (dim 1) over the batch and spatial dims. Training uses the batch's
 * mean and biased variance, and updates the running stats in place (under noGrad) with
 * running = (1 - momentum) running + momentum stat, the variance term unbiased (n / (n - 1)),
 * as PyTorch. Evaluation uses the running stats. Composed of differentiable ops, so the
 * gradient flows through the batch statistics exactly as PyTorch's batch_norm_backward.
 */
export function batchNorm(
  x: Tensor,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  opts: BatchNormOptions = {},
): Tensor {
  const { weight = null, bias = null, training = false, momentum = 0.1, eps = 1e-5 } = opts;
  if (x.ndim < 2)
    throw new NnError(
      'INVALID_SHAPE',
      `batch_norm expects an input of at least 2 dims [N, C, ...], got [${x.shape.join(', ')}]`,
    );
  const C = x.shape[1]!;
  const statShape = x.shape.map((s, d) => (d === 1 ? s : 1));
  const dims = x.shape.map((_, d) => d).filter((d) => d !== 1);
  let mean: Tensor;
  let variance: Tensor;
  if (training) {
    const n = x.numel / C;
    if (n <= 1)
      throw new NnError(
        'INVALID_SHAPE',
        `Expected more than 1 value per channel when training, got input size torch.Size([${x.shape.join(', ')}])`,
      );
    mean = x.mean(dims, true);
    const centered = x.sub(mean);
    variance = centered.mul(centered).mean(dims, true);
    noGrad(() => {
      if (runningMean)
        runningMean.mul_(1 - momentum).add_(mean.detach().reshape([C]).to(runningMean.dtype), { alpha: momentum });
      if (runningVar)
        runningVar.mul_(1 - momentum).add_(
          variance
            .detach()
            .reshape([C])
            .mul(n / (n - 1))
            .to(runningVar.dtype),
          { alpha: momentum },
        );
    });
  } else {
    if (!runningMean || !runningVar)
      throw new NnError('INVALID_ARGUMENT', 'running_mean and running_var must be defined in evaluation mode');
    mean = runningMean.reshape(statShape);
    variance = runningVar.reshape(statShape);
  }
  let y = x.sub(mean).mul(rsqrt(variance.add(eps)));
  if (weight) y = y.mul(weight.reshape(statShape));
  if (bias) y = y.add(bias.reshape(statShape));
  return y;
}
