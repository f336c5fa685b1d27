import { Node, type Grads, type Tensor } from '@wiregrad/autograd';
import { collectNextEdges } from '@wiregrad/autograd/internal';

/**
 * PyTorch's SendRpcBackward: recorded on the sender of an RPC whose tensors require grad.
 * Its next edges lead to those tensors' graph; in backward it is a start of the pass that
 * emits the gradients another worker sent back for them (setGrads).
 */
export class SendRpcBackward extends Node {
  private grads: Grads = [];

  constructor(tensors: readonly Tensor[]) {
    super();
    this.setNextEdges(collectNextEdges(tensors));
  }

  name(): string {
    return 'torch::distributed::autograd::SendRpcBackward';
  }

  setGrads(grads: Grads): void {
    this.grads = grads;
  }

  apply(): Grads {
    const out = this.grads;
    this.grads = [];
    return out;
  }
}
