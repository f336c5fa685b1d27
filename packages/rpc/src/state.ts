import type { Agent } from './agent/agent.js';
import type { WorkerInfo } from './agent/workerInfo.js';
import type { RendezvousStore } from './rendezvous/store.js';
import { NOT_INITIALIZED_MESSAGE, RpcError } from './errors.js';

/** The module-level RPC state of this worker (one per process or worker_threads thread, as in PyTorch). */
export interface RpcState {
  agent: Agent;
  self: WorkerInfo;
  /** joined without a worldSize: shutdown() leaves instead of waiting at a barrier (Note [Membership]) */
  dynamic: boolean;
  /** the rendezvous store, on rank 0 (Note [Rendezvous]) */
  store: RendezvousStore | null;
  /** default timeout for new calls, in ms; 0 = none */
  defaultTimeoutMs: number;
  shuttingDown: boolean;
}

let state: RpcState | null = null;

export function rpcState(): RpcState {
  if (!state) throw new RpcError('NOT_INITIALIZED', NOT_INITIALIZED_MESSAGE);
  return state;
}

export function maybeRpcState(): RpcState | null {
  return state;
}

export function setRpcState(s: RpcState | null): void {
  state = s;
}

/** Seconds (0 = none, undefined = the default) to milliseconds. */
export function timeoutMs(seconds: number | undefined): number {
  if (seconds === undefined) return rpcState().defaultTimeoutMs;
  if (typeof seconds !== 'number' || !(seconds >= 0))
    throw new RpcError('INVALID_ARGUMENT', `timeout must be a non-negative number of seconds, got ${String(seconds)}`);
  return seconds * 1000;
}
