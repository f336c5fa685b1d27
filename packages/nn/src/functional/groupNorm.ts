import { type Tensor, rsqrt } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/** The per-channel affine of a normalised [N, C, *] tensor (weight and bias of shape [C]). */
export function channelAffine(y: Tensor, weight: Tensor | null, bias: Tensor | null): Tensor {
  const shape = y.shape.map((s, d) => (d === 1 ? s : 1));
  if (weight) y = y.mul(weight.reshape(shape));
  if (bias) y = y.add(bias.reshape(shape));
  return y;
}

/**
 * torch.nn.functional.group_norm: the channels of [N, C, *] split into numGroups groups, each
 * group of each sample normalised by its own mean and biased variance (a group of one value
 * gives 0, as PyTorch), then the per-channel affine.
 */
export function groupNorm(
  x: Tensor,
  numGroups: number,
  weight: Tensor | null = null,
  bias: Tensor | null = null,
  eps = 1e-5,
): Tensor {
  if (x.ndim < 2)
    throw new NnError('INVALID_SHAPE', `Expected at least 2 dimensions for input tensor but received ${x.ndim}`);
  const [N, C] = x.shape as [number, number];
  if (C % numGroups !== 0)
    throw new NnError(
      'INVALID_ARGUMENT',
      `Expected number of channels in input to be divisible by num_groups, but got input of shape [${x.shape.join(', ')}] and num_groups=${numGroups}`,
    );
  const grouped = x.reshape([N, numGroups, -1]);
  const centered = grouped.sub(grouped.mean(2, true));
  const variance = centered.mul(centered).mean(2, true);
  const y = centered.mul(rsqrt(variance.add(eps))).reshape([...x.shape]);
  return channelAffine(y, weight, bias);
}
