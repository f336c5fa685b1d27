import { MessageType, maybeRpcState } from '@wiregrad/rpc';
import { getContainer, maybeContainer } from './context/container.js';
import type { DistAutogradContext } from './context/context.js';
import { isFinal, sendToWorker } from './sendToWorker.js';

const RETRIES = 20;

/** CLEANUP_AUTOGRAD_CONTEXT_REQ, retried (it is idempotent) unless the worker is gone (Note [Reaching a worker]). */
async function sendCleanup(to: number, contextId: bigint): Promise<void> {
  const timeout = Math.min(maybeRpcState()?.defaultTimeoutMs || 5000, 5000);
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    try {
      await sendToWorker(to, MessageType.CLEANUP_AUTOGRAD_CONTEXT_REQ, { contextId }, timeout);
      return;
    } catch (e) {
      if (isFinal(e)) return;
    }
  }
}

/** Tells every worker the context talked to that it is gone (CLEANUP_AUTOGRAD_CONTEXT_REQ, retried). */
export async function forwardCleanup(ctx: DistAutogradContext, except: number | null): Promise<void> {
  const self = getContainer().workerId;
  await Promise.allSettled(
    [...ctx.knownWorkerIds()].filter((w) => w !== self && w !== except).map((w) => sendCleanup(w, ctx.contextId)),
  );
}

/** PyTorch's releaseContextIfPresent, on receiving a cleanup: drop it here, forward to its known workers. */
export async function releaseContextIfPresent(contextId: bigint, from: number | null): Promise<void> {
  const ctx = maybeContainer()?.take(contextId);
  if (ctx) await forwardCleanup(ctx, from);
}

let contextTimeoutMs: number | null = null;
let sweeper: NodeJS.Timeout | null = null;

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

export function startSweeper(): void {
  stopSweeper();
  sweeper = setInterval(() => {
    const container = maybeContainer();
    const rpc = maybeRpcState(); // null while initRpc is still in its rendezvous
    if (!container || !rpc) return;
    const limit = contextTimeoutMs ?? (2 * rpc.defaultTimeoutMs || 120_000);
    const now = Date.now();
    for (const ctx of [...container.contexts.values()]) {
      if (ctx.originWorkerId !== container.workerId && !ctx.pass && now - ctx.lastActivity > limit)
        container.take(ctx.contextId);
    }
  }, 250);
  sweeper.unref();
}

export function stopSweeper(): void {
  if (sweeper) clearInterval(sweeper);
  sweeper = null;
}
