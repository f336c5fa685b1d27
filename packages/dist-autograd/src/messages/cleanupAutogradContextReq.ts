/**
 * PyTorch's CleanupAutogradContextReq (CLEANUP_AUTOGRAD_CONTEXT_REQ), for any number of
 * contexts (PyTorch sends one per context): the releases nothing carried in time (Note
 * [Releases ride on the next message]), or the one `releaseContext()` asks for. Answered by an
 * empty CLEANUP_AUTOGRAD_CONTEXT_RESP once the receiver has passed the releases on.
 */
export interface CleanupAutogradContextReq {
  contextIds: bigint[];
}
