import { type Tensor, dropout as dropoutOp } from '@wiregrad/autograd';

/** torch.nn.functional.dropout over @wiregrad/tensor's dropout: `training` by default, as PyTorch. */
export function dropout(x: Tensor, p = 0.5, training = true): Tensor {
  return dropoutOp(x, p, training);
}
