import { type NestedArray, type Tensor, tensor } from '@wiregrad/autograd';
import { f64 } from './fixture.js';

/** A tensor from gen_attention.py's JSON: nested float64 lists, or { dtype, values } with '-inf' for -Infinity. */
export type Encoded = NestedArray | { dtype: 'bool' | 'float64'; values: unknown[] } | null;

const unInf = (v: unknown): unknown => (Array.isArray(v) ? v.map(unInf) : v === '-inf' ? -Infinity : v);

export function decode(e: Encoded): Tensor | null {
  if (e === null) return null;
  if (Array.isArray(e)) return f64(e);
  const o = e as { dtype: 'bool' | 'float64'; values: unknown[] };
  return tensor(unInf(o.values) as NestedArray, { dtype: o.dtype });
}

/** The options of a case, decoded and renamed from PyTorch's snake_case (key_padding_mask → keyPaddingMask). */
export function decodeOptions(opts: Record<string, Encoded | boolean>): Record<string, Tensor | boolean | null> {
  return Object.fromEntries(
    Object.entries(opts).map(([k, v]) => [
      k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
      typeof v === 'boolean' ? v : decode(v),
    ]),
  );
}

/** r = linspace(-1, 1) over y's elements (-1 for one element), as the generators weight each output. */
export function ramp(y: Tensor): Tensor {
  const n = y.numel;
  return f64(Array.from({ length: n }, (_, i) => (n === 1 ? -1 : -1 + (2 * i) / (n - 1)))).reshape([...y.shape]);
}
