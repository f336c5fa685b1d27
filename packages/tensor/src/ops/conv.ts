import { isFloatingPoint } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import { TensorError, fmtShape } from '../errors.js';
import * as K from '../kernelNames.js';
import type { Tensor } from '../tensor.js';
import { add } from './binary.js';
import { matmul } from './matmul.js';
import { contiguous } from './copy.js';
import { expand, reshape, squeeze, unsqueeze } from './view.js';

export type Pair = number | readonly [number, number];

/** `n` or `[a, b]` -> `[a, b]`, checked to be integers of at least `min`. */
export function pair(v: Pair, name: string, min: number): [number, number] {
  const p: [number, number] = typeof v === 'number' ? [v, v] : [v[0], v[1]];
  if (!p.every((x) => Number.isInteger(x)))
    throw new TensorError('INVALID_ARGUMENT', `${name} must be an integer or a pair of integers, got ${String(v)}`);
  if (p.some((x) => x < min)) {
    if (name === 'stride') throw new TensorError('INVALID_ARGUMENT', 'non-positive stride is not supported');
    throw new TensorError(
      'INVALID_ARGUMENT',
      `${name} must be ${min === 0 ? 'non-negative' : 'positive'}, got ${String(v)}`,
    );
  }
  return p;
}

/**
 * Note [im2col]
 * Convolution and pooling are composites of two kernels (Note [Kernel names]): Im2Col copies
 * every kh×kw window (with stride, dilation and padding, possibly asymmetric) into a column, so
 * a convolution is one matmul of the weights [O, C·kh·kw] with the columns [N, C·kh·kw, L] and
 * pooling is a max or a mean down each column's window; Col2Im, the adjoint, sums columns back
 * into the image. Each is the other's gradient, so conv and pooling get exact gradients (the
 * weight's through matmul, the input's through Col2Im) without rules of their own.
 */
export interface WindowOptions {
  stride?: Pair;
  /** symmetric [ph, pw], or [top, bottom, left, right] */
  padding?: Pair | readonly [number, number, number, number];
  dilation?: Pair;
  /** the value read in the padding (0 for conv and average pools, -inf for max pools) */
  padValue?: number;
}

interface Geometry {
  kernel: [number, number];
  stride: [number, number];
  padding: [number, number, number, number];
  dilation: [number, number];
  outSize: [number, number];
}

function geometry(inputSize: readonly number[], kernelSize: Pair, opts: WindowOptions): Geometry {
  const kernel = pair(kernelSize, 'kernel_size', 1);
  const stride = pair(opts.stride ?? 1, 'stride', 1);
  const dilation = pair(opts.dilation ?? 1, 'dilation', 1);
  const pad = opts.padding ?? 0;
  const padding: [number, number, number, number] =
    typeof pad !== 'number' && pad.length === 4
      ? [pad[0], pad[1], pad[2], pad[3]]
      : ((p) => [p[0], p[0], p[1], p[1]] as [number, number, number, number])(pair(pad as Pair, 'padding', 0));
  if (padding.some((p) => !Number.isInteger(p) || p < 0))
    throw new TensorError('INVALID_ARGUMENT', `padding must be non-negative integers, got [${padding.join(', ')}]`);
  const [H, W] = inputSize as [number, number];
  const out = (size: number, before: number, after: number, k: number, s: number, d: number) =>
    Math.floor((size + before + after - d * (k - 1) - 1) / s) + 1;
  const outSize: [number, number] = [
    out(H, padding[0], padding[1], kernel[0], stride[0], dilation[0]),
    out(W, padding[2], padding[3], kernel[1], stride[1], dilation[1]),
  ];
  return { kernel, stride, padding, dilation, outSize };
}

function checkFloat4d(x: Tensor, op: string): void {
  if (x.ndim !== 4)
    throw new TensorError('INVALID_DIM', `${op} expects a 4-D input [N, C, H, W], got ${fmtShape(x.shape)}`);
  if (!isFloatingPoint(x.dtype)) throw new TensorError('DTYPE_MISMATCH', `"${op}" not implemented for '${x.dtype}'`);
}

