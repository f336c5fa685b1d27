// Importing @wiregrad/nn plugs the autograd engine into @wiregrad/tensor, as importing @wiregrad/autograd does.
import '@wiregrad/autograd';

export { Module } from './module.js';
export { Linear, ReLU, Sequential } from './layers.js';
export type { FactoryOptions } from './layers.js';
export { mseLoss, crossEntropy } from './loss.js';
export type { Reduction } from './loss.js';
