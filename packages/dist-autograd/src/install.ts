import { Tensor } from '@wiregrad/autograd';
import { MessageType, type RRef, onWorkerLeave, setRRefBackward, setRpcAutogradHooks } from '@wiregrad/rpc/internal';
import { sendToWorker } from './sendToWorker.js';
import { forgetWorker } from './workerGone.js';
import {
  flushReleases,
  releaseArrived,
  releaseContextsIfPresent,
  resetReleases,
  startSweeper,
  stopSweeper,
} from './cleanup.js';
import { initContainer, resetContainer } from './context/container.js';
import { backward, onPropagateGradients } from './engine/distEngine.js';
import { DistAutogradError } from './errors.js';
import { onForwardRequest, unwrapResponse, wrapRequest } from './forwardHooks.js';
import './messages/payloads.js';
import type { RRefBackwardReq } from './messages/rrefBackwardReq.js';

/** PyTorch's RRef.backward: the owner runs it (locally for contextId -1), a user asks the owner. */
async function rrefBackward(rref: RRef, contextId: bigint | -1, retainGraph: boolean): Promise<void> {
  if (!rref.isOwner()) {
    if (contextId === -1)
      throw new DistAutogradError('INVALID_ROOT', "User RRefs require 'dist_autograd_ctx_id' to be specified");
    const payload: RRefBackwardReq = { rref, contextId, retainGraph };
    await sendToWorker(rref.ownerId, MessageType.RREF_BACKWARD_REQ, payload);
    return;
  }
  const value = await rref.toHere(); // on the owner: its own value, once the creating call finished
  if (!(value instanceof Tensor))
    throw new DistAutogradError('INVALID_ROOT', 'RRef should contain a tensor for .backward()');
  if (contextId === -1) value.backward(undefined, { retainGraph });
  else await backward(contextId, [value], { retainGraph });
}

// See Note [RPC autograd hooks] in @wiregrad/rpc: distributed autograd plugs into every agent here.
setRpcAutogradHooks({
  onInit: (rank) => {
    initContainer(rank);
    startSweeper();
  },
  beforeShutdown: flushReleases,
  onShutdown: () => {
    stopSweeper();
    resetReleases();
    resetContainer();
  },
  wrapRequest,
  unwrapResponse,
  handlers: {
    [MessageType.FORWARD_AUTOGRAD_REQ]: onForwardRequest,
    [MessageType.BACKWARD_AUTOGRAD_REQ]: async (msg, from) => {
      // See Note [Gradients ride on the answer] and Note [Releases ride on the next message]
      const req = msg.payload;
      releaseArrived(req.releases, from.id);
      const inline = await onPropagateGradients(req, from.id);
      return { type: MessageType.BACKWARD_AUTOGRAD_RESP, payload: inline.length > 0 ? { inline } : {} };
    },
    [MessageType.CLEANUP_AUTOGRAD_CONTEXT_REQ]: async (msg, from) => {
      await releaseContextsIfPresent(msg.payload.contextIds, from.id);
      return { type: MessageType.CLEANUP_AUTOGRAD_CONTEXT_RESP, payload: {} };
    },
    [MessageType.RREF_BACKWARD_REQ]: async (msg) => {
      const { rref, contextId, retainGraph } = msg.payload;
      try {
        await rrefBackward(rref, contextId, retainGraph);
      } finally {
        await rref.release();
      }
      return { type: MessageType.RREF_BACKWARD_RESP, payload: {} };
    },
  },
});
setRRefBackward(rrefBackward);
onWorkerLeave((info) => forgetWorker(info));
