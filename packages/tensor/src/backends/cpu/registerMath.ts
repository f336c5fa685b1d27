// The math kernels of the cpu device: a plain registration list (see Note [Kernel names]).
import { registerKernel } from '../../kernelRegistry.js';
import { addmmActivationKernel } from './kernels/addmmActivation.js';
import { binaryIntoKernel } from './kernels/binaryInto.js';
import { argreduceKernels } from './kernels/argreduce.js';
import { binaryKernels } from './kernels/binary.js';
import { clampKernel } from './kernels/clamp.js';
import { matmulKernel } from './kernels/matmul.js';
import { reduceKernels } from './kernels/reduce.js';
import { softmaxKernels } from './kernels/softmax.js';
import { thresholdBackwardKernel } from './kernels/thresholdBackward.js';
import { unaryKernels } from './kernels/unary.js';
import { whereKernel } from './kernels/where.js';

for (const k of binaryKernels) registerKernel(k);
for (const k of unaryKernels) registerKernel(k);
registerKernel(clampKernel);
registerKernel(whereKernel);
for (const k of reduceKernels) registerKernel(k);
for (const k of argreduceKernels) registerKernel(k);
for (const k of softmaxKernels) registerKernel(k);
registerKernel(matmulKernel);
registerKernel(addmmActivationKernel);
registerKernel(binaryIntoKernel);
registerKernel(thresholdBackwardKernel);
