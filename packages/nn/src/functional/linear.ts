import { type Tensor, matmul } from '@wiregrad/autograd';

/** x Wᵀ + b (torch.nn.functional.linear). */
export function linear(x: Tensor, weight: Tensor, bias: Tensor | null = null): Tensor {
  const y = matmul(x, weight.t());
  return bias ? y.add(bias) : y;
}
