import { type DType, isFloatingPoint } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import { TensorError } from '../errors.js';
import * as K from '../kernelNames.js';
import type { Tensor } from '../tensor.js';
import { operandsResultType, promoteOperands, type TensorOrScalar } from './operands.js';

function binary(kernel: string, a: TensorOrScalar, b: TensorOrScalar, dtype?: DType): Tensor {
  const [x, y] = promoteOperands([a, b], dtype);
  return runKernel1(kernel, [x!, y!]);
}

export interface AlphaOptions {
  alpha?: number;
}

function scaled(b: TensorOrScalar, alpha: number | undefined): TensorOrScalar {
  if (alpha === undefined || alpha === 1) return b;
  return typeof b === 'boolean' ? Number(b) * alpha : typeof b === 'number' ? b * alpha : mul(b, alpha);
}

/** a + alpha * b, broadcast. */
export function add(a: TensorOrScalar, b: TensorOrScalar, opts: AlphaOptions = {}): Tensor {
  return binary(K.Add, a, scaled(b, opts.alpha));
}

/** a - alpha * b, broadcast. */
export function sub(a: TensorOrScalar, b: TensorOrScalar, opts: AlphaOptions = {}): Tensor {
  if (operandsResultType([a, b]) === 'bool') {
    throw new TensorError(
      'DTYPE_MISMATCH',
      'Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.',
    );
  }
  return binary(K.Sub, a, scaled(b, opts.alpha));
}

export function mul(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return binary(K.Mul, a, b);
}

/** True division: integer operands give float32, as torch.div does. */
export function div(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  const t = operandsResultType([a, b]);
  return binary(K.Div, a, b, isFloatingPoint(t) ? t : 'float32');
}

export function pow(a: TensorOrScalar, exponent: TensorOrScalar): Tensor {
  return binary(K.Pow, a, exponent);
}

export function maximum(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return binary(K.Maximum, a, b);
}

export function minimum(a: TensorOrScalar, b: TensorOrScalar): Tensor {
  return binary(K.Minimum, a, b);
}

export const eq = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.Equal, a, b);
export const ne = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.NotEqual, a, b);
export const lt = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.Less, a, b);
export const le = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.LessEqual, a, b);
export const gt = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.Greater, a, b);
export const ge = (a: TensorOrScalar, b: TensorOrScalar): Tensor => binary(K.GreaterEqual, a, b);
