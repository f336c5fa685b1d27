import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { perDtype } from '../compiledLoops.js';
import { compileElementwise } from '../elementwise.js';
import { runElementwise } from './tensorOperands.js';

const loopFor = perDtype(() => compileElementwise(3, 'x ? y : z'));

/** Where: [cond(bool), a, b] broadcast together; a and b share one dtype (the op promotes them). */
export const whereKernel: KernelConfig = {
  kernelName: K.Where,
  device: 'cpu',
  kernelFunc: ([cond, a, b]) => [runElementwise(loopFor(a!.dtype), [cond!, a!, b!], a!.dtype)],
};
