import { TensorError } from './errors.js';

export type DType = 'float32' | 'float64' | 'int32' | 'bool';
export const DTYPES: readonly DType[] = ['bool', 'int32', 'float32', 'float64'];

export type TypedArray = Float32Array | Float64Array | Int32Array | Uint8Array;
export type TypedArrayFor<D extends DType> = D extends 'float32'
  ? Float32Array
  : D extends 'float64'
    ? Float64Array
    : D extends 'int32'
      ? Int32Array
      : Uint8Array;

const CTORS = {
  float32: Float32Array,
  float64: Float64Array,
  int32: Int32Array,
  bool: Uint8Array,
} as const;

export function typedArrayFor(dtype: DType, length: number): TypedArray {
  return new CTORS[dtype](length);
}

export function bytesPerElement(dtype: DType): number {
  return CTORS[dtype].BYTES_PER_ELEMENT;
}

export function dtypeOfTypedArray(a: ArrayBufferView): DType {
  if (a instanceof Float32Array) return 'float32';
  if (a instanceof Float64Array) return 'float64';
  if (a instanceof Int32Array) return 'int32';
  if (a instanceof Uint8Array) return 'bool';
  throw new TensorError(
    'INVALID_ARGUMENT',
    `unsupported typed array ${a.constructor.name}; use Float32Array, Float64Array, Int32Array or Uint8Array`,
  );
}

export function isFloatingPoint(dtype: DType): boolean {
  return dtype === 'float32' || dtype === 'float64';
}

/** Note [Type promotion]
 * PyTorch's categories: bool < integral < floating. Within a category the wider type wins.
 * Operands are ranked in three tiers: tensors with dims, zero-dim tensors, and wrapped
 * JS numbers. A lower tier only changes the result when its category is higher, and then
 * a wrapped number contributes the default type of its category (float32 / int32).
 * So `int32 tensor + 2.5` is float32, `float32 tensor + float64 0-dim` is float32.
 */
const RANK: Record<DType, number> = { bool: 0, int32: 1, float32: 2, float64: 3 };
const CATEGORY: Record<DType, number> = { bool: 0, int32: 1, float32: 2, float64: 2 };

export function promoteTypes(a: DType, b: DType): DType {
  return RANK[a] >= RANK[b] ? a : b;
}

export function category(dtype: DType): number {
  return CATEGORY[dtype];
}

export interface PromotionOperand {
  dtype: DType;
  /** 0 = tensor with dims, 1 = zero-dim tensor, 2 = wrapped JS number */
  tier: 0 | 1 | 2;
}

export function resultType(operands: readonly PromotionOperand[]): DType {
  let result: DType | undefined;
  for (const tier of [0, 1, 2] as const) {
    let tierType: DType | undefined;
    for (const o of operands)
      if (o.tier === tier) tierType = tierType === undefined ? o.dtype : promoteTypes(tierType, o.dtype);
    if (tierType === undefined) continue;
    if (result === undefined) result = tierType;
    else if (CATEGORY[tierType] > CATEGORY[result])
      result = tier === 2 ? (tierType === 'float64' ? 'float32' : tierType) : tierType;
  }
  if (result === undefined) throw new TensorError('INVALID_ARGUMENT', 'resultType needs at least one operand');
  return result;
}

/** The dtype a JS scalar gets when it is wrapped: integers are int32, others float32, booleans bool. */
export function scalarDType(v: number | boolean): DType {
  if (typeof v === 'boolean') return 'bool';
  return Number.isInteger(v) && Math.abs(v) <= 2147483647 ? 'int32' : 'float32';
}

export function assertDType(d: unknown): asserts d is DType {
  if (typeof d !== 'string' || !(d in CTORS)) {
    throw new TensorError(
      'INVALID_ARGUMENT',
      `unknown dtype ${String(d)}; expected one of float32, float64, int32, bool`,
    );
  }
}

/** Converts a JS value into what a storage of `dtype` holds (bool -> 0/1, int32 truncates like PyTorch). */
export function castScalar(v: number | boolean, dtype: DType): number {
  const n = typeof v === 'boolean' ? (v ? 1 : 0) : v;
  switch (dtype) {
    case 'bool':
      return n !== 0 ? 1 : 0;
    case 'int32':
      return Math.trunc(n) | 0;
    case 'float32':
      return Math.fround(n);
    case 'float64':
      return n;
  }
}
