import type { TypedArray } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelFunc } from '../../../kernelRegistry.js';
import { contiguousStrides } from '../../../shape.js';
import { Tensor } from '../../../tensor.js';
import { forEachOffset } from '../strided.js';
import { contiguousCopy, copyIntoTensor } from './copy.js';
import { checkIndex, dimOf, withoutDim } from './indexing.js';

/** The values of `t` in row-major order: its own data when contiguous, else a copy. */
function rowMajor(t: Tensor): TypedArray {
  return t.isContiguous() ? t.storage.data.subarray(t.offset, t.offset + t.numel) : contiguousCopy(t).storage.data;
}

/** `out[at] += v`; a bool output accumulates as logical or (Uint8 sums would wrap at 256). */
function accumulator(out: Tensor): (at: number, v: number) => void {
  const o = out.storage.data;
  return out.dtype === 'bool'
    ? (at, v) => {
        o[at] = o[at]! | v;
      }
    : (at, v) => {
        o[at] = o[at]! + v;
      };
}

/** x + src scattered along `dim` at `index` (torch.scatter_add, out of place); the op checked the shapes. */
const scatterAdd: KernelFunc<'ScatterAdd'> = ([x, index, src], attrs) => {
  const dim = attrs.dim;
  const size = dimOf(x!, dim).size;
  const out = contiguousCopy(x!);
  const outStride = dimOf(out, dim).stride;
  const idx = rowMajor(index!);
  const s = src!.storage.data;
  const add = accumulator(out);
  forEachOffset(index!.shape, withoutDim(out.strides, dim), 0, src!.strides, src!.offset, (k, base, at) => {
    add(base + checkIndex(idx[k]!, size, dim) * outStride, s[at]!);
  });
  return [out];
};

/** x + src's slices added along `dim` at `index` (torch.index_add, out of place); the op checked the shapes. */
const indexAdd: KernelFunc<'IndexAdd'> = ([x, index, src], attrs) => {
  const dim = attrs.dim;
  const size = dimOf(x!, dim).size;
  const out = contiguousCopy(x!);
  const outStride = dimOf(out, dim).stride;
  const positions = Array.from(rowMajor(index!), (i) => checkIndex(i, size, dim) * outStride);
  const count = dimOf(src!, dim).size;
  let inner = 1;
  for (let d = dim + 1; d < src!.ndim; d++) inner *= src!.shape[d]!;
  const s = src!.storage.data;
  const add = accumulator(out);
  forEachOffset(src!.shape, withoutDim(out.strides, dim), 0, src!.strides, src!.offset, (k, base, at) => {
    add(base + positions[Math.floor(k / inner) % count]!, s[at]!);
  });
  return [out];
};

/** zeros(inputShape) with `src` written into the slice (dim, start, end, step): the gradient of Slice. */
const sliceScatter: KernelFunc<'SliceScatter'> = ([src], attrs) => {
  const { inputShape, dim, start, step } = attrs;
  const out = Tensor.empty(inputShape, src!.dtype);
  const strides = contiguousStrides(inputShape);
  const sliceStrides = strides.map((s, d) => (d === dim ? s * step : s));
  const slice = new Tensor(out.storage, src!.shape, sliceStrides, start * strides[dim]!);
  copyIntoTensor(slice, src!);
  slice.dispose();
  return [out];
};

export const scatterKernels: KernelConfig[] = [
  { kernelName: K.ScatterAdd, device: 'cpu', kernelFunc: scatterAdd },
  { kernelName: K.IndexAdd, device: 'cpu', kernelFunc: indexAdd },
  { kernelName: K.SliceScatter, device: 'cpu', kernelFunc: sliceScatter },
];
