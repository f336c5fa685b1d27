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
const releases = optional(arrayOf(isBigInt));
/** Each kind of PropagateGradientsReq with its own fields (a tagged union on `kind`). */
const propagateKinds: Record<PropagateGradientsReq['kind'], PayloadCheck> = {
  grads: shape({
    passId: isString,
    metadata: isMetadata,
    grads: isArray,
    retainGraph: isBoolean,
    fires: optional(arrayOf(isBigInt)),
    releases,
  }),
  mark: shape({ passId: isString, metadata: isMetadata, releases }),
  abort: shape({ passId: isString, contextId: isBigInt, error: isString, releases }),
};
const isKind = (v: unknown): v is PropagateGradientsReq['kind'] =>
  typeof v === 'string' && Object.hasOwn(propagateKinds, v);
const propagate: PayloadCheck = (p) => {
  const kind = (p as { kind?: unknown } | null)?.kind;
  return isKind(kind)
    ? propagateKinds[kind](p)
    : typeof p === 'object' && p !== null
      ? "field 'kind'"
      : 'not an object';
};
const isGradients = (v: unknown) => (v as { kind?: unknown } | null)?.kind === 'grads' && propagate(v) === null;
const empty = shape({});

registerPayloadCheck(MessageType.FORWARD_AUTOGRAD_REQ, withAutograd);
registerPayloadCheck(MessageType.FORWARD_AUTOGRAD_RESP, withAutograd);
registerPayloadCheck(MessageType.BACKWARD_AUTOGRAD_REQ, propagate);
registerPayloadCheck(MessageType.BACKWARD_AUTOGRAD_RESP, shape({ inline: optional(arrayOf(isGradients)) }));
registerPayloadCheck(MessageType.CLEANUP_AUTOGRAD_CONTEXT_REQ, shape({ contextIds: arrayOf(isBigInt) }));
registerPayloadCheck(MessageType.CLEANUP_AUTOGRAD_CONTEXT_RESP, empty);
registerPayloadCheck(
  MessageType.RREF_BACKWARD_REQ,
  shape({ rref: (v) => v instanceof RRef, contextId: (v) => v === -1 || isBigInt(v), retainGraph: isBoolean }),
);
registerPayloadCheck(MessageType.RREF_BACKWARD_RESP, empty);
