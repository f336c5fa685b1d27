// Activations of torch.nn.functional (thin over the tensor ops, plus GELU's tanh approximation).
import {
  type Tensor,
  gelu as geluExact,
  logSoftmax as logSoftmaxOp,
  relu as reluOp,
  sigmoid as sigmoidOp,
  silu as siluOp,
  softmax as softmaxOp,
  tanh as tanhOp,
} from '@wiregrad/autograd';
import { NnError } from '../errors.js';

export const relu = (x: Tensor): Tensor => reluOp(x);
export const tanh = (x: Tensor): Tensor => tanhOp(x);
export const sigmoid = (x: Tensor): Tensor => sigmoidOp(x);
export const silu = (x: Tensor): Tensor => siluOp(x);
export const softmax = (x: Tensor, dim: number): Tensor => softmaxOp(x, dim);
export const logSoftmax = (x: Tensor, dim: number): Tensor => logSoftmaxOp(x, dim);

export type GeluApproximate = 'none' | 'tanh';

/** x Φ(x) (erf), or with `approximate: 'tanh'` 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³))), as torch.nn.functional.gelu. */
export function gelu(x: Tensor, opts: { approximate?: GeluApproximate } = {}): Tensor {
  const approximate = opts.approximate ?? 'none';
  if (approximate === 'none') return geluExact(x);
  if (approximate !== 'tanh')
    throw new NnError('INVALID_ARGUMENT', `approximate argument must be either none or tanh.`);
  const inner = x.add(x.mul(x).mul(x).mul(0.044715)).mul(Math.sqrt(2 / Math.PI));
  return x.mul(0.5).mul(tanhOp(inner).add(1));
}
