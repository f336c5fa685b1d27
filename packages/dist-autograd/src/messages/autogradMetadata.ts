/** PyTorch's AutogradMetadata: which context and which send/recv pair a message belongs to. */
export interface AutogradMetadata {
  contextId: bigint;
  messageId: bigint;
}
