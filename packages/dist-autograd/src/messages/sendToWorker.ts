import { type Message, type MessageType, type PayloadOf, RpcError, outgoing, rpcState } from '@wiregrad/rpc/internal';

/**
 * Note [Reaching a worker]
 * Every message distributed autograd sends on its own (gradients, marks, aborts, context
 * cleanup, RRef backward) goes through here: the worker is looked up by id among the live
 * members, and the one failure mode is a rejected promise with an RpcError:
 * PEER_DISCONNECTED naming the worker when it left or died (Note [Membership] in
 * @wiregrad/rpc), UNKNOWN_WORKER when it never was a member, NOT_INITIALIZED / SHUTDOWN
 * when this worker is not (or no longer) in a group. Nothing throws synchronously, and no
 * caller sends to a worker that is gone.
 */
export function sendToWorker<T extends MessageType>(
  workerId: number,
  type: T,
  payload: PayloadOf<T>,
  timeoutMs?: number,
): Promise<Message> {
  try {
    const { agent, defaultTimeoutMs } = rpcState();
    const info = agent.workerInfoById(workerId);
    if (!info)
      throw agent.departure(workerId) ?? new RpcError('UNKNOWN_WORKER', `Unknown destination worker rank ${workerId}`);
    return agent.send(info, outgoing(type, payload), timeoutMs ?? defaultTimeoutMs);
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The worker is gone or this worker left the group: retrying cannot help. */
export function isFinal(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'PEER_DISCONNECTED' || code === 'UNKNOWN_WORKER' || code === 'SHUTDOWN' || code === 'NOT_INITIALIZED';
}
