// The sliding-window kernels of the cpu device (conv and pooling build on them): a plain registration list.
import { registerKernel } from '../../kernelRegistry.js';
import { col2imKernel, im2colKernel } from './kernels/im2col.js';

registerKernel(im2colKernel);
registerKernel(col2imKernel);
