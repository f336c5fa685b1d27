// @wiregrad/autograd: everything of @wiregrad/tensor, plus autograd's user API. The engine's own
// objects and the pass API dist-autograd drives are in @wiregrad/autograd/internal (Note
// [Autograd's internal entry point]).
import './install.js';

export * from '@wiregrad/tensor';

export { AutogradError } from './errors.js';
export type { AutogradErrorCode } from './errors.js';
export { backward, backwardAsync, grad } from './backward.js';
export type { BackwardOptions, GradOptions } from './backward.js';
export { registerHook, retainGrad, registerPostAccumulateGradHook } from './hooks.js';
export { noGrad, enableGrad, setGradEnabled, isGradEnabled, inferenceMode, isInferenceMode } from './gradMode.js';
export { isInference } from './inference.js';
export { setDetectAnomaly, detectAnomaly, isAnomalyEnabled, isAnomalyCheckNanEnabled } from './anomalyMode.js';
export { Node } from './engine/node.js';
export type { Grads, InputMetadata, PreHook, PostHook, RemovableHandle, TensorPreHook } from './engine/node.js';
export { Edge } from './engine/edge.js';
export { Engine, getEngine } from './engine/engine.js';
export type { ExecuteOptions } from './engine/engine.js';
export { AccumulateGrad } from './engine/accumulateGrad.js';
export { registerGradient, declareNonDifferentiable, getGradient, isNonDifferentiable } from './gradients/registry.js';
export type { GradAttrs, GradConfig, GradContext } from './gradients/registry.js';
export { Function, FunctionCtx } from './function.js';
export { onceDifferentiable } from './onceDifferentiable.js';
export { checkpoint } from './checkpoint.js';
export { gradcheck } from './gradcheck.js';
export type { GradcheckOptions } from './gradcheck.js';
export { queueCallback } from './queueCallback.js';
