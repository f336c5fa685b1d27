import { type Tensor, matmul, relu } from '@wiregrad/autograd';
import { canFuseLinear, fusedLinearRelu } from './fusedLinear.js';

export interface LinearOptions {
  /** applied to the result; 'relu' fuses it into the product on cpu (Note [Fused linear]) */
  activation?: 'relu' | null;
}

/** x Wᵀ + b (torch.nn.functional.linear), then the activation if one is given. */
export function linear(x: Tensor, weight: Tensor, bias: Tensor | null = null, opts: LinearOptions = {}): Tensor {
  if (opts.activation === 'relu' && canFuseLinear(x, weight, bias)) return fusedLinearRelu(x, weight, bias);
  const y = matmul(x, weight.t());
  const out = bias ? disposing(y, y.add(bias)) : y;
  return opts.activation === 'relu' ? disposing(out, relu(out)) : out;
}

/**
 * `result`, after disposing `temp`, a tensor this function made and nobody else can reach (the
 * graph's saved tensors hold their storage on their own: Note [Releasing storages]); so its
 * memory returns to the allocator without waiting for the GC (Note [Sequential's intermediates]).
 */
function disposing(temp: Tensor, result: Tensor): Tensor {
  temp.dispose();
  return result;
}
