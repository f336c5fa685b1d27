import { runKernel, runKernel1 } from '../dispatch.js';
import { TensorError, fmtShape } from '../errors.js';
import * as K from '../kernelNames.js';
import { normalizeDim, numelOf, shapesEqual, viewStrides } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { type Sizes, checkDims, checkInt, checkTensor, sizesArg, typeName } from '../validate.js';

/**
 * Note [View ops]
 * Every view is one of four device-agnostic kernels (See Note [View kernels are
 * device-agnostic]): Reshape, Permute, Expand, Slice. squeeze, unsqueeze, flatten, narrow,
 * transpose and t are compositions of them, so autograd needs four gradient rules. select is
 * Slice and Reshape run as one kernel, Select, so that it records one node, SelectBackward0, as
 * in PyTorch.
 * split, chunk and unbind return several views from one kernel, Split or Unbind (See Note
 * [Multi-output views]).
 * A view that would change nothing (reshape or expand to the same shape, a full slice)
 * returns the input itself, as flatten(d, d) and contiguous() do in PyTorch: internal callers
 * (matmul's folding, gradient rules) then add no graph node for an identity. view() and
 * viewAs() are the exception, as in PyTorch: they always return a new tensor, with its own
 * gradFn (ViewBackward0) when the input requires grad.
 */

/** Resolves a single -1 in `shape` against `numel`, with PyTorch's messages. */
export function inferSize(shape: readonly number[], numel: number): number[] {
  let infer = -1;
  let known = 1;
  shape.forEach((s, i) => {
    if (s === -1) {
      if (infer >= 0) throw new TensorError('INVALID_SHAPE', 'only one dimension can be inferred');
      infer = i;
    } else if (!Number.isInteger(s) || s < 0) {
      throw new TensorError('INVALID_SHAPE', `invalid shape dimension ${s}`);
    } else known *= s;
  });
  const out = [...shape];
  if (infer >= 0) {
    if (known === 0 && numel === 0) {
      throw new TensorError(
        'INVALID_SHAPE',
        `cannot reshape tensor of 0 elements into shape ${fmtShape(shape)} because the unspecified dimension size -1 can be any value and is ambiguous`,
      );
    }
    if (known === 0 || numel % known !== 0)
      throw new TensorError('INVALID_SHAPE', `shape '${fmtShape(shape)}' is invalid for input of size ${numel}`);
    out[infer] = numel / known;
  } else if (known !== numel) {
    throw new TensorError('INVALID_SHAPE', `shape '${fmtShape(shape)}' is invalid for input of size ${numel}`);
  }
  return out;
}

/** A view when the strides allow it, else a contiguous copy (PyTorch's reshape); the shape as one list or as varargs. */
export function reshape(x: Tensor, ...shape: Sizes): Tensor {
  checkTensor('reshape', 'input', x);
  const target = inferSize(sizesArg('reshape', 'shape', shape), x.numel);
  return shapesEqual(target, x.shape) ? x : runKernel1(K.Reshape, [x], { shape: target });
}

/** Always a new view, even to the same shape (See Note [View ops]); PyTorch's error when the strides cannot express `shape`. */
export function view(x: Tensor, ...shape: Sizes): Tensor {
  checkTensor('view', 'input', x);
  const target = inferSize(sizesArg('view', 'shape', shape), x.numel);
  if (!viewStrides(x.shape, x.strides, target)) {
    throw new TensorError(
      'NOT_CONTIGUOUS',
      "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
    );
  }
  return runKernel1(K.Reshape, [x], { shape: target, gradFnName: 'ViewBackward0' });
}

/** `x` viewed with the shape of `other` (PyTorch's Tensor.view_as). */
export function viewAs(x: Tensor, other: Tensor): Tensor {
  checkTensor('viewAs', 'input', x);
  checkTensor('viewAs', 'other', other);
  return view(x, other.shape);
}

export function permute(x: Tensor, ...dimsArg: Sizes): Tensor {
  checkTensor('permute', 'input', x);
  const dims = sizesArg('permute', 'dims', dimsArg);
  if (dims.length !== x.ndim) {
    // torch's text, "sparse_coo" included, so that searches for it find this error
    throw new TensorError(
      'INVALID_DIM',
      `permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = ${x.ndim} is not equal to len(dims) = ${dims.length}`,
    );
  }
  const norm = dims.map((d) => normalizeDim(d, x.ndim));
  if (new Set(norm).size !== norm.length)
    throw new TensorError('INVALID_DIM', 'permute(): duplicate dims are not allowed.');
  return norm.every((d, i) => d === i) ? x : runKernel1(K.Permute, [x], { dims: norm });
}

