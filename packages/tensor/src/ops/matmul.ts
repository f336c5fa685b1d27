import { runKernel1 } from '../dispatch.js';
import { TensorError, fmtShape } from '../errors.js';
import * as K from '../kernelNames.js';
import { broadcastShapes, numelOf } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { mul } from './binary.js';
import { expand, reshape, squeeze, unsqueeze } from './view.js';

const DTYPE_NAME = { float32: 'float', float64: 'double', int32: 'int', bool: 'bool' } as const;

function checkOperands(a: Tensor, b: Tensor): void {
  if (a.dtype !== b.dtype) {
    throw new TensorError('DTYPE_MISMATCH', `expected m1 and m2 to have the same dtype, but got: ${DTYPE_NAME[a.dtype]} != ${DTYPE_NAME[b.dtype]}`);
  }
  if (a.dtype === 'bool') throw new TensorError('UNSUPPORTED', `"addmm_impl_cpu_" not implemented for 'Bool'`);
}

function cannotMultiply(a: readonly number[], b: readonly number[]): TensorError {
  return new TensorError('SHAPE_MISMATCH', `mat1 and mat2 shapes cannot be multiplied (${a.join('x')} and ${b.join('x')})`);
}

/** [M,K] @ [K,N]. */
export function mm(a: Tensor, b: Tensor): Tensor {
  if (a.ndim !== 2) throw new TensorError('INVALID_DIM', `self must be a matrix (got ${a.ndim}-D tensor of shape ${fmtShape(a.shape)})`);
  if (b.ndim !== 2) throw new TensorError('INVALID_DIM', `mat2 must be a matrix (got ${b.ndim}-D tensor of shape ${fmtShape(b.shape)})`);
  checkOperands(a, b);
  if (a.shape[1] !== b.shape[0]) throw cannotMultiply(a.shape, b.shape);
  const out = runKernel1(K.BatchMatMul, [unsqueeze(a, 0), unsqueeze(b, 0)]);
  return reshape(out, [a.shape[0]!, b.shape[1]!]);
}

/** [B,M,K] @ [B,K,N]. */
export function bmm(a: Tensor, b: Tensor): Tensor {
  if (a.ndim !== 3 || b.ndim !== 3) throw new TensorError('INVALID_DIM', `batch1 and batch2 must be 3D tensors, got ${a.ndim}D and ${b.ndim}D`);
  checkOperands(a, b);
  if (a.shape[0] !== b.shape[0] || a.shape[2] !== b.shape[1]) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `Expected size for first two dimensions of batch2 tensor to be: [${a.shape[0]}, ${a.shape[2]}] but got: [${b.shape[0]}, ${b.shape[1]}].`,
    );
  }
  return runKernel1(K.BatchMatMul, [a, b]);
}

export function dot(a: Tensor, b: Tensor): Tensor {
  if (a.ndim !== 1 || b.ndim !== 1) throw new TensorError('INVALID_DIM', `1D tensors expected, but got ${a.ndim}D and ${b.ndim}D tensors`);
  if (a.numel !== b.numel) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `inconsistent tensor size, expected tensor [${a.numel}] and src [${b.numel}] to have the same number of elements, but got ${a.numel} and ${b.numel} elements respectively`,
    );
  }
  return reshape(mm(unsqueeze(a, 0), unsqueeze(b, 1)), []);
}

export function outer(a: Tensor, b: Tensor): Tensor {
  if (a.ndim !== 1 || b.ndim !== 1) throw new TensorError('INVALID_DIM', `outer: 1D tensors expected, but got ${a.ndim}D and ${b.ndim}D tensors`);
  return mul(unsqueeze(a, 1), unsqueeze(b, 0));
}

/** PyTorch's matmul: 1-D·1-D dot, 2-D mm, 1-D operands promoted then squeezed, batch dims broadcast. */
export function matmul(a: Tensor, b: Tensor): Tensor {
  if (a.ndim === 0 || b.ndim === 0) {
    throw new TensorError('INVALID_DIM', `both arguments to matmul need to be at least 1D, but they are ${a.ndim}D and ${b.ndim}D`);
  }
  if (a.ndim === 1 && b.ndim === 1) return dot(a, b);
  if (a.ndim === 2 && b.ndim === 2) return mm(a, b);
  if (a.ndim === 1) return squeeze(matmul(unsqueeze(a, 0), b), -2);
  if (b.ndim === 1) return squeeze(matmul(a, unsqueeze(b, 1)), -1);
  checkOperands(a, b);
  const [M, Ka] = a.shape.slice(-2) as [number, number];
  const [Kb, N] = b.shape.slice(-2) as [number, number];
  if (Ka !== Kb) throw cannotMultiply(a.shape.slice(-2), b.shape.slice(-2));
  const batch = broadcastShapes(a.shape.slice(0, -2), b.shape.slice(0, -2));
  const B = numelOf(batch);
  const a3 = reshape(expand(a, [...batch, M, Ka]), [B, M, Ka]);
  const b3 = reshape(expand(b, [...batch, Kb, N]), [B, Kb, N]);
  return reshape(runKernel1(K.BatchMatMul, [a3, b3]), [...batch, M, N]);
}
