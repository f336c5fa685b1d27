import type { DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { isContiguousLayout } from '../../cpu/strided.js';
import { reducedShape } from '../../cpu/kernels/reduceLayout.js';
import { Tensor } from '../../../tensor.js';
import { castExpr, gpuMap } from '../gpuMap.js';
import { kernel, launch } from '../gpuRuntime.js';
import { gpuTensor, valueOf } from '../gpuTensor.js';

interface Layout {
  x: Tensor;
  O: number;
  R: number;
  I: number;
  keptShape: number[];
}

/** Note [Reduction layout] on the gpu: x contiguous (copied on the gpu when not) as [O, R, I]. */
function layout(x: Tensor, dims: readonly number[]): Layout {
  const nd = x.ndim;
  const all = dims.length === 0;
  const keptShape = x.shape.map((s, d) => (all || dims.includes(d) ? 1 : s));
  const first = all ? 0 : dims[0]!;
  const last = all ? nd - 1 : dims[dims.length - 1]!;
  const span = (shape: readonly number[], from: number, to: number) => shape.slice(from, Math.max(from, to)).reduce((p, s) => p * s, 1);
  const contiguous = (t: Tensor) => (isContiguousLayout(t.shape, t.strides) && t.offset === 0 ? t : gpuMap(K.Copy, 'x', [t], t.dtype));
  if (all || last - first + 1 === dims.length) {
    return { x: contiguous(x), O: span(x.shape, 0, first), R: span(x.shape, first, last + 1), I: span(x.shape, last + 1, nd), keptShape };
  }
  const order = [...x.shape.keys()].filter((d) => !dims.includes(d)).concat(dims);
  const moved = contiguous(new Tensor(x.storage, order.map((d) => x.shape[d]!), order.map((d) => x.strides[d]!), x.offset));
  return { x: moved, O: span(moved.shape, 0, nd - dims.length), R: span(moved.shape, nd - dims.length, nd), I: 1, keptShape };
}

/** A fold over r of [O, R, I] -> [O, I]: `step` updates acc with v (and best, its r, for arg reductions). */
function foldSource(init: string, step: string, result: string): string {
  return `function (meta, rr, x) {
const e = this.thread.x;
const o = Math.floor((e + 0.5) / meta[1]);
const i = e - o * meta[1];
let idx = o * rr * meta[1] + i;
let acc = ${init};
let best = 0;
for (let r = 0; r < rr; r++) {
  const v = x[idx];
  ${step}
  idx += meta[1];
}
return ${result};
}`;
}

const FOLDS = {
  sum: foldSource('0', 'acc += v;', 'acc'),
  prod: foldSource('1', 'acc *= v;', 'acc'),
  // the first element always replaces the initial value (GLSL has no Infinity literal)
  max: foldSource('0', 'if (v > acc || r === 0) { acc = v; best = r; }', 'acc'),
  min: foldSource('0', 'if (v < acc || r === 0) { acc = v; best = r; }', 'acc'),
  argmax: foldSource('0', 'if (v > acc || r === 0) { acc = v; best = r; }', 'best'),
  argmin: foldSource('0', 'if (v < acc || r === 0) { acc = v; best = r; }', 'best'),
} as const;

function fold(kind: keyof typeof FOLDS, l: Layout, dtype: DType, shape: readonly number[]): Tensor {
  const out = castExpr('acc', dtype) === 'acc' ? kind : `${kind}:${dtype}`;
  const value = launch(kernel(`fold:${out}`, () => FOLDS[kind].replace(/return acc;/, `return ${castExpr('acc', dtype)};`)), l.O * l.I, [[l.O, l.I], l.R, valueOf(l.x)]);
  return gpuTensor(value, shape, dtype, l.x.device);
}

function sumProd(kernelName: string, kind: 'sum' | 'prod'): KernelConfig {
  return {
    kernelName,
    device: 'gpu',
    kernelFunc: ([x], attrs) => {
      const dims = attrs.dims as number[];
      const l = layout(x!, dims);
      return [fold(kind, l, x!.dtype, reducedShape(l.keptShape, dims, attrs.keepdim as boolean))];
    },
  };
}

/**
 * Max/Min ([x], {dim, keepdim} -> [values], or [values, indices] with a dim) when `kind` is
 * given, Argmax/Argmin (-> [indices]) when it is null; like the cpu kernels.
 */
function extremum(kernelName: string, kind: 'max' | 'min' | null, arg: 'argmax' | 'argmin'): KernelConfig {
  return {
    kernelName,
    device: 'gpu',
    kernelFunc: ([x], attrs) => {
      const dims = attrs.dim === null ? [] : [attrs.dim as number];
      const l = layout(x!, dims);
      const shape = reducedShape(l.keptShape, dims, attrs.keepdim as boolean);
      const indices = () => fold(arg, l, 'int32', shape);
      if (kind === null) return [indices()];
      const values = fold(kind, l, x!.dtype, shape);
      return dims.length === 0 ? [values] : [values, indices()];
    },
  };
}

// Note [Stable softmax] on the gpu: per-row max and sum of exp(x - max), then one map
const SUM_EXP = `function (meta, rr, x, m) {
const e = this.thread.x;
const o = Math.floor((e + 0.5) / meta[1]);
const i = e - o * meta[1];
let idx = o * rr * meta[1] + i;
const mx = m[e];
let s = 0;
for (let r = 0; r < rr; r++) {
  s += Math.exp(x[idx] - mx);
  idx += meta[1];
}
return s;
}`;
const FINISH = (log: boolean) => `function (meta, x, m, s) {
const e = this.thread.x;
const o = Math.floor((e + 0.5) / (meta[0] * meta[1]));
const i = e - Math.floor((e + 0.5) / meta[1]) * meta[1];
const k = o * meta[1] + i;
return ${log ? 'x[e] - m[k] - Math.log(s[k])' : 'Math.exp(x[e] - m[k]) / s[k]'};
}`;

function softmaxKernel(kernelName: string, log: boolean): KernelConfig {
  return {
    kernelName,
    device: 'gpu',
    kernelFunc: ([x], attrs) => {
      const l = layout(x!, [attrs.dim as number]);
      const rowMax = fold('max', l, 'float32', [l.O * l.I]);
      // a row of -inf keeps max 0 (NaN like torch, not -inf - -inf); GLSL has no Infinity literal
      const m = gpuMap('softmaxMax', 'x < -3.4e38 ? 0 : x', [rowMax], 'float32');
      const s = launch(kernel('softmax:sumexp', () => SUM_EXP), l.O * l.I, [[l.O, l.I], l.R, valueOf(l.x), valueOf(m)]);
      const value = launch(kernel(`softmax:${log}`, () => FINISH(log)), l.O * l.R * l.I, [[l.R, l.I], valueOf(l.x), valueOf(m), s]);
      return [gpuTensor(value, x!.shape, x!.dtype, x!.device)];
    },
  };
}

export const reduceKernels: KernelConfig[] = [
  sumProd(K.Sum, 'sum'),
  sumProd(K.Prod, 'prod'),
  extremum(K.Max, 'max', 'argmax'),
  extremum(K.Min, 'min', 'argmin'),
  extremum(K.Argmax, null, 'argmax'),
  extremum(K.Argmin, null, 'argmin'),
  softmaxKernel(K.Softmax, false),
  softmaxKernel(K.LogSoftmax, true),
];
