import { type Tensor, noGrad } from '@wiregrad/autograd';
import { dropGrad, peekGrad } from '@wiregrad/autograd/internal';

/**
 * PyTorch's zero_grad for one parameter (Module.zero_grad and Optimizer.zero_grad share it):
 * `setToNone` (the default) drops the gradient, disposing it when nobody outside the libraries
 * saw it (Note [Gradients nobody else saw] in @wiregrad/tensor); otherwise it is zeroed in place,
 * so the next backward accumulates into the same memory. A gradient with history (createGraph)
 * is detached first, as PyTorch's detach_() does.
 */
export function zeroGradOf(p: Tensor, setToNone: boolean): void {
  const g = peekGrad(p);
  if (g === null) return;
  if (setToNone) dropGrad(p);
  else if (g.gradFn === null && !g.requiresGrad) noGrad(() => g.zero_());
  else p.grad = noGrad(() => g.detach().zero_());
}
