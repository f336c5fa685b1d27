import type { RRef } from '@wiregrad/rpc';

/** PyTorch's RRefBackwardReq (RREF_BACKWARD_REQ): run backward on the owner from the RRef's tensor. */
export interface RRefBackwardReq {
  rref: RRef;
  /** -1: a local backward on the owner (PyTorch's default) */
  contextId: bigint | -1;
  retainGraph: boolean;
}
