import { type Tensor, noGrad } from '@wiregrad/autograd';

/** PyTorch's Optimizer: parameters, zeroGrad (to null, PyTorch's default) and a step under noGrad. */
export abstract class Optimizer {
  readonly params: Tensor[];

  constructor(params: Iterable<Tensor>) {
    this.params = [...params];
  }

  zeroGrad(): void {
    for (const p of this.params) p.grad = null;
  }

  step(): void {
    noGrad(() => this.params.forEach((p, i) => p.grad && this.update(p, p.grad, i)));
  }

  /** Updates `param` in place from its gradient. */
  protected abstract update(param: Tensor, grad: Tensor, index: number): void;
}
