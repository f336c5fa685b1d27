import type { DType } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import { TensorError, fmtShape } from '../errors.js';
import * as K from '../kernelNames.js';
import { broadcastShapes, numelOf } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { mul } from './binary.js';
import { TORCH_TYPE_NAME } from './operands.js';
import { expand, reshape, squeeze, unsqueeze } from './view.js';
import { checkTensor } from '../validate.js';

// Every product here is a composite over the BatchMatMul kernel (which also takes two matrices) plus views (Note [Kernel names]).

const C_TYPE_NAME: Readonly<Record<DType, string>> = {
  float32: 'float',
  float64: 'double',
  int32: 'int',
  bool: 'bool',
};

function checkDtypes(a: Tensor, b: Tensor, op: string): void {
  if (a.dtype !== b.dtype) {
    throw new TensorError(
      'DTYPE_MISMATCH',
      `expected m1 and m2 to have the same dtype, but got: ${C_TYPE_NAME[a.dtype]} != ${C_TYPE_NAME[b.dtype]}`,
    );
  }
  if (a.dtype === 'bool') throw new TensorError('UNSUPPORTED', `"${op}" not implemented for 'Bool'`);
}

function cannotMultiply(a: readonly number[], b: readonly number[]): TensorError {
  return new TensorError(
    'SHAPE_MISMATCH',
    `mat1 and mat2 shapes cannot be multiplied (${a.join('x')} and ${b.join('x')})`,
  );
}

function requireDims(t: Tensor, ndim: number, message: string): void {
  if (t.ndim !== ndim)
    throw new TensorError('INVALID_DIM', `${message}, got ${t.ndim}-D tensor of shape ${fmtShape(t.shape)}`);
}

/**
 * Releases the views an op made on the way (Note [Releasing storages]), so they do not keep
 * holding the operands' and the result's storages; `keep` (the operands and the result, which
 * a view op may return unchanged) is never released.
 */
function releaseTemps(keep: readonly Tensor[], temps: readonly Tensor[]): void {
  for (const t of temps) if (!keep.includes(t)) t.dispose();
}

/** [M,K] @ [K,N] -> [M,N]. */
export function mm(a: Tensor, b: Tensor): Tensor {
  checkTensor('mm', 'input', a);
  checkTensor('mm', 'mat2', b);
  requireDims(a, 2, 'self must be a matrix');
  requireDims(b, 2, 'mat2 must be a matrix');
  checkDtypes(a, b, 'addmm_impl_cpu_');
  if (a.shape[1] !== b.shape[0]) throw cannotMultiply(a.shape, b.shape);
  // one kernel call, one graph node (Note [Matrices through BatchMatMul])
  return runKernel1(K.BatchMatMul, [a, b]);
}

/** [B,M,K] @ [B,K,N] -> [B,M,N]. */
export function bmm(a: Tensor, b: Tensor): Tensor {
  checkTensor('bmm', 'input', a);
  checkTensor('bmm', 'mat2', b);
  requireDims(a, 3, 'batch1 must be a 3D tensor');
  requireDims(b, 3, 'batch2 must be a 3D tensor');
  checkDtypes(a, b, 'bmm');
  if (a.shape[0] !== b.shape[0] || a.shape[2] !== b.shape[1]) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `Expected size for first two dimensions of batch2 tensor to be: [${a.shape[0]}, ${a.shape[2]}] but got: [${b.shape[0]}, ${b.shape[1]}].`,
    );
  }
  return runKernel1(K.BatchMatMul, [a, b]);
}

/** Inner product of two 1-D tensors of one dtype -> 0-dim. */
export function dot(a: Tensor, b: Tensor): Tensor {
  checkTensor('dot', 'input', a);
  checkTensor('dot', 'tensor', b);
  if (a.ndim !== 1 || b.ndim !== 1)
    throw new TensorError('INVALID_DIM', `1D tensors expected, but got ${a.ndim}D and ${b.ndim}D tensors`);
  if (a.dtype !== b.dtype) {
    throw new TensorError(
      'DTYPE_MISMATCH',
      `dot : expected both vectors to have same dtype, but found ${TORCH_TYPE_NAME[a.dtype]} and ${TORCH_TYPE_NAME[b.dtype]}`,
    );
  }
  if (a.dtype === 'bool') throw new TensorError('UNSUPPORTED', `"dot" not implemented for 'Bool'`);
  if (a.numel !== b.numel) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `inconsistent tensor size, expected tensor [${a.numel}] and src [${b.numel}] to have the same number of elements, but got ${a.numel} and ${b.numel} elements respectively`,
    );
  }
  return reshape(mm(unsqueeze(a, 0), unsqueeze(b, 1)), []);
}

