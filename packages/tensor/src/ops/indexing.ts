import { castScalar } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import { TensorError, fmtShape } from '../errors.js';
import * as K from '../kernelNames.js';
import { broadcastShapes, normalizeDim } from '../shape.js';
import { item } from '../read.js';
import type { Tensor } from '../tensor.js';
import { castTo } from './operands.js';
import { checkInt, checkScalar, checkTensor } from '../validate.js';

/**
 * Note [Index tensors]
 * Indices are int32 (wiregrad's integer type, where torch uses int64). The ops check shapes
 * and dtypes; the kernels check every index value against its dim (See Note [Index bounds]).
 */
/** Index tensors are int32 (Note [Index tensors]). */
function checkIndexDtype(index: Tensor, op: string): void {
  checkTensor(op, 'index', index);
  if (index.dtype !== 'int32')
    throw new TensorError('DTYPE_MISMATCH', `${op}(): Expected dtype int32 for index, got ${index.dtype}`);
}

/** The size of `dim` of `t`, with a 0-dim tensor seen as one element. */
const sizeAt = (t: Tensor, dim: number) => (t.ndim === 0 ? 1 : t.shape[dim]!);

/** torch's gather/scatter shape rules: index has x's rank and is no larger than x (and src) outside `dim`. */
function checkScatterShapes(x: Tensor, dim: number, index: Tensor, src: Tensor | null): void {
  if (Math.max(index.ndim, 1) !== Math.max(x.ndim, 1)) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `Index tensor must have the same number of dimensions as ${src ? 'self' : 'input'} tensor`,
    );
  }
  if (src && Math.max(src.ndim, 1) !== Math.max(index.ndim, 1)) {
    throw new TensorError('SHAPE_MISMATCH', 'Index tensor must have the same number of dimensions as src tensor');
  }
  for (let d = 0; d < index.ndim; d++) {
    const s = index.shape[d]!;
    const tooBig = (d !== dim && s > sizeAt(x, d)) || (src !== null && s > sizeAt(src, d));
    if (tooBig) {
      const srcPart = src ? ` and to be smaller size than src ${fmtShape(src.shape)}` : '';
      throw new TensorError(
        'SHAPE_MISMATCH',
        `Size does not match at dimension ${d} expected index ${fmtShape(index.shape)} to be smaller than self ${fmtShape(x.shape)} apart from dimension ${dim}${srcPart}`,
      );
    }
  }
}

/** out[i][j] = x[i][index[i][j]] for dim 1 (torch.gather); out has index's shape. */
export function gather(x: Tensor, dim: number, index: Tensor): Tensor {
  checkTensor('gather', 'input', x);
  checkInt('gather', 'dim', dim);
  checkIndexDtype(index, 'gather');
  const d = normalizeDim(dim, x.ndim);
  checkScatterShapes(x, d, index, null);
  return runKernel1(K.Gather, [x, index], { dim: d });
}

/** x with `src` added at `index` along `dim` (torch.scatter_add, out of place; the gradient of gather). */
export function scatterAdd(x: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  checkTensor('scatter_add', 'input', x);
  checkInt('scatter_add', 'dim', dim);
  checkTensor('scatter_add', 'src', src);
  checkIndexDtype(index, 'scatter_add');
  const d = normalizeDim(dim, x.ndim);
  checkScatterShapes(x, d, index, src);
  return runKernel1(K.ScatterAdd, [x, index, castTo(src, x.dtype)], { dim: d });
}

function checkIndexVector(index: Tensor, op: string): void {
  checkIndexDtype(index, op);
  if (index.ndim > 1) throw new TensorError('INVALID_DIM', `${op}(): Index is supposed to be a vector`);
}

/** The slices of x at the positions of a 1-D `index` along `dim` (torch.index_select). */
export function indexSelect(x: Tensor, dim: number, index: Tensor): Tensor {
  checkTensor('index_select', 'input', x);
  checkInt('index_select', 'dim', dim);
  checkIndexVector(index, 'index_select');
  return runKernel1(K.IndexSelect, [x, index], { dim: normalizeDim(dim, x.ndim) });
}

