import { runKernel1 } from '../dispatch.js';
import { TensorError } from '../errors.js';
import * as K from '../kernelNames.js';
import { Tensor } from '../tensor.js';
import { operandsResultType, promoteOperands, scalarTensor, TORCH_TYPE_NAME, type TensorOrScalar } from './operands.js';
import { checkTensor } from '../validate.js';

/** Elements of `a` where `cond` is true, else of `b`; all three broadcast, a and b promoted together. */
export function where(cond: Tensor, a: TensorOrScalar, b: TensorOrScalar): Tensor {
  checkTensor('where', 'condition', cond);
  if (cond.dtype !== 'bool') {
    throw new TensorError(
      'DTYPE_MISMATCH',
      `where expected condition to be a boolean tensor, but got a tensor with dtype ${TORCH_TYPE_NAME[cond.dtype]}`,
    );
  }
  let x: Tensor;
  let y: Tensor;
  if (a instanceof Tensor || b instanceof Tensor) [x, y] = promoteOperands([a, b]) as [Tensor, Tensor];
  else {
    // two JS values: they take their own promoted dtype, on cond's device
    const dtype = operandsResultType([a, b]);
    [x, y] = [scalarTensor(a, dtype, cond), scalarTensor(b, dtype, cond)];
  }
  return runKernel1(K.Where, [cond, x, y]);
}
