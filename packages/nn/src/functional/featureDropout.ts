import { type Tensor, dropout as dropoutOp, ones } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/**
 * torch.nn.functional.dropout2d (ATen's feature_dropout): zeroes whole channels, each channel
 * of each sample with probability p, and scales the others by 1/(1 - p). As PyTorch 1.13, a
 * 3-d input is taken as [N, C, L]; the mask is [N, C, 1, ...].
 */
export function dropout2d(x: Tensor, p = 0.5, training = true): Tensor {
  if (!(p >= 0 && p <= 1))
    throw new NnError('INVALID_ARGUMENT', `dropout probability has to be between 0 and 1, but got ${p}`);
  if (!training || p === 0) return x;
  if (x.ndim < 2) throw new NnError('INVALID_SHAPE', `Feature dropout requires at least 2 dimensions in the input`);
  const maskShape = x.shape.map((s, d) => (d < 2 ? s : 1));
  const mask = dropoutOp(ones(maskShape, { dtype: x.dtype, device: x.device }), p, true);
  return x.mul(mask);
}
