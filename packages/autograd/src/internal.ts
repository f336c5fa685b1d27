/**
 * Note [Autograd's internal entry point]
 * `@wiregrad/autograd/internal` is what @wiregrad/dist-autograd (and a DDP reducer, and this
 * repository's specs and tools) build on: the typed pass API (Note [Driving a pass]), the
 * helpers that put a custom Node into the graph (setHistory, collectNextEdges, gradientEdge),
 * and the engine's own objects under PyTorch's names (GraphTask, NodeTask, ReadyQueue,
 * InputBuffer, GraphRoot, lanes, dependencies and exec info). Not public API: no semver
 * promise, and an engine object used outside the engine's rules (a counter moved by hand) can
 * hang or corrupt a pass. Applications import `@wiregrad/autograd`. Like `@wiregrad/rpc/internal`
 * (Note [Internal entry point] in @wiregrad/rpc).
 */
import './install.js';

export { DrivenPass, openPass } from './engine/drivenPass.js';
export type { PassOptions } from './engine/drivenPass.js';
export { awaitInPass, canAwait } from './engine/awaitInPass.js';
export { gradientEdge, collectNextEdges, setHistory, gradAccumulator } from './engine/gradientEdge.js';
export { currentGraphTask } from './engine/threadState.js';
export { MAX_SEQUENCE_NR } from './engine/node.js';
export type { PreparedTask } from './engine/engine.js';
export { GraphTask, ExecInfo } from './engine/graphTask.js';
export type { Capture, GraphTaskOptions } from './engine/graphTask.js';
export { NodeTask } from './engine/nodeTask.js';
export { ReadyQueue, runsBefore } from './engine/readyQueue.js';
export { InputBuffer } from './engine/inputBuffer.js';
export { GraphRoot } from './engine/graphRoot.js';
export { Lane, MAX_DEPTH } from './engine/lane.js';
export { KernelNode } from './engine/kernelNode.js';
export { SavedVariable } from './engine/savedVariable.js';
export { CopySlices } from './engine/copySlices.js';
export { computeDependencies, computeMinTopologicalNr, initToExecute } from './engine/dependencies.js';
export { sumToShape } from './engine/sumToShape.js';
// for optimizers, zeroGrad and DDP's reducer (Note [Gradients nobody else saw] in @wiregrad/tensor)
export { dropGrad, peekGrad, setUnseenGrad } from '@wiregrad/tensor/internal';
