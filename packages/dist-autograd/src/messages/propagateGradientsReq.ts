import type { Tensor } from '@wiregrad/tensor';
import type { AutogradMetadata } from './autogradMetadata.js';

/**
 * PyTorch's PropagateGradientsReq (BACKWARD_AUTOGRAD_REQ): the gradients for the send
 * function `metadata.messageId` on the receiver, and whether to keep the graph. `passId`
 * names the backward pass; `kind` 'mark' is the reachability round that precedes it
 * (Note [No hang on unused outputs]) and 'abort' tells a worker a pass failed.
 */
export interface PropagateGradientsReq {
  kind: 'grads' | 'mark' | 'abort';
  passId: string;
  metadata: AutogradMetadata;
  grads: (Tensor | null)[];
  retainGraph: boolean;
  error?: string;
  /** the message ids of every send function this pass fires (Note [Firing sets]); absent after a mark round */
  fires?: bigint[];
  /** contexts the sender released, riding on this request (Note [Releases ride on the next message]) */
  releases?: bigint[];
}
