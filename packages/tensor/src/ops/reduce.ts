import type { ExtremumKernelName } from '../kernelSpecs.js';
import { isFloatingPoint } from '../dtype.js';
import { runKernel, runKernel1 } from '../dispatch.js';
import { TensorError } from '../errors.js';
import * as K from '../kernelNames.js';
import { normalizeDim, normalizeDims } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { add, div, eq, mul, sub } from './binary.js';
import { detach } from './copy.js';
import { squeeze } from './view.js';
import { castTo, TORCH_TYPE_NAME } from './operands.js';
import { abs, exp, log, sqrt } from './unary.js';
import { where } from './where.js';
import { checkBool, checkDims, checkInt, checkNumber, checkOptions, checkTensor } from '../validate.js';

/** One dim or several; omitted (or an empty list, as in torch) means every dim. */
export type Dims = number | readonly number[];

/** Checks a reduction's `dim` and `keepdim` arguments (See Note [Argument validation]). */
function checkReduction(fn: string, x: unknown, dim: unknown, keepdim: unknown): void {
  checkTensor(fn, 'input', x);
  checkDims(fn, 'dim', dim);
  checkBool(fn, 'keepdim', keepdim);
}

/** The normalized, sorted dims a reduction covers; `[]` (every dim, the kernels' convention) for `undefined` or `[]`. */
function reducedDims(x: Tensor, dim: Dims | undefined): number[] {
  return dim === undefined || (typeof dim === 'object' && dim.length === 0) ? [] : normalizeDims(dim, x.ndim);
}

/** Sum over `dim` (all dims when omitted); bool and int32 sum in int32 (torch: int64). */
export function sum(x: Tensor, dim?: Dims, keepdim = false): Tensor {
  checkReduction('sum', x, dim, keepdim);
  const input = isFloatingPoint(x.dtype) ? x : castTo(x, 'int32');
  return runKernel1(K.Sum, [input], { dims: reducedDims(x, dim), keepdim });
}

/** Product over `dim` (all dims when omitted); bool and int32 multiply in int32. */
export function prod(x: Tensor, dim?: Dims, keepdim = false): Tensor {
  checkReduction('prod', x, dim, keepdim);
  const input = isFloatingPoint(x.dtype) ? x : castTo(x, 'int32');
  return runKernel1(K.Prod, [input], { dims: reducedDims(x, dim), keepdim });
}

function countOver(x: Tensor, dim: Dims | undefined): number {
  const dims = reducedDims(x, dim);
  return dims.length === 0 ? x.numel : dims.reduce((n, d) => n * (x.shape[d] ?? 1), 1);
}

/** sum / count; integer inputs are refused with torch's message (there is no dtype option). */
export function mean(x: Tensor, dim?: Dims, keepdim = false): Tensor {
  checkReduction('mean', x, dim, keepdim);
  if (!isFloatingPoint(x.dtype)) {
    throw new TensorError(
      'DTYPE_MISMATCH',
      `mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: ${TORCH_TYPE_NAME[x.dtype]}`,
    );
  }
  return div(sum(x, dim, keepdim), countOver(x, dim));
}

export interface VarOptions {
  /** Bessel's correction: 1 (default, unbiased) divides by N - 1, 0 by N. */
  correction?: number;
}

/** sum((x - mean)^2) / (N - correction); N <= correction gives inf or NaN like torch. */
export function var_(x: Tensor, dim?: Dims, keepdim = false, opts: VarOptions = {}): Tensor {
  checkReduction('var', x, dim, keepdim);
  checkOptions('var', 'opts', opts);
  if (opts.correction !== undefined) checkNumber('var', 'correction', opts.correction);
  if (!isFloatingPoint(x.dtype))
    throw new TensorError('DTYPE_MISMATCH', 'std and var only support floating point and complex dtypes');
  const centered = sub(x, mean(x, dim, true));
  const n = countOver(x, dim);
  return div(sum(mul(centered, centered), dim, keepdim), Math.max(0, n - (opts.correction ?? 1)));
}

export function std(x: Tensor, dim?: Dims, keepdim = false, opts: VarOptions = {}): Tensor {
  checkReduction('std', x, dim, keepdim);
  return sqrt(var_(x, dim, keepdim, opts));
}

