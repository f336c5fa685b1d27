/** PyTorch's PropagateGradientsResp (BACKWARD_AUTOGRAD_RESP): empty; it arrives once the receiver's share of the pass is done. */
export type PropagateGradientsResp = Record<string, never>;
