// @wiregrad/nn/optim: torch.optim — explicit named exports only.
// Importing @wiregrad/nn/optim plugs the autograd engine into @wiregrad/tensor, as importing @wiregrad/autograd does.
import '@wiregrad/autograd';

export { Optimizer } from './optimizer.js';
export type { ParamGroup, Params, ParamState, OptimizerStateDict } from './optimizer.js';
export { SGD } from './sgd.js';
export type { SGDOptions, SGDGroup } from './sgd.js';
export { Adam } from './adam.js';
export type { AdamOptions, AdamGroup } from './adam.js';
export { AdamW } from './adamw.js';
export { RMSprop } from './rmsprop.js';
export type { RMSpropOptions, RMSpropGroup } from './rmsprop.js';
export { Adagrad } from './adagrad.js';
export type { AdagradOptions, AdagradGroup } from './adagrad.js';
export { NAdam } from './nadam.js';
export type { NAdamOptions, NAdamGroup } from './nadam.js';
export { RAdam } from './radam.js';
export type { RAdamOptions, RAdamGroup } from './radam.js';
export { Adamax } from './adamax.js';
export type { AdamaxOptions, AdamaxGroup } from './adamax.js';
export { Adadelta } from './adadelta.js';
export type { AdadeltaOptions, AdadeltaGroup } from './adadelta.js';
export { LBFGS } from './lbfgs.js';
export type { LBFGSOptions, LBFGSGroup } from './lbfgs.js';
export * as lrScheduler from './lrScheduler/index.js';
export { clipGradNorm_, clipGradValue_ } from '../utils/clipGrad.js';
