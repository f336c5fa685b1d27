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

/** The DOM's MessagePort, as much as nextMacrotask uses (this package type-checks with Node's types). */
interface WebMessagePort {
  onmessage: (() => void) | null;
  postMessage(message: null): void;
  close(): void;
}

/** A MessageChannel message is a macrotask that is not clamped like setTimeout(0). */
function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel() as unknown as { port1: WebMessagePort; port2: WebMessagePort };
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

export const platform: AutogradPlatform = {
  name: 'browser',
  createTaskStore: () => new SyncTaskStore(),
  warn: (message, type) => console.warn(`${type}: ${message}`),
  nextMacrotask,
};
