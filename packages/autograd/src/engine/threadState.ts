import type { GraphTask } from './graphTask.js';

/**
 * PyTorch's thread-locals of the engine (current_graph_task, the worker's depth), as module
 * state: one stack entry per (possibly reentrant) execution in progress on this isolate.
 */
const stack: GraphTask[] = [];

export function currentGraphTask(): GraphTask | null {
  return stack[stack.length - 1] ?? null;
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
