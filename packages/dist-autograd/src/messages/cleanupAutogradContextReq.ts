/** PyTorch's CleanupAutogradContextReq (CLEANUP_AUTOGRAD_CONTEXT_REQ); answered by an empty CLEANUP_AUTOGRAD_CONTEXT_RESP. */
export interface CleanupAutogradContextReq {
  contextId: bigint;
}
