import { MessageType, onWorkerLeave, setRRefBackward, setRpcAutogradHooks } from '@wiregrad/rpc/internal';
import { onForwardRequest, unwrapResponse, wrapRequest } from './forward/forwardHooks.js';
import './messages/payloads.js';
import { onPropagateGradients } from './pass/distEngine.js';
import { rrefBackward } from './pass/rrefBackward.js';
import { disposeWorker, getWorker, initWorker, maybeWorker } from './workerState.js';

// See Note [RPC autograd hooks] in @wiregrad/rpc: distributed autograd plugs into every agent here.
setRpcAutogradHooks({
  onInit: (rank) => initWorker(rank),
  beforeShutdown: () => maybeWorker()?.releases.flush(),
  onShutdown: disposeWorker,
  wrapRequest,
  unwrapResponse,
  handlers: {
    [MessageType.FORWARD_AUTOGRAD_REQ]: onForwardRequest,
    [MessageType.BACKWARD_AUTOGRAD_REQ]: async (msg, from) => {
      // See Note [Gradients ride on the answer] and Note [Releases ride on the next message]
      const req = msg.payload;
      getWorker().releases.arrived(req.releases, from.id);
      const inline = await onPropagateGradients(req, from.id);
      return { type: MessageType.BACKWARD_AUTOGRAD_RESP, payload: inline.length > 0 ? { inline } : {} };
    },
    [MessageType.CLEANUP_AUTOGRAD_CONTEXT_REQ]: async (msg, from) => {
      await maybeWorker()?.releases.releaseIfPresent(msg.payload.contextIds, from.id);
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
onWorkerLeave((info) => maybeWorker()?.forgetWorker(info));
