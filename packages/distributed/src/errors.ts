export type DistributedErrorCode =
  | 'NOT_INITIALIZED'
  | 'ALREADY_INITIALIZED'
  | 'MISSING_ENV'
  | 'INVALID_ARGUMENT'
  | 'NOT_A_MEMBER'
  | 'MISMATCH'
  | 'PEER_GONE'
  | 'DESTROYED'
  | 'NOT_READY'
  | 'UNFINISHED_REDUCTION'
  | 'NEEDS_BACKWARD_ASYNC';

/** Every failure of @wiregrad/distributed reaches the caller as a DistributedError with a code. */
export class DistributedError extends Error {
  override readonly name = 'DistributedError';
  /** `cause`: the error underneath (an RpcError keeps its code there, e.g. PEER_DISCONNECTED) */
  constructor(
    readonly code: DistributedErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
