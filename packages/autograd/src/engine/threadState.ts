import { AsyncLocalStorage } from 'node:async_hooks';
import type { GraphTask } from './graphTask.js';

/**
 * PyTorch's thread-locals of the engine (current_graph_task, the worker's depth), as module
 * state: one stack entry per (possibly reentrant) execution in progress on this isolate.
 */
const stack: GraphTask[] = [];

/**
 * What the engine uses of AsyncLocalStorage. The published declarations name this interface,
 * not `node:async_hooks`, so projects without @types/node (browsers) type-check against them.
 */
export interface AsyncTaskStore<T> {
  getStore(): T | undefined;
  run<R>(store: T, fn: () => R): R;
}

/** The task of an async node's continuation (after its first await the stack above is gone). */
export const asyncGraphTask: AsyncTaskStore<GraphTask> = new AsyncLocalStorage<GraphTask>();

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
