import { Node, type Grads, type Tensor } from '@wiregrad/autograd';
import { canAwait, collectNextEdges, setHistory } from '@wiregrad/autograd/internal';
import { DistributedError } from '../errors.js';

/**
 * Note [DDP needs backwardAsync]
 * The averaged gradients arrive over the network, and JavaScript cannot block until they do, so
 * a DDP backward must be `await loss.backwardAsync()`. DDP's outputs pass through this node
 * (PyTorch's _DDPSink): the first thing backward runs on the DDP side of the graph. Under
 * backwardAsync() it tells the reducer a pass began (Note [Reducer]). Under a synchronous
 * `loss.backward()` it throws NEEDS_BACKWARD_ASYNC (Note [Awaiting in a pass]: canAwait), which
 * backward() rethrows as it is, before any gradient of the DDP module is accumulated and
 * before any collective starts, so every rank fails alike and the group stays usable.
 */
export class DDPSink extends Node {
  constructor(
    private readonly onBackward: () => void,
    inputs: readonly Tensor[],
  ) {
    super();
    this.setNextEdges(collectNextEdges(inputs));
  }

  /** Gives `out` (a view of an output of the module) this node as its gradFn. */
  attach(out: Tensor): void {
    setHistory(out, this);
  }

  name(): string {
    return 'DistributedDataParallel';
  }

  apply(grads: Grads): Grads {
    if (!canAwait())
      throw new DistributedError(
        'NEEDS_BACKWARD_ASYNC',
        'the loss of a DistributedDataParallel model needs `await loss.backwardAsync()`: its gradients are averaged ' +
          'over the network while backward runs, and backward() cannot wait for them (for a backward without ' +
          'gradient sync, run the forward inside ddp.noSync())',
      );
    this.onBackward();
    return grads;
  }
}
