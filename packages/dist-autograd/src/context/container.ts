import { AsyncLocalStorage } from 'node:async_hooks';
import { DistAutogradError } from '../errors.js';
import { DistAutogradContext } from './context.js';

const MAX_COUNTER = (1n << 48n) - 1n;

/**
 * Note [Context ids]
 * PyTorch's DistAutogradContainer: context and message ids are int64
 * `workerId << 48 | counter`, so ids made on different workers never collide; they exceed
 * 2^53 and are bigints here. The current context is tracked with AsyncLocalStorage (PyTorch
 * keeps it thread-local), so it follows `await`s inside `context()`.
 */
export class DistAutogradContainer {
  private nextContext = 0n;
  private nextMessage = 0n;
  readonly contexts = new Map<bigint, DistAutogradContext>();
  readonly current = new AsyncLocalStorage<bigint>();

  constructor(readonly workerId: number) {
    if (!Number.isInteger(workerId) || workerId < 0 || workerId >= 1 << 16) {
      throw new DistAutogradError(
        'ID_OVERFLOW',
        `worker id ${workerId} must be in [0, 65536) to fit the 16 high bits of an id`,
      );
    }
  }

  private nextId(counter: bigint, what: string): bigint {
    if (counter > MAX_COUNTER)
      throw new DistAutogradError('ID_OVERFLOW', `Exceeded the maximum ${what} id for worker ${this.workerId}`);
    return (BigInt(this.workerId) << 48n) | counter;
  }

  /** The largest id this worker can issue. */
  getMaxId(): bigint {
    return (BigInt(this.workerId) << 48n) | MAX_COUNTER;
  }

  newContext(): DistAutogradContext {
    if (this.current.getStore() !== undefined) {
      throw new DistAutogradError('NESTED_CONTEXT', 'Already have an autograd context id for this thread.');
    }
    const id = this.nextId(this.nextContext++, 'autograd context');
    const ctx = new DistAutogradContext(id);
    this.contexts.set(id, ctx);
    return ctx;
  }

  newMessageId(): bigint {
    return this.nextId(this.nextMessage++, 'message');
  }

  getOrCreateContext(id: bigint): DistAutogradContext {
    let ctx = this.contexts.get(id);
    if (!ctx) this.contexts.set(id, (ctx = new DistAutogradContext(id)));
    ctx.touch();
    return ctx;
  }

  retrieveContext(id: bigint): DistAutogradContext {
    const ctx = this.contexts.get(id);
    if (!ctx) throw new DistAutogradError('NO_CONTEXT', `Could not find autograd context with id: ${id}`);
    return ctx;
  }

  currentContext(): DistAutogradContext | null {
    const id = this.current.getStore();
    return id === undefined ? null : (this.contexts.get(id) ?? null);
  }

  /** Removes the context here; returns it (the caller forwards the cleanup) or null when absent. */
  take(id: bigint): DistAutogradContext | null {
    const ctx = this.contexts.get(id) ?? null;
    this.contexts.delete(id);
    return ctx;
  }
}
