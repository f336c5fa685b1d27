import { Tensor } from '@wiregrad/autograd';
import type { DistAutogradContext } from '../context/context.js';
import { DistAutogradError } from '../errors.js';
import type { GradientsReq, PropagateGradientsReq } from '../messages/propagateGradientsReq.js';
import { type DistAutogradWorker, getWorker } from '../workerState.js';
import { BackwardPass } from './backwardPass.js';

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

/** Distributed backward from scalar `roots` in context `contextId` (PyTorch's DistEngine::execute). */
export async function backward(
  contextId: bigint,
  roots: Tensor[],
  opts: { retainGraph?: boolean } = {},
): Promise<void> {
  validateRoots(roots);
  const worker = getWorker();
  const ctx = worker.container.retrieveContext(contextId);
  if (worker.passes.has(contextId))
    throw new DistAutogradError('BACKWARD', `a backward pass is already running in autograd context ${contextId}`);
  const pass = passFor(worker, ctx, `${worker.workerId}:${worker.container.newMessageId()}`);
  await pass.runFromRoots(roots, opts.retainGraph ?? false);
}

/** The pass `id` of a context, created on first sight (a new id replaces a finished pass). */
function passFor(worker: DistAutogradWorker, ctx: DistAutogradContext, id: string): BackwardPass {
  let pass = worker.passes.get(ctx.contextId);
  if (pass?.id !== id) worker.passes.set(ctx.contextId, (pass = new BackwardPass(id, ctx, worker)));
  ctx.touch();
  return pass;
}

/**
 * The BACKWARD_AUTOGRAD_REQ handler: marks, gradients or an abort for one pass. `from` is the
 * worker that sent them (gradients for it go into the answer, which this returns: Note
 * [Gradients ride on the answer]).
 */
export async function onPropagateGradients(req: PropagateGradientsReq, from: number): Promise<GradientsReq[]> {
  const worker = getWorker();
  if (req.kind === 'abort') {
    const ctx = worker.container.retrieveContext(req.contextId);
    const pass = worker.passes.get(ctx.contextId);
    if (pass?.id === req.passId) pass.abort(req.error);
    ctx.endedPasses.add(req.passId);
    return [];
  }
  const ctx = worker.container.retrieveContext(req.metadata.contextId);
  if (ctx.endedPasses.has(req.passId)) return []; // a straggler of a pass that already ended here
  const pass = passFor(worker, ctx, req.passId);
  if (req.kind === 'grads') return pass.receive(req, from);
  const sendFn = ctx.sendFunction(req.metadata.messageId);
  if (!sendFn)
    throw new DistAutogradError(
      'BACKWARD',
      `no send function for message ${req.metadata.messageId} in autograd context ${ctx.contextId}`,
    );
  await pass.mark(sendFn);
  return [];
}
