import type { GradientsReq } from './propagateGradientsReq.js';

/**
 * PyTorch's PropagateGradientsResp (BACKWARD_AUTOGRAD_RESP): it arrives once the receiver's
 * share of the pass is done, with the gradients the receiver had for the sender (Note
 * [Gradients ride on the answer]); empty when it had none.
 */
export interface PropagateGradientsResp {
  inline?: GradientsReq[];
}
