/**
 * Note [Internal entry point]
 * `@wiregrad/rpc/internal` is what @wiregrad/dist-autograd (and this repository's specs and
 * benchmarks) plug into rpc with: the agent state, the install-once autograd hooks (Note [RPC
 * autograd hooks]), raw requests, the message codec and the payload types and checks (Note
 * [One payload type per message type]). It is not part of the public API: no semver promise,
 * and a wrong call here (e.g. other hooks) breaks distributed autograd. Applications import
 * `@wiregrad/rpc`. tRPC and others separate their internals the same way.
 */
import './index.js';

export { rpcState, maybeRpcState } from './state.js';
export type { RpcState } from './state.js';
export { setRpcAutogradHooks } from './hooks.js';
export type { RpcAutogradHooks } from './hooks.js';
export { setRRefBackward } from './rref/rref.js';
export type { Handler, Handlers } from './agent/agent.js';
export { request, resolveWorker } from './call.js';
export { notify } from './notify.js';
export type { NotifyOptions } from './notify.js';
export { checkedMessage, encodeMessage, decodeMessage, outgoing, returnedValue } from './messages/message.js';
export type { Message, OutgoingMessage, RawMessage } from './messages/message.js';
export {
  arrayOf,
  checkPayload,
  isAny,
  isArray,
  isBigInt,
  isBoolean,
  isGid,
  isMessageTypeOf,
  isNumber,
  isString,
  optional,
  orNull,
  registerPayloadCheck,
  shape,
} from './messages/payloads.js';
export type {
  EmptyPayload,
  ExceptionPayload,
  MessagePayloads,
  PayloadCheck,
  PayloadOf,
  PythonCall,
  PythonRemoteCall,
  PythonResp,
  RRefChildAccept,
  RRefFetchCall,
  RRefFork,
} from './messages/payloads.js';
export { lookupFunction, functionName } from './registry.js';
export * from './index.js';
