import {
  type Message,
  MessageType,
  type OutgoingMessage,
  type WorkerInfo,
  getWorkerInfo,
  outgoing,
  rpcState,
} from '@wiregrad/rpc/internal';
import type { DistAutogradContext } from '../context/context.js';
import { RecvRpcBackward } from '../functions/recvRpcBackward.js';
import { SendRpcBackward } from '../functions/sendRpcBackward.js';
import type { RpcWithAutograd } from '../messages/rpcWithAutograd.js';
import { firingSet } from '../pass/reachability.js';
import { type DistAutogradWorker, getWorker } from '../workerState.js';
import { tensorsRequiringGrad } from './collectTensors.js';

type Wrapper = typeof MessageType.FORWARD_AUTOGRAD_REQ | typeof MessageType.FORWARD_AUTOGRAD_RESP;

/**
 * Note [Forward recording]
 * Inside a context every user RPC (call, remote, toHere) travels as FORWARD_AUTOGRAD_REQ
 * with AutogradMetadata {contextId, messageId}: the destination joins knownWorkerIds even
 * when nothing requires grad; tensors that require grad get a SendRpcBackward here and,
 * on arrival, one RecvRpcBackward as their grad_fn. The answer is wrapped the same way
 * (FORWARD_AUTOGRAD_RESP), so gradients of returned tensors flow back to the callee.
 */
function wrap(
  worker: DistAutogradWorker,
  ctx: DistAutogradContext,
  type: Wrapper,
  msg: OutgoingMessage,
  releases?: bigint[],
): OutgoingMessage {
  const messageId = worker.container.newMessageId();
  const tensors = tensorsRequiringGrad(msg.payload);
  const send = tensors.length > 0 ? new SendRpcBackward(tensors) : null;
  if (send) ctx.addSendFunction(messageId, send);
  const payload: RpcWithAutograd = {
    fromWorkerId: getWorkerInfo().id,
    wrappedType: msg.type,
    metadata: { contextId: ctx.contextId, messageId },
    payload: msg.payload,
    ...(send ? { reaches: firingSet([send]) } : {}),
    ...(releases ? { releases } : {}),
  };
  return outgoing(type, payload);
}

/**
 * The message an RpcWithAutograd carries, under the wrapper's id. Decoding the wrapper checked
 * this payload against its own type already (withAutograd in messages/payloads.ts), so it is
 * not checked a second time.
 */
function wrappedMessage(id: number, w: RpcWithAutograd): Message {
  return { type: w.wrappedType, id, payload: w.payload } as Message;
}

/** Attaches one RecvRpcBackward to the tensors that arrived requiring grad. */
function attachRecv(worker: DistAutogradWorker, ctx: DistAutogradContext, w: RpcWithAutograd): void {
  const tensors = tensorsRequiringGrad(w.payload);
  if (tensors.length === 0) return;
  const { messageId } = w.metadata;
  ctx.addRecvFunction(
    messageId,
    new RecvRpcBackward(ctx.contextId, messageId, w.fromWorkerId, tensors, w.reaches ?? null, worker.passes),
  );
}

export function wrapRequest(to: WorkerInfo, msg: OutgoingMessage): OutgoingMessage {
  const worker = getWorker();
  const ctx = worker.container.currentContext();
  if (!ctx) return msg;
  ctx.addKnownWorkerId(to.id);
  ctx.touch();
  return wrap(worker, ctx, MessageType.FORWARD_AUTOGRAD_REQ, msg, worker.releases.take(to.id));
}

export function unwrapResponse(_from: WorkerInfo, msg: Message): Message {
  if (msg.type !== MessageType.FORWARD_AUTOGRAD_RESP) return msg;
  const worker = getWorker();
  const w = msg.payload;
  const ctx = worker.container.getOrCreateContext(w.metadata.contextId);
  attachRecv(worker, ctx, w);
  return wrappedMessage(msg.id, w);
}

/** FORWARD_AUTOGRAD_REQ: record the recv side, run the wrapped call inside the context, wrap the answer. */
export async function onForwardRequest(
  msg: Message<typeof MessageType.FORWARD_AUTOGRAD_REQ>,
  from: WorkerInfo,
): Promise<OutgoingMessage> {
  const worker = getWorker();
  const w = msg.payload;
  worker.releases.arrived(w.releases, w.fromWorkerId); // See Note [Releases ride on the next message]
  const ctx = worker.container.getOrCreateContext(w.metadata.contextId);
  ctx.addKnownWorkerId(w.fromWorkerId);
  attachRecv(worker, ctx, w);
  const reply = await worker.container.current.run(ctx.contextId, () =>
    rpcState().agent.dispatch(wrappedMessage(msg.id, w), from),
  );
  ctx.touch();
  return wrap(worker, ctx, MessageType.FORWARD_AUTOGRAD_RESP, reply);
}
