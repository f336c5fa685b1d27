import { Tensor, onesLike, type Node } from '@wiregrad/autograd';
import { GraphRoot, gradientEdge } from '@wiregrad/autograd/internal';
import { MessageType, getWorkerInfo } from '@wiregrad/rpc/internal';
import { sendToWorker } from '../sendToWorker.js';
import { getContainer } from '../context/container.js';
import type { BackwardPass, DistAutogradContext } from '../context/context.js';
import { DistAutogradError } from '../errors.js';
import type { PropagateGradientsReq } from '../messages/propagateGradientsReq.js';
import { buildGraphTask, ensurePass, finishGraphTask, reachableRecvs } from './backwardPass.js';
import { firingSet } from './firingSet.js';
import { collectingFor, setGradientReceiver } from './gradientMessages.js';

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
 */
function send(to: number, payload: PropagateGradientsReq): Promise<unknown> {
  return sendToWorker(to, MessageType.BACKWARD_AUTOGRAD_REQ, payload);
}

/** Marks what `starts` reach on other workers, once per RecvRpcBackward; resolves when all nested marks are done. */
async function markFrom(ctx: DistAutogradContext, pass: BackwardPass, starts: readonly Node[]): Promise<void> {
  const fresh = reachableRecvs(starts).filter((r) => !pass.markedRecvs.has(r));
  for (const r of fresh) pass.markedRecvs.add(r);
  await Promise.all(
    fresh.map((r) =>
      send(r.fromWorkerId, {
        kind: 'mark',
        passId: pass.id,
        metadata: { contextId: ctx.contextId, messageId: r.messageId },
        grads: [],
        retainGraph: false,
      }),
    ),
  );
}

/** Waits for every gradient RPC of the pass, including ones started while waiting. */
async function drain(pass: BackwardPass): Promise<void> {
  for (let batch = pass.outstanding.splice(0); batch.length > 0; batch = pass.outstanding.splice(0))
    await Promise.all(batch);
}

function nodeError(e: unknown): DistAutogradError {
  const message = e instanceof Error ? e.message : String(e);
  if (/Error on Node \d+:/.test(message)) return new DistAutogradError('BACKWARD', message);
  return new DistAutogradError('BACKWARD', `Error on Node ${getWorkerInfo().id}: ${message}`);
}

function checkTask(pass: BackwardPass): void {
  pass.graphTask?.throwIfFailed();
}

function validateRoots(roots: readonly Tensor[]): void {
  if (!Array.isArray(roots) || roots.length === 0)
    throw new DistAutogradError('INVALID_ROOT', 'No tensors provided for gradient computation.');
  roots.forEach((t, i) => {
    if (!(t instanceof Tensor)) throw new DistAutogradError('INVALID_ROOT', `root ${i} is not a Tensor`);
    if (!t.requiresGrad) throw new DistAutogradError('INVALID_ROOT', `requires_grad not set on root ${i}`);
    if (t.numel !== 1)
      throw new DistAutogradError(
        'INVALID_ROOT',
        `root ${i} of shape [${t.shape.join(', ')}] is not a scalar, all roots need to be scalar`,
      );
    if (!t.gradFn) throw new DistAutogradError('INVALID_ROOT', `root ${i} does not have a valid gradient function.`);
  });
}

/**
 * Note [Failed passes]
 * In PyTorch a failed distributed backward only reaches the caller; the other workers keep
 * their half-run GraphTasks (pytorch#27643). Here the error reaches the caller as
 * "Error on Node <id>: ..." (each hop keeps the first node's prefix), and the origin tells
 * every worker the context talked to to drop the pass ('abort', forwarded transitively), so
 * every participant frees it and the next pass in the context starts clean.
 */
function broadcastAbort(ctx: DistAutogradContext, passId: string, error: unknown): void {
  for (const w of ctx.knownWorkerIds()) {
    void send(w, {
      kind: 'abort',
      passId,
      metadata: { contextId: ctx.contextId, messageId: 0n },
      grads: [],
      retainGraph: false,
      error: String(error),
    }).catch(() => {});
  }
}

