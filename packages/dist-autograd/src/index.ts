// @wiregrad/dist-autograd — explicit named exports only. Importing it plugs into @wiregrad/rpc.
import './install.js';

export {
  context,
  releaseContext,
  getGradients,
  retrieveContext,
  getMaxId,
  getDebugInfo,
  currentContextId,
} from './api.js';
export { backward } from './engine/distEngine.js';
export { DistAutogradContext } from './context/context.js';
export type { BackwardPass } from './context/context.js';
export { DistAutogradContainer, getContainer } from './context/container.js';
export { SendRpcBackward } from './functions/sendRpcBackward.js';
export { RecvRpcBackward } from './functions/recvRpcBackward.js';
export { DistributedOptimizer, registerOptimizer } from './optim/distributedOptimizer.js';
export { setContextTimeout } from './cleanup.js';
export { DistAutogradError } from './errors.js';
export type { DistAutogradErrorCode } from './errors.js';
export type { AutogradMetadata } from './messages/autogradMetadata.js';
export type { RpcWithAutograd } from './messages/rpcWithAutograd.js';
export type { PropagateGradientsReq } from './messages/propagateGradientsReq.js';
export type { PropagateGradientsResp } from './messages/propagateGradientsResp.js';
export type { CleanupAutogradContextReq } from './messages/cleanupAutogradContextReq.js';
export type { RRefBackwardReq } from './messages/rrefBackwardReq.js';
