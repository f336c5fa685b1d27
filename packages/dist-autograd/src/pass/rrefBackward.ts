import { Tensor } from '@wiregrad/autograd';
import { MessageType, type RRef } from '@wiregrad/rpc/internal';
import { DistAutogradError } from '../errors.js';
import { sendToWorker } from '../messages/sendToWorker.js';
import type { RRefBackwardReq } from '../messages/rrefBackwardReq.js';
import { backward } from './distEngine.js';

/** PyTorch's RRef.backward: the owner runs it (locally for contextId -1), a user asks the owner. */
export async function rrefBackward(rref: RRef, contextId: bigint | -1, retainGraph: boolean): Promise<void> {
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
