import type { MessageType } from '@wiregrad/rpc';
import type { AutogradMetadata } from './autogradMetadata.js';

/**
 * PyTorch's RpcWithAutograd: FORWARD_AUTOGRAD_REQ / FORWARD_AUTOGRAD_RESP wrap a call or
 * its answer with the sender's id, the wrapped type and the AutogradMetadata.
 */
export interface RpcWithAutograd {
  fromWorkerId: number;
  wrappedType: MessageType;
  metadata: AutogradMetadata;
  payload: unknown;
}
