// The Node.js host of @wiregrad/autograd (Note [Autograd platform modules]).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AutogradPlatform } from './types.js';

export const platform: AutogradPlatform = {
  name: 'node',
  createTaskStore: () => new AsyncLocalStorage(),
  warn: (message, type) => process.emitWarning(message, type),
  nextMacrotask: () => new Promise((resolve) => setImmediate(resolve)),
};
