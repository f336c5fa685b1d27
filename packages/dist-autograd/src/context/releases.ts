import { MessageType, maybeRpcState } from '@wiregrad/rpc/internal';
import type { CleanupAutogradContextReq } from '../messages/cleanupAutogradContextReq.js';
import { isFinal, sendToWorker } from '../messages/sendToWorker.js';
import type { DistAutogradContainer } from './container.js';
import type { DistAutogradContext } from './context.js';

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
export class Releases {
  private readonly waiting = new Map<number, bigint[]>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(
    private readonly container: DistAutogradContainer,
    private waitMs: number,
  ) {}

  /** Releases `ctx` on the workers it talked to (but `except`), riding on the next message to each. */
  later(ctx: DistAutogradContext, except: number | null): void {
    if (this.disposed) return;
    for (const w of this.workersToTell(ctx, except)) {
      const ids = this.waiting.get(w);
      if (ids) ids.push(ctx.contextId);
      else this.waiting.set(w, [ctx.contextId]);
    }
    this.armFlush();
  }

  /** The releases waiting for `workerId`, taken by a message about to leave for it (undefined when none). */
  take(workerId: number): bigint[] | undefined {
    const ids = this.waiting.get(workerId);
    if (ids) this.waiting.delete(workerId);
    return ids;
  }

  /** Sends every waiting release as a CLEANUP_AUTOGRAD_CONTEXT_REQ of its own. */
  flush(): void {
    this.clearTimer();
    for (const [w, ids] of this.waiting) void sendCleanup(w, ids);
    this.waiting.clear();
  }

  /** Drops the releases waiting for a worker that left (Note [A worker that left]). */
  forget(workerId: number): void {
    this.waiting.delete(workerId);
  }

  /** Drops every waiting release and takes no more: the group is gone. */
  dispose(): void {
    this.disposed = true;
    this.clearTimer();
    this.waiting.clear();
  }

  /** How long a release waits for a message to ride on before it is sent on its own. */
  setWait(ms: number): void {
    this.waitMs = ms;
    if (this.flushTimer !== null) {
      this.clearTimer();
      this.armFlush();
    }
  }

  /** Tells every worker the context talked to that it is gone, now, and waits for their answers (`releaseContext()`). */
  async forwardCleanup(ctx: DistAutogradContext, except: number | null): Promise<void> {
    await Promise.allSettled(this.workersToTell(ctx, except).map((w) => sendCleanup(w, [ctx.contextId])));
  }

  /** PyTorch's releaseContextIfPresent, for ids that arrived in a message: drop each here, pass the release on. */
  arrived(contextIds: readonly bigint[] | undefined, from: number | null): void {
    if (!contextIds) return;
    for (const id of contextIds) {
      const ctx = this.container.take(id);
      if (ctx) this.later(ctx, from);
    }
  }

  /** PyTorch's releaseContextIfPresent, for a CLEANUP request: drop them here, tell their workers, wait for them. */
  async releaseIfPresent(contextIds: readonly bigint[], from: number | null): Promise<void> {
    await Promise.allSettled(
      contextIds.map((id) => {
        const ctx = this.container.take(id);
        return ctx ? this.forwardCleanup(ctx, from) : undefined;
      }),
    );
  }

  /** The workers other than this one and `except` that must hear a context is gone. */
  private workersToTell(ctx: DistAutogradContext, except: number | null): number[] {
    const self = this.container.workerId;
    return [...ctx.knownWorkerIds()].filter((w) => w !== self && w !== except);
  }

  private armFlush(): void {
    if (this.waiting.size === 0 || this.flushTimer !== null) return;
    this.flushTimer = setTimeout(() => this.flush(), this.waitMs);
    this.flushTimer.unref?.();
  }

  private clearTimer(): void {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }
}
