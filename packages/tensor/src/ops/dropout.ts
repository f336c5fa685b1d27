import type { Tensor } from '../tensor.js';
import { checkBool, checkNumber, checkTensor } from '../validate.js';
import { TensorError } from '../errors.js';
import { div, ge, mul } from './binary.js';
import { to } from './copy.js';
import { rand } from './random.js';

/**
 * PyTorch's torch.dropout: while `train`, zeroes each element with probability p and scales the
 * rest by 1/(1 - p); the identity (the input itself) otherwise. The mask is drawn on the cpu from
 * the global generator (See Note [Generator]), so a seed gives the same mask on every device.
 */
export function dropout(x: Tensor, p: number, train: boolean): Tensor {
  checkTensor('dropout', 'input', x);
  checkNumber('dropout', 'p', p);
  checkBool('dropout', 'train', train);
  if (!(p >= 0 && p <= 1))
    throw new TensorError('INVALID_ARGUMENT', `dropout probability has to be between 0 and 1, but got ${p}`);
  if (!train || p === 0) return x;
  if (p === 1) return mul(x, 0);
  const keep = to(ge(rand([...x.shape], { dtype: x.dtype }), p), x.dtype);
  return mul(x, to(div(keep, 1 - p), x.device));
}
