import type { UnaryKernelName } from '../kernelSpecs.js';
import { isFloatingPoint } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import { TensorError } from '../errors.js';
import * as K from '../kernelNames.js';
import type { Tensor } from '../tensor.js';
import { castTo } from './operands.js';
import { checkNumber, checkTensor } from '../validate.js';

/** Ops defined on floats: int and bool inputs are computed in float32, as torch does. */
function floatUnary(kernel: UnaryKernelName, name: string): (x: Tensor) => Tensor {
  return (x) => {
    checkTensor(name, 'input', x);
    return runKernel1(kernel, [isFloatingPoint(x.dtype) ? x : castTo(x, 'float32')]);
  };
}

/** Ops that keep the input's dtype. */
function sameUnary(kernel: UnaryKernelName, name: string): (x: Tensor) => Tensor {
  return (x) => {
    checkTensor(name, 'input', x);
    return runKernel1(kernel, [x]);
  };
}

export function neg(x: Tensor): Tensor {
  checkTensor('neg', 'input', x);
  if (x.dtype === 'bool') {
    throw new TensorError(
      'DTYPE_MISMATCH',
      'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.',
    );
  }
  return runKernel1(K.Neg, [x]);
}

export const exp = floatUnary(K.Exp, 'exp');
export const log = floatUnary(K.Log, 'log');
export const log1p = floatUnary(K.Log1p, 'log1p');
export const sqrt = floatUnary(K.Sqrt, 'sqrt');
export const rsqrt = floatUnary(K.Rsqrt, 'rsqrt');
export const sin = floatUnary(K.Sin, 'sin');
export const cos = floatUnary(K.Cos, 'cos');
export const tanh = floatUnary(K.Tanh, 'tanh');
export const sigmoid = floatUnary(K.Sigmoid, 'sigmoid');
export const gelu = floatUnary(K.Gelu, 'gelu');
export const silu = floatUnary(K.Silu, 'silu');
export const softplus = floatUnary(K.Softplus, 'softplus');
export const abs = sameUnary(K.Abs, 'abs');
export const sign = sameUnary(K.Sign, 'sign');
export const relu = sameUnary(K.Relu, 'relu');

export function logicalNot(x: Tensor): Tensor {
  checkTensor('logicalNot', 'input', x);
  return runKernel1(K.LogicalNot, [x]);
}

/** Clamps into [min, max]; either bound may be omitted (not both). Float bounds on an int tensor give float32. */
export function clamp(x: Tensor, min?: number | null, max?: number | null): Tensor {
  checkTensor('clamp', 'input', x);
  const lo = min ?? null;
  const hi = max ?? null;
  if (lo !== null) checkNumber('clamp', 'min', lo);
  if (hi !== null) checkNumber('clamp', 'max', hi);
  if (lo === null && hi === null)
    throw new TensorError('INVALID_ARGUMENT', "torch.clamp: At least one of 'min' or 'max' must not be None");
  const fractional = [lo, hi].some((v) => v !== null && !Number.isInteger(v));
  const input = fractional && !isFloatingPoint(x.dtype) ? castTo(x, 'float32') : x;
  return runKernel1(K.Clamp, [input], { min: lo, max: hi });
}
