import type { Handler } from './agent/agent.js';
import type { WorkerInfo } from './agent/workerInfo.js';
import type { Message } from './messages/message.js';
import type { MessageType } from './messages/messageType.js';

/**
 * Note [Autograd hooks]
 * @wiregrad/rpc knows nothing of autograd; @wiregrad/dist-autograd plugs in here:
 * - `onInit(rank)` runs before the agent serves its first request (the container is
 *   initialised with the worker id first, as in PyTorch's init_rpc);
 * - `wrapRequest` sees every outgoing user call and may wrap it (FORWARD_AUTOGRAD_REQ with
 *   AutogradMetadata when a context is current); `unwrapResponse` undoes that on the answer;
 * - `handlers` serve the message types rpc itself does not (FORWARD/BACKWARD_AUTOGRAD_REQ,
 *   CLEANUP_AUTOGRAD_CONTEXT_REQ, RREF_BACKWARD_REQ); they are installed on every agent.
 */
export interface RpcAutogradHooks {
  onInit?(rank: number, worldSize: number): void;
  onShutdown?(): void;
  wrapRequest?(to: WorkerInfo, msg: Omit<Message, 'id'>): Omit<Message, 'id'>;
  unwrapResponse?(from: WorkerInfo, msg: Message): Message;
  handlers?: Partial<Record<MessageType, Handler>>;
}

let hooks: RpcAutogradHooks = {};

export function setRpcAutogradHooks(h: RpcAutogradHooks): void {
  hooks = h;
}

export function rpcAutogradHooks(): RpcAutogradHooks {
  return hooks;
}
