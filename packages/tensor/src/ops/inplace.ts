import { type DType, category } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import { TensorError } from '../errors.js';
import * as K from '../kernelNames.js';
import type { Tensor } from '../tensor.js';
import { add, div, mul, sub, type AlphaOptions } from './binary.js';
import type { TensorOrScalar } from './operands.js';
import { clamp } from './unary.js';
import { moveTo } from './copy.js';

const TORCH_NAME: Record<DType, string> = { float32: 'Float', float64: 'Double', int32: 'Int', bool: 'Bool' };

/**
 * Note [In-place ops]
 * `x.op_(y)` computes `op(x, y)` out of place, then the CopyInto kernel writes the result
 * into x's storage (bumping its version). Autograd therefore sees two ordinary kernels and
 * records a correct graph: the copy's gradient flows to the result, none to x's old value.
 * The result must be castable to x's dtype under PyTorch's rule (no float into int32).
 */
function writeInto(target: Tensor, result: Tensor): Tensor {
  if (category(result.dtype) > category(target.dtype)) {
    throw new TensorError('DTYPE_MISMATCH', `result type ${TORCH_NAME[result.dtype]} can't be cast to the desired output type ${TORCH_NAME[target.dtype]}`);
  }
  runKernel1(K.CopyInto, [target, result]);
  return target;
}

export const add_ = (x: Tensor, other: TensorOrScalar, opts: AlphaOptions = {}): Tensor => writeInto(x, add(x, other, opts));
export const sub_ = (x: Tensor, other: TensorOrScalar, opts: AlphaOptions = {}): Tensor => writeInto(x, sub(x, other, opts));
export const mul_ = (x: Tensor, other: TensorOrScalar): Tensor => writeInto(x, mul(x, other));
export const div_ = (x: Tensor, other: TensorOrScalar): Tensor => writeInto(x, div(x, other));
export const clamp_ = (x: Tensor, min?: number | null, max?: number | null): Tensor => writeInto(x, clamp(x, min, max));

/** Copies `src` (broadcast, any dtype, any device) into x. */
export function copy_(x: Tensor, src: Tensor): Tensor {
  runKernel1(K.CopyInto, [x, moveTo(src, x.device)]);
  return x;
}

export function fill_(x: Tensor, value: number | boolean): Tensor {
  runKernel1(K.Fill, [x], { value: Number(value) });
  return x;
}

export const zero_ = (x: Tensor): Tensor => fill_(x, 0);
