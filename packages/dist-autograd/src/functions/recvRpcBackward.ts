import { Node, zeros, type Grads, type Tensor } from '@wiregrad/autograd';
import { setHistory } from '@wiregrad/autograd/internal';

/** Where a RecvRpcBackward's gradients go: the backward pass running in its context (pass/backwardPass.ts). */
export interface GradientSender {
  sendGradients(to: number, messageId: bigint, grads: Grads): void;
}

/** The backward passes running on this worker, by context id (the per-worker state, workerState.ts). */
export interface RunningPasses {
  get(contextId: bigint): GradientSender | undefined;
}

/**
 * PyTorch's RecvRpcBackward: the grad_fn of every tensor that arrived with an RPC. In
 * backward it hands their gradients (zeros where none arrived) to the pass running in its
 * context, which sends them to the worker they came from as a PropagateGradientsReq, and
 * returns nothing locally.
 */
export class RecvRpcBackward extends Node {
  constructor(
    readonly contextId: bigint,
    readonly messageId: bigint,
    readonly fromWorkerId: number,
    tensors: readonly Tensor[],
    /** what the matching send function reaches on its worker (Note [Firing sets]); null if unknown */
    readonly reaches: bigint[] | null,
    private readonly passes: RunningPasses,
  ) {
    super();
    this.setNextEdges([]);
    for (const t of tensors) setHistory(t, this);
  }

  name(): string {
    return 'torch::distributed::autograd::RecvRpcBackward';
  }

  apply(grads: Grads): Grads {
    const pass = this.passes.get(this.contextId);
    if (!pass) return [];
    const filled = grads.map(
      (g, i) => g ?? zeros(this.inputMetadata[i]!.shape, { dtype: this.inputMetadata[i]!.dtype }),
    );
    pass.sendGradients(this.fromWorkerId, this.messageId, filled);
    return [];
  }
}
