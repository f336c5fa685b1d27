import { type Tensor, add, noGrad } from '@wiregrad/autograd';
import type { RecvRpcBackward } from '../functions/recvRpcBackward.js';
import type { SendRpcBackward } from '../functions/sendRpcBackward.js';

/**
 * PyTorch's DistAutogradContext: the send/recv functions recorded in one context, the
 * workers it talked to, and the gradients accumulated here by backward passes (the pass
 * running in it is the worker's, workerState.ts).
 */
export class DistAutogradContext {
  private readonly sends = new Map<bigint, SendRpcBackward>();
  private readonly recvs = new Map<bigint, RecvRpcBackward>();
  private readonly workers = new Set<number>();
  readonly accumulatedGrads = new Map<Tensor, Tensor>();
  /** passes that finished or failed here: a late message of one is dropped, never starts it again */
  readonly endedPasses = new Set<string>();
  lastActivity = Date.now();

  constructor(readonly contextId: bigint) {}

  /** The worker that created the context (the high bits of its id). */
  get originWorkerId(): number {
    return Number(this.contextId >> 48n);
  }

  sendFunctions(): Map<bigint, SendRpcBackward> {
    return new Map(this.sends);
  }

  recvFunctions(): Map<bigint, RecvRpcBackward> {
    return new Map(this.recvs);
  }

  knownWorkerIds(): Set<number> {
    return new Set(this.workers);
  }

  addSendFunction(messageId: bigint, fn: SendRpcBackward): void {
    this.sends.set(messageId, fn);
  }

  addRecvFunction(messageId: bigint, fn: RecvRpcBackward): void {
    this.recvs.set(messageId, fn);
  }

  sendFunction(messageId: bigint): SendRpcBackward | undefined {
    return this.sends.get(messageId);
  }

  addKnownWorkerId(id: number): void {
    this.workers.add(id);
  }

  /** The worker left the group (Note [A worker that left]). */
  forgetWorker(id: number): void {
    this.workers.delete(id);
  }

  touch(): void {
    this.lastActivity = Date.now();
  }

  /** Adds a leaf's gradient into the context (never into `.grad`); repeated passes accumulate. */
  accumulateGrad(variable: Tensor, grad: Tensor): void {
    const old = this.accumulatedGrads.get(variable);
    this.accumulatedGrads.set(
      variable,
      noGrad(() => (old ? add(old, grad) : grad.detach().clone())),
    );
  }
}