export function transpose(x: Tensor, dim0: number, dim1: number): Tensor {
  checkTensor('transpose', 'input', x);
  checkInt('transpose', 'dim0', dim0);
  checkInt('transpose', 'dim1', dim1);
  const a = normalizeDim(dim0, x.ndim);
  const b = normalizeDim(dim1, x.ndim);
  if (a === b) return x;
  const dims = Array.from({ length: x.ndim }, (_, i) => (i === a ? b : i === b ? a : i));
  return runKernel1(K.Permute, [x], { dims });
}

/** Transpose of a tensor with at most 2 dims (0-D and 1-D tensors are returned as they are). */
export function t(x: Tensor): Tensor {
  checkTensor('t', 'input', x);
  if (x.ndim > 2)
    throw new TensorError('INVALID_DIM', `t() expects a tensor with <= 2 dimensions, but self is ${x.ndim}D`);
  return x.ndim < 2 ? x : transpose(x, 0, 1);
}

/** Removes size-1 dims: all of them, or those among `dim` (others are left, as in torch). */
export function squeeze(x: Tensor, dim?: number | readonly number[]): Tensor {
  checkTensor('squeeze', 'input', x);
  checkDims('squeeze', 'dim', dim);
  const dims =
    dim === undefined ? null : new Set((typeof dim === 'number' ? [dim] : dim).map((d) => normalizeDim(d, x.ndim)));
  return reshape(
    x,
    x.shape.filter((s, i) => !(s === 1 && (dims === null || dims.has(i)))),
  );
}

export function unsqueeze(x: Tensor, dim: number): Tensor {
  checkTensor('unsqueeze', 'input', x);
  checkInt('unsqueeze', 'dim', dim);
  const d = normalizeDim(dim, x.ndim + 1);
  return runKernel1(K.Reshape, [x], { shape: [...x.shape.slice(0, d), 1, ...x.shape.slice(d)] });
}

/** Broadcasts to `shape` without copying (stride 0); -1 keeps a dim. PyTorch's rules and messages. */
export function expand(x: Tensor, ...sizes: Sizes): Tensor {
  checkTensor('expand', 'input', x);
  const shape = sizesArg('expand', 'size', sizes);
  if (shape.length < x.ndim) {
    throw new TensorError(
      'INVALID_SHAPE',
      `expand(${fmtShape(x.shape)}, size=${fmtShape(shape)}): the number of sizes provided (${shape.length}) must be greater or equal to the number of dimensions in the tensor (${x.ndim})`,
    );
  }
  const lead = shape.length - x.ndim;
  const target = shape.map((s, i) => {
    const own = i < lead ? undefined : x.shape[i - lead]!;
    if (own === undefined && s < 0) {
      throw new TensorError(
        'INVALID_SHAPE',
        `The expanded size of the tensor (${s}) isn't allowed in a leading, non-existing dimension ${i}`,
      );
    }
    if (s === -1) return own!;
    if (!Number.isInteger(s) || s < 0)
      throw new TensorError('INVALID_SHAPE', `expand: invalid size ${s} at dimension ${i} of ${fmtShape(shape)}`);
    if (own !== undefined && own !== 1 && own !== s) {
      throw new TensorError(
        'INVALID_SHAPE',
        `The expanded size of the tensor (${s}) must match the existing size (${own}) at non-singleton dimension ${i}.  Target sizes: ${fmtShape(shape)}.  Tensor sizes: ${fmtShape(x.shape)}`,
      );
    }
    return s;
  });
  return shapesEqual(target, x.shape) ? x : runKernel1(K.Expand, [x], { shape: target });
}

/** Merges dims startDim..endDim into one (a view when the strides allow, like reshape); a 0-dim tensor gives [1]. */
export function flatten(x: Tensor, startDim = 0, endDim = -1): Tensor {
  checkTensor('flatten', 'input', x);
  checkInt('flatten', 'startDim', startDim);
  checkInt('flatten', 'endDim', endDim);
  if (x.ndim === 0) return reshape(x, [1]);
  const s = normalizeDim(startDim, x.ndim);
  const e = normalizeDim(endDim, x.ndim);
  if (s > e) throw new TensorError('INVALID_DIM', 'flatten() has invalid args: start_dim cannot come after end_dim');
  return reshape(x, [...x.shape.slice(0, s), numelOf(x.shape.slice(s, e + 1)), ...x.shape.slice(e + 1)]);
}

