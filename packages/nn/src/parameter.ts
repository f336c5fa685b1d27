import { Tensor } from '@wiregrad/autograd';

/**
 * torch.nn.Parameter: a leaf tensor over `data`'s storage (no copy, no history) that a
 * `Module` registers as a parameter when assigned to one of its properties. `requiresGrad`
 * defaults to true; a frozen parameter (`requiresGrad = false`) stays a parameter: it is
 * still in `parameters()` and `stateDict()`, as in PyTorch.
 */
export class Parameter extends Tensor {
  constructor(data: Tensor, requiresGrad = true) {
    super(data.storage, data.shape, data.strides, data.offset);
    this.requiresGrad = requiresGrad;
  }
}
