import type { Handlers } from './agent/agent.js';
import { installOnce as installSlot } from '@wiregrad/tensor/internal';
import { RpcError } from './errors.js';
import type { WorkerInfo } from './agent/workerInfo.js';
import type { Message, OutgoingMessage } from './messages/message.js';

/**
 * Note [RPC autograd hooks]
 * @wiregrad/rpc knows nothing of autograd; @wiregrad/dist-autograd plugs in here, once, with
 * `setRpcAutogradHooks(hooks)`:
 * - `onInit(rank, worldSize)` runs inside initRpc before the agent binds, so before it can
 *   serve a first request (PyTorch's init_rpc calls dist_autograd._init(rank) first);
 *   `beforeShutdown()` runs when a graceful shutdown() begins, before this worker's calls
 *   settle, so messages it sends then are waited for (deferred context releases);
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
  beforeShutdown?(): void;
  onShutdown?(): void;
  wrapRequest?(to: WorkerInfo, msg: OutgoingMessage): OutgoingMessage;
  unwrapResponse?(from: WorkerInfo, msg: Message): Message;
  handlers?: Handlers;
}

const NO_HOOKS: RpcAutogradHooks = {};
let hooks: RpcAutogradHooks | null = null;

/**
 * Installs the distributed autograd hooks, once (See Note [RPC autograd hooks]): installing the
 * same hooks again is a no-op, other hooks throw ALREADY_INSTALLED (Note [Hook slots install once]
 * in @wiregrad/tensor).
 */
export function setRpcAutogradHooks(h: RpcAutogradHooks): void {
  hooks = installOnce('setRpcAutogradHooks', 'the distributed autograd hooks', hooks, h);
}

export function rpcAutogradHooks(): RpcAutogradHooks {
  return hooks ?? NO_HOOKS;
}

/** Fills an install-once slot, with RpcError ALREADY_INSTALLED on a conflict (See Note [Hook slots install once] in @wiregrad/tensor). */
export function installOnce<T extends object>(slot: string, what: string, installed: T | null, next: T): T {
  return installSlot(slot, what, installed, next, (message) => new RpcError('ALREADY_INSTALLED', message));
}
