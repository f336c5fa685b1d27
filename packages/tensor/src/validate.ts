import { TensorError } from './errors.js';
import { Tensor } from './tensor.js';

/**
 * Note [Argument validation]
 * Every public entry point checks the types of its arguments before using them, so a wrong
 * argument reaches the user as a TensorError INVALID_ARGUMENT naming the function and the
 * argument in the words of PyTorch's argument parser (`view(): argument 'shape' must be
 * tuple of ints, not str`), never as a TypeError from deep inside an op. Only types are
 * checked here; values (a dim in range, shapes that match) are each op's own checks, with
 * PyTorch's messages. Where PyTorch takes sizes as varargs (`x.view(-1, 1)`), sizesArg
 * accepts both forms.
 */

/** A value's type as an error names it: PyTorch's names where it has one (int, float, str, Tensor). */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (v instanceof Tensor) return 'Tensor';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) ? 'int' : `float (${String(v)})`;
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'object':
      return Object.getPrototypeOf(v) === Object.prototype ? 'object' : ((v as object).constructor?.name ?? 'object');
    default:
      return typeof v;
  }
}

export function argumentError(fn: string, name: string, expected: string, got: unknown): TensorError {
  return new TensorError('INVALID_ARGUMENT', `${fn}(): argument '${name}' must be ${expected}, not ${typeName(got)}`);
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

export function checkTensor(fn: string, name: string, v: unknown): asserts v is Tensor {
  if (!(v instanceof Tensor)) throw argumentError(fn, name, 'Tensor', v);
}

export function checkTensorList(fn: string, name: string, v: unknown): asserts v is readonly Tensor[] {
  checkList(fn, name, v, 'tuple of Tensors', (t) => t instanceof Tensor);
}

export function checkInt(fn: string, name: string, v: unknown): asserts v is number {
  if (!isInt(v)) throw argumentError(fn, name, 'int', v);
}

export function checkNumber(fn: string, name: string, v: unknown): asserts v is number {
  if (typeof v !== 'number') throw argumentError(fn, name, 'number', v);
}

export function checkBool(fn: string, name: string, v: unknown): asserts v is boolean {
  if (typeof v !== 'boolean') throw argumentError(fn, name, 'bool', v);
}

export function checkScalar(fn: string, name: string, v: unknown): asserts v is number | boolean {
  if (typeof v !== 'number' && typeof v !== 'boolean') throw argumentError(fn, name, 'number or bool', v);
}

/** An options object: undefined, or a plain object (not null, an array or a tensor). */
export function checkOptions(fn: string, name: string, v: unknown): asserts v is object | undefined {
  if (v !== undefined && (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Tensor))
    throw argumentError(fn, name, 'an options object', v);
}

/** A list whose elements all pass `ok`, else PyTorch's "must be tuple of ints, but found element of type str at pos 0". */
function checkList(fn: string, name: string, v: unknown, expected: string, ok: (e: unknown) => boolean): void {
  if (!Array.isArray(v)) throw argumentError(fn, name, expected, v);
  const at = v.findIndex((e) => !ok(e));
  if (at >= 0) {
    throw new TensorError(
      'INVALID_ARGUMENT',
      `${fn}(): argument '${name}' must be ${expected}, but found element of type ${typeName(v[at])} at pos ${at}`,
    );
  }
}

/** One dim or a list of dims (a reduction's `dim`); undefined where `optional`. */
export function checkDims(fn: string, name: string, v: unknown, optional = true): asserts v is number | number[] {
  if ((optional && v === undefined) || isInt(v)) return;
  checkList(fn, name, v, 'int or tuple of ints', isInt);
}

/** Sizes given as one list or as varargs (PyTorch's `view(2, 3)` and `view((2, 3))`). */
export type Sizes = [readonly number[]] | number[];

/** The sizes of `args`: its one list, or its numbers; their values (integers, -1) are the op's to check. */
export function sizesArg(fn: string, name: string, args: readonly unknown[]): readonly number[] {
  const list = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  if (args.length === 1 && list === args && typeof args[0] !== 'number')
    throw argumentError(fn, name, 'tuple of ints', args[0]);
  checkList(fn, name, list, 'tuple of ints', (s) => typeof s === 'number');
  return list as number[];
}
