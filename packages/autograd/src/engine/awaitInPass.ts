import { AutogradError } from '../errors.js';
import { InputBuffer } from './inputBuffer.js';
import { type Grads, Node } from './node.js';
import { NodeTask } from './nodeTask.js';
import { asyncGraphTask, currentGraphTask } from './threadState.js';

/**
 * Note [Awaiting in a pass]
 * A node's apply may return a Promise only under backwardAsync() (Note [Device lanes]); a
 * synchronous backward() cannot wait. Code that runs inside a node (a hook, a node's apply) and
 * needs the network asks `canAwait()` first, so it can say what to do instead (DDP: "use
 * backwardAsync()") rather than leave the engine's generic error. `awaitInPass(name, work)` adds
 * `work` to the running pass as a node of its own, queued like a ready node (its task counted
 * outstanding): the pass completes, and backwardAsync() resolves, only after `work` settled; a
 * rejection fails the pass with that error. That is how PyTorch's Reducer holds backward open
 * until every bucket is reduced (its finalize_backward waits on the work), without a blocking wait.
 */

/** Whether the node the engine is running now may return a Promise: the pass runs under backwardAsync(). */
export function canAwait(): boolean {
  const task = currentGraphTask();
  return task !== null && asyncGraphTask.getStore() === task;
}

/** Keeps the running backwardAsync() pass open until `work()` settles (Note [Awaiting in a pass]). */
export function awaitInPass(name: string, work: () => Promise<void>): void {
  const task = currentGraphTask();
  if (!task || !canAwait())
    throw new AutogradError('INVALID_STATE', `${name}: awaitInPass() needs a pass that runs under backwardAsync()`);
  task.outstandingTasks++;
  task.cpuReadyQueue.push(new NodeTask(task, new AwaitNode(name, work), new InputBuffer(0)));
}

/** The node awaitInPass queues: no inputs, no outputs, it settles when its work does. */
class AwaitNode extends Node {
  constructor(
    private readonly label: string,
    private readonly work: () => Promise<void>,
  ) {
    super();
    this.setNextEdges([]);
  }

  name(): string {
    return this.label;
  }

  apply(): Promise<Grads> {
    return this.work().then(() => []);
  }
}
