import { TensorError } from '../../../errors.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelFunc } from '../../../kernelRegistry.js';
import { Tensor } from '../../../tensor.js';
import { compileElementwise } from '../elementwise.js';
import { perDtype } from '../compiledLoops.js';
import { forEachOffset } from '../strided.js';
import { copyIntoTensor } from './copy.js';
import { runElementwise } from './tensorOperands.js';

/**
 * Note [Index bounds]
 * Every index a kernel reads is checked before it is used as an offset, so a bad index is
 * torch's error ("index 5 is out of bounds for dimension 0 with size 3"), never a read of a
 * neighbouring row or past the storage. Like torch's gather/scatter, negative indices are
 * out of bounds too (only select() and slicing count from the end).
 */
export function checkIndex(i: number, size: number, dim: number): number {
  if (i < 0 || i >= size)
    throw new TensorError('INDEX_OUT_OF_RANGE', `index ${i} is out of bounds for dimension ${dim} with size ${size}`);
  return i;
}

/** Size and stride of `dim`, with a 0-dim tensor seen as one element. */
export function dimOf(t: Tensor, dim: number): { size: number; stride: number } {
  return t.ndim === 0 ? { size: 1, stride: 0 } : { size: t.shape[dim]!, stride: t.strides[dim]! };
}

/** `strides` with the one at `dim` zeroed: the offset of a position without its `dim` coordinate. */
export function withoutDim(strides: readonly number[], dim: number): number[] {
  return strides.map((s, d) => (d === dim ? 0 : s));
}

/** out[p] = x[p with p[dim] := index[p]] (torch.gather); the op checked that index fits in x. */
const gather: KernelFunc<'Gather'> = ([x, index], attrs) => {
  const dim = attrs.dim;
  const { size, stride } = dimOf(x!, dim);
  const out = Tensor.empty(index!.shape, x!.dtype);
  const o = out.storage.data;
  const idx = index!.storage.data;
  const xd = x!.storage.data;
  forEachOffset(index!.shape, index!.strides, index!.offset, withoutDim(x!.strides, dim), x!.offset, (k, i, base) => {
    o[k] = xd[base + checkIndex(idx[i]!, size, dim) * stride]!;
  });
  return [out];
};

/** The slices of x at `index` along `dim`, one strided copy per index. */
const indexSelect: KernelFunc<'IndexSelect'> = ([x, index], attrs) => {
  const dim = attrs.dim;
  const { size, stride } = dimOf(x!, dim);
  const shape = [...x!.shape];
  if (x!.ndim > 0) shape[dim] = index!.numel;
  const out = Tensor.empty(shape, x!.dtype);
  const idx = index!.storage.data;
  const rowShape = shape.filter((_, d) => d !== dim);
  const rowStrides = (t: Tensor) => t.strides.filter((_, d) => d !== dim);
  const outStride = dimOf(out, dim).stride;
  forEachOffset(index!.shape, index!.strides, index!.offset, null, 0, (k, i) => {
    const src = new Tensor(x!.storage, rowShape, rowStrides(x!), x!.offset + checkIndex(idx[i]!, size, dim) * stride);
    const dst = new Tensor(out.storage, rowShape, rowStrides(out), k * outStride);
    copyIntoTensor(dst, src);
    // kernel-local views must not keep holding the storages (Note [Releasing storages])
    src.dispose();
    dst.dispose();
  });
  return [out];
};

const maskedFillLoop = perDtype(() => compileElementwise(2, 'y ? p0 : x'));
/** x where mask is false, `value` (already cast to x's dtype by the op) where true; broadcast together. */
const maskedFill: KernelFunc<'MaskedFill'> = ([x, mask], attrs) => [
  runElementwise(maskedFillLoop(x!.dtype), [x!, mask!], x!.dtype, [attrs.value]),
];

/** int32 [...index.shape, numClasses] with a 1 at each index. */
const oneHot: KernelFunc<'OneHot'> = ([index], attrs) => {
  const classes = attrs.numClasses;
  const out = Tensor.empty([...index!.shape, classes], 'int32');
  const o = out.storage.data;
  const idx = index!.storage.data;
  forEachOffset(index!.shape, index!.strides, index!.offset, null, 0, (k, i) => {
    const v = idx[i]!;
    if (v < 0) throw new TensorError('INDEX_OUT_OF_RANGE', 'Class values must be non-negative.');
    if (v >= classes) throw new TensorError('INDEX_OUT_OF_RANGE', 'Class values must be smaller than num_classes.');
    o[k * classes + v] = 1;
  });
  return [out];
};

export const indexingKernels: KernelConfig[] = [
  { kernelName: K.Gather, device: 'cpu', kernelFunc: gather },
  { kernelName: K.IndexSelect, device: 'cpu', kernelFunc: indexSelect },
  { kernelName: K.MaskedFill, device: 'cpu', kernelFunc: maskedFill },
  { kernelName: K.OneHot, device: 'cpu', kernelFunc: oneHot },
];
