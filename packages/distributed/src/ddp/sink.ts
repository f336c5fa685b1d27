import { Node, type Grads, type Tensor } from '@wiregrad/autograd';
import { collectNextEdges, setHistory } from '@wiregrad/autograd/internal';

/**
 * Note [DDP needs backwardAsync]
 * The averaged gradients arrive over the network, and JavaScript cannot block until they do, so
 * a DDP backward must be `await loss.backwardAsync()`. DDP's outputs pass through this node
 * (PyTorch's _DDPSink), whose apply returns a Promise: the first thing backward runs on the DDP
 * side of the graph. Under backwardAsync() it tells the reducer a pass began (Note [Reducer]);
 * a synchronous `loss.backward()` refuses a node that returns a Promise, so it fails right there,
 * before any gradient is accumulated, with AutogradError INVALID_STATE
 * "DistributedDataParallel.apply returned a Promise; nodes that await need backwardAsync()".
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

  apply(grads: Grads): Promise<Grads> {
    this.onBackward();
    return Promise.resolve(grads);
  }
}

/** The last node of a DDP backward: it completes once every bucket is averaged into `.grad` (Note [Reducer]). */
export class ReducerWait extends Node {
  constructor(private readonly done: () => Promise<void>) {
    super();
    this.setNextEdges([]);
  }

  name(): string {
    return 'DistributedDataParallelReducerWait';
  }

  apply(): Promise<Grads> {
    return this.done().then(() => []);
  }
}
