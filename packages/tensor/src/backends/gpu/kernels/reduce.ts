import type { DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelConfigOf } from '../../../kernelRegistry.js';
import type { ExtremumKernelName, FoldKernelName, SoftmaxKernelName } from '../../../kernelSpecs.js';
import { isContiguousLayout } from '../../cpu/strided.js';
import { reducedShape } from '../../cpu/kernels/reduceLayout.js';
import { Tensor } from '../../../tensor.js';
import { gpuMap } from '../gpuMap.js';
import { gpuTensor, valueOf } from '../gpuTensor.js';
import { type FoldKind, foldValue } from './fold.js';

interface Layout {
  x: Tensor;
  O: number;
  R: number;
  I: number;
  keptShape: number[];
}

/** See Note [Reduction layout]; on the gpu: x contiguous (copied on the gpu when not) as [O, R, I]. */
function layout(x: Tensor, dims: readonly number[]): Layout {
  const nd = x.ndim;
  const all = dims.length === 0;
  const keptShape = x.shape.map((s, d) => (all || dims.includes(d) ? 1 : s));
  const first = all ? 0 : dims[0]!;
  const last = all ? nd - 1 : dims[dims.length - 1]!;
  const span = (shape: readonly number[], from: number, to: number) =>
    shape.slice(from, Math.max(from, to)).reduce((p, s) => p * s, 1);
  const contiguous = (t: Tensor) =>
    isContiguousLayout(t.shape, t.strides) && t.offset === 0 ? t : gpuMap(K.Copy, 'x', [t], t.dtype);
  if (all || last - first + 1 === dims.length) {
    return {
      x: contiguous(x),
      O: span(x.shape, 0, first),
      R: span(x.shape, first, last + 1),
      I: span(x.shape, last + 1, nd),
      keptShape,
    };
  }
  const order = [...x.shape.keys()].filter((d) => !dims.includes(d)).concat(dims);
  const moved = contiguous(
    new Tensor(
      x.storage,
      order.map((d) => x.shape[d]!),
      order.map((d) => x.strides[d]!),
      x.offset,
    ),
  );
  return {
    x: moved,
    O: span(moved.shape, 0, nd - dims.length),
    R: span(moved.shape, nd - dims.length, nd),
    I: 1,
    keptShape,
  };
}

function fold(kind: FoldKind, l: Layout, dtype: DType, shape: readonly number[], m?: Tensor): Tensor {
  return gpuTensor(foldValue(kind, valueOf(l.x), l.O, l.R, l.I, dtype, m && valueOf(m)), shape, dtype, l.x.device);
}

function sumProd(kernelName: FoldKernelName, kind: 'sum' | 'prod'): KernelConfigOf<FoldKernelName> {
  return {
    kernelName,
    device: 'gpu',
    kernelFunc: ([x], attrs) => {
      const dims = attrs.dims;
      const l = layout(x!, dims);
      return [fold(kind, l, x!.dtype, reducedShape(l.keptShape, dims, attrs.keepdim))];
    },
  };
}

/**
 * Max/Min ([x], {dim, keepdim} -> [values], or [values, indices] with a dim) when `kind` is
 * given, Argmax/Argmin (-> [indices]) when it is null; like the cpu kernels.
 */
function extremum(
  kernelName: ExtremumKernelName,
  kind: 'max' | 'min',
  withValues: boolean,
): KernelConfigOf<ExtremumKernelName> {
  return {
    kernelName,
    device: 'gpu',
    kernelFunc: ([x], attrs) => {
      const dims = attrs.dim === null ? [] : [attrs.dim];
      const l = layout(x!, dims);
      const shape = reducedShape(l.keptShape, dims, attrs.keepdim);
      const values = fold(kind, l, x!.dtype, shape);
      if (withValues && dims.length === 0) return [values];
      const indices = fold('firstEqual', l, 'int32', shape, values);
      if (withValues) return [values, indices];
      values.dispose();
      return [indices];
    },
  };
}

// See Note [Stable softmax]; on the gpu: per-row max, exp(x - max), its per-row sum, then one map
function softmaxKernel(kernelName: SoftmaxKernelName, log: boolean): KernelConfigOf<SoftmaxKernelName> {
  return {
    kernelName,
    device: 'gpu',
    kernelFunc: ([x], attrs) => {
      const l = layout(x!, [attrs.dim]);
      const rows = [l.O, 1, l.I];
      const x3 = new Tensor(l.x.storage, [l.O, l.R, l.I]);
      const rowMax = fold('max', l, 'float32', rows);
      // a row of -inf keeps max 0 (NaN like torch, not -inf - -inf); GLSL has no Infinity literal
      const m = gpuMap('softmaxMax', 'x < -3.4e38 ? 0 : x', [rowMax], 'float32');
      const e = gpuMap('softmaxExp', 'Math.exp(x - y)', [x3, m], 'float32');
      const s = gpuTensor(foldValue('sum', valueOf(e), l.O, l.R, l.I, 'float32'), rows, 'float32', x!.device);
      const out = log
        ? gpuMap('logSoftmax', 'x - y - Math.log(z)', [x3, m, s], 'float32')
        : gpuMap('softmax', 'x / y', [e, s], 'float32');
      for (const t of [rowMax, m, e, s, ...(l.x.storage === x!.storage ? [] : [l.x])]) t.dispose();
      return [new Tensor(out.storage, x!.shape)];
    },
  };
}

export const reduceKernels: KernelConfig[] = [
  sumProd(K.Sum, 'sum'),
  sumProd(K.Prod, 'prod'),
  extremum(K.Max, 'max', true),
  extremum(K.Min, 'min', true),
  extremum(K.Argmax, 'max', false),
  extremum(K.Argmin, 'min', false),
  softmaxKernel(K.Softmax, false),
  softmaxKernel(K.LogSoftmax, true),
];
