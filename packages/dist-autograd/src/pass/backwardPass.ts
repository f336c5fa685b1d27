import { type Grads, type Node, type Tensor, onesLike } from '@wiregrad/autograd';
import { type DrivenPass, GraphRoot, gradientEdge, openPass } from '@wiregrad/autograd/internal';
import { MessageType } from '@wiregrad/rpc/internal';
import type { DistAutogradContext } from '../context/context.js';
import { DistAutogradError } from '../errors.js';
import { RecvRpcBackward, type GradientSender } from '../functions/recvRpcBackward.js';
import type { SendRpcBackward } from '../functions/sendRpcBackward.js';
import type { GradientsReq, PropagateGradientsReq } from '../messages/propagateGradientsReq.js';
import { sendToWorker } from '../messages/sendToWorker.js';
import { firingSet, reachableRecvs } from './reachability.js';

/** What a pass needs of the worker it runs on (the per-worker state, workerState.ts). */
export interface PassHost {
  readonly workerId: number;
  /** the context releases waiting for `to`, taken by a message about to leave for it (Note [Releases ride on the next message]) */
  takeReleases(to: number): bigint[] | undefined;
  /** the pass is over on this worker: it is no longer the one running in its context */
  passEnded(pass: BackwardPass): void;
}

function send(to: number, payload: PropagateGradientsReq): Promise<unknown> {
  return sendToWorker(to, MessageType.BACKWARD_AUTOGRAD_REQ, payload);
}

/** The error a pass reports onwards: "Error on Node <id>: ..." with the first node's prefix kept. */
function nodeError(e: unknown, workerId: number): DistAutogradError {
  const message = e instanceof Error ? e.message : String(e);
  if (/Error on Node \d+:/.test(message)) return new DistAutogradError('BACKWARD', message);
  return new DistAutogradError('BACKWARD', `Error on Node ${workerId}: ${message}`);
}

/**
 * Note [No hang on unused outputs]
 * PyTorch's FAST mode assumes every send function of a context receives a gradient, so an
 * RPC whose output is unused hangs backward forever. wiregrad first runs a reachability
 * round ('mark' PropagateGradientsReqs): from the roots, each worker walks its local graph
 * to the RecvRpcBackward nodes it reaches and tells their senders to mark the matching send
 * function, which walks on from there. Only marked send functions count as roots of the
 * pass, so every dependency the engine waits for is one that will arrive: unused outputs
 * are pruned, and the gradients equal a local computation. Each response completes only
 * after the worker's nested marks (or, in the gradient round, its local engine and nested
 * gradient RPCs) have finished, so the root knows when the whole pass is over.
 *
 * Note [Failed passes]
 * In PyTorch a failed distributed backward only reaches the caller; the other workers keep
 * their half-run GraphTasks (pytorch#27643). Here the error reaches the caller as
 * "Error on Node <id>: ..." (each hop keeps the first node's prefix), and the origin tells
 * every worker the context talked to to drop the pass ('abort', forwarded transitively), so
 * every participant frees it and the next pass in the context starts clean.
 *
 * Note [Gradients ride on the answer]
 * A worker that runs its share of a pass because worker S sent it gradients usually has
 * gradients for S in turn (the tensors S sent it in the forward call). Sent as requests of
 * their own they would cost S another round trip; instead, the RecvRpcBackward nodes that
 * run while the worker serves S's BACKWARD_AUTOGRAD_REQ put what they have for S into the
 * answer (`inline`), and S runs them as soon as the answer arrives, as if they had come as
 * requests. Gradients for any other worker still go as requests. The answer comes only once
 * the worker's share (and the nested RPCs it made) is done, so S still knows, when its last
 * answer is in, that the whole pass is over. A round thus costs the forward call and one
 * gradient request and answer.
 */
/**
 * PyTorch's DistEngine state for one backward pass in one context, on this worker: the send
 * functions it reaches (from the firing set or the mark round), the local engine run (a
 * driven pass, Note [Driving a pass] in @wiregrad/autograd), the gradient RPCs it sent and is
 * waiting for, and where the gradients of its RecvRpcBackward nodes go.
 */
