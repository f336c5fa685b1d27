import { runKernel, runKernel1 } from '../dispatch.js';
import { TensorError, fmtShape } from '../errors.js';
import * as K from '../kernelNames.js';
import { normalizeDim } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { operandsResultType, promoteOperands } from './operands.js';
import { unsqueeze } from './view.js';
import { checkDims, checkInt, checkTensor, checkTensorList } from '../validate.js';

/**
 * Concatenates along `dim` (always a new tensor) with torch's rules and messages: dtypes
 * promote, 1-D empty tensors are skipped (legacy torch behaviour), 0-dim tensors are refused.
 */
export function cat(tensors: readonly Tensor[], dim = 0): Tensor {
  checkTensorList('cat', 'tensors', tensors);
  checkInt('cat', 'dim', dim);
  if (tensors.length === 0)
    throw new TensorError('INVALID_ARGUMENT', 'torch.cat(): expected a non-empty list of Tensors');
  tensors.forEach((t, i) => {
    if (t.ndim === 0)
      throw new TensorError('INVALID_DIM', `zero-dimensional tensor (at position ${i}) cannot be concatenated`);
  });
  const kept = tensors.filter((t) => !(t.ndim === 1 && t.numel === 0));
  const parts = kept.length > 0 ? kept : [tensors[0]!];
  const ref = parts[0]!;
  const d = normalizeDim(dim, ref.ndim);
  parts.forEach((t) => {
    if (t.ndim !== ref.ndim)
      throw new TensorError(
        'SHAPE_MISMATCH',
        `Tensors must have same number of dimensions: got ${ref.ndim} and ${t.ndim}`,
      );
    t.shape.forEach((s, k) => {
      if (k !== d && s !== ref.shape[k]) {
        throw new TensorError(
          'SHAPE_MISMATCH',
          `Sizes of tensors must match except in dimension ${d}. Expected size ${ref.shape[k]} but got size ${s} for tensor number ${tensors.indexOf(t)} in the list.`,
        );
      }
    });
  });
  return runKernel1(K.Cat, promoteOperands(parts, operandsResultType(tensors)), { dim: d });
}

/** Joins equal-shaped tensors along a new dim `dim`. */
export function stack(tensors: readonly Tensor[], dim = 0): Tensor {
  checkTensorList('stack', 'tensors', tensors);
  checkInt('stack', 'dim', dim);
  if (tensors.length === 0) throw new TensorError('INVALID_ARGUMENT', 'stack expects a non-empty TensorList');
  const ref = tensors[0]!;
  tensors.forEach((t, i) => {
    if (t.ndim !== ref.ndim || t.shape.some((s, k) => s !== ref.shape[k])) {
      throw new TensorError(
        'SHAPE_MISMATCH',
        `stack expects each tensor to be equal size, but got ${fmtShape(ref.shape)} at entry 0 and ${fmtShape(t.shape)} at entry ${i}`,
      );
    }
  });
  const d = normalizeDim(dim, ref.ndim + 1);
  return cat(
    tensors.map((t) => unsqueeze(t, d)),
    d,
  );
}

/** The piece sizes of torch.split: `size` each (the last may be smaller), or exactly `sizes`. */
function splitSizes(total: number, size: number | readonly number[], d: number): number[] {
  if (typeof size !== 'number') {
    if (size.some((s) => !Number.isInteger(s) || s < 0)) {
      throw new TensorError(
        'INVALID_ARGUMENT',
        `split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=${fmtShape(size)}`,
      );
    }
    if (size.reduce((a, b) => a + b, 0) !== total) {
      throw new TensorError(
        'INVALID_ARGUMENT',
        `split_with_sizes expects split_sizes to sum exactly to ${total} (input tensor's size at dimension ${d}), but got split_sizes=${fmtShape(size)}`,
      );
    }
    return [...size];
  }
  if (!Number.isInteger(size) || size < 0)
    throw new TensorError('INVALID_ARGUMENT', `split expects split_size be non-negative, but got split_size=${size}`);
  if (size === 0 && total !== 0)
    throw new TensorError(
      'INVALID_ARGUMENT',
      `split_size can only be 0 if dimension size is 0, but got dimension size of ${total}`,
    );
  if (total === 0) return [0];
  return Array.from({ length: Math.ceil(total / size) }, (_, i) => Math.min(size, total - i * size));
}

/**
 * Views of consecutive pieces along `dim`: of `size` each (the last may be smaller), or of the
 * given sizes. One Split kernel cuts them all, so autograd records one node for every piece:
 * SplitBackward0, or SplitWithSizesBackward0 for a list of sizes (See Note [Multi-output views]).
 */
export function split(x: Tensor, size: number | readonly number[], dim = 0): Tensor[] {
  checkTensor('split', 'input', x);
  checkDims('split', 'split_size_or_sections', size, false);
  checkInt('split', 'dim', dim);
  if (x.ndim === 0) throw new TensorError('INVALID_DIM', 'split expects at least a 1-dimensional tensor');
  const d = normalizeDim(dim, x.ndim);
  const sizes = splitSizes(x.shape[d]!, size, d);
  return runKernel(
    K.Split,
    [x],
    typeof size === 'number' ? { dim: d, sizes } : { dim: d, sizes, gradFnName: 'SplitWithSizesBackward0' },
  );
}

/** `n` pieces of ceil(size / n) along `dim` (fewer when the size runs out), like torch.chunk. */
export function chunk(x: Tensor, n: number, dim = 0): Tensor[] {
  checkTensor('chunk', 'input', x);
  checkInt('chunk', 'chunks', n);
  checkInt('chunk', 'dim', dim);
  if (!Number.isInteger(n) || n <= 0)
    throw new TensorError('INVALID_ARGUMENT', `chunk expects \`chunks\` to be greater than 0, got: ${n}`);
  if (x.ndim === 0) throw new TensorError('INVALID_DIM', 'chunk expects at least a 1-dimensional tensor');
  const d = normalizeDim(dim, x.ndim);
  const total = x.shape[d]!;
  // torch: an empty dim gives n empty pieces, through split_with_sizes
  if (total === 0) return split(x, new Array<number>(n).fill(0), d);
  return split(x, Math.ceil(total / n), d);
}
