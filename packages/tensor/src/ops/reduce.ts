import { isFloatingPoint } from '../dtype.js';
import { runKernel, runKernel1 } from '../dispatch.js';
import { TensorError } from '../errors.js';
import * as K from '../kernelNames.js';
import { normalizeDim, normalizeDims } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { div, mul, sub, add } from './binary.js';
import { detach } from './copy.js';
import { squeeze } from './view.js';
import { castTo } from './operands.js';
import { exp, log } from './unary.js';
import { where } from './where.js';

export type Dims = number | readonly number[];

/** Sums over `dim` (all dims when omitted); bool and int32 sum in int32. */
export function sum(x: Tensor, dim?: Dims, keepdim = false): Tensor {
  const input = isFloatingPoint(x.dtype) ? x : castTo(x, 'int32');
  return runKernel1(K.Sum, [input], { dims: normalizeDims(dim, x.ndim), keepdim });
}

export function prod(x: Tensor, dim?: Dims, keepdim = false): Tensor {
  const input = isFloatingPoint(x.dtype) ? x : castTo(x, 'int32');
  return runKernel1(K.Prod, [input], { dims: normalizeDims(dim, x.ndim), keepdim });
}

function countOver(x: Tensor, dim?: Dims): number {
  return normalizeDims(dim, x.ndim).reduce((n, d) => n * x.shape[d]!, 1);
}

export function mean(x: Tensor, dim?: Dims, keepdim = false): Tensor {
  if (!isFloatingPoint(x.dtype)) {
    throw new TensorError(
      'DTYPE_MISMATCH',
      `mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: ${x.dtype === 'bool' ? 'Bool' : 'Int'}`,
    );
  }
  return div(sum(x, dim, keepdim), countOver(x, dim));
}

export interface VarOptions {
  /** Bessel's correction: 1 (default, unbiased) divides by N - 1, 0 by N. */
  correction?: number;
}

export function var_(x: Tensor, dim?: Dims, keepdim = false, opts: VarOptions = {}): Tensor {
  const centered = sub(x, mean(x, dim, true));
  const n = countOver(x, dim);
  return div(sum(mul(centered, centered), dim, keepdim), Math.max(0, n - (opts.correction ?? 1)));
}

export function std(x: Tensor, dim?: Dims, keepdim = false, opts: VarOptions = {}): Tensor {
  return var_(x, dim, keepdim, opts).sqrt();
}

export interface ValuesIndices {
  values: Tensor;
  indices: Tensor;
}

function extremum(kernel: string, x: Tensor, dim: number | undefined, keepdim: boolean): Tensor | ValuesIndices {
  if (x.numel === 0) throw new TensorError('INVALID_ARGUMENT', `${kernel.toLowerCase()}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.`);
  if (dim === undefined) return runKernel1(kernel, [x], { dim: null, keepdim: false });
  const [values, indices] = runKernel(kernel, [x], { dim: normalizeDim(dim, x.ndim), keepdim });
  return { values: values!, indices: indices! };
}

export function max(x: Tensor): Tensor;
export function max(x: Tensor, dim: number, keepdim?: boolean): ValuesIndices;
export function max(x: Tensor, dim?: number, keepdim = false): Tensor | ValuesIndices {
  return extremum(K.Max, x, dim, keepdim);
}

export function min(x: Tensor): Tensor;
export function min(x: Tensor, dim: number, keepdim?: boolean): ValuesIndices;
export function min(x: Tensor, dim?: number, keepdim = false): Tensor | ValuesIndices {
  return extremum(K.Min, x, dim, keepdim);
}

function argExtremum(kernel: string, x: Tensor, dim: number | undefined, keepdim: boolean): Tensor {
  if (x.numel === 0) throw new TensorError('INVALID_ARGUMENT', `${kernel.toLowerCase()}(): Expected reduction dim to be specified for input.numel() == 0.`);
  return runKernel1(kernel, [x], { dim: dim === undefined ? null : normalizeDim(dim, x.ndim), keepdim });
}

export const argmax = (x: Tensor, dim?: number, keepdim = false): Tensor => argExtremum(K.Argmax, x, dim, keepdim);
export const argmin = (x: Tensor, dim?: number, keepdim = false): Tensor => argExtremum(K.Argmin, x, dim, keepdim);

/** log(sum(exp(x))) over `dim`, shifted by the (detached) max for stability. */
export function logsumexp(x: Tensor, dim: Dims, keepdim = false): Tensor {
  const input = isFloatingPoint(x.dtype) ? x : castTo(x, 'float32');
  const dims = normalizeDims(dim, x.ndim);
  let m = detach(input);
  for (const d of dims) m = (max(m, d, true) as ValuesIndices).values;
  m = where(m.abs().eq(Infinity), 0, m);
  const shifted = log(sum(exp(sub(input, m)), dims, true));
  const out = add(shifted, m);
  return keepdim ? out : squeeze(out, dims);
}
