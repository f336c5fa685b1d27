import { isFloatingPoint } from '../dtype.js';
import { TensorError, fmtShape } from '../errors.js';
import { Tensor } from '../tensor.js';
import { div } from './binary.js';
import { type Pair, im2col, pair } from './conv.js';
import { matmul } from './matmul.js';
import { max, mean, sum } from './reduce.js';
import { reshape, squeeze, transpose, unsqueeze } from './view.js';

export interface PoolOptions {
  /** default: the kernel size */
  stride?: Pair;
  padding?: Pair;
  /** the last window may start in the right/bottom padding, as PyTorch's ceil_mode */
  ceilMode?: boolean;
}

export interface MaxPoolOptions extends PoolOptions {
  dilation?: Pair;
}

export interface AvgPoolOptions extends PoolOptions {
  /** whether the zero padding counts in each window's divisor (default true) */
  countIncludePad?: boolean;
  divisorOverride?: number;
}

/** PyTorch's pooling_output_shape: floor (or ceil, without starting a window past the padding). */
function outputSize(size: number, k: number, pad: number, stride: number, dilation: number, ceil: boolean): number {
  const span = size + 2 * pad - dilation * (k - 1) - 1;
  let out = Math.floor((span + (ceil ? stride - 1 : 0)) / stride) + 1;
  if (ceil && (out - 1) * stride >= size + pad) out--;
  return out;
}

interface Pool {
  x: Tensor;
  batched: boolean;
  kernel: [number, number];
  stride: [number, number];
  padding: [number, number];
  dilation: [number, number];
  out: [number, number];
  /** im2col padding [top, bottom, left, right]: the pool's own, plus what ceil mode's last window needs */
  colPadding: [number, number, number, number];
}

function poolGeometry(x: Tensor, kernelSize: Pair, opts: MaxPoolOptions, op: string): Pool {
  if ((x.ndim !== 3 && x.ndim !== 4) || x.numel === 0)
    throw new TensorError('INVALID_DIM', 'non-empty 3D or 4D (batch mode) tensor expected for input');
  if (!isFloatingPoint(x.dtype)) throw new TensorError('DTYPE_MISMATCH', `"${op}" not implemented for '${x.dtype}'`);
  const batched = x.ndim === 4;
  const x4 = batched ? x : unsqueeze(x, 0);
  const kernel = pair(kernelSize, 'kernel_size', 1);
  const stride = pair(opts.stride ?? kernel, 'stride', 1);
  const padding = pair(opts.padding ?? 0, 'padding', 0);
  const dilation = pair(opts.dilation ?? 1, 'dilation', 1);
  if (padding[0] > kernel[0] / 2 || padding[1] > kernel[1] / 2) {
    throw new TensorError(
      'INVALID_ARGUMENT',
      `pad should be at most half of kernel size, but got pad=${padding[0] > kernel[0] / 2 ? padding[0] : padding[1]} and kernel_size=${padding[0] > kernel[0] / 2 ? kernel[0] : kernel[1]}`,
    );
  }
  const [C, H, W] = x4.shape.slice(1) as [number, number, number];
  const ceil = opts.ceilMode ?? false;
  const out: [number, number] = [
    outputSize(H, kernel[0], padding[0], stride[0], dilation[0], ceil),
    outputSize(W, kernel[1], padding[1], stride[1], dilation[1], ceil),
  ];
  if (out[0] < 1 || out[1] < 1) {
    throw new TensorError(
      'INVALID_SHAPE',
      `Given input size: (${C}x${H}x${W}). Calculated output size: (${C}x${Math.max(out[0], 0)}x${Math.max(out[1], 0)}). Output size is too small`,
    );
  }
  // the windows of the last row/column may reach past the padding in ceil mode: pad that far too
  const extra = (o: number, size: number, k: number, p: number, s: number, d: number) =>
    Math.max(0, (o - 1) * s + d * (k - 1) + 1 - (size + 2 * p));
  const colPadding: [number, number, number, number] = [
    padding[0],
    padding[0] + extra(out[0], H, kernel[0], padding[0], stride[0], dilation[0]),
    padding[1],
    padding[1] + extra(out[1], W, kernel[1], padding[1], stride[1], dilation[1]),
  ];
  return { x: x4, batched, kernel, stride, padding, dilation, out, colPadding };
}

/** [N, C·kh·kw, L] windows of the pool -> [N, C, kh·kw, L]. */
function windows(p: Pool, padValue: number): Tensor {
  const [N, C] = p.x.shape as [number, number];
  const cols = im2col(p.x, p.kernel, { stride: p.stride, padding: p.colPadding, dilation: p.dilation, padValue });
  return reshape(cols, [N, C, p.kernel[0] * p.kernel[1], p.out[0] * p.out[1]]);
}

const unbatch = (t: Tensor, p: Pool) => (p.batched ? t : squeeze(t, 0));

/**
 * Max over each window, with PyTorch's indices into the flattened input plane (ih·W + iw, the
 * first maximum in window order); -inf pads, so padding never wins. See Note [im2col].
 */
