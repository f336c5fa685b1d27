import type { Tensor } from '@wiregrad/tensor';
import type { AutogradMetadata } from './autogradMetadata.js';

/**
 * PyTorch's PropagateGradientsReq (BACKWARD_AUTOGRAD_REQ), for one backward pass (`passId`):
 * the gradients for a send function ('grads'), the reachability round that precedes them
 * when the firing set is unknown ('mark', Note [No hang on unused outputs]), or the end of a
 * pass that failed ('abort', Note [Failed passes]). Each kind carries its own fields only.
 */
export type PropagateGradientsReq = GradientsReq | MarkReq | AbortReq;

interface PassMessage {
  passId: string;
  /** contexts the sender released, riding on this request (Note [Releases ride on the next message]) */
  releases?: bigint[];
}

/** The gradients for the send function `metadata.messageId` on the receiver, and whether to keep the graph. */
export interface GradientsReq extends PassMessage {
  kind: 'grads';
  metadata: AutogradMetadata;
  grads: (Tensor | null)[];
  retainGraph: boolean;
  /** the message ids of every send function this pass fires (Note [Firing sets]); absent after a mark round */
  fires?: bigint[];
}

/** Mark the send function `metadata.messageId` as reached, and walk on from it. */
export interface MarkReq extends PassMessage {
  kind: 'mark';
  metadata: AutogradMetadata;
}

/** The pass failed with `error`: drop it in context `contextId`, and tell the workers it involved. */
export interface AbortReq extends PassMessage {
  kind: 'abort';
  contextId: bigint;
  error: string;
}
