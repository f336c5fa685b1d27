import { type Tensor, TensorError, gather, logSoftmax, mean, sub, sum, unsqueeze } from '@wiregrad/autograd';

export type Reduction = 'mean' | 'sum' | 'none';

function reduce(t: Tensor, reduction: Reduction): Tensor {
  return reduction === 'mean' ? mean(t) : reduction === 'sum' ? sum(t) : t;
}

export function mseLoss(input: Tensor, target: Tensor, opts: { reduction?: Reduction } = {}): Tensor {
  const d = sub(input, target);
  return reduce(d.mul(d), opts.reduction ?? 'mean');
}

/** Cross entropy of logits [N, C] against int32 class indices [N] (log-softmax + NLL, like PyTorch). */
export function crossEntropy(logits: Tensor, target: Tensor, opts: { reduction?: Reduction } = {}): Tensor {
  if (logits.ndim !== 2) throw new TensorError('INVALID_SHAPE', `crossEntropy expects logits of shape [N, C], got [${logits.shape.join(', ')}]`);
  if (target.dtype !== 'int32' || target.ndim !== 1 || target.shape[0] !== logits.shape[0]) {
    throw new TensorError('INVALID_ARGUMENT', `crossEntropy expects int32 targets of shape [${logits.shape[0]}], got ${target.dtype} [${target.shape.join(', ')}]`);
  }
  const picked = gather(logSoftmax(logits, 1), 1, unsqueeze(target, 1)).reshape([-1]);
  return reduce(picked.neg(), opts.reduction ?? 'mean');
}
