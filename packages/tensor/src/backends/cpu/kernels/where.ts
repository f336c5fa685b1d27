import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { elementwiseLoop } from '../elementwise.js';
import { runElementwise } from './tensorOperands.js';

/** Where: [cond(bool), a, b] broadcast together; a and b share one dtype (the op promotes them). */
export const whereKernel: KernelConfig = {
  kernelName: K.Where,
  device: 'cpu',
  kernelFunc: ([cond, a, b]) => [runElementwise(elementwiseLoop(`Where/${a!.dtype}`, 3, 'x ? y : z'), [cond!, a!, b!], a!.dtype)],
};
