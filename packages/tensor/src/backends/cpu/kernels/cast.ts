import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { contiguousCopy } from './copy.js';

/** Cast: a contiguous copy converted to `attrs.dtype` (See Note [Strided copy] for the conversions). */
export const castKernel: KernelConfig = {
  kernelName: K.Cast,
  device: 'cpu',
  kernelFunc: ([x], attrs) => [contiguousCopy(x!, attrs.dtype)],
};
