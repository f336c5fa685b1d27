import { registerKernel } from '../../kernelRegistry.js';
import { binaryKernels } from './kernels/binary.js';
import { unaryKernels } from './kernels/unary.js';

for (const k of [...binaryKernels, ...unaryKernels]) registerKernel(k);
