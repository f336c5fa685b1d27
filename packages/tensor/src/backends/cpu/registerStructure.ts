// The structure kernels of the cpu device: a plain registration list (see Note [Kernel names]).
import { registerKernel } from '../../kernelRegistry.js';
import { castKernel } from './kernels/cast.js';
import { catKernel } from './kernels/cat.js';
import { copyKernels } from './kernels/copy.js';
import { fillKernel } from './kernels/fill.js';
import { indexingKernels } from './kernels/indexing.js';
import { scatterKernels } from './kernels/scatter.js';
import { toDeviceKernel } from './kernels/toDevice.js';
import { viewKernels } from './kernels/view.js';

for (const k of viewKernels('cpu')) registerKernel(k);
for (const k of copyKernels) registerKernel(k);
registerKernel(castKernel);
registerKernel(fillKernel);
for (const k of indexingKernels) registerKernel(k);
for (const k of scatterKernels) registerKernel(k);
registerKernel(catKernel);
registerKernel(toDeviceKernel);