export function maxPool2dWithIndices(
  x: Tensor,
  kernelSize: Pair,
  opts: MaxPoolOptions = {},
): { values: Tensor; indices: Tensor } {
  const p = poolGeometry(x, kernelSize, opts, 'max_pool2d');
  const [N, C] = p.x.shape as [number, number];
  const W = p.x.shape[3]!;
  const { values, indices: k } = max(windows(p, -Infinity), 2);
  const [oh, ow] = p.out;
  const kw = p.kernel[1];
  const win = k.toTypedArray();
  const flat = new Int32Array(win.length);
  for (let e = 0; e < win.length; e++) {
    const l = e % (oh * ow);
    const ki = Math.floor(win[e]! / kw);
    const kj = win[e]! % kw;
    const ih = Math.floor(l / ow) * p.stride[0] - p.padding[0] + ki * p.dilation[0];
    const iw = (l % ow) * p.stride[1] - p.padding[1] + kj * p.dilation[1];
    flat[e] = ih * W + iw;
  }
  const indices = Tensor.fromTypedArray(flat, [N, C, oh, ow], 'int32');
  return {
    values: unbatch(reshape(values, [N, C, oh, ow]), p),
    indices: unbatch(p.x.device.type === 'cpu' ? indices : indices.to(p.x.device), p),
  };
}

/** Max over each kh×kw window: [N, C, H, W] (or [C, H, W]) -> [N, C, oh, ow]. */
export function maxPool2d(x: Tensor, kernelSize: Pair, opts: MaxPoolOptions = {}): Tensor {
  const p = poolGeometry(x, kernelSize, opts, 'max_pool2d');
  const [N, C] = p.x.shape as [number, number];
  return unbatch(reshape(max(windows(p, -Infinity), 2).values, [N, C, p.out[0], p.out[1]]), p);
}

/** PyTorch's avg_pool2d divisor per output position: the window's size clipped to the padded input (or to the input). */
function divisors(p: Pool, H: number, W: number, countIncludePad: boolean): Float64Array {
  const [oh, ow] = p.out;
  const d = new Float64Array(oh * ow);
  for (let i = 0; i < oh; i++) {
    for (let j = 0; j < ow; j++) {
      let hs = i * p.stride[0] - p.padding[0];
      let ws = j * p.stride[1] - p.padding[1];
      let he = Math.min(hs + p.kernel[0], H + p.padding[0]);
      let we = Math.min(ws + p.kernel[1], W + p.padding[1]);
      const poolSize = (he - hs) * (we - ws);
      hs = Math.max(hs, 0);
      ws = Math.max(ws, 0);
      he = Math.min(he, H);
      we = Math.min(we, W);
      d[i * ow + j] = countIncludePad ? poolSize : (he - hs) * (we - ws);
    }
  }
  return d;
}

/** Mean over each window (zero padding; countIncludePad and divisorOverride as PyTorch). */
export function avgPool2d(x: Tensor, kernelSize: Pair, opts: AvgPoolOptions = {}): Tensor {
  const p = poolGeometry(x, kernelSize, opts, 'avg_pool2d');
  const [N, C, H, W] = p.x.shape as [number, number, number, number];
  const sums = sum(windows(p, 0), 2);
  const { divisorOverride, countIncludePad = true } = opts;
  if (divisorOverride !== undefined && !(divisorOverride !== 0 && Number.isFinite(divisorOverride)))
    throw new TensorError('INVALID_ARGUMENT', 'divisor must be not zero');
  const d =
    divisorOverride ??
    Tensor.fromTypedArray(divisors(p, H, W, countIncludePad), [p.out[0] * p.out[1]], 'float64').to({
      dtype: x.dtype,
      device: x.device,
    });
  return unbatch(reshape(div(sums, d), [N, C, p.out[0], p.out[1]]), p);
}

/** [out, size] averaging matrix of adaptive pooling: row i averages [floor(i·size/out), ceil((i+1)·size/out)). */
function adaptiveMatrix(out: number, size: number): Float64Array {
  const m = new Float64Array(out * size);
  for (let i = 0; i < out; i++) {
    const start = Math.floor((i * size) / out);
    const end = Math.ceil(((i + 1) * size) / out);
    for (let h = start; h < end; h++) m[i * size + h] = 1 / (end - start);
  }
  return m;
}

/**
 * Averages over PyTorch's adaptive windows to a fixed output size: [N, C, H, W] -> [N, C, oh, ow]
 * (null keeps that dim's size). Separable, so it is two matmuls with averaging matrices.
 */
export function adaptiveAvgPool2d(x: Tensor, outputSize: number | readonly [number | null, number | null]): Tensor {
  if ((x.ndim !== 3 && x.ndim !== 4) || x.shape.some((s, d) => d > 0 && s === 0)) {
    throw new TensorError(
      'INVALID_DIM',
      `adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ${fmtShape(x.shape)}`,
    );
  }
  if (!isFloatingPoint(x.dtype))
    throw new TensorError('DTYPE_MISMATCH', `"adaptive_avg_pool2d" not implemented for '${x.dtype}'`);
  const [H, W] = x.shape.slice(-2) as [number, number];
  const req = typeof outputSize === 'number' ? [outputSize, outputSize] : outputSize;
  const oh = req[0] ?? H;
  const ow = req[1] ?? W;
  if (!(Number.isInteger(oh) && Number.isInteger(ow) && oh > 0 && ow > 0))
    throw new TensorError(
      'INVALID_ARGUMENT',
      `adaptive_avg_pool2d: output size must be positive integers, got [${oh}, ${ow}]`,
    );
  if (oh === 1 && ow === 1) return mean(x, [-2, -1], true);
  const mat = (o: number, s: number) =>
    Tensor.fromTypedArray(adaptiveMatrix(o, s), [o, s], 'float64').to({ dtype: x.dtype, device: x.device });
  return matmul(mat(oh, H), matmul(x, transpose(mat(ow, W), 0, 1)));
}
