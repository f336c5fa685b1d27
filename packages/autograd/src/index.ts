// @wiregrad/autograd: everything of @wiregrad/tensor, plus the engine.
import './install.js';

export * from '@wiregrad/tensor';

export { AutogradError } from './errors.js';
export type { AutogradErrorCode } from './errors.js';
export { backward, backwardAsync, grad } from './backward.js';
export type { BackwardOptions, GradOptions } from './backward.js';
export { registerHook, retainGrad, registerPostAccumulateGradHook } from './hooks.js';
export { noGrad, enableGrad, setGradEnabled, isGradEnabled, inferenceMode, isInferenceMode } from './gradMode.js';
export { setDetectAnomaly, detectAnomaly, isAnomalyEnabled, isAnomalyCheckNanEnabled } from './anomalyMode.js';
export { Node, MAX_SEQUENCE_NR } from './engine/node.js';
export type { Grads, InputMetadata, PreHook, PostHook, RemovableHandle, TensorPreHook } from './engine/node.js';
export { Edge } from './engine/edge.js';
export { Engine, getEngine } from './engine/engine.js';
export type { PreparedTask } from './engine/engine.js';
export { GraphTask, ExecInfo } from './engine/graphTask.js';
export type { Capture } from './engine/graphTask.js';
export { NodeTask } from './engine/nodeTask.js';
export { ReadyQueue, runsBefore } from './engine/readyQueue.js';
export { InputBuffer } from './engine/inputBuffer.js';
export { AccumulateGrad } from './engine/accumulateGrad.js';
export { GraphRoot } from './engine/graphRoot.js';
export { Lane, MAX_DEPTH } from './engine/lane.js';
export { KernelNode } from './engine/kernelNode.js';
export { SavedVariable } from './engine/savedVariable.js';
export { CopySlices } from './engine/copySlices.js';
export { computeDependencies, computeMinTopologicalNr, initToExecute } from './engine/dependencies.js';
export { gradientEdge, collectNextEdges, setHistory, gradAccumulator } from './engine/gradientEdge.js';
export { currentGraphTask } from './engine/threadState.js';
export { sumToShape } from './engine/sumToShape.js';
export { registerGradient, declareNonDifferentiable, getGradient, isNonDifferentiable } from './gradients/registry.js';
export type { GradConfig, GradContext } from './gradients/registry.js';
export { Function, FunctionCtx } from './function.js';
export { checkpoint } from './checkpoint.js';
export { gradcheck } from './gradcheck.js';
export type { GradcheckOptions } from './gradcheck.js';
export { queueCallback } from './queueCallback.js';
