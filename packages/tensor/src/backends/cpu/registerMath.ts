import { registerKernel } from '../../kernelRegistry.js';
import { binaryKernels } from './kernels/binary.js';
import { matmulKernel } from './kernels/matmul.js';
import { reduceKernels } from './kernels/reduce.js';
import { softmaxKernels } from './kernels/softmax.js';
import { unaryKernels } from './kernels/unary.js';

for (const k of [...binaryKernels, ...unaryKernels, ...reduceKernels, ...softmaxKernels, matmulKernel]) registerKernel(k);
