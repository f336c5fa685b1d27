// @wiregrad/rpc — explicit named exports only. What distributed autograd plugs in with is in
// @wiregrad/rpc/internal (Note [Internal entry point]).
import './rref/proxy.js';
import './rref/rrefWire.js';
import './rref/rrefProxies.js';

export { initRpc } from './initRpc.js';
export type { BackendOptions, InitOptions } from './backendOptions.js';
export { rpcSync, rpcAsync, remote } from './rpcCalls.js';
export type { CallOptions } from './rpcCalls.js';
export { getWorkerInfo, getWorkerInfos } from './workerInfos.js';
export { getRpcTimeout, setRpcTimeout } from './rpcTimeout.js';
export { getRRefDebugInfo, getRpcStats } from './rpcStats.js';
export { curveKeyPair } from './agent/zeromq.js';
export { register } from './registry.js';
export { shutdown } from './shutdown.js';
export type { ShutdownOptions } from './shutdown.js';
export { Future, waitAll } from './future.js';
export { onWorkerJoin, onWorkerLeave } from './membership.js';
export type { LeaveReason } from './membership.js';
export { RRef } from './rref/rref.js';
export type { GloballyUniqueId } from './rref/globallyUniqueId.js';
export { WorkerInfo } from './agent/workerInfo.js';
export { RpcError, NOT_INITIALIZED_MESSAGE } from './errors.js';
export type { RpcErrorCode } from './errors.js';
export {
  MessageType,
  MessageTypeFlags,
  isRequest,
  isResponse,
  messageKind,
  messageTypeName,
} from './messages/messageType.js';
export type { MessageKind } from './messages/messageType.js';
export { registerExtension, EXT_USER_BASE } from './messages/serialize.js';
export type { CodecContext, ExtensionHook } from './messages/serialize.js';
export type { To } from './call.js';
export type { RegisteredFunction } from './registry.js';
