import { Node, zeros, type Grads, type Tensor } from '@wiregrad/autograd';
import { setHistory } from '@wiregrad/autograd/internal';
import { sendGradients } from '../engine/gradientMessages.js';
import type { DistAutogradContext } from '../context/context.js';
import type { PropagateGradientsReq } from '../messages/propagateGradientsReq.js';

/**
 * PyTorch's RecvRpcBackward: the grad_fn of every tensor that arrived with an RPC. In
 * backward it sends their gradients (zeros where none arrived) to the worker they came from
 * as a PropagateGradientsReq, records that RPC in the pass, and returns nothing locally.
 */
export class RecvRpcBackward extends Node {
  constructor(
    readonly contextId: bigint,
    readonly messageId: bigint,
    readonly fromWorkerId: number,
    private readonly ctx: DistAutogradContext,
    tensors: readonly Tensor[],
    /** what the matching send function reaches on its worker (Note [Firing sets]); null if unknown */
    readonly reaches: bigint[] | null,
  ) {
    super();
    this.setNextEdges([]);
    for (const t of tensors) setHistory(t, this);
  }

  name(): string {
    return 'torch::distributed::autograd::RecvRpcBackward';
  }

  apply(grads: Grads): Grads {
    const pass = this.ctx.pass;
    if (!pass) return [];
    const filled = grads.map(
      (g, i) => g ?? zeros(this.inputMetadata[i]!.shape, { dtype: this.inputMetadata[i]!.dtype }),
    );
    const payload: PropagateGradientsReq = {
      kind: 'grads',
      passId: pass.id,
      metadata: { contextId: this.contextId, messageId: this.messageId },
      grads: filled,
      retainGraph: pass.graphTask?.keepGraph ?? false,
      ...(pass.fires ? { fires: [...pass.fires] } : {}),
    };
    sendGradients(pass, this.fromWorkerId, payload);
    return [];
  }
}
