import { CPU } from './device.js';
import { isFloatingPoint, type DType } from './dtype.js';
import { runKernel1 } from './dispatch.js';
import * as K from './kernelNames.js';
import type { Tensor } from './tensor.js';

/**
 * Note [Printing like PyTorch]
 * `toString` follows torch/_tensor_str.py with its default print options: one formatter per
 * tensor chosen from the elements shown (`_Formatter`: integer mode `1.`, fixed `1.2500`, or
 * scientific `1.2500e+03` when the nonzero finite magnitudes span more than 1000x, exceed 1e8
 * or go below 1e-4), every element padded to one width, rows wrapped at 80 columns,
 * summarization with `...` above 1000 elements (3 edge items), then the suffixes (device,
 * dtype, grad_fn or requires_grad), wrapped like `_add_suffixes`. Numbers are rounded half to
 * even like Python's format(), not half up like `toFixed`. int32 plays the role of torch's
 * int64 (wiregrad's default integer type), so like float32 and bool it prints no dtype.
 */
const PRECISION = 4;
const THRESHOLD = 1000;
const EDGE_ITEMS = 3;
const LINE_WIDTH = 80;
const PREFIX = 'tensor(';
const DEFAULT_DTYPES: ReadonlySet<DType> = new Set(['float32', 'int32', 'bool']);

/** Python's `'{:.Nf}'` / `'{:.Ne}'` of a finite |x|: JS rounds exact ties up, Python to even. */
function roundHalfEven(abs: number, digits: number, exponential: boolean): string {
  const rounded = exponential ? abs.toExponential(digits) : abs.toFixed(digits);
  const exact = exponential ? abs.toExponential(100) : abs.toFixed(100);
  const [mantissa, exp] = exact.split('e') as [string, string | undefined];
  const digitsOnly = mantissa.replace('.', '');
  const kept = (exponential ? 1 : mantissa.indexOf('.')) + digits;
  const isTie = /^50*$/.test(digitsOnly.slice(kept));
  if (!isTie || Number(digitsOnly[kept - 1]) % 2 === 1) return rounded;
  const truncated = mantissa.slice(0, mantissa.indexOf('.') + (digits > 0 ? digits + 1 : 0));
  return exp === undefined ? truncated : `${truncated}e${exp}`;
}

/** Python's format of a float with `digits` decimals, fixed or exponential (`1.0000e-05`: two exponent digits at least). */
function formatFloat(v: number, digits: number, exponential: boolean): string {
  if (Number.isNaN(v)) return 'nan';
  const sign = v < 0 || Object.is(v, -0) ? '-' : '';
  if (!Number.isFinite(v)) return `${sign}inf`;
  const s = roundHalfEven(Math.abs(v), digits, exponential);
  return sign + (exponential ? s.replace(/e([+-])(\d)$/, 'e$10$2') : s);
}

interface Formatter {
  width: number;
  format(v: number): string;
}

/** torch's `_Formatter` over the elements that will be shown. */
function makeFormatter(dtype: DType, shown: readonly number[]): Formatter {
  if (!isFloatingPoint(dtype)) {
    const str = dtype === 'bool' ? (v: number) => (v ? 'True' : 'False') : (v: number) => String(v);
    return { width: shown.reduce((w, v) => Math.max(w, str(v).length), 1), format: str };
  }
  const finite = shown.filter((v) => Number.isFinite(v) && v !== 0);
  if (finite.length === 0)
    return { width: 1, format: (v) => formatFloat(v, 0, false) + (Number.isFinite(v) ? '.' : '') };
  const abs = finite.map(Math.abs);
  const max = Math.max(...abs);
  const min = Math.min(...abs);
  const intMode = finite.every(Number.isInteger);
  const sci = max / min > 1000 || max > 1e8 || (!intMode && min < 1e-4);
  const format = sci
    ? (v: number) => formatFloat(v, PRECISION, true)
    : intMode
      ? (v: number) => formatFloat(v, 0, false) + (Number.isFinite(v) ? '.' : '')
      : (v: number) => formatFloat(v, PRECISION, false);
  return { width: finite.reduce((w, v) => Math.max(w, format(v).length), 1), format };
}

