import { typeName } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/**
 * Note [Optimizer argument validation]
 * The optimizers check the types of their options before their values (the @wiregrad/tensor
 * way, See Note [Argument validation]): `new SGD(params, { lr: '0.1' })` is an NnError
 * INVALID_ARGUMENT naming the optimizer and the option, never a TypeError from a comparison.
 * Each optimizer lists its options' kinds; a param group's own options are checked against
 * the kinds of the defaults they override.
 */
export type OptionKind = 'number' | 'bool' | 'pair';

const EXPECTED: Record<OptionKind, string> = { number: 'number', bool: 'bool', pair: 'tuple of two numbers' };

function hasKind(v: unknown, kind: OptionKind): boolean {
  if (kind === 'number') return typeof v === 'number';
  if (kind === 'bool') return typeof v === 'boolean';
  return Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number');
}

/** The kind of a default option value, or null for values no check applies to. */
export function kindOf(v: unknown): OptionKind | null {
  return typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'pair' : null;
}

/** `opts` (undefined, null or an options object) has the listed options, where given, of their kinds. */
export function checkOptionTypes(fn: string, opts: unknown, kinds: Readonly<Record<string, OptionKind>>): void {
  if (opts === undefined || opts === null) return;
  if (typeof opts !== 'object' || Array.isArray(opts))
    throw new NnError('INVALID_ARGUMENT', `${fn}(): argument 'opts' must be an options object, not ${typeName(opts)}`);
  for (const [key, kind] of Object.entries(kinds)) {
    const v = (opts as Record<string, unknown>)[key];
    if (v !== undefined && !hasKind(v, kind))
      throw new NnError('INVALID_ARGUMENT', `${fn}(): argument '${key}' must be ${EXPECTED[kind]}, not ${typeName(v)}`);
  }
}
