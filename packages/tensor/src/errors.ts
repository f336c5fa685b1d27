/** Error codes a TensorError can carry. Each names one class of misuse. */
export type TensorErrorCode =
  | 'SHAPE_MISMATCH'
  | 'BROADCAST'
  | 'INVALID_SHAPE'
  | 'INVALID_DIM'
  | 'INDEX_OUT_OF_RANGE'
  | 'INVALID_ARGUMENT'
  | 'DTYPE_MISMATCH'
  | 'DEVICE_MISMATCH'
  | 'KERNEL_NOT_REGISTERED'
  | 'DISPOSED'
  | 'NOT_CONTIGUOUS'
  | 'UNSUPPORTED'
  | 'KERNEL_FAILED'
  | 'ALREADY_INSTALLED'
  /** an optional peer dependency a feature needs is not installed (gpu.js for the gpu device) */
  | 'MISSING_DEPENDENCY';

/** The one error type of @wiregrad/tensor; messages name the shapes, dims and dtypes involved. */
export class TensorError extends Error {
  override readonly name = 'TensorError';
  constructor(
    readonly code: TensorErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function fmtShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}