export class BackwardPass implements GradientSender {
  /** send functions that gradients will reach in this pass */
  private readonly reachableSends = new Set<SendRpcBackward>();
  /** recv functions whose senders were told to mark (so each is marked once) */
  private readonly markedRecvs = new Set<RecvRpcBackward>();
  /** reachable send functions that have received their gradients */
  private readonly fired = new Set<SendRpcBackward>();
  /** the message ids of every send function the pass fires (Note [Firing sets]); null when a mark round found them */
  private fires: Set<bigint> | null = null;
  /** the local engine run, opened at the first gradients (or at the roots on the origin) */
  private engine: DrivenPass | null = null;
  /** gradient RPCs this pass sent and waits for */
  private outstanding: Promise<unknown>[] = [];
  /** the worker whose request is being answered, and the answer's gradients (Note [Gradients ride on the answer]) */
  private answering: { to: number; out: GradientsReq[] } | null = null;
  private ended = false;

  constructor(
    readonly id: string,
    readonly ctx: DistAutogradContext,
    private readonly host: PassHost,
  ) {}

  /** This worker started the pass (backward() was called here). */
  get isOrigin(): boolean {
    return this.id.startsWith(`${this.host.workerId}:`);
  }

  /** PyTorch's DistEngine::execute on the origin: reachability, then the local run, then every worker's share. */
  async runFromRoots(roots: readonly Tensor[], retainGraph: boolean): Promise<void> {
    try {
      const rootNodes = roots.map((t) => t.gradFn as Node);
      const fires = firingSet(rootNodes);
      if (fires) this.setFires(new Set(fires));
      else await this.markFrom(rootNodes); // see Note [Firing sets]: unknown somewhere, so ask
      const root = new GraphRoot(
        roots.map((t) => gradientEdge(t)),
        roots.map((t) => onesLike(t)),
      );
      const engine = this.open(root, retainGraph);
      engine.run(root);
      engine.throwIfFailed();
      await this.drain();
      engine.throwIfFailed();
      engine.close();
      engine.throwIfFailed();
    } catch (e) {
      const err = nodeError(e, this.host.workerId);
      this.end(err);
      this.broadcastAbort(err.message);
      throw err;
    } finally {
      this.end();
    }
  }

  /** A 'mark' request: the send function is reached; mark what it reaches on other workers. */
  async mark(sendFn: SendRpcBackward): Promise<void> {
    if (this.reachableSends.has(sendFn)) return;
    this.reachableSends.add(sendFn);
    await this.markFrom([sendFn]);
  }

  /**
   * Gradients for a send function (a request from worker `from`, or inside an answer when
   * `from` is null): runs the local engine from it, waits for the gradient RPCs it causes, and
   * returns the gradients for `from` (Note [Gradients ride on the answer]).
   */
  async receive(req: GradientsReq, from: number | null): Promise<GradientsReq[]> {
    const inline: GradientsReq[] = [];
    if (this.ended) return inline; // a straggler of a pass that ended here
    const sendFn = this.ctx.sendFunction(req.metadata.messageId);
    if (!sendFn)
      throw new DistAutogradError(
        'BACKWARD',
        `no send function for message ${req.metadata.messageId} in autograd context ${this.ctx.contextId}`,
      );
    try {
      if (req.fires && !this.fires) this.setFires(new Set(req.fires));
      const engine = this.engine ?? this.open(null, req.retainGraph);
      sendFn.setGrads(req.grads);
      this.fired.add(sendFn);
      this.answeringTo(from, inline, () => engine.run(sendFn));
      engine.throwIfFailed();
      await this.drain();
      engine.throwIfFailed();
      // a worker that did not start the pass is done once every reachable send function fired
      if (!this.isOrigin && !this.ended && this.fired.size === this.reachableSends.size) {
        this.end();
        engine.throwIfFailed();
      }
    } catch (e) {
      // this worker's share of the pass failed: free it; the caller reports the error onwards
      this.end();
      throw nodeError(e, this.host.workerId);
    }
    return inline;
  }

  /** An 'abort' arrived for this pass (Note [Failed passes]): end it here and pass the abort on. */
  abort(error: string): void {
    if (this.ended) return;
    this.end();
    this.broadcastAbort(error);
  }

