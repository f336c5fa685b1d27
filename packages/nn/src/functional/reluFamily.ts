// The ReLU family of torch.nn.functional (leaky, exponential, smooth and per-channel variants),
// composed of differentiable tensor ops so their gradients are PyTorch's: each branch's derivative,
// with the boundary point on the side PyTorch puts it.
import { type Tensor, clamp, exp, softplus as softplusOp, tanh, where } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/** SELU's constants (torch.nn.SELU: alpha and scale of Klambauer et al. 2017). */
export const SELU_ALPHA = 1.6732632423543772;
export const SELU_SCALE = 1.0507009873554805;

/** x for x > 0, negativeSlope x otherwise (the gradient at 0 is negativeSlope, as PyTorch's). */
export function leakyRelu(x: Tensor, opts: { negativeSlope?: number } = {}): Tensor {
  const negativeSlope = opts.negativeSlope ?? 0.01;
  return where(x.gt(0), x, x.mul(negativeSlope));
}

/** x for x > 0, alpha (eˣ - 1) otherwise. */
export function elu(x: Tensor, opts: { alpha?: number } = {}): Tensor {
  const alpha = opts.alpha ?? 1.0;
  return where(x.gt(0), x, exp(x).sub(1).mul(alpha));
}

/** scale · elu(x, alpha) with SELU's fixed constants. */
export function selu(x: Tensor): Tensor {
  return elu(x, { alpha: SELU_ALPHA }).mul(SELU_SCALE);
}

/** log(1 + e^(βx)) / β, or x itself where βx > threshold (PyTorch's defaults β = 1, threshold = 20). */
export function softplus(x: Tensor, opts: { beta?: number; threshold?: number } = {}): Tensor {
  const { beta = 1, threshold = 20 } = opts;
  if (typeof beta !== 'number' || typeof threshold !== 'number')
    throw new NnError('INVALID_ARGUMENT', 'softplus(): beta and threshold must be numbers');
  const bx = x.mul(beta);
  return where(bx.gt(threshold), x, softplusOp(bx).div(beta));
}

/** x tanh(softplus(x)) (Misra 2019). */
export function mish(x: Tensor): Tensor {
  return x.mul(tanh(softplusOp(x)));
}

/** x · relu6(x + 3) / 6: 0 below -3, x above 3 (the gradient is x/3 + 1/2 on [-3, 3], as PyTorch's). */
export function hardswish(x: Tensor): Tensor {
  return x.mul(clamp(x.add(3), 0, 6)).div(6);
}

/**
 * x for x > 0, weight · x otherwise; `weight` has one slope, or one per channel (dim 1 of the
 * input; an input of fewer than 2 dims has one channel), as torch.nn.functional.prelu.
 */
export function prelu(x: Tensor, weight: Tensor): Tensor {
  if (weight.ndim > 1)
    throw new NnError(
      'INVALID_ARGUMENT',
      'prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = ' + weight.ndim,
    );
  if (weight.numel === 1) return where(x.gt(0), x, x.mul(weight.reshape([])));
  const channels = x.ndim >= 2 ? x.shape[1]! : 1;
  if (weight.numel !== channels)
    throw new NnError(
      'INVALID_ARGUMENT',
      `Mismatch of parameter numbers and input channel size. Found parameter numbers = ${weight.numel} and channel size = ${channels}.`,
    );
  const shape = x.shape.map((n, i) => (i === 1 ? n : 1));
  return where(x.gt(0), x, x.mul(weight.reshape(shape)));
}
