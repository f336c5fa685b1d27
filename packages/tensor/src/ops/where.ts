import { runKernel1 } from '../dispatch.js';
import { TensorError } from '../errors.js';
import * as K from '../kernelNames.js';
import type { Tensor } from '../tensor.js';
import { promoteOperands, type TensorOrScalar } from './operands.js';

/** Elements of `a` where `cond` is true, else of `b`; all three broadcast. */
export function where(cond: Tensor, a: TensorOrScalar, b: TensorOrScalar): Tensor {
  if (cond.dtype !== 'bool') {
    throw new TensorError('DTYPE_MISMATCH', `where expected condition to be a boolean tensor, but got a tensor with dtype ${cond.dtype}`);
  }
  const [x, y] = promoteOperands([a, b]);
  return runKernel1(K.Where, [cond, x!, y!]);
}