/** a[i] * b[j] -> [n, m] (dtypes promote, as torch.outer does). */
export function outer(a: Tensor, b: Tensor): Tensor {
  checkTensor('outer', 'input', a);
  checkTensor('outer', 'vec2', b);
  if (a.ndim !== 1) throw new TensorError('INVALID_DIM', `outer: Expected 1-D argument self, but got ${a.ndim}-D`);
  if (b.ndim !== 1) throw new TensorError('INVALID_DIM', `outer: Expected 1-D argument vec2, but got ${b.ndim}-D`);
  return mul(unsqueeze(a, 1), unsqueeze(b, 0));
}

/** [..., K] @ [K] -> [...]: the leading dims are folded into the rows of one matrix-vector product. */
function matVec(a: Tensor, v: Tensor): Tensor {
  const lead = a.shape.slice(0, -1);
  const rows = numelOf(lead);
  const Ka = a.shape[a.ndim - 1]!;
  checkDtypes(a, v, 'addmv_impl_cpu');
  if (Ka !== v.shape[0]) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `size mismatch, got input (${rows}), mat (${rows}x${Ka}), vec (${v.shape[0]})`,
    );
  }
  return reshape(mm(reshape(a, [rows, Ka]), unsqueeze(v, 1)), lead);
}

/**
 * Note [matmul folding]
 * torch.matmul's cases: 1-D @ 1-D is dot; 2-D @ 2-D is mm; a 1-D operand is promoted to a
 * matrix (a row on the left, a column on the right) and that dim removed after. When the left
 * operand has batch dims and the right one is a matrix or vector, the batch is folded into
 * the rows of one mm ([B,M,K] -> [B*M,K]) instead of expanding the right operand B times,
 * as torch does for Linear layers on batched inputs. Otherwise batch dims broadcast and
 * flatten into the one batch dim of BatchMatMul.
 */
export function matmul(a: Tensor, b: Tensor): Tensor {
  checkTensor('matmul', 'input', a);
  checkTensor('matmul', 'other', b);
  if (a.ndim === 0 || b.ndim === 0) {
    throw new TensorError(
      'INVALID_DIM',
      `both arguments to matmul need to be at least 1D, but they are ${a.ndim}D and ${b.ndim}D`,
    );
  }
  if (a.ndim === 1 && b.ndim === 1) return dot(a, b);
  if (b.ndim === 1) return matVec(a, b);
  if (a.ndim === 1) return squeeze(matmul(unsqueeze(a, 0), b), -2);
  if (b.ndim === 2) {
    if (a.ndim === 2) return mm(a, b);
    const lead = a.shape.slice(0, -1);
    const a2 = reshape(a, [numelOf(lead), a.shape[a.ndim - 1]!]);
    const c2 = mm(a2, b);
    const c = reshape(c2, [...lead, b.shape[1]!]);
    releaseTemps([a, b, c], [a2, c2]);
    return c;
  }
  checkDtypes(a, b, 'bmm');
  const [M, Ka] = a.shape.slice(-2) as [number, number];
  const [Kb, N] = b.shape.slice(-2) as [number, number];
  const batch = broadcastShapes(a.shape.slice(0, -2), b.shape.slice(0, -2));
  const B = numelOf(batch);
  if (Ka !== Kb) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `Expected size for first two dimensions of batch2 tensor to be: [${B}, ${Ka}] but got: [${B}, ${Kb}].`,
    );
  }
  const ae = expand(a, [...batch, M, Ka]);
  const be = expand(b, [...batch, Kb, N]);
  const a3 = reshape(ae, [B, M, Ka]);
  const b3 = reshape(be, [B, Kb, N]);
  const c3 = runKernel1(K.BatchMatMul, [a3, b3]);
  const c = reshape(c3, [...batch, M, N]);
  releaseTemps([a, b, c], [ae, be, a3, b3, c3]);
  return c;
}