/** [N, C, H, W] -> [N, C·kh·kw, L]: every window as a column (torch.nn.functional.unfold). See Note [im2col]. */
export function im2col(x: Tensor, kernelSize: Pair, opts: WindowOptions = {}): Tensor {
  checkFloat4d(x, 'im2col');
  const g = geometry(x.shape.slice(2), kernelSize, opts);
  if (g.outSize[0] <= 0 || g.outSize[1] <= 0) {
    throw new TensorError(
      'INVALID_SHAPE',
      `im2col: the windows do not fit: input ${fmtShape(x.shape)}, kernel ${g.kernel.join('x')}, output ${g.outSize.join('x')}`,
    );
  }
  return runKernel1(K.Im2Col, [x], { ...g, padValue: opts.padValue ?? 0 });
}

/** [N, C·kh·kw, L] -> [N, C, H, W]: columns summed back into the image (torch.nn.functional.fold), Im2Col's adjoint. */
export function col2im(
  cols: Tensor,
  outputSize: Pair,
  kernelSize: Pair,
  opts: Omit<WindowOptions, 'padValue'> = {},
): Tensor {
  if (cols.ndim !== 3)
    throw new TensorError('INVALID_DIM', `col2im expects a 3-D input [N, C·kh·kw, L], got ${fmtShape(cols.shape)}`);
  const inputSize = pair(outputSize, 'output_size', 1);
  const g = geometry(inputSize, kernelSize, opts);
  const kk = g.kernel[0] * g.kernel[1];
  if (cols.shape[1]! % kk !== 0 || cols.shape[2] !== g.outSize[0] * g.outSize[1]) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `col2im: input ${fmtShape(cols.shape)} does not hold ${g.kernel.join('x')} windows at ${g.outSize[0] * g.outSize[1]} positions of a ${inputSize.join('x')} image`,
    );
  }
  return runKernel1(K.Col2Im, [cols], { ...g, inputSize });
}

export interface ConvOptions {
  stride?: Pair;
  /** symmetric [ph, pw], or 'same' (stride 1; asymmetric when dilation·(k-1) is odd, as PyTorch) or 'valid' (0) */
  padding?: Pair | 'same' | 'valid';
  dilation?: Pair;
  groups?: number;
}

/**
 * 2-D convolution (cross-correlation, as PyTorch): x [N, C, H, W] (or [C, H, W]), weight
 * [O, C/groups, kh, kw], bias [O] -> [N, O, oh, ow]. PyTorch's argument checks and messages.
 */
