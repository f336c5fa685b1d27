import { platform } from '#platform';
import type { AsyncTaskStore } from '../platform/types.js';
import type { GraphTask } from './graphTask.js';

/**
 * PyTorch's thread-locals of the engine (current_graph_task, the worker's depth), as module
 * state: one stack entry per (possibly reentrant) execution in progress on this isolate.
 */
const stack: GraphTask[] = [];

/**
 * The task of an async node's continuation (after its first await the stack above is gone):
 * AsyncLocalStorage in Node (Note [Autograd platform modules]).
 */
export const asyncGraphTask: AsyncTaskStore<GraphTask> = platform.createTaskStore<GraphTask>();

export function currentGraphTask(): GraphTask | null {
  return stack[stack.length - 1] ?? asyncGraphTask.getStore() ?? null;
}

export function pushGraphTask(task: GraphTask): void {
  stack.push(task);
}

export function popGraphTask(): void {
  stack.pop();
}

export function graphTaskDepth(): number {
  return stack.length;
}
