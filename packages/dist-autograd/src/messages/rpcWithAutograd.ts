import type { MessageType } from '@wiregrad/rpc/internal';
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
  /**
   * the message ids whose send functions receive gradients whenever this message's send
   * function does (Note [Firing sets]); null when unknown; absent when no tensor requires grad
   */
  reaches?: bigint[] | null;
  /** contexts the sender released, riding on this request (Note [Releases ride on the next message]) */
  releases?: bigint[];
}
