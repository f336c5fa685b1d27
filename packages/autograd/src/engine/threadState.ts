import { platform } from '#platform';
import type { AsyncTaskStore } from '../platform/types.js';
import type { GraphTask } from './graphTask.js';
import type { Node } from './node.js';

/**
 * PyTorch's thread-locals of the engine (current_graph_task, the worker's depth), as module
 * state: one stack entry per (possibly reentrant) execution in progress on this isolate.
 */
const stack: GraphTask[] = [];
/** The node each entry of `stack` is running (null for a task's final callbacks): PyTorch's current_node. */
const nodes: (Node | null)[] = [];

/**
 * The task of an async node's continuation (after its first await the stack above is gone):
 * AsyncLocalStorage in Node (Note [Autograd platform modules]).
 */
export const asyncGraphTask: AsyncTaskStore<GraphTask> = platform.createTaskStore<GraphTask>();

export function currentGraphTask(): GraphTask | null {
  return stack[stack.length - 1] ?? asyncGraphTask.getStore() ?? null;
}

/** The node the engine is running on this stack, if any (See Note [Anomaly metadata]). */
export function currentNode(): Node | null {
  return nodes[nodes.length - 1] ?? null;
}

export function pushGraphTask(task: GraphTask, node: Node | null = null): void {
  stack.push(task);
  nodes.push(node);
}

export function popGraphTask(): void {
  stack.pop();
  nodes.pop();
}
