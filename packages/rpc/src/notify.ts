import type { WorkerInfo } from './agent/workerInfo.js';
import { type To, resolveWorker } from './call.js';
import { RpcError } from './errors.js';
import { functionName, lookupFunction } from './registry.js';
import { rpcState } from './state.js';

export interface NotifyOptions {
  /** the receiver confirms it at once: the promise resolves a one-way trip sooner than a batched receipt would */
  confirm?: boolean;
}

/**
 * Runs registered function `fn` on `to` with `args`, one-way (Note [One-way messages]): no
 * answer, no return value, and an error there is only logged there. Resolves once `to` has run
 * it (its receipt came back); rejects when `to` is unknown, gone or unreachable. `fn` runs in
 * the receiver's receive loop, so it must be synchronous and cheap (collectives drop a chunk
 * into a mailbox). Exactly once, across connection resets, as calls are.
 */
export function notify(to: To, fn: unknown, args: unknown[], opts: NotifyOptions = {}): Promise<void> {
  try {
    const { agent } = rpcState();
    return agent.notify(resolveWorker(to), { fn: functionName(fn), args, confirm: opts.confirm ?? false });
  } catch (e) {
    return Promise.reject(e);
  }
}

/** Runs a NOTIFY that arrived (AgentOptions.onNotify): its registered function, or a logged error. */
export function runNotified(from: WorkerInfo, fn: string, args: unknown[], log: (e: RpcError) => void): void {
  const f = lookupFunction(fn);
  try {
    if (!f) throw new RpcError('UNKNOWN_FUNCTION', `NOTIFY from ${from}: no function is registered as '${fn}'`);
    f(...args);
  } catch (e) {
    log(e instanceof RpcError ? e : new RpcError('REMOTE', `NOTIFY ${fn} from ${from} threw: ${(e as Error).message}`));
  }
}
