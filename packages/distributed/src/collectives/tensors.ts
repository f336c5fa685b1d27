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
export const valuesOf = (t: Tensor): TypedArray => storageView(t)?.slice() ?? toTypedArray(t);

/**
 * Note [Collectives copy nothing large]
 * Allocating and copying large buffers is what a big collective costs in JavaScript (a 64 MiB
 * slice took 0.6-1.5 s on the loaded 2-core VM): so the ring works on a view of a contiguous cpu
 * tensor's own storage (its result lands in place, without a write-back), sends each chunk as a
 * tensor over a subarray of that storage (rpc sends it as a frame without copying; the step
 * awaits its delivery before the chunk is written again), and folds each received chunk in
 * straight from the frame's memory. Only non-contiguous or non-cpu tensors are copied out and
 * written back.
 */
/** The values of a contiguous cpu tensor as a view of its storage (writes land in the tensor), else null. */
export function storageView(t: Tensor): TypedArray | null {
  if (t.device.type !== 'cpu' || !t.isContiguous()) return null;
  return t.storage.data.subarray(t.offset, t.offset + t.numel);
}

/** The values a chunk carried, as a view of the received frame (read it before the next await). */
export function receivedView(data: Tensor | null, numel: number, what: string): TypedArray {
  if (!data || data.numel !== numel)
    throw new DistributedError('MISMATCH', `${what}: expected ${numel} elements, got ${data ? data.numel : 'none'}`);
  return storageView(data) ?? toTypedArray(data);
}

/** A 1-d cpu tensor over `values` (what travels: its storage goes out as a frame of its own). */
export const wire = (values: TypedArray, dtype: Tensor['dtype']): Tensor =>
  Tensor.fromTypedArray(values, [values.length], dtype);

/** Writes `values` back into `t` in place: a view (non-contiguous, narrowed) gets them where it points. */
export function writeBack(t: Tensor, values: TypedArray): void {
  const view = storageView(t);
  if (view) {
    view.set(values);
    t.storage.version++; // an in-place write, as copy_ would count it
  } else {
    noGrad(() => copy_(t, Tensor.fromTypedArray(values, t.shape, t.dtype)));
  }
}

/** The values a chunk carried, checked against the count the receiver expects. */
export function received(data: Tensor | null, numel: number, what: string): TypedArray {
  if (!data || data.numel !== numel)
    throw new DistributedError('MISMATCH', `${what}: expected ${numel} elements, got ${data ? data.numel : 'none'}`);
  return toTypedArray(data);
}

export const sameShape = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((s, i) => s === b[i]);
