import { maybeRpcState } from '@wiregrad/rpc/internal';
import type { DistAutogradContainer } from './container.js';

let contextTimeoutMs: number | null = null;

/**
 * Note [Context expiry]
 * PyTorch leaks a context on other workers when the worker that created it dies before
 * releasing it (pytorch#26379). Here a context this worker did not create, with no pass
 * running, is dropped after `timeout` ms without activity (default: twice the RPC timeout,
 * or 2 minutes when RPCs have none).
 */
export function setContextTimeout(ms: number | null): void {
  contextTimeoutMs = ms;
}

/** Every 250 ms, drops the contexts that expired (Note [Context expiry]); returns the stop function. */
export function startExpiry(container: DistAutogradContainer, running: (contextId: bigint) => boolean): () => void {
  const sweeper = setInterval(() => {
    const rpc = maybeRpcState(); // null while initRpc is still in its rendezvous
    if (!rpc) return;
    const limit = contextTimeoutMs ?? (2 * rpc.defaultTimeoutMs || 120_000);
    const now = Date.now();
    for (const ctx of [...container.contexts.values()]) {
      if (ctx.originWorkerId !== container.workerId && !running(ctx.contextId) && now - ctx.lastActivity > limit)
        container.take(ctx.contextId);
    }
  }, 250);
  sweeper.unref();
  return () => clearInterval(sweeper);
}
