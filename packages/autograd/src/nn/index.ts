import '../install.js';

export { Module } from './module.js';
export { Linear, ReLU, Sequential } from './layers.js';
export type { FactoryOptions } from './layers.js';
export { mseLoss, crossEntropy } from './loss.js';
export type { Reduction } from './loss.js';
