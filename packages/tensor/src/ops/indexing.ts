import { runKernel1 } from '../dispatch.js';
import { TensorError, fmtShape } from '../errors.js';
import * as K from '../kernelNames.js';
import { broadcastShapes, normalizeDim, shapesEqual } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { castTo, promoteOperands } from './operands.js';

function checkIndexDtype(index: Tensor, op: string): void {
  if (index.dtype !== 'int32') throw new TensorError('DTYPE_MISMATCH', `${op}(): Expected dtype int32 for index, got ${index.dtype}`);
}

export function gather(x: Tensor, dim: number, index: Tensor): Tensor {
  checkIndexDtype(index, 'gather');
  return runKernel1(K.Gather, [x, index], { dim: normalizeDim(dim, x.ndim) });
}

/** x with `src` added at `index` along `dim` (out of place; the gradient of gather). */
export function scatterAdd(x: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  checkIndexDtype(index, 'scatter_add');
  return runKernel1(K.ScatterAdd, [x, index, castTo(src, x.dtype)], { dim: normalizeDim(dim, x.ndim) });
}

export function indexSelect(x: Tensor, dim: number, index: Tensor): Tensor {
  checkIndexDtype(index, 'index_select');
  if (index.ndim > 1) throw new TensorError('INVALID_DIM', 'index_select(): Index is supposed to be a vector');
  return runKernel1(K.IndexSelect, [x, index], { dim: normalizeDim(dim, x.ndim) });
}

/** x with `src`'s slices added at `index` along `dim` (out of place; the gradient of indexSelect). */
export function indexAdd(x: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  checkIndexDtype(index, 'index_add');
  return runKernel1(K.IndexAdd, [x, index, castTo(src, x.dtype)], { dim: normalizeDim(dim, x.ndim) });
}

export function maskedFill(x: Tensor, mask: Tensor, value: number | boolean): Tensor {
  if (mask.dtype !== 'bool') throw new TensorError('DTYPE_MISMATCH', `masked_fill_ only supports boolean masks, but got mask with dtype ${mask.dtype}`);
  if (!shapesEqual(broadcastShapes(x.shape, mask.shape), x.shape)) {
    throw new TensorError('BROADCAST', `The size of mask ${fmtShape(mask.shape)} must be broadcastable to the tensor's size ${fmtShape(x.shape)}`);
  }
  const [input] = promoteOperands([x, value]);
  return runKernel1(K.MaskedFill, [input!, mask], { value: Number(value) });
}

export function oneHot(index: Tensor, numClasses: number): Tensor {
  checkIndexDtype(index, 'one_hot');
  if (!Number.isInteger(numClasses) || numClasses < 1) throw new TensorError('INVALID_ARGUMENT', `one_hot: numClasses must be a positive integer, got ${numClasses}`);
  return runKernel1(K.OneHot, [index], { numClasses });
}

/** zeros(inputShape) with `src` written into its slice (dim, start, end, step): the gradient of slice. */
export function sliceScatter(src: Tensor, inputShape: readonly number[], dim: number, start: number, end: number, step = 1): Tensor {
  return runKernel1(K.SliceScatter, [src], { inputShape: [...inputShape], dim, start, end, step });
}
