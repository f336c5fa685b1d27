import { Node, type Grads, type Tensor } from '@wiregrad/autograd';
import { collectNextEdges } from '@wiregrad/autograd/internal';
import { firingSet } from '../engine/firingSet.js';

/**
 * PyTorch's SendRpcBackward: recorded on the sender of an RPC whose tensors require grad.
 * Its next edges lead to those tensors' graph; in backward it is a root that emits the
 * gradients another worker sent back for them (setGrads).
 */
export class SendRpcBackward extends Node {
  private grads: Grads = [];
  /** the message ids whose send functions fire whenever this one does (Note [Firing sets]); null if unknown */
  readonly reaches: bigint[] | null;

  constructor(tensors: readonly Tensor[]) {
    super();
    this.setNextEdges(collectNextEdges(tensors));
    this.reaches = firingSet([this]);
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
