import { CPU, device as toDevice, type DeviceLike } from '../device.js';
import { type DType, type TypedArray, assertDType, castScalar, dtypeOfTypedArray, typedArrayFor } from '../dtype.js';
import { TensorError } from '../errors.js';
import { validateShape } from '../shape.js';
import { Storage } from '../storage.js';
import { type NestedArray, Tensor } from '../tensor.js';
import { moveTo } from './copy.js';
import { checkBool, checkInt, checkOptions, checkScalar, checkTensor, sizesArg } from '../validate.js';

export interface TensorOptions {
  dtype?: DType;
  device?: DeviceLike;
  requiresGrad?: boolean;
}

/** A shape as one list or as sizes (PyTorch's `zeros(2, 3)`), then optional options: `zeros([2, 3], opts)`, `zeros(2, 3, opts)`. */
export type ShapeAndOptions =
  [shape: readonly number[], opts?: TensorOptions] | [...sizes: number[], opts: TensorOptions] | number[];

/** Splits a creation op's ShapeAndOptions and checks their types (See Note [Argument validation]). */
export function shapeAndOptions(fn: string, args: readonly unknown[]): [readonly number[], TensorOptions] {
  const last = args[args.length - 1];
  const hasOpts = args.length > 1 && typeof last === 'object' && last !== null && !Array.isArray(last);
  const opts = hasOpts ? last : undefined;
  checkTensorOptions(fn, opts);
  return [sizesArg(fn, 'size', hasOpts ? args.slice(0, -1) : args), (opts ?? {}) as TensorOptions];
}

/** `opts` is undefined or a TensorOptions object whose requiresGrad, when given, is a bool (dtype and device have their own checks). */
function checkTensorOptions(fn: string, opts: unknown): asserts opts is TensorOptions | undefined {
  checkOptions(fn, 'opts', opts);
  const requiresGrad = (opts as TensorOptions | undefined)?.requiresGrad;
  if (requiresGrad !== undefined) checkBool(fn, 'requiresGrad', requiresGrad);
}

/** Places a freshly built cpu tensor per `opts` (device through the ToDevice kernel, then requiresGrad). */
export function finish(t: Tensor, opts: TensorOptions): Tensor {
  const out = opts.device === undefined ? t : moveTo(t, toDevice(opts.device));
  if (opts.requiresGrad) out.requiresGrad = true;
  return out;
}

/** A contiguous cpu tensor over `data` (no copy). */
export function fromData(data: TypedArray, shape: readonly number[], dtype: DType): Tensor {
  return new Tensor(new Storage(CPU, dtype, data.length, data), shape);
}

function dtypeOption(opts: TensorOptions, fallback: DType): DType {
  const dtype = opts.dtype ?? fallback;
  assertDType(dtype);
  return dtype;
}

/** The shape of a nested array, read along its first elements; `flattenNested` then checks every row. */
function inferShape(data: NestedArray): number[] {
  const shape: number[] = [];
  for (let cur = data; Array.isArray(cur); cur = cur[0]!) {
    shape.push(cur.length);
    if (cur.length === 0) break;
  }
  return shape;
}

/** The leaves of a nested array in row-major order; ragged rows and non-scalar leaves are errors naming their index. */
function flattenNested(data: NestedArray, shape: readonly number[]): (number | boolean)[] {
  const leaves: (number | boolean)[] = [];
  const where = (path: readonly number[]) => `at index [${path.join(', ')}]`;
  const walk = (v: NestedArray, path: number[]): void => {
    const depth = path.length;
    if (depth === shape.length) {
      if (typeof v !== 'number' && typeof v !== 'boolean') {
        throw new TensorError(
          'INVALID_ARGUMENT',
          `expected a number or boolean ${where(path)}, got ${Array.isArray(v) ? 'a nested array (ragged nesting)' : v === null ? 'null' : typeof v}`,
        );
      }
      leaves.push(v);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[depth]) {
      const got = Array.isArray(v) ? `got ${v.length}` : `got a ${v === null ? 'null' : typeof v}`;
      throw new TensorError(
        'INVALID_SHAPE',
        `expected sequence of length ${shape[depth]} at dim ${depth} (${got}) ${where(path)}: nested arrays must not be ragged`,
      );
    }
    for (let i = 0; i < v.length; i++) walk(v[i]!, [...path, i]);
  };
  walk(data, []);
  return leaves;
}