/** What max/min along a dim return (torch's named tuple). */
export interface ValuesIndices {
  values: Tensor;
  /** int32 positions along the dim (first one on ties; the first NaN if any) */
  indices: Tensor;
}

/** Checks a max/min/argmax/argmin input: torch refuses an empty reduction. Returns the normalized dim or null. */
function extremumDim(name: string, x: Tensor, dim: number | undefined, keepdim: boolean): number | null {
  checkTensor(name, 'input', x);
  if (dim !== undefined) checkInt(name, 'dim', dim);
  checkBool(name, 'keepdim', keepdim);
  if (dim === undefined) {
    if (x.numel === 0) {
      const hint = name.startsWith('arg') ? '' : " Specify the reduction dim with the 'dim' argument.";
      throw new TensorError(
        'INVALID_ARGUMENT',
        `${name}(): Expected reduction dim to be specified for input.numel() == 0.${hint}`,
      );
    }
    return null;
  }
  const d = normalizeDim(dim, x.ndim);
  if (x.ndim > 0 && x.shape[d] === 0)
    throw new TensorError('INVALID_DIM', `${name}(): Expected reduction dim ${d} to have non-zero size.`);
  return d;
}

function extremum(
  kernel: ExtremumKernelName,
  name: string,
  x: Tensor,
  dim: number | undefined,
  keepdim: boolean,
): Tensor | ValuesIndices {
  const d = extremumDim(name, x, dim, keepdim);
  if (d === null) return runKernel1(kernel, [x], { dim: null, keepdim: false });
  const [values, indices] = runKernel(kernel, [x], { dim: d, keepdim });
  return { values: values!, indices: indices! };
}

/** The largest element (0-dim), or along `dim` the values and their indices. */
export function max(x: Tensor): Tensor;
export function max(x: Tensor, dim: number, keepdim?: boolean): ValuesIndices;
export function max(x: Tensor, dim?: number, keepdim = false): Tensor | ValuesIndices {
  return extremum(K.Max, 'max', x, dim, keepdim);
}

/** The smallest element (0-dim), or along `dim` the values and their indices. */
export function min(x: Tensor): Tensor;
export function min(x: Tensor, dim: number, keepdim?: boolean): ValuesIndices;
export function min(x: Tensor, dim?: number, keepdim = false): Tensor | ValuesIndices {
  return extremum(K.Min, 'min', x, dim, keepdim);
}

/** int32 index of the largest element: along `dim`, or into the flattened tensor when omitted. */
export function argmax(x: Tensor, dim?: number, keepdim = false): Tensor {
  return runKernel1(K.Argmax, [x], { dim: extremumDim('argmax', x, dim, keepdim), keepdim });
}

/** int32 index of the smallest element: along `dim`, or into the flattened tensor when omitted. */
export function argmin(x: Tensor, dim?: number, keepdim = false): Tensor {
  return runKernel1(K.Argmin, [x], { dim: extremumDim('argmin', x, dim, keepdim), keepdim });
}

/**
 * log(sum(exp(x))) over `dim`, shifted by the max for stability. The shift is detached (it
 * cancels out of the gradient) and is 0 where the max is infinite (all -inf gives -inf) or
 * the reduction is empty (giving -inf, like torch).
 */
export function logsumexp(x: Tensor, dim: Dims, keepdim = false): Tensor {
  checkTensor('logsumexp', 'input', x);
  checkDims('logsumexp', 'dim', dim, false);
  checkBool('logsumexp', 'keepdim', keepdim);
  const input = isFloatingPoint(x.dtype) ? x : castTo(x, 'float32');
  const dims = normalizeDims(typeof dim === 'object' && dim.length === 0 ? undefined : dim, x.ndim);
  let shift: Tensor | number = 0;
  if (dims.every((d) => x.shape[d] !== 0)) {
    let m = detach(input);
    for (const d of dims) m = max(m, d, true).values;
    shift = where(eq(abs(m), Infinity), 0, m);
  }
  const out = add(log(sum(exp(sub(input, shift)), dims, true)), shift);
  return keepdim ? out : squeeze(out, dims);
}
