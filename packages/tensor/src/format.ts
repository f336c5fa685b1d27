import { isFloatingPoint } from './dtype.js';
import { toTypedArray } from './read.js';
import type { Tensor } from './tensor.js';

const SUMMARIZE_ABOVE = 1000;
const EDGE_ITEMS = 3;

/** How every element is printed, chosen once per tensor like PyTorch's _Formatter. */
function elementFormatter(t: Tensor, values: ArrayLike<number>): (v: number) => string {
  if (t.dtype === 'bool') return (v) => (v ? 'True' : 'False');
  if (!isFloatingPoint(t.dtype)) return (v) => String(v);
  let allInt = true;
  let maxAbs = 0;
  let minAbs = Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    if (!Number.isInteger(v)) allInt = false;
    const a = Math.abs(v);
    if (a > maxAbs) maxAbs = a;
    if (a !== 0 && a < minAbs) minAbs = a;
  }
  const special = (v: number) => (Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf');
  const sci = maxAbs >= 1e8 || (minAbs < 1e-4 && minAbs !== Infinity) || (minAbs !== Infinity && maxAbs / minAbs > 1000 && !allInt);
  if (sci) return (v) => (Number.isFinite(v) ? v.toExponential(4).replace(/e([+-])(\d)$/, 'e$10$2') : special(v));
  if (allInt) return (v) => (Number.isFinite(v) ? `${v.toFixed(0)}.` : special(v));
  return (v) => (Number.isFinite(v) ? v.toFixed(4) : special(v));
}

/** PyTorch-like printout, e.g. `tensor([[1., 2.]], device='gpu:0')`. */
export function formatTensor(t: Tensor): string {
  if (t.storage.disposed) return 'tensor(<disposed>)';
  const flat = toTypedArray(t);
  const fmt = elementFormatter(t, flat);
  const strs = Array.from(flat, fmt);
  const width = strs.reduce((w, s) => Math.max(w, s.length), 0);
  const summarize = t.numel > SUMMARIZE_ABOVE;
  const strides: number[] = [];
  for (let d = 0, acc = t.numel; d < t.ndim; d++) strides.push((acc /= t.shape[d]! || 1));
  const indent = 'tensor('.length;

  const render = (depth: number, base: number): string => {
    if (depth === t.ndim) return strs[base]!.padStart(width);
    const n = t.shape[depth]!;
    const idx =
      summarize && n > 2 * EDGE_ITEMS
        ? [...Array.from({ length: EDGE_ITEMS }, (_, i) => i), -1, ...Array.from({ length: EDGE_ITEMS }, (_, i) => n - EDGE_ITEMS + i)]
        : Array.from({ length: n }, (_, i) => i);
    const parts = idx.map((i) => (i < 0 ? '...' : render(depth + 1, base + i * strides[depth]!)));
    const last = depth === t.ndim - 1;
    const sep = last ? ', ' : `,${'\n'.repeat(t.ndim - depth - 1)}${' '.repeat(indent + depth + 1)}`;
    return `[${parts.join(sep)}]`;
  };

  const body = t.ndim === 0 ? fmt(flat[0]!) : render(0, 0);
  const extras: string[] = [];
  if (t.device.type !== 'cpu') extras.push(`device='${t.device.toString()}'`);
  if (t.dtype !== 'float32' && t.dtype !== 'bool') extras.push(`dtype=${t.dtype}`);
  if (t.gradFn) extras.push(`grad_fn=<${t.gradFn.name()}>`);
  else if (t.requiresGrad) extras.push('requires_grad=True');
  return `tensor(${[body, ...extras].join(', ')})`;
}
