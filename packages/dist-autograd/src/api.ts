import type { Tensor } from '@wiregrad/autograd';
import type { DistAutogradContext } from './context/context.js';
import { DistAutogradError } from './errors.js';
import { getContainer, getWorker } from './workerState.js';

/**
 * Runs `fn` inside a new distributed autograd context (PyTorch's `with context() as id`):
 * the context is current across `await`s, and leaving releases it here and on every worker
 * it talked to.
 * Note [Cleanup off the critical path]
 * Like PyTorch (which never waits on its cleanup futures), leaving a context drops it here
 * at once and tells the other workers without waiting for them: the releases ride on the
 * next message to each worker (Note [Releases ride on the next message]), and a graceful
 * shutdown() sends what is left before it settles. `releaseContext()` called directly tells
 * them at once and waits for their answers.
 */
export async function context<T>(fn: (contextId: bigint) => Promise<T>): Promise<T> {
  const { container, releases } = getWorker();
  const ctx = container.newContext();
  try {
    return await container.current.run(ctx.contextId, () => fn(ctx.contextId));
  } finally {
    container.take(ctx.contextId);
    releases.later(ctx, null);
  }
}

/** Releases a context here and, transitively, on every known worker; throws if absent. */
export async function releaseContext(contextId: bigint): Promise<void> {
  const { container, releases } = getWorker();
  const ctx = container.take(contextId);
  if (!ctx) throw new DistAutogradError('NO_CONTEXT', `Could not find autograd context with id: ${contextId}`);
  await releases.forwardCleanup(ctx, null);
}

/** The gradients accumulated on this worker in the context (leaf tensor -> gradient). */
export function getGradients(contextId: bigint): Map<Tensor, Tensor> {
  return new Map(getContainer().retrieveContext(contextId).accumulatedGrads);
}

export function retrieveContext(contextId: bigint): DistAutogradContext {
  return getContainer().retrieveContext(contextId);
}

export function getMaxId(): bigint {
  return getContainer().getMaxId();
}

export function getDebugInfo(): { numAutogradContexts: number; numCurrentBackwardPasses: number } {
  const { container, passes } = getWorker();
  return { numAutogradContexts: container.contexts.size, numCurrentBackwardPasses: passes.size };
}

/** The id of the current context, or null outside `context()`. */
export function currentContextId(): bigint | null {
  return getContainer().currentContext()?.contextId ?? null;
}