/**
 * Builds a tensor from a number, boolean, nested array or typed array (always a copy). Plain
 * numbers give float32 (JS has no integer literal), all-boolean data bool, a typed array a
 * 1-D tensor of its dtype (Uint8Array is bool); `opts.dtype` converts.
 */
export function tensor(data: NestedArray | TypedArray, opts: TensorOptions = {}): Tensor {
  checkTensorOptions('tensor', opts);
  if (ArrayBuffer.isView(data)) {
    const src = data as TypedArray;
    const own = dtypeOfTypedArray(src);
    const dtype = dtypeOption(opts, own);
    const out = typedArrayFor(dtype, src.length);
    if (dtype === 'bool' && own !== 'bool') for (let i = 0; i < src.length; i++) out[i] = src[i] !== 0 ? 1 : 0;
    else out.set(src);
    return finish(fromData(out, [src.length], dtype), opts);
  }
  const shape = inferShape(data);
  const leaves = flattenNested(data, shape);
  const dtype = dtypeOption(
    opts,
    leaves.length > 0 && leaves.every((v) => typeof v === 'boolean') ? 'bool' : 'float32',
  );
  const out = typedArrayFor(dtype, leaves.length);
  for (let i = 0; i < leaves.length; i++) out[i] = castScalar(leaves[i]!, dtype);
  return finish(fromData(out, shape, dtype), opts);
}

/** A tensor of `shape` filled with `value`: float32 for numbers, bool for booleans, unless opts.dtype says otherwise. */
export function full(shape: readonly number[], value: number | boolean, opts: TensorOptions = {}): Tensor {
  checkTensorOptions('full', opts);
  checkScalar('full', 'fill_value', value);
  validateShape(shape);
  const dtype = dtypeOption(opts, typeof value === 'boolean' ? 'bool' : 'float32');
  // from the allocator, zero-filled (Note [Storages in wasm memory])
  const t = Tensor.empty(shape, dtype);
  const v = castScalar(value, dtype);
  if (!Object.is(v, 0)) t.storage.data.fill(v);
  return finish(t, opts);
}

/** A creation op that fills with `value`, taking its shape as a list or as varargs. */
function filledWith(fn: string, value: number): (...args: ShapeAndOptions) => Tensor {
  return (...args) => {
    const [shape, opts] = shapeAndOptions(fn, args);
    return full(shape, value, opts);
  };
}

export const zeros = filledWith('zeros', 0);
export const ones = filledWith('ones', 1);
/** Like zeros: its memory comes zero-filled from the caching allocator, as every creation op's does. */
export const empty = filledWith('empty', 0);

/** `t`'s shape, and its dtype and device unless opts override them; requiresGrad is never inherited. */
function likeArgs(fn: string, t: Tensor, opts: TensorOptions): [readonly number[], TensorOptions] {
  checkTensor(fn, 'input', t);
  checkTensorOptions(fn, opts);
  return [t.shape, { dtype: t.dtype, device: t.device, ...opts }];
}
export const zerosLike = (t: Tensor, opts: TensorOptions = {}): Tensor => zeros(...likeArgs('zerosLike', t, opts));
export const onesLike = (t: Tensor, opts: TensorOptions = {}): Tensor => ones(...likeArgs('onesLike', t, opts));
export function fullLike(t: Tensor, v: number | boolean, opts: TensorOptions = {}): Tensor {
  const [shape, likeOpts] = likeArgs('fullLike', t, opts);
  return full(shape, v, likeOpts);
}

