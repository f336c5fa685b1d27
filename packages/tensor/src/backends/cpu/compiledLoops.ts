import type { DType } from '../../dtype.js';

/**
 * Note [Compiled loop cache]
 * Hot cpu loops are generated source (`new Function`), compiled once per dtype and kept for
 * the life of the process: each kernel holds a `perDtype` memo, so one compiled function
 * only ever sees one kind of typed array and V8 keeps its element accesses monomorphic. A
 * lookup is one property read on a four-key object (no string keys built per call).
 */
export function perDtype<T>(compile: (dtype: DType) => T): (dtype: DType) => T {
  const compiled: Partial<Record<DType, T>> = {};
  return (dtype) => (compiled[dtype] ??= compile(dtype));
}