/** The indices of a dim that are printed; -1 stands for the `...` of a summarized dim. */
function shownIndices(size: number, summarize: boolean): number[] {
  if (!summarize || size <= 2 * EDGE_ITEMS) return Array.from({ length: size }, (_, i) => i);
  return [
    ...Array.from({ length: EDGE_ITEMS }, (_, i) => i),
    -1,
    ...Array.from({ length: EDGE_ITEMS }, (_, i) => size - EDGE_ITEMS + i),
  ];
}

function body(t: Tensor, summarize: boolean): string {
  const data = t.storage.data;
  const shown: number[] = [];
  const collect = (depth: number, offset: number): void => {
    if (depth === t.ndim) {
      shown.push(data[offset]!);
      return;
    }
    for (const i of shownIndices(t.shape[depth]!, summarize))
      if (i >= 0) collect(depth + 1, offset + i * t.strides[depth]!);
  };
  collect(0, t.offset);
  const fmt = makeFormatter(t.dtype, shown);
  const pad = (v: number) => fmt.format(v).padStart(fmt.width);
  if (t.ndim === 0) return pad(data[t.offset]!);

  const render = (depth: number, offset: number, indent: number): string => {
    const idx = shownIndices(t.shape[depth]!, summarize);
    if (depth === t.ndim - 1) {
      const items = idx.map((i) => (i < 0 ? ' ...' : pad(data[offset + i * t.strides[depth]!]!)));
      const perLine = Math.max(1, Math.floor((LINE_WIDTH - indent) / (fmt.width + 2)));
      const lines: string[] = [];
      for (let i = 0; i < items.length; i += perLine) lines.push(items.slice(i, i + perLine).join(', '));
      return `[${lines.join(`,\n${' '.repeat(indent + 1)}`)}]`;
    }
    const slices = idx.map((i) => (i < 0 ? '...' : render(depth + 1, offset + i * t.strides[depth]!, indent + 1)));
    return `[${slices.join(`,${'\n'.repeat(t.ndim - depth - 1)}${' '.repeat(indent + 1)}`)}]`;
  };
  return render(0, t.offset, PREFIX.length);
}

/** torch's `_add_suffixes`: `, suffix` while the last line stays within 80 columns, else on a new line. */
function addSuffixes(str: string, suffixes: readonly string[]): string {
  let out = PREFIX + str;
  let lastLine = out.length - out.lastIndexOf('\n') + 1;
  for (const s of suffixes) {
    if (lastLine + s.length + 2 > LINE_WIDTH) {
      out += `,\n${' '.repeat(PREFIX.length)}${s}`;
      lastLine = PREFIX.length + s.length;
    } else {
      out += `, ${s}`;
      lastLine += s.length + 2;
    }
  }
  return `${out})`;
}

/** PyTorch-like printout, e.g. `tensor([[1., 2.]], device='gpu:0', requires_grad=True)`. See Note [Printing like PyTorch]. */
export function formatTensor(t: Tensor): string {
  if (t.storage.disposed) return 'tensor(<disposed>)';
  const x = t.device === CPU ? t : runKernel1(K.ToDevice, [t], { device: CPU });
  const suffixes: string[] = [];
  if (t.device !== CPU) suffixes.push(`device='${t.device.toString()}'`);
  let str: string;
  if (t.numel === 0) {
    str = '[]';
    if (t.ndim !== 1) suffixes.push(`size=(${t.shape.join(', ')})`);
    if (t.dtype !== 'float32') suffixes.push(`dtype=torch.${t.dtype}`);
  } else {
    str = body(x, t.numel > THRESHOLD);
    if (!DEFAULT_DTYPES.has(t.dtype)) suffixes.push(`dtype=torch.${t.dtype}`);
  }
  if (t.gradFn) suffixes.push(`grad_fn=<${t.gradFn.name()}>`);
  else if (t.requiresGrad) suffixes.push('requires_grad=True');
  return addSuffixes(str, suffixes);
}
