import { RpcError } from './errors.js';
import { rpcState } from './state.js';

/** The default timeout of calls, in seconds (torch.distributed.rpc.get_rpc_timeout). */
export function getRpcTimeout(): number {
  return rpcState().defaultTimeoutMs / 1000;
}

/** Changes the default timeout for calls made from now on (in-flight calls keep theirs). */
export function setRpcTimeout(seconds: number): void {
  const s = rpcState();
  if (typeof seconds !== 'number' || !(seconds >= 0))
    throw new RpcError('INVALID_ARGUMENT', `timeout must be a non-negative number of seconds, got ${String(seconds)}`);
  s.defaultTimeoutMs = seconds * 1000;
}
