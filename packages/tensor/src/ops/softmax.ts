import type { SoftmaxKernelName } from '../kernelSpecs.js';
import { isFloatingPoint } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import * as K from '../kernelNames.js';
import { normalizeDim } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { castTo } from './operands.js';
import { checkInt, checkTensor } from '../validate.js';

function along(kernel: SoftmaxKernelName, name: string, x: Tensor, dim: number): Tensor {
  checkTensor(name, 'input', x);
  checkInt(name, 'dim', dim);
  const input = isFloatingPoint(x.dtype) ? x : castTo(x, 'float32');
  return runKernel1(kernel, [input], { dim: normalizeDim(dim, x.ndim) });
}

export const softmax = (x: Tensor, dim: number): Tensor => along(K.Softmax, 'softmax', x, dim);
export const logSoftmax = (x: Tensor, dim: number): Tensor => along(K.LogSoftmax, 'logSoftmax', x, dim);
