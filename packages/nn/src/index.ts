// @wiregrad/nn: torch.nn on @wiregrad/autograd — explicit named exports only.
// Importing @wiregrad/nn plugs the autograd engine into @wiregrad/tensor, as importing @wiregrad/autograd does.
import '@wiregrad/autograd';

export { NnError } from './errors.js';
export type { NnErrorCode } from './errors.js';
export { Module } from './module.js';
export type { AnyModule } from './module.js';
export { Parameter } from './parameter.js';
export type { StateDict, IncompatibleKeys, LoadStateDictOptions } from './stateDict.js';
export type { FactoryOptions } from './factory.js';
export * as init from './init.js';
export { Identity, Linear } from './modules/linear.js';
export { ReLU } from './modules/activation.js';
export { Sequential } from './modules/container.js';
export * as functional from './functional/index.js';
export {
  mseLoss,
  l1Loss,
  smoothL1Loss,
  huberLoss,
  binaryCrossEntropy,
  binaryCrossEntropyWithLogits,
  klDiv,
  nllLoss,
  crossEntropy,
} from './functional/index.js';
export type { Reduction, CrossEntropyOptions, NllLossOptions } from './functional/index.js';
