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
  | 'MESSAGE_TOO_LARGE';

/** Every failure of @wiregrad/rpc reaches the caller as an RpcError with a code. */
export class RpcError extends Error {
  override name = 'RpcError';
  /** the stack of the error on the worker that raised it (code REMOTE) */
  remoteStack?: string;

  constructor(
    readonly code: RpcErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const NOT_INITIALIZED_MESSAGE = 'RPC has not been initialized. Call initRpc first.';

export function timeoutError(ms: number): RpcError {
  return new RpcError('TIMEOUT', `RPC ran for more than set timeout (${ms} ms) and will now be marked with an error`);
}
