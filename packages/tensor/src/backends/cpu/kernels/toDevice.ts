import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { transfer } from '../../../transfers.js';

export const toDeviceKernel: KernelConfig = {
  kernelName: K.ToDevice,
  device: 'cpu',
  kernelFunc: ([x], attrs) => [transfer(x!, attrs.device)],
};