export function conv2d(x: Tensor, weight: Tensor, bias: Tensor | null = null, opts: ConvOptions = {}): Tensor {
  if (x.ndim !== 3 && x.ndim !== 4)
    throw new TensorError(
      'INVALID_DIM',
      `Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [${x.shape.join(', ')}]`,
    );
  if (x.ndim === 3) return squeeze(conv2d(unsqueeze(x, 0), weight, bias, opts), 0);
  if (weight.ndim !== 4)
    throw new TensorError(
      'INVALID_DIM',
      `weight should have at least three dimensions; conv2d expects [O, C/groups, kh, kw], got ${fmtShape(weight.shape)}`,
    );
  const groups = opts.groups ?? 1;
  if (!Number.isInteger(groups) || groups < 1)
    throw new TensorError('INVALID_ARGUMENT', 'non-positive groups is not supported');
  const [N, C, H, W] = x.shape as [number, number, number, number];
  const [O, Cg, kh, kw] = weight.shape as [number, number, number, number];
  if (O % groups !== 0) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `Given groups=${groups}, expected weight to be divisible by ${groups} at dimension 0, but got weight of size [${fmtShape(weight.shape)}] instead`,
    );
  }
  if (Cg * groups !== C) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `Given groups=${groups}, weight of size ${fmtShape(weight.shape)}, expected input${fmtShape(x.shape)} to have ${Cg * groups} channels, but got ${C} channels instead`,
    );
  }
  if (bias && (bias.ndim !== 1 || bias.numel !== O)) {
    throw new TensorError(
      'SHAPE_MISMATCH',
      `Given weight of size ${fmtShape(weight.shape)}, expected bias to be 1-dimensional with ${O} elements, but got bias of size ${fmtShape(bias.shape)} instead`,
    );
  }
  if (weight.dtype !== x.dtype)
    throw new TensorError(
      'DTYPE_MISMATCH',
      `Input type (${x.dtype}) and weight type (${weight.dtype}) should be the same`,
    );
  const dilation = pair(opts.dilation ?? 1, 'dilation', 1);
  const stride = pair(opts.stride ?? 1, 'stride', 1);
  let padding: [number, number, number, number];
  const p = opts.padding ?? 0;
  if (p === 'valid') padding = [0, 0, 0, 0];
  else if (p === 'same') {
    if (stride[0] !== 1 || stride[1] !== 1)
      throw new TensorError('INVALID_ARGUMENT', "padding='same' is not supported for strided convolutions");
    const total = [dilation[0] * (kh - 1), dilation[1] * (kw - 1)] as const;
    padding = [
      Math.floor(total[0] / 2),
      total[0] - Math.floor(total[0] / 2),
      Math.floor(total[1] / 2),
      total[1] - Math.floor(total[1] / 2),
    ];
  } else if (typeof p === 'string') throw new TensorError('INVALID_ARGUMENT', `Invalid padding string: '${p}'`);
  else {
    const [ph, pw] = pair(p, 'padding', 0);
    padding = [ph, ph, pw, pw];
  }
  const padded = [H + padding[0] + padding[1], W + padding[2] + padding[3]];
  const span = [dilation[0] * (kh - 1) + 1, dilation[1] * (kw - 1) + 1];
  if (padded[0]! < span[0]! || padded[1]! < span[1]!) {
    throw new TensorError(
      'INVALID_SHAPE',
      `Calculated padded input size per channel: (${padded[0]} x ${padded[1]}). Kernel size: (${span[0]} x ${span[1]}). Kernel size can't be greater than actual input size`,
    );
  }
  const cols = im2col(x, [kh, kw], { stride, padding, dilation });
  const [oh, ow] = geometry([H, W], [kh, kw], { stride, padding, dilation }).outSize;
  const L = oh * ow;
  // [g, O/g, Cg·kh·kw] @ [N, g, Cg·kh·kw, L] -> [N, g, O/g, L]
  const w = reshape(weight, [groups, O / groups, Cg * kh * kw]);
  const grouped = reshape(cols, [N, groups, Cg * kh * kw, L]);
  const product = matmul(w, grouped);
  const out = reshape(product, [N, O, oh, ow]);
  // the temporaries release their holds (Note [Releasing storages]), so a conv in a loop reuses
  // its columns' and its result's memory instead of leaving them to the GC
  for (const t of [cols, grouped, w, product]) if (t !== out) t.dispose();
  if (!bias) return out;
  // the bias spread over one sample's [O, oh, ow] first, so the add broadcasts a contiguous row
  // over the batch (the fast elementwise case) instead of one value per (n, o) plane
  const column = reshape(bias, [O, 1, 1]);
  const spread = expand(column, [O, oh, ow]);
  const plane = contiguous(spread);
  const biased = add(out, plane);
  for (const t of [out, column, spread, plane]) t.dispose();
  return biased;
}

/** 1-D convolution: x [N, C, L] (or [C, L]), weight [O, C/groups, k] -> [N, O, l], as conv2d over a height of 1. */
export function conv1d(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  opts: { stride?: number; padding?: number | 'same' | 'valid'; dilation?: number; groups?: number } = {},
): Tensor {
  if (x.ndim !== 2 && x.ndim !== 3)
    throw new TensorError(
      'INVALID_DIM',
      `Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [${x.shape.join(', ')}]`,
    );
  if (weight.ndim !== 3)
    throw new TensorError('INVALID_DIM', `conv1d expects a weight [O, C/groups, k], got ${fmtShape(weight.shape)}`);
  const { stride = 1, padding = 0, dilation = 1, groups = 1 } = opts;
  const pad2: Pair | 'same' | 'valid' = typeof padding === 'string' ? padding : [0, padding];
  const y = conv2d(unsqueeze(x, -2), unsqueeze(weight, 2), bias, {
    stride: [1, stride],
    padding: pad2,
    dilation: [1, dilation],
    groups,
  });
  return squeeze(y, -2);
}
