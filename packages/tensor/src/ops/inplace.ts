import { category } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import { TensorError, fmtShape } from '../errors.js';
import * as K from '../kernelNames.js';
import { broadcastShapes, shapesEqual } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { add, div, mul, sub, type AlphaOptions } from './binary.js';
import { moveTo } from './copy.js';
import { TORCH_TYPE_NAME, type TensorOrScalar } from './operands.js';
import { clamp } from './unary.js';
import { checkScalar, checkTensor } from '../validate.js';

/**
 * Note [In-place ops]
 * `x.op_(y)` computes `op(x, y)` out of place, then the CopyInto kernel writes the result
 * into x's storage (dispatch bumps the version once, shared by every view). Autograd so sees
 * two ordinary kernels and records a correct graph: the copy's gradient flows to the result,
 * none to x's old value; the copy's node carries the op's torch name (AddBackward0 for add_).
 * The write follows torch's rules: the result must broadcast to x's
 * own shape, its dtype must be castable to x's under torch's can_cast (no float into int32,
 * no int into bool), and x must not be a view whose elements alias one another (expand).
 */
function checkWritable(target: Tensor, resultShape: readonly number[]): void {
  const shape = broadcastShapes(target.shape, resultShape);
  if (!shapesEqual(shape, target.shape)) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `output with shape ${fmtShape(target.shape)} doesn't match the broadcast shape ${fmtShape(shape)}`,
    );
  }
  if (target.shape.some((s, d) => s > 1 && target.strides[d] === 0)) {
    throw new TensorError(
      'INVALID_ARGUMENT',
      'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.',
    );
  }
}

/**
 * `gradFnName` is what the write's graph node calls itself: torch names the node of `x.add_(y)`
 * AddBackward0, of `x.copy_(y)` CopyBackwards (attrs are ignored by the kernels).
 */
function writeInto(target: Tensor, result: Tensor, gradFnName: string): Tensor {
  if (category(result.dtype) > category(target.dtype)) {
    throw new TensorError(
      'DTYPE_MISMATCH',
      `result type ${TORCH_TYPE_NAME[result.dtype]} can't be cast to the desired output type ${TORCH_TYPE_NAME[target.dtype]}`,
    );
  }
  checkWritable(target, result.shape);
  runKernel1(K.CopyInto, [target, result], { gradFnName });
  return target;
}

export const add_ = (x: Tensor, other: TensorOrScalar, opts: AlphaOptions = {}): Tensor =>
  writeInto(x, add(x, other, opts), 'AddBackward0');
export const sub_ = (x: Tensor, other: TensorOrScalar, opts: AlphaOptions = {}): Tensor =>
  writeInto(x, sub(x, other, opts), 'SubBackward0');
export const mul_ = (x: Tensor, other: TensorOrScalar): Tensor => writeInto(x, mul(x, other), 'MulBackward0');
export const div_ = (x: Tensor, other: TensorOrScalar): Tensor => writeInto(x, div(x, other), 'DivBackward0');
export const clamp_ = (x: Tensor, min?: number | null, max?: number | null): Tensor =>
  writeInto(x, clamp(x, min, max), 'ClampBackward1');

/** Copies `src` (broadcast to x's shape, any dtype, any device) into x. */
export function copy_(x: Tensor, src: Tensor): Tensor {
  checkTensor('copy_', 'input', x);
  checkTensor('copy_', 'src', src);
  checkWritable(x, src.shape);
  runKernel1(K.CopyInto, [x, moveTo(src, x.device)], { gradFnName: 'CopyBackwards' });
  return x;
}

/** Writes `value` (cast to x's dtype) into every element; like torch, aliased views (expand) may be filled. */
export function fill_(x: Tensor, value: number | boolean): Tensor {
  checkTensor('fill_', 'input', x);
  checkScalar('fill_', 'value', value);
  runKernel1(K.Fill, [x], { value: Number(value), gradFnName: 'FillBackward0' });
  return x;
}

export function zero_(x: Tensor): Tensor {
  checkTensor('zero_', 'input', x);
  return fill_(x, 0);
}
