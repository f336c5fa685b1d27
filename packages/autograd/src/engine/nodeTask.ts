import type { GraphTask } from './graphTask.js';
import type { InputBuffer } from './inputBuffer.js';
import type { Node } from './node.js';

/**
 * PyTorch's NodeTask: a node ready to run with its gradients. `fn === null` is an empty
 * wake-up task; a task without a GraphTask sorts first and is dropped.
 *
 * PyTorch holds the GraphTask weakly (a weak_ptr breaks a reference cycle). Here the GC
 * collects cycles, and a WeakRef would cost more than it saves: V8 keeps every WeakRef's
 * target alive until the current job ends, so a synchronous training loop kept every step's
 * GraphTask, and through it the whole graph, until it yielded (~17 KB a step for an MLP).
 * A task of a GraphTask that failed is skipped when popped (Engine.processTask).
 */
export class NodeTask {
  constructor(
    graphTask: GraphTask | null,
    readonly fn: Node | null,
    readonly inputs: InputBuffer | null,
    readonly isShutdownTask = false,
  ) {
    this.graphTask = graphTask ?? undefined;
  }

  readonly graphTask: GraphTask | undefined;

  getReentrantDepth(): number {
    const task = this.graphTask;
    return task ? task.reentrantDepth : Number.MAX_SAFE_INTEGER;
  }
}
