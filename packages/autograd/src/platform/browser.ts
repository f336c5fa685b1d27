// The browser host of @wiregrad/autograd (Note [Autograd platform modules]): nothing from Node.
import type { AsyncTaskStore, AutogradPlatform } from './types.js';

/** Holds a value while `run` runs synchronously: browsers cannot follow it across awaits. */
class SyncTaskStore<T> implements AsyncTaskStore<T> {
  private current: T | undefined = undefined;

  getStore(): T | undefined {
    return this.current;
  }

  run<R>(store: T, fn: () => R): R {
    const previous = this.current;
    this.current = store;
    try {
      return fn();
    } finally {
      this.current = previous;
    }
  }
}

export const platform: AutogradPlatform = {
  name: 'browser',
  createTaskStore: () => new SyncTaskStore(),
  warn: (message, type) => console.warn(`${type}: ${message}`),
};