/**
 * torch.arange: `arange(end)`, `arange(start, end)`, `arange(start, end, step)`, each with
 * optional trailing options. int32 when every argument is an integer, else float32; the
 * values are `start + i * step` computed in float64, `ceil((end - start) / step)` of them.
 */
export function arange(...args: (number | TensorOptions)[]): Tensor {
  const last = args[args.length - 1];
  const opts = typeof last === 'object' ? (last as TensorOptions) : {};
  const nums = (typeof last === 'object' ? args.slice(0, -1) : args) as number[];
  if (nums.length < 1 || nums.length > 3 || nums.some((v) => typeof v !== 'number')) {
    throw new TensorError(
      'INVALID_ARGUMENT',
      'arange expects (end), (start, end) or (start, end, step), each optionally followed by options',
    );
  }
  const [start, end, step] = nums.length === 1 ? [0, nums[0]!, 1] : [nums[0]!, nums[1]!, nums[2] ?? 1];
  if (!Number.isFinite(start) || !Number.isFinite(end))
    throw new TensorError('INVALID_ARGUMENT', `unsupported range: ${start} -> ${end}`);
  if (step === 0 || Number.isNaN(step)) throw new TensorError('INVALID_ARGUMENT', 'step must be nonzero');
  if ((step > 0 && end < start) || (step < 0 && end > start)) {
    throw new TensorError('INVALID_ARGUMENT', 'upper bound and larger bound inconsistent with step sign');
  }
  const dtype = dtypeOption(opts, [start, end, step].every(Number.isInteger) ? 'int32' : 'float32');
  const n = Math.ceil((end - start) / step);
  const data = typedArrayFor(dtype, n);
  for (let i = 0; i < n; i++) data[i] = castScalar(start + i * step, dtype);
  return finish(fromData(data, [n], dtype), opts);
}

/**
 * `steps` values from `start` to `end` inclusive, computed as torch does: the first half
 * forwards from start, the second half backwards from end (so the last value is exactly end),
 * in float32 arithmetic for float32 results and float64 otherwise (ints then truncate).
 */
export function linspace(start: number, end: number, steps: number, opts: TensorOptions = {}): Tensor {
  if (!Number.isInteger(steps) || steps < 0)
    throw new TensorError('INVALID_ARGUMENT', 'number of steps must be non-negative');
  const dtype = dtypeOption(opts, 'float32');
  const r = dtype === 'float32' ? Math.fround : (v: number) => v;
  const [a, b] = [r(start), r(end)];
  const step = steps > 1 ? r((b - a) / (steps - 1)) : 0;
  const half = Math.floor(steps / 2);
  const data = typedArrayFor(dtype, steps);
  if (steps === 1) data[0] = castScalar(a, dtype);
  else
    for (let i = 0; i < steps; i++)
      data[i] = castScalar(i < half ? r(a + r(step * i)) : r(b - r(step * (steps - 1 - i))), dtype);
  return finish(fromData(data, [steps], dtype), opts);
}

/** The n x m identity: `eye(n)`, `eye(n, m)`, each optionally followed by options. */
export function eye(n: number, mOrOpts: number | TensorOptions = n, options: TensorOptions = {}): Tensor {
  const [m, opts] = typeof mOrOpts === 'number' ? [mOrOpts, options] : [n, mOrOpts];
  checkInt('eye', 'n', n);
  checkInt('eye', 'm', m);
  checkTensorOptions('eye', opts);
  if (!Number.isInteger(n) || n < 0)
    throw new TensorError('INVALID_SHAPE', `n must be greater or equal to 0, got ${n}`);
  if (!Number.isInteger(m) || m < 0)
    throw new TensorError('INVALID_SHAPE', `m must be greater or equal to 0, got ${m}`);
  const dtype = dtypeOption(opts, 'float32');
  const data = typedArrayFor(dtype, n * m);
  for (let i = 0; i < Math.min(n, m); i++) data[i * m + i] = 1;
  return finish(fromData(data, [n, m], dtype), opts);
}