/** Distributed backward from scalar `roots` in context `contextId` (PyTorch's DistEngine::execute). */
export async function backward(
  contextId: bigint,
  roots: Tensor[],
  opts: { retainGraph?: boolean } = {},
): Promise<void> {
  validateRoots(roots);
  const container = getContainer();
  const ctx = container.retrieveContext(contextId);
  if (ctx.pass)
    throw new DistAutogradError('BACKWARD', `a backward pass is already running in autograd context ${contextId}`);
  const pass = ensurePass(ctx, `${container.workerId}:${container.newMessageId()}`);
  try {
    const rootNodes = roots.map((t) => t.gradFn as Node);
    const fires = firingSet(rootNodes);
    if (fires) ctx.setFires(pass, new Set(fires));
    else await markFrom(ctx, pass, rootNodes); // see Note [Firing sets]: unknown somewhere, so ask
    const root = new GraphRoot(
      roots.map((t) => gradientEdge(t)),
      roots.map((t) => onesLike(t)),
    );
    const task = buildGraphTask(ctx, pass, root, opts.retainGraph ?? false);
    task.run(root);
    checkTask(pass);
    await drain(pass);
    checkTask(pass);
    finishGraphTask(task);
    checkTask(pass);
  } catch (e) {
    const err = nodeError(e);
    broadcastAbort(ctx, pass.id, err.message);
    throw err;
  } finally {
    endPass(ctx, pass);
  }
}

/** The pass is over on this worker (Note [Failed passes]): gradients that still arrive for it are dropped. */
function endPass(ctx: DistAutogradContext, pass: BackwardPass): void {
  ctx.endedPasses.add(pass.id);
  if (ctx.pass === pass) ctx.pass = null;
}

/**
 * The BACKWARD_AUTOGRAD_REQ handler: marks, gradients or an abort for one pass. `from` is the
 * worker that sent them as a request (gradients for it go into the answer, which this returns:
 * Note [Gradients ride on the answer]); null for gradients that arrived inside an answer.
 */
export async function onPropagateGradients(
  req: PropagateGradientsReq,
  from: number | null,
): Promise<PropagateGradientsReq[]> {
  const inline: PropagateGradientsReq[] = [];
  const container = getContainer();
  const ctx = container.retrieveContext(req.metadata.contextId);
  if (req.kind === 'abort') {
    if (ctx.pass?.id === req.passId) {
      const task = ctx.pass.graphTask;
      endPass(ctx, ctx.pass);
      if (task && !task.completed) finishGraphTask(task);
      broadcastAbort(ctx, req.passId, req.error);
    }
    ctx.endedPasses.add(req.passId);
    return inline;
  }
  if (ctx.endedPasses.has(req.passId)) return inline; // a straggler of a pass that already ended here
  const pass = ensurePass(ctx, req.passId);
  const sendFn = ctx.sendFunction(req.metadata.messageId);
  if (!sendFn)
    throw new DistAutogradError(
      'BACKWARD',
      `no send function for message ${req.metadata.messageId} in autograd context ${ctx.contextId}`,
    );
  if (req.kind === 'mark') {
    if (pass.reachableSends.has(sendFn)) return inline;
    pass.reachableSends.add(sendFn);
    await markFrom(ctx, pass, [sendFn]);
    return inline;
  }
  try {
    if (req.fires && !pass.fires) ctx.setFires(pass, new Set(req.fires));
    if (!pass.graphTask) buildGraphTask(ctx, pass, null, req.retainGraph);
    const task = pass.graphTask!;
    sendFn.setGrads(req.grads);
    pass.fired.add(sendFn);
    collectingFor(from, inline, () => {
      task.run(sendFn);
    });
    checkTask(pass);
    await drain(pass);
    checkTask(pass);
    // a worker that did not start the pass is done once every reachable send function fired
    const isOrigin = req.passId.startsWith(`${container.workerId}:`);
    if (!isOrigin && ctx.pass === pass && pass.fired.size === pass.reachableSends.size) {
      endPass(ctx, pass);
      finishGraphTask(task);
      checkTask(pass);
    }
  } catch (e) {
    // this worker's share of the pass failed: free it; the caller reports the error onwards
    endPass(ctx, pass);
    if (pass.graphTask && !pass.graphTask.completed) finishGraphTask(pass.graphTask);
    throw nodeError(e);
  }
  return inline;
}

setGradientReceiver((req) => onPropagateGradients(req, null));
