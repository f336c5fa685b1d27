import { MessageType, maybeRpcState } from '@wiregrad/rpc/internal';
import { getContainer, maybeContainer } from './context/container.js';
import type { DistAutogradContext } from './context/context.js';
import type { CleanupAutogradContextReq } from './messages/cleanupAutogradContextReq.js';
import { isFinal, sendToWorker } from './sendToWorker.js';

const RETRIES = 20;

/** CLEANUP_AUTOGRAD_CONTEXT_REQ, retried (it is idempotent) unless the worker is gone (Note [Reaching a worker]). */
async function sendCleanup(to: number, contextIds: bigint[]): Promise<void> {
  const timeout = Math.min(maybeRpcState()?.defaultTimeoutMs || 5000, 5000);
  const payload: CleanupAutogradContextReq = { contextIds };
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    try {
      await sendToWorker(to, MessageType.CLEANUP_AUTOGRAD_CONTEXT_REQ, payload, timeout);
      return;
    } catch (e) {
      if (isFinal(e)) return;
    }
  }
}

/** The workers other than this one and `except` that must hear a context is gone. */
function workersToTell(ctx: DistAutogradContext, except: number | null): number[] {
  const self = getContainer().workerId;
  return [...ctx.knownWorkerIds()].filter((w) => w !== self && w !== except);
}

/** Tells every worker the context talked to that it is gone, now, and waits for their answers (`releaseContext()`). */
export async function forwardCleanup(ctx: DistAutogradContext, except: number | null): Promise<void> {
  await Promise.allSettled(workersToTell(ctx, except).map((w) => sendCleanup(w, [ctx.contextId])));
}

/**
 * Note [Releases ride on the next message]
 * Leaving a context must tell every worker it talked to (PyTorch's CleanupAutogradContextReq,
 * which PyTorch sends without waiting for it). As a request and answer of its own, that is a
 * third message each way per training round, with its encoding, decoding and ZeroMQ send on
 * both critical paths. Instead the released ids wait, per worker, for the next message this
 * worker sends there anyway — in a training loop, the next round's FORWARD_AUTOGRAD_REQ or
 * its gradients (BACKWARD_AUTOGRAD_REQ) — and ride in it (`releases`); the receiver drops
 * those contexts before it handles the message (and passes the release on the same way to the
 * workers they involved). Ids that nothing carried within `releaseWaitMs` (10 ms) go as one
 * CLEANUP_AUTOGRAD_CONTEXT_REQ per worker, retried; a graceful shutdown() sends what is left
 * before it settles (the `beforeShutdown` hook, Note [RPC autograd hooks]); a worker that
 * leaves is forgotten with its releases (Note [A worker that left]). A carrier lost on the
 * wire leaves its contexts to expiry (Note [Context expiry]), where PyTorch would leak them.
 */
const waiting = new Map<number, bigint[]>();
let releaseWaitMs = 10;
let flushTimer: ReturnType<typeof setTimeout> | null = null;

/** Releases `ctx` on the workers it talked to (but `except`), riding on the next message to each. */
export function releaseLater(ctx: DistAutogradContext, except: number | null): void {
  for (const w of workersToTell(ctx, except)) {
    const ids = waiting.get(w);
    if (ids) ids.push(ctx.contextId);
    else waiting.set(w, [ctx.contextId]);
  }
  armFlush();
}

/** The releases waiting for `workerId`, taken by a message about to leave for it (undefined when none). */
export function takeReleases(workerId: number): bigint[] | undefined {
  const ids = waiting.get(workerId);
  if (ids) waiting.delete(workerId);
  return ids;
}

/** Sends every waiting release as a CLEANUP_AUTOGRAD_CONTEXT_REQ of its own. */
export function flushReleases(): void {
  if (flushTimer !== null) clearTimeout(flushTimer);
  flushTimer = null;
  for (const [w, ids] of waiting) void sendCleanup(w, ids);
  waiting.clear();
}

/** Drops the releases waiting for a worker that left (Note [A worker that left]). */
export function forgetReleases(workerId: number): void {
  waiting.delete(workerId);
}

/** Drops every waiting release: the group is gone. */
export function resetReleases(): void {
  if (flushTimer !== null) clearTimeout(flushTimer);
  flushTimer = null;
  waiting.clear();
}

/** How long a release waits for a message to ride on before it is sent on its own (default 10 ms). */
export function setReleaseWait(ms: number): void {
  releaseWaitMs = ms;
  if (flushTimer !== null) {
    clearTimeout(flushTimer);
    flushTimer = null;
    armFlush();
  }
}

function armFlush(): void {
  if (waiting.size === 0 || flushTimer !== null) return;
  flushTimer = setTimeout(flushReleases, releaseWaitMs);
  flushTimer.unref?.();
}

/** PyTorch's releaseContextIfPresent, for ids that arrived in a message: drop each here, pass the release on. */
export function releaseArrived(contextIds: readonly bigint[] | undefined, from: number | null): void {
  if (!contextIds) return;
  const container = maybeContainer();
  for (const id of contextIds) {
    const ctx = container?.take(id);
    if (ctx) releaseLater(ctx, from);
  }
}

/** PyTorch's releaseContextIfPresent, for a CLEANUP request: drop them here, tell their workers, wait for them. */
export async function releaseContextsIfPresent(contextIds: readonly bigint[], from: number | null): Promise<void> {
  const container = maybeContainer();
  await Promise.allSettled(
    contextIds.map((id) => {
      const ctx = container?.take(id);
      return ctx ? forwardCleanup(ctx, from) : undefined;
    }),
  );
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
