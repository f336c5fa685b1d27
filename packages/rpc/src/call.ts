import { WorkerInfo } from './agent/workerInfo.js';
import { RpcError } from './errors.js';
import { rpcAutogradHooks } from './hooks.js';
import type { Message, OutgoingMessage } from './messages/message.js';
import { rpcState } from './state.js';

export type To = string | number | WorkerInfo;

/** PyTorch's `to` argument: a name, a rank, or a WorkerInfo. */
export function resolveWorker(to: To): WorkerInfo {
  const { agent } = rpcState();
  if (to instanceof WorkerInfo) {
    const known = agent.workerInfo(to.name);
    if (!known || known.id !== to.id)
      throw agent.departure(to.id) ?? new RpcError('UNKNOWN_WORKER', `Unknown destination worker ${to.name}`);
    return known;
  }
  if (typeof to === 'number') {
    if (!Number.isInteger(to)) throw new RpcError('INVALID_ARGUMENT', `worker rank must be an integer, got ${to}`);
    const info = agent.workerInfoById(to);
    if (!info)
      throw (
        agent.departure(to) ??
        new RpcError(
          'UNKNOWN_WORKER',
          `Unknown destination worker rank ${to} (world size ${agent.workerInfos().length})`,
        )
      );
    return info;
  }
  if (typeof to === 'string') {
    const info = agent.workerInfo(to);
    if (!info) throw agent.departure(to) ?? new RpcError('UNKNOWN_WORKER', `Unknown destination worker ${to}`);
    return info;
  }
  throw new RpcError('INVALID_ARGUMENT', `'to' must be a worker name, rank or WorkerInfo, got ${typeof to}`);
}

/** Sends a user request through the autograd hooks (Note [RPC autograd hooks]) and returns the unwrapped answer. */
export function request(to: WorkerInfo, msg: OutgoingMessage, timeoutMs: number): Promise<Message> {
  const hooks = rpcAutogradHooks();
  let answer: Promise<Message>;
  try {
    answer = rpcState().agent.send(to, hooks.wrapRequest ? hooks.wrapRequest(to, msg) : msg, timeoutMs);
  } catch (e) {
    return Promise.reject(e);
  }
  const unwrap = hooks.unwrapResponse;
  return unwrap ? answer.then((response) => unwrap(to, response)) : answer;
}