  /**
   * The pass is over on this worker; gradients that still arrive for it are dropped (Note
   * [Failed passes]). Its engine run completes (a run cut short fails the leftovers check,
   * which nobody waits for any more), or, given the `error` the origin failed with, fails
   * without running its final callbacks.
   */
  end(error?: DistAutogradError): void {
    if (this.ended) return;
    this.ended = true;
    this.ctx.endedPasses.add(this.id);
    if (error) this.engine?.fail(error);
    else this.engine?.close();
    this.host.passEnded(this);
  }

  /**
   * A RecvRpcBackward's gradients, sent to the worker it came from, or put into the answer
   * being made for that worker (Note [Gradients ride on the answer]).
   */
  sendGradients(to: number, messageId: bigint, grads: Grads): void {
    const req: GradientsReq = {
      kind: 'grads',
      passId: this.id,
      metadata: { contextId: this.ctx.contextId, messageId },
      grads,
      retainGraph: this.engine?.keepGraph ?? false,
      ...(this.fires ? { fires: [...this.fires] } : {}),
    };
    if (this.answering?.to === to) {
      this.answering.out.push(req);
      return;
    }
    const releases = this.host.takeReleases(to); // See Note [Releases ride on the next message]
    this.outstanding.push(
      sendToWorker(to, MessageType.BACKWARD_AUTOGRAD_REQ, releases ? { ...req, releases } : req).then(
        async (answer) => {
          const inline = answer.type === MessageType.BACKWARD_AUTOGRAD_RESP ? (answer.payload.inline ?? []) : [];
          for (const r of inline) await this.receive(r, null);
        },
      ),
    );
  }

  /**
   * PyTorch's DistEngine::computeDependencies: the local engine run, over the local root (if
   * any) and every send function this pass reaches; its outputs are the leaves, whose
   * gradients go into the context (never `.grad`), and the RecvRpcBackward nodes, which send
   * gradients on. A hold keeps it open until the pass is over here.
   */
  private open(root: Node | null, retainGraph: boolean): DrivenPass {
    const sends = [...this.reachableSends];
    const engine = openPass({
      starts: root ? [root, ...sends] : sends,
      keepGraph: retainGraph,
      isOutput: (n) => n instanceof RecvRpcBackward,
      onLeafGrad: (variable, grad) => this.ctx.accumulateGrad(variable, grad),
    });
    engine.hold();
    this.engine = engine;
    return engine;
  }

  /** The pass fires the send functions whose message ids are in `fires` (Note [Firing sets]). */
  private setFires(fires: Set<bigint>): void {
    this.fires = fires;
    for (const [id, send] of this.ctx.sendFunctions()) if (fires.has(id)) this.reachableSends.add(send);
  }

  /** Runs `fn` (a synchronous engine run) with gradients for worker `to` collected into `out` instead of sent. */
  private answeringTo(to: number | null, out: GradientsReq[], fn: () => void): void {
    const outer = this.answering;
    this.answering = to === null ? null : { to, out };
    try {
      fn();
    } finally {
      this.answering = outer;
    }
  }

  /** Marks what `starts` reach on other workers, once per RecvRpcBackward; resolves when all nested marks are done. */
  private async markFrom(starts: readonly Node[]): Promise<void> {
    const fresh = reachableRecvs(starts).filter((r) => !this.markedRecvs.has(r));
    for (const r of fresh) this.markedRecvs.add(r);
    await Promise.all(
      fresh.map((r) =>
        send(r.fromWorkerId, {
          kind: 'mark',
          passId: this.id,
          metadata: { contextId: this.ctx.contextId, messageId: r.messageId },
        }),
      ),
    );
  }

  /** Waits for every gradient RPC of the pass, including ones started while waiting. */
  private async drain(): Promise<void> {
    for (let batch = this.outstanding.splice(0); batch.length > 0; batch = this.outstanding.splice(0))
      await Promise.all(batch);
  }

  /** Tells every worker the context talked to that the pass failed (Note [Failed passes]). */
  private broadcastAbort(error: string): void {
    for (const w of this.ctx.knownWorkerIds()) {
      void send(w, { kind: 'abort', passId: this.id, contextId: this.ctx.contextId, error }).catch(() => {});
    }
  }
}
