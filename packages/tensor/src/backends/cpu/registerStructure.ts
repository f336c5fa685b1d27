import { registerKernel } from '../../kernelRegistry.js';
import { copyIntoKernels } from './kernels/copyInto.js';
import { indexingKernels } from './kernels/indexing.js';
import { toDeviceKernel } from './kernels/toDevice.js';
import { viewKernels } from './kernels/view.js';

for (const k of [...viewKernels('cpu'), ...copyIntoKernels, ...indexingKernels, toDeviceKernel]) registerKernel(k);
