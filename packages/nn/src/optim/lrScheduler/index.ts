// torch.optim.lr_scheduler, used as `lrScheduler.StepLR` (see ../index.ts).
export { LRScheduler } from './lrScheduler.js';
export { StepLR } from './stepLR.js';
export { MultiStepLR } from './multiStepLR.js';
export { ExponentialLR } from './exponentialLR.js';
export { CosineAnnealingLR } from './cosineAnnealingLR.js';
export { LambdaLR } from './lambdaLR.js';
export { LinearLR } from './linearLR.js';
export { OneCycleLR } from './oneCycleLR.js';
export type { OneCycleLROptions } from './oneCycleLR.js';
export { ConstantLR } from './constantLR.js';
export { PolynomialLR } from './polynomialLR.js';
export { CosineAnnealingWarmRestarts } from './cosineAnnealingWarmRestarts.js';
export { CyclicLR } from './cyclicLR.js';
export type { CyclicLROptions } from './cyclicLR.js';
export { SequentialLR } from './sequentialLR.js';
export { ChainedScheduler } from './chainedScheduler.js';
export { ReduceLROnPlateau } from './reduceLROnPlateau.js';
export type { ReduceLROnPlateauOptions } from './reduceLROnPlateau.js';