/** Python-style slice along `dim`: bounds clamp, negatives count from the end, step > 0. */
export function slice(x: Tensor, dim: number, start?: number | null, end?: number | null, step = 1): Tensor {
  checkTensor('slice', 'input', x);
  checkInt('slice', 'dim', dim);
  if (x.ndim === 0) throw new TensorError('INVALID_DIM', 'slice() cannot be applied to a 0-dim tensor.');
  const d = normalizeDim(dim, x.ndim);
  if (!Number.isInteger(step) || step <= 0)
    throw new TensorError(
      'INVALID_ARGUMENT',
      `slice step must be positive, got ${typeof step === 'number' ? step : typeName(step)}`,
    );
  const size = x.shape[d]!;
  const bound = (v: number, what: string) => {
    if (!Number.isInteger(v))
      throw new TensorError(
        'INVALID_ARGUMENT',
        `slice ${what} must be an integer, got ${typeof v === 'number' ? v : typeName(v)}`,
      );
    return Math.min(Math.max(v < 0 ? v + size : v, 0), size);
  };
  const s = bound(start ?? 0, 'start');
  const e = Math.max(bound(end ?? size, 'end'), s);
  if (s === 0 && e === size && step === 1) return x;
  return runKernel1(K.Slice, [x], { dim: d, start: s, end: e, step });
}

/** `length` elements from `start` along `dim` (a negative start counts from the end). */
export function narrow(x: Tensor, dim: number, start: number, length: number): Tensor {
  checkTensor('narrow', 'input', x);
  checkInt('narrow', 'dim', dim);
  checkInt('narrow', 'start', start);
  checkInt('narrow', 'length', length);
  if (x.ndim === 0) throw new TensorError('INVALID_DIM', 'narrow() cannot be applied to a 0-dim tensor.');
  const d = normalizeDim(dim, x.ndim);
  const size = x.shape[d]!;
  if (!Number.isInteger(start) || start < -size || start > size) {
    throw new TensorError(
      'INDEX_OUT_OF_RANGE',
      `start out of range (expected to be in range of [${-size}, ${size}], but got ${start})`,
    );
  }
  const s = start < 0 ? start + size : start;
  if (!Number.isInteger(length) || length < 0 || s + length > size) {
    throw new TensorError('INDEX_OUT_OF_RANGE', `start (${s}) + length (${length}) exceeds dimension size (${size}).`);
  }
  return s === 0 && length === size ? x : runKernel1(K.Slice, [x], { dim: d, start: s, end: s + length, step: 1 });
}

/** The slice at `index` along `dim`, with that dim removed: one Select kernel, so autograd records SelectBackward0 (See Note [View ops]). */
export function select(x: Tensor, dim: number, index: number): Tensor {
  checkTensor('select', 'input', x);
  checkInt('select', 'dim', dim);
  checkInt('select', 'index', index);
  if (x.ndim === 0) throw new TensorError('INVALID_DIM', 'select() cannot be applied to a 0-dim tensor.');
  const d = normalizeDim(dim, x.ndim);
  const size = x.shape[d]!;
  if (!Number.isInteger(index) || index < -size || index >= size) {
    throw new TensorError(
      'INDEX_OUT_OF_RANGE',
      `select(): index ${index} out of range for tensor of size ${fmtShape(x.shape)} at dimension ${d}`,
    );
  }
  return runKernel1(K.Select, [x], { dim: d, index: index < 0 ? index + size : index });
}

/**
 * The slices along `dim`, each with that dim removed: views of `x` cut by one Unbind kernel, so
 * autograd records one UnbindBackward0 for them all (PyTorch's unbind; See Note [Multi-output views]).
 */
export function unbind(x: Tensor, dim = 0): Tensor[] {
  checkTensor('unbind', 'input', x);
  checkInt('unbind', 'dim', dim);
  if (x.ndim === 0) throw new TensorError('INVALID_DIM', 'Dimension specified as 0 but tensor has no dimensions');
  return runKernel(K.Unbind, [x], { dim: normalizeDim(dim, x.ndim) });
}
