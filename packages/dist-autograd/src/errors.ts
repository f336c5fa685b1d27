export type DistAutogradErrorCode =
  'NO_CONTEXT' | 'NESTED_CONTEXT' | 'INVALID_ROOT' | 'ID_OVERFLOW' | 'BACKWARD' | 'NOT_INITIALIZED' | 'OPTIMIZER';

export class DistAutogradError extends Error {
  override readonly name = 'DistAutogradError';
  /** `cause`: the error underneath (an RpcError keeps its code there, e.g. PEER_DISCONNECTED) */
  constructor(
    readonly code: DistAutogradErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
