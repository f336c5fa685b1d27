import { CPU, device as toDevice, type DeviceLike } from '../device.js';
import { type DType, type TypedArray, assertDType, castScalar, dtypeOfTypedArray, typedArrayFor } from '../dtype.js';
import { TensorError, fmtShape } from '../errors.js';
import { numelOf, validateShape } from '../shape.js';
import { Storage } from '../storage.js';
import { type NestedArray, Tensor } from '../tensor.js';
import { moveTo } from './copy.js';

export interface TensorOptions {
  dtype?: DType;
  device?: DeviceLike;
  requiresGrad?: boolean;
}

/** Places a freshly built cpu tensor per `opts` (device, requiresGrad). */
export function finish(t: Tensor, opts: TensorOptions): Tensor {
  const out = opts.device === undefined ? t : moveTo(t, toDevice(opts.device));
  if (opts.requiresGrad) out.requiresGrad = true;
  return out;
}

function fromData(data: TypedArray, shape: readonly number[], dtype: DType): Tensor {
  return new Tensor(new Storage(CPU, dtype, data.length, data), shape);
}

function inferShape(data: NestedArray): number[] {
  const shape: number[] = [];
  let cur: NestedArray = data;
  while (Array.isArray(cur)) {
    shape.push(cur.length);
    if (cur.length === 0) break;
    cur = cur[0]!;
  }
  return shape;
}

function flatten(data: NestedArray, shape: readonly number[], out: TypedArray, dtype: DType): void {
  let k = 0;
  const walk = (v: NestedArray, depth: number, path: number[]): void => {
    if (depth === shape.length) {
      if (Array.isArray(v) || (typeof v !== 'number' && typeof v !== 'boolean')) {
        throw new TensorError('INVALID_SHAPE', `expected a number at index [${path.join(', ')}] of a nested array of shape ${fmtShape(shape)}, got ${Array.isArray(v) ? 'an array' : typeof v}`);
      }
      out[k++] = castScalar(v, dtype);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[depth]) {
      throw new TensorError(
        'INVALID_SHAPE',
        `expected sequence of length ${shape[depth]} at dim ${depth} (index [${path.join(', ')}]), got ${Array.isArray(v) ? v.length : typeof v}: nested arrays must not be ragged`,
      );
    }
    for (let i = 0; i < v.length; i++) walk(v[i]!, depth + 1, [...path, i]);
  };
  walk(data, 0, []);
}

function firstLeaf(data: NestedArray): number | boolean | undefined {
  let cur: NestedArray = data;
  while (Array.isArray(cur)) {
    if (cur.length === 0) return undefined;
    cur = cur[0]!;
  }
  return cur;
}

/**
 * Builds a tensor from a number, boolean, nested array or typed array. Plain numbers give
 * float32 (JS has no integer literal), booleans bool, a typed array a 1-D tensor of its dtype.
 */
export function tensor(data: NestedArray | TypedArray, opts: TensorOptions = {}): Tensor {
  if (opts.dtype !== undefined) assertDType(opts.dtype);
  if (ArrayBuffer.isView(data)) {
    const src = data as TypedArray;
    const own = dtypeOfTypedArray(src);
    const dtype = opts.dtype ?? own;
    const out = typedArrayFor(dtype, src.length);
    if (dtype === 'bool' && own !== 'bool') for (let i = 0; i < src.length; i++) out[i] = src[i] !== 0 ? 1 : 0;
    else out.set(src);
    return finish(fromData(out, [src.length], dtype), opts);
  }
  const shape = inferShape(data);
  const leaf = firstLeaf(data);
  const dtype = opts.dtype ?? (typeof leaf === 'boolean' ? 'bool' : 'float32');
  const out = typedArrayFor(dtype, numelOf(shape));
  flatten(data, shape, out, dtype);
  return finish(fromData(out, shape, dtype), opts);
}

export function full(shape: readonly number[], value: number | boolean, opts: TensorOptions = {}): Tensor {
  validateShape(shape);
  const dtype = opts.dtype ?? (typeof value === 'boolean' ? 'bool' : 'float32');
  assertDType(dtype);
  const data = typedArrayFor(dtype, numelOf(shape));
  const v = castScalar(value, dtype);
  if (v !== 0) data.fill(v);
  return finish(fromData(data, shape, dtype), opts);
}

export const zeros = (shape: readonly number[], opts: TensorOptions = {}): Tensor => full(shape, 0, opts);
export const ones = (shape: readonly number[], opts: TensorOptions = {}): Tensor => full(shape, 1, opts);
export const empty = (shape: readonly number[], opts: TensorOptions = {}): Tensor => full(shape, 0, opts);

function likeOpts(t: Tensor, opts: TensorOptions): TensorOptions {
  return { dtype: t.dtype, device: t.device, ...opts };
}
export const zerosLike = (t: Tensor, opts: TensorOptions = {}): Tensor => zeros(t.shape, likeOpts(t, opts));
export const onesLike = (t: Tensor, opts: TensorOptions = {}): Tensor => ones(t.shape, likeOpts(t, opts));
export const fullLike = (t: Tensor, v: number | boolean, opts: TensorOptions = {}): Tensor => full(t.shape, v, likeOpts(t, opts));

/** arange(end) or arange(start, end, step): int32 when every argument is an integer, else float32. */
export function arange(startOrEnd: number, end?: number, step = 1, opts: TensorOptions = {}): Tensor {
  const [start, stop] = end === undefined ? [0, startOrEnd] : [startOrEnd, end];
  if (!Number.isFinite(start) || !Number.isFinite(stop) || !Number.isFinite(step)) {
    throw new TensorError('INVALID_ARGUMENT', `arange: unsupported range: ${start} -> ${stop} with step ${step}`);
  }
  if (step === 0) throw new TensorError('INVALID_ARGUMENT', 'arange: step must be nonzero');
  if ((stop - start) / step < 0) throw new TensorError('INVALID_ARGUMENT', 'arange: upper bound and larger bound inconsistent with step sign');
  const dtype = opts.dtype ?? ([start, stop, step].every(Number.isInteger) ? 'int32' : 'float32');
  const n = Math.ceil((stop - start) / step);
  const data = typedArrayFor(dtype, n);
  for (let i = 0; i < n; i++) data[i] = castScalar(start + i * step, dtype);
  return finish(fromData(data, [n], dtype), opts);
}

export function linspace(start: number, end: number, steps: number, opts: TensorOptions = {}): Tensor {
  if (!Number.isInteger(steps) || steps < 0) throw new TensorError('INVALID_ARGUMENT', `linspace: number of steps must be non-negative, got ${steps}`);
  const dtype = opts.dtype ?? 'float32';
  const data = typedArrayFor(dtype, steps);
  const delta = steps > 1 ? (end - start) / (steps - 1) : 0;
  // torch fills the second half from the end so that the last value is exactly `end`
  const half = Math.floor(steps / 2);
  for (let i = 0; i < steps; i++) data[i] = castScalar(i < half ? start + i * delta : end - (steps - 1 - i) * delta, dtype);
  return finish(fromData(data, [steps], dtype), opts);
}

export function eye(n: number, m: number = n, opts: TensorOptions = {}): Tensor {
  validateShape([n, m]);
  const dtype = opts.dtype ?? 'float32';
  const data = typedArrayFor(dtype, n * m);
  for (let i = 0; i < Math.min(n, m); i++) data[i * m + i] = 1;
  return finish(fromData(data, [n, m], dtype), opts);
}
