import { Tensor, typeName } from '@wiregrad/tensor';
import { AutogradError } from './errors.js';

// Argument checks of the autograd entry points, as @wiregrad/tensor's (See Note [Argument validation]).

function argumentError(fn: string, name: string, expected: string, got: unknown): AutogradError {
  return new AutogradError('INVALID_ARGUMENT', `${fn}(): argument '${name}' must be ${expected}, not ${typeName(got)}`);
}

export function checkTensor(fn: string, name: string, v: unknown): void {
  if (!(v instanceof Tensor)) throw argumentError(fn, name, 'Tensor', v);
}

/** A tensor or a list of them (null entries allowed where `nullable`, for gradients PyTorch lets be None). */
export function checkTensors(fn: string, name: string, v: unknown, nullable = false): void {
  const ok = (t: unknown) => t instanceof Tensor || (nullable && (t === null || t === undefined));
  if (Array.isArray(v) ? !v.every(ok) : !ok(v))
    throw argumentError(fn, name, nullable ? 'Tensor, null or a list of them' : 'Tensor or a list of Tensors', v);
}

/** An options object whose listed fields, when given, are booleans. */
export function checkOptions(fn: string, v: unknown, booleans: readonly string[]): void {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Tensor)
    throw argumentError(fn, 'opts', 'an options object', v);
  for (const key of booleans) {
    const flag = (v as Record<string, unknown>)[key];
    if (flag !== undefined && typeof flag !== 'boolean') throw argumentError(fn, key, 'bool', flag);
  }
}

export function checkFunction(fn: string, name: string, v: unknown): void {
  if (typeof v !== 'function') throw argumentError(fn, name, 'function', v);
}
