import type { GraphTask } from './graphTask.js';
import type { InputBuffer } from './inputBuffer.js';
import type { Node } from './node.js';

/**
 * PyTorch's NodeTask: a node ready to run with its gradients. It holds its GraphTask weakly,
 * so the tasks of a GraphTask that is gone (its caller gave up on an error) sort first and
 * are dropped. `fn === null` is an empty wake-up task.
 */
export class NodeTask {
  private readonly graphTaskRef: WeakRef<GraphTask> | null;

  constructor(
    graphTask: GraphTask | null,
    readonly fn: Node | null,
    readonly inputs: InputBuffer | null,
    readonly isShutdownTask = false,
  ) {
    this.graphTaskRef = graphTask ? new WeakRef(graphTask) : null;
  }

  get graphTask(): GraphTask | undefined {
    return this.graphTaskRef?.deref();
  }

  getReentrantDepth(): number {
    const task = this.graphTask;
    return task ? task.reentrantDepth : Number.MAX_SAFE_INTEGER;
  }
}
