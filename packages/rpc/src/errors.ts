export type RpcErrorCode =
  | 'TIMEOUT'
  | 'REMOTE'
  | 'UNKNOWN_WORKER'
  | 'NOT_INITIALIZED'
  | 'ALREADY_INITIALIZED'
  | 'SHUTDOWN'
  | 'PROTOCOL'
  | 'INVALID_ARGUMENT'
  | 'UNKNOWN_FUNCTION'
  | 'PEER_DISCONNECTED'
  | 'RENDEZVOUS'
  | 'RREF'
  | 'DEVICE_MAP'
  | 'FUTURE'
  | 'MESSAGE_TOO_LARGE'
  | 'ALREADY_INSTALLED'
  | 'AUTH'
  | 'DROPPED';

/** Every failure of @wiregrad/rpc reaches the caller as an RpcError with a code. */
export class RpcError extends Error {
  override name = 'RpcError';
  /** the stack of the error on the worker that raised it (code REMOTE) */
  remoteStack?: string;
  /**
   * the id of the message a PROTOCOL error is about, once decoding got that far: the agent
   * answers EXCEPTION to that call (a request) or fails that call (a response)
   */
  messageId?: number;

  constructor(
    readonly code: RpcErrorCode,
    message: string,
    options?: { messageId?: number },
  ) {
    super(message);
    if (options?.messageId !== undefined) this.messageId = options.messageId;
  }
}

export const NOT_INITIALIZED_MESSAGE = 'RPC has not been initialized. Call initRpc first.';

export function timeoutError(ms: number): RpcError {
  return new RpcError('TIMEOUT', `RPC ran for more than set timeout (${ms} ms) and will now be marked with an error`);
}
