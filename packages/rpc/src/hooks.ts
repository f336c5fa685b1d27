import type { Handler } from './agent/agent.js';
import type { WorkerInfo } from './agent/workerInfo.js';
import type { Message } from './messages/message.js';
import type { MessageType } from './messages/messageType.js';

/**
 * Note [RPC autograd hooks]
 * @wiregrad/rpc knows nothing of autograd; @wiregrad/dist-autograd plugs in here, once, with
 * `setRpcAutogradHooks(hooks)`:
 * - `onInit(rank, worldSize)` runs inside initRpc before the agent binds, so before it can
 *   serve a first request (PyTorch's init_rpc calls dist_autograd._init(rank) first);
 *   `onShutdown()` runs after shutdown() closed every socket.
 * - `wrapRequest(to, msg)` sees every user request this worker sends (calls, remote calls,
 *   RRef fetches) and may return another message, e.g. FORWARD_AUTOGRAD_REQ carrying
 *   AutogradMetadata and the original type and payload. `unwrapResponse(from, msg)` sees the
 *   answer before the caller does and undoes the wrapping (FORWARD_AUTOGRAD_RESP). RRef
 *   control messages and the shutdown barrier never pass through these two.
 * - `handlers` answer the request types rpc does not serve itself (FORWARD_AUTOGRAD_REQ,
 *   BACKWARD_AUTOGRAD_REQ, CLEANUP_AUTOGRAD_CONTEXT_REQ, RREF_BACKWARD_REQ); they are
 *   installed on every agent at initRpc. A handler receives the decoded message and the
 *   sender, and returns the response; a throw becomes an EXCEPTION answer.
 * Two agent methods complete the contract: `rpcState().agent.dispatch(msg, from)` runs the
 * handler of an unwrapped request (what a FORWARD_AUTOGRAD_REQ handler does with its inner
 * call), and `rpcState().agent.send(to, msg, timeoutMs)` sends a request of any type without
 * the hooks (gradients, cleanup) and resolves with the response; an EXCEPTION rejects.
 */
export interface RpcAutogradHooks {
  onInit?(rank: number, worldSize: number): void;
  onShutdown?(): void;
  wrapRequest?(to: WorkerInfo, msg: Omit<Message, 'id'>): Omit<Message, 'id'>;
  unwrapResponse?(from: WorkerInfo, msg: Message): Message;
  handlers?: Partial<Record<MessageType, Handler>>;
}

let hooks: RpcAutogradHooks = {};

/** Installs the distributed autograd hooks (replacing any installed before). See Note [RPC autograd hooks]. */
export function setRpcAutogradHooks(h: RpcAutogradHooks): void {
  hooks = h;
}

export function rpcAutogradHooks(): RpcAutogradHooks {
  return hooks;
}
