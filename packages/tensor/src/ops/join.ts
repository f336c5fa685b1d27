import { runKernel1 } from '../dispatch.js';
import { TensorError, fmtShape } from '../errors.js';
import * as K from '../kernelNames.js';
import { normalizeDim } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { operandsResultType, promoteOperands } from './operands.js';
import { narrow, unsqueeze } from './view.js';

/** Concatenates along `dim`; torch's rules (1-D empty tensors are skipped) and messages. */
export function cat(tensors: readonly Tensor[], dim = 0): Tensor {
  if (tensors.length === 0) throw new TensorError('INVALID_ARGUMENT', 'torch.cat(): expected a non-empty list of Tensors');
  const parts = tensors.filter((t) => !(t.ndim === 1 && t.numel === 0));
  if (parts.length === 0) return tensors[0]!;
  const ref = parts[0]!;
  const d = normalizeDim(dim, ref.ndim);
  parts.forEach((t, i) => {
    if (t.ndim !== ref.ndim) {
      throw new TensorError('SHAPE_MISMATCH', `Tensors must have same number of dimensions: got ${ref.ndim} and ${t.ndim}`);
    }
    t.shape.forEach((s, k) => {
      if (k !== d && s !== ref.shape[k]) {
        throw new TensorError('SHAPE_MISMATCH', `Sizes of tensors must match except in dimension ${d}. Expected size ${ref.shape[k]} but got size ${s} for tensor number ${i} in the list.`);
      }
    });
  });
  return runKernel1(K.Cat, promoteOperands(parts, operandsResultType(parts)), { dim: d });
}

export function stack(tensors: readonly Tensor[], dim = 0): Tensor {
  if (tensors.length === 0) throw new TensorError('INVALID_ARGUMENT', 'stack expects a non-empty TensorList');
  const ref = tensors[0]!;
  tensors.forEach((t, i) => {
    if (t.ndim !== ref.ndim || t.shape.some((s, k) => s !== ref.shape[k])) {
      throw new TensorError('SHAPE_MISMATCH', `stack expects each tensor to be equal size, but got ${fmtShape(ref.shape)} at entry 0 and ${fmtShape(t.shape)} at entry ${i}`);
    }
  });
  const d = normalizeDim(dim, ref.ndim + 1);
  return cat(tensors.map((t) => unsqueeze(t, d)), d);
}

/** Views of consecutive pieces along `dim`: of `size` each (the last may be smaller), or of the given sizes. */
export function split(x: Tensor, size: number | readonly number[], dim = 0): Tensor[] {
  const d = normalizeDim(dim, x.ndim);
  const total = x.shape[d]!;
  let sizes: number[];
  if (typeof size === 'number') {
    if (!Number.isInteger(size) || size <= 0) throw new TensorError('INVALID_ARGUMENT', `split expects split_size be non-negative, but got split_size=${size}`);
    sizes = [];
    for (let at = 0; at < total; at += size) sizes.push(Math.min(size, total - at));
    if (sizes.length === 0) sizes.push(0);
  } else {
    sizes = [...size];
    const sum = sizes.reduce((a, b) => a + b, 0);
    if (sum !== total) throw new TensorError('INVALID_ARGUMENT', `split_with_sizes expects split_sizes to sum exactly to ${total} (input tensor's size at dimension ${d}), but got split_sizes=${fmtShape(sizes)}`);
  }
  let at = 0;
  return sizes.map((len) => {
    const piece = narrow(x, d, at, len);
    at += len;
    return piece;
  });
}

/** `n` pieces of ceil(size / n) along `dim` (fewer when the size runs out), like torch.chunk. */
export function chunk(x: Tensor, n: number, dim = 0): Tensor[] {
  if (!Number.isInteger(n) || n <= 0) throw new TensorError('INVALID_ARGUMENT', 'chunk expects `chunks` to be greater than 0');
  const d = normalizeDim(dim, x.ndim);
  return split(x, Math.max(1, Math.ceil(x.shape[d]! / n)), d);
}
