import { type Tensor, rand } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/**
 * Zeroes each element with probability p and scales the rest by 1/(1 - p) while `training`
 * (PyTorch's default); the identity otherwise. The mask comes from the global generator.
 */
export function dropout(x: Tensor, p = 0.5, training = true): Tensor {
  if (!(p >= 0 && p <= 1))
    throw new NnError('INVALID_ARGUMENT', `dropout probability has to be between 0 and 1, but got ${p}`);
  if (!training || p === 0) return x;
  if (p === 1) return x.mul(0);
  const keep = rand([...x.shape], { dtype: x.dtype })
    .ge(p)
    .to(x.dtype);
  return x.mul(keep.div(1 - p).to(x.device));
}