/** x with `src`'s slices added at `index` along `dim` (torch.index_add, out of place; the gradient of indexSelect). */
export function indexAdd(x: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  checkTensor('index_add_', 'input', x);
  checkInt('index_add_', 'dim', dim);
  checkTensor('index_add_', 'source', src);
  checkIndexVector(index, 'index_add_');
  const d = normalizeDim(dim, x.ndim);
  if (index.numel !== sizeAt(src, d)) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `index_add_(): Number of indices (${index.numel}) should be equal to source.size(dim): (${sizeAt(src, d)}), for dim: ${d}`,
    );
  }
  if (Math.max(src.ndim, 1) !== Math.max(x.ndim, 1) || x.shape.some((s, k) => k !== d && s !== src.shape[k])) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `index_add_(): Source/destination tensor must have same slice shapes. Destination slice shape: ${fmtShape(x.shape.filter((_, k) => k !== d))} at dimension ${d} and source slice shape: ${fmtShape(src.shape.filter((_, k) => k !== d))} at dimension ${d}.`,
    );
  }
  return runKernel1(K.IndexAdd, [x, index, castTo(src, x.dtype)], { dim: d });
}

/** x with `value` (cast to x's dtype) where `mask` is true; x and mask broadcast together like torch. */
export function maskedFill(x: Tensor, mask: Tensor, value: number | boolean): Tensor {
  checkTensor('masked_fill', 'input', x);
  checkTensor('masked_fill', 'mask', mask);
  checkScalar('masked_fill', 'value', value);
  if (mask.dtype !== 'bool')
    throw new TensorError(
      'DTYPE_MISMATCH',
      `masked_fill_ only supports boolean masks, but got mask with dtype ${mask.dtype}`,
    );
  broadcastShapes(x.shape, mask.shape);
  return runKernel1(K.MaskedFill, [x, mask], { value: castScalar(value, x.dtype) });
}

/** int32 one-hot rows with `numClasses` columns; -1 (the default) infers max(index) + 1 like torch. */
export function oneHot(index: Tensor, numClasses = -1): Tensor {
  checkIndexDtype(index, 'one_hot');
  checkInt('one_hot', 'numClasses', numClasses);
  if (numClasses < -1)
    throw new TensorError(
      'INVALID_ARGUMENT',
      `one_hot: numClasses must be a non-negative integer or -1, got ${numClasses}`,
    );
  let classes = numClasses;
  if (classes === -1) {
    if (index.numel === 0)
      throw new TensorError('INVALID_ARGUMENT', 'Can not infer total number of classes from empty tensor.');
    classes = item(runKernel1(K.Max, [index], { dim: null, keepdim: false })) + 1;
  }
  return runKernel1(K.OneHot, [index], { numClasses: classes });
}

/** zeros(inputShape) with `src` written into its slice (dim, start, end, step): the gradient of slice. */
export function sliceScatter(
  src: Tensor,
  inputShape: readonly number[],
  dim: number,
  start: number,
  end: number,
  step = 1,
): Tensor {
  const d = normalizeDim(dim, inputShape.length);
  const size = inputShape[d] ?? 1;
  if (!Number.isInteger(step) || step <= 0 || start < 0 || end < start || end > size) {
    throw new TensorError(
      'INVALID_ARGUMENT',
      `slice_scatter: expected 0 <= start <= end <= ${size} and a positive step, got start=${start}, end=${end}, step=${step}`,
    );
  }
  const expected = inputShape.map((s, k) => (k === d ? Math.max(0, Math.ceil((end - start) / step)) : s));
  if (src.ndim !== inputShape.length || src.shape.some((s, k) => s !== expected[k])) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `slice_scatter: expected src to have a size equal to the slice of self. src size = ${fmtShape(src.shape)}, slice size = ${fmtShape(expected)}`,
    );
  }
  return runKernel1(K.SliceScatter, [src], { inputShape: [...inputShape], dim: d, start, end, step });
}
