import { type Tensor, add, noGrad } from '@wiregrad/autograd';
import type { DrivenPass } from '@wiregrad/autograd/internal';
import type { RecvRpcBackward } from '../functions/recvRpcBackward.js';
import type { SendRpcBackward } from '../functions/sendRpcBackward.js';

/** The state of one distributed backward pass on this worker (see Note [No hang on unused outputs]). */
export interface BackwardPass {
  id: string;
  /** send functions that gradients will reach in this pass */
  reachableSends: Set<SendRpcBackward>;
  /** recv functions whose senders were told to mark (so each is marked once) */
  markedRecvs: Set<RecvRpcBackward>;
  /** reachable send functions that have received their gradients */
  fired: Set<SendRpcBackward>;
  graphTask: DrivenPass | null;
  /** gradient RPCs sent by this worker's RecvRpcBackward functions in this pass */
  outstanding: Promise<unknown>[];
  /** the message ids of every send function the pass fires (Note [Firing sets]); null when a mark round found them */
  fires: Set<bigint> | null;
}

/**
 * PyTorch's DistAutogradContext: the send/recv functions recorded in one context, the
 * workers it talked to, and the gradients accumulated here by backward passes.
 */
export class DistAutogradContext {
  private readonly sends = new Map<bigint, SendRpcBackward>();
  private readonly recvs = new Map<bigint, RecvRpcBackward>();
  private readonly workers = new Set<number>();
  readonly accumulatedGrads = new Map<Tensor, Tensor>();
  pass: BackwardPass | null = null;
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

  /** The pass fires the send functions whose message ids are in `fires` (Note [Firing sets]). */
  setFires(pass: BackwardPass, fires: Set<bigint>): void {
    pass.fires = fires;
    for (const [id, send] of this.sends) if (fires.has(id)) pass.reachableSends.add(send);
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
