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
export { backward } from './pass/distEngine.js';
export { DistAutogradContext } from './context/context.js';
export type { BackwardPass } from './pass/backwardPass.js';
export { DistAutogradContainer } from './context/container.js';
export { getContainer } from './workerState.js';
export { SendRpcBackward } from './functions/sendRpcBackward.js';
export { RecvRpcBackward } from './functions/recvRpcBackward.js';
export { DistributedOptimizer, registerOptimizer } from './optim/distributedOptimizer.js';
export { setContextTimeout } from './context/expiry.js';
export { DistAutogradError } from './errors.js';
export type { DistAutogradErrorCode } from './errors.js';
export type { AutogradMetadata } from './messages/autogradMetadata.js';
export type { RpcWithAutograd } from './messages/rpcWithAutograd.js';
export type { PropagateGradientsReq, GradientsReq, MarkReq, AbortReq } from './messages/propagateGradientsReq.js';
export type { PropagateGradientsResp } from './messages/propagateGradientsResp.js';
export type { CleanupAutogradContextReq } from './messages/cleanupAutogradContextReq.js';
export type { RRefBackwardReq } from './messages/rrefBackwardReq.js';
