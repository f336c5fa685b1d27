import {
  type EmptyPayload,
  MessageType,
  RRef,
  type PayloadCheck,
  arrayOf,
  checkPayload,
  isAny,
  isArray,
  isBigInt,
  isBoolean,
  isMessageTypeOf,
  isString,
  optional,
  orNull,
  registerPayloadCheck,
  shape,
} from '@wiregrad/rpc/internal';
import type { CleanupAutogradContextReq } from './cleanupAutogradContextReq.js';
import type { PropagateGradientsReq } from './propagateGradientsReq.js';
import type { PropagateGradientsResp } from './propagateGradientsResp.js';
import type { RpcWithAutograd } from './rpcWithAutograd.js';
import type { RRefBackwardReq } from './rrefBackwardReq.js';

// See Note [One payload type per message type] in @wiregrad/rpc: distributed autograd's messages.
declare module '@wiregrad/rpc/internal' {
  interface MessagePayloads {
    [MessageType.FORWARD_AUTOGRAD_REQ]: RpcWithAutograd;
    [MessageType.FORWARD_AUTOGRAD_RESP]: RpcWithAutograd;
    [MessageType.BACKWARD_AUTOGRAD_REQ]: PropagateGradientsReq;
    [MessageType.BACKWARD_AUTOGRAD_RESP]: PropagateGradientsResp;
    [MessageType.CLEANUP_AUTOGRAD_CONTEXT_REQ]: CleanupAutogradContextReq;
    [MessageType.CLEANUP_AUTOGRAD_CONTEXT_RESP]: EmptyPayload;
    [MessageType.RREF_BACKWARD_REQ]: RRefBackwardReq;
    [MessageType.RREF_BACKWARD_RESP]: EmptyPayload;
  }
}

const metadata = shape({ contextId: isBigInt, messageId: isBigInt });
const isMetadata = (v: unknown) => metadata(v) === null;
const wrapper = shape({
  fromWorkerId: Number.isInteger,
  wrappedType: isMessageTypeOf,
  metadata: isMetadata,
  payload: isAny,
  reaches: optional(orNull(arrayOf(isBigInt))),
  releases: optional(arrayOf(isBigInt)),
});
/** RpcWithAutograd, and the message it wraps checked as its own type. */
const withAutograd: PayloadCheck = (p) => {
  const problem = wrapper(p);
  if (problem !== null) return problem;
  const w = p as RpcWithAutograd;
  return checkPayload(w.wrappedType, w.payload);
};
const propagate = shape({
  kind: (v) => v === 'grads' || v === 'mark' || v === 'abort',
  passId: isString,
  metadata: isMetadata,
  grads: isArray,
  retainGraph: isBoolean,
  error: optional(isString),
  fires: optional(arrayOf(isBigInt)),
  releases: optional(arrayOf(isBigInt)),
});
const isPropagate = (v: unknown) => propagate(v) === null;
const empty = shape({});

registerPayloadCheck(MessageType.FORWARD_AUTOGRAD_REQ, withAutograd);
registerPayloadCheck(MessageType.FORWARD_AUTOGRAD_RESP, withAutograd);
registerPayloadCheck(MessageType.BACKWARD_AUTOGRAD_REQ, propagate);
registerPayloadCheck(MessageType.BACKWARD_AUTOGRAD_RESP, shape({ inline: optional(arrayOf(isPropagate)) }));
registerPayloadCheck(MessageType.CLEANUP_AUTOGRAD_CONTEXT_REQ, shape({ contextIds: arrayOf(isBigInt) }));
registerPayloadCheck(MessageType.CLEANUP_AUTOGRAD_CONTEXT_RESP, empty);
registerPayloadCheck(
  MessageType.RREF_BACKWARD_REQ,
  shape({ rref: (v) => v instanceof RRef, contextId: (v) => v === -1 || isBigInt(v), retainGraph: isBoolean }),
);
registerPayloadCheck(MessageType.RREF_BACKWARD_RESP, empty);
