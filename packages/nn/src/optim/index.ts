// Importing @wiregrad/nn/optim plugs the autograd engine into @wiregrad/tensor, as importing @wiregrad/autograd does.
import '@wiregrad/autograd';

export { Optimizer } from './optimizer.js';
export { SGD } from './sgd.js';
export type { SGDOptions } from './sgd.js';
export { Adam } from './adam.js';
export type { AdamOptions } from './adam.js';
