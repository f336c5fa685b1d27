import { Tensor, type TypedArray, copy_, noGrad, toTypedArray } from '@wiregrad/autograd';
import { DistributedError } from '../errors.js';

const DTYPES = new Set(['float32', 'float64', 'int32']);

/** A tensor argument of a collective: a Tensor of a dtype collectives carry. */
export function checkTensor(fn: string, name: string, t: unknown): asserts t is Tensor {
  if (!(t instanceof Tensor))
    throw new DistributedError('INVALID_ARGUMENT', `${fn}(): ${name} must be a Tensor, got ${typeof t}`);
  if (!DTYPES.has(t.dtype))
    throw new DistributedError(
      'INVALID_ARGUMENT',
      `${fn}(): ${name} has dtype ${t.dtype}; collectives carry float32, float64 and int32`,
    );
}

/** The values of `t` in row-major order (a copy: any strides, any device). */
export const valuesOf = (t: Tensor): TypedArray => toTypedArray(t);

/** A 1-d cpu tensor over `values` (what travels: its storage goes out as a frame of its own). */
export const wire = (values: TypedArray, dtype: Tensor['dtype']): Tensor =>
  Tensor.fromTypedArray(values, [values.length], dtype);

/** Writes `values` back into `t` in place: a view (non-contiguous, narrowed) gets them where it points. */
export function writeBack(t: Tensor, values: TypedArray): void {
  noGrad(() => copy_(t, Tensor.fromTypedArray(values, t.shape, t.dtype)));
}

/** The values a chunk carried, checked against the count the receiver expects. */
export function received(data: Tensor | null, numel: number, what: string): TypedArray {
  if (!data || data.numel !== numel)
    throw new DistributedError('MISMATCH', `${what}: expected ${numel} elements, got ${data ? data.numel : 'none'}`);
  return toTypedArray(data);
}

export const sameShape = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((s, i) => s === b[i]);
