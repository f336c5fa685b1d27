import type { BinaryKernelName } from '../kernelSpecs.js';
import { type DType, isFloatingPoint } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import { TensorError } from '../errors.js';
import * as K from '../kernelNames.js';
import { Tensor } from '../tensor.js';
import { operandsResultType, promoteOperands, type TensorOrScalar } from './operands.js';
import { checkOptions } from '../validate.js';

/**
 * PyTorch's cpu scalars (TensorIterator's allow_cpu_scalars): a 0-dim cpu tensor joins a
 * tensor on another device, moved there after promotion; any other mix is refused by runKernel.
 */
function cpuScalarTo(t: Tensor, other: Tensor): Tensor {
  return t.ndim === 0 && t.device.type === 'cpu' && other.device.type !== 'cpu' ? t.to(other.device) : t;
}

/** Promotes (or forces `dtype`), then runs the kernel; two tensors of one dtype skip promotion. */
function binary(kernel: BinaryKernelName, a: TensorOrScalar, b: TensorOrScalar, dtype?: DType): Tensor {
  const same = dtype === undefined && a instanceof Tensor && b instanceof Tensor && a.dtype === b.dtype;
  const [x, y] = same ? [a, b] : promoteOperands([a, b], dtype);
  if (x!.device === y!.device) return runKernel1(kernel, [x!, y!]);
  return runKernel1(kernel, [cpuScalarTo(x!, y!), cpuScalarTo(y!, x!)]);
}

export interface AlphaOptions {
  alpha?: number;
}

/** alpha * b, folded into b when b is a JS number. */
function scaled(a: TensorOrScalar, b: TensorOrScalar, alpha: number | undefined): TensorOrScalar {
  if (alpha === undefined || alpha === 1) return b;
  if (!Number.isInteger(alpha) && !isFloatingPoint(operandsResultType([a, b]))) {
    throw new TensorError(
      'INVALID_ARGUMENT',
      'For integral input tensors, argument alpha must not be a floating point number.',
    );
  }
  return typeof b === 'boolean' ? Number(b) * alpha : typeof b === 'number' ? b * alpha : mul(b, alpha);
}

/** a + alpha * b, broadcast. */
export function add(a: TensorOrScalar, b: TensorOrScalar, opts: AlphaOptions = {}): Tensor {
  checkOptions('add', 'opts', opts);
  return binary(K.Add, a, scaled(a, b, opts.alpha));
}

/** a - alpha * b, broadcast. */
export function sub(a: TensorOrScalar, b: TensorOrScalar, opts: AlphaOptions = {}): Tensor {
  checkOptions('sub', 'opts', opts);
  if (operandsResultType([a, b]) === 'bool') {
    throw new TensorError(
      'DTYPE_MISMATCH',
      'Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.',
    );
  }
  return binary(K.Sub, a, scaled(a, b, opts.alpha));
}

export function mul(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return binary(K.Mul, a, b);
}

/** True division: integer and bool operands give float32, as torch.div does. */
export function div(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  const t = operandsResultType([a, b]);
  return binary(K.Div, a, b, isFloatingPoint(t) ? t : 'float32');
}

/** a ** exponent, broadcast; integer tensors to negative integer (JS number) powers are refused, as in torch. */
export function pow(a: TensorOrScalar, exponent: TensorOrScalar): Tensor {
  if (
    typeof exponent === 'number' &&
    exponent < 0 &&
    Number.isInteger(exponent) &&
    !isFloatingPoint(operandsResultType([a, exponent]))
  ) {
    throw new TensorError('INVALID_ARGUMENT', 'Integers to negative integer powers are not allowed.');
  }
  return binary(K.Pow, a, exponent);
}

/** Elementwise max; NaN propagates. */
export function maximum(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return binary(K.Maximum, a, b);
}

/** Elementwise min; NaN propagates. */
export function minimum(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return binary(K.Minimum, a, b);
}

// Comparisons compute in the promoted dtype and give bool.
export const eq = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.Equal, a, b);
export const ne = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.NotEqual, a, b);
export const lt = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.Less, a, b);
export const le = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.LessEqual, a, b);
export const gt = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.Greater, a, b);
export const ge = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.GreaterEqual, a, b);
