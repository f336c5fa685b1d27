/**
 * Note [Autograd platform modules]
 * What the engine needs from its host, as tensor's Note [Platform modules]: a store that
 * follows a graph task across `await`s (Node's AsyncLocalStorage), a way to warn, and a way to
 * go on in a later macrotask (Node's setImmediate; a MessageChannel message in browsers, which
 * have no setImmediate). package.json's
 * `imports` map gives `#platform` as platform/node.ts, or platform/browser.ts under the `browser`
 * condition. Browsers have no AsyncLocalStorage: there the store holds a task only while `run`
 * runs synchronously, so in an async node's continuation (after its first `await`)
 * `currentGraphTask()` is null, as on a thread the engine does not own.
 */
export interface AsyncTaskStore<T> {
  getStore(): T | undefined;
  run<R>(store: T, fn: () => R): R;
}

export interface AutogradPlatform {
  readonly name: 'node' | 'browser';
  createTaskStore<T>(): AsyncTaskStore<T>;
  /** a warning of `type` (e.g. 'UserWarning'), as PyTorch's warnings.warn */
  warn(message: string, type: string): void;
  /** resolves in a later macrotask, on a fresh stack, after pending I/O and timers had their turn */
  nextMacrotask(): Promise<void>;
}
