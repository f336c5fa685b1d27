import type { TypedArray } from '../../../dtype.js';
import { getKernel } from '../../../kernelRegistry.js';
import * as K from '../../../kernelNames.js';
import { Tensor } from '../../../tensor.js';
import { isContiguousLayout } from '../strided.js';

/**
 * Note [Reduction layout]
 * A reduction over `dims` is computed on a contiguous input seen as [O, R, I]: O = product of
 * the dims before the reduced block, R = the reduced block, I = the dims after it. When the
 * reduced dims are not one consecutive block the input is first permuted (reduced dims last)
 * and copied, so every reduction kernel is one triple loop over contiguous memory. An empty
 * `dims` list means every dim.
 */
export interface ReduceLayout {
  data: TypedArray;
  base: number;
  O: number;
  R: number;
  I: number;
  /** output shape with keepdim = true */
  keptShape: number[];
}

function contiguousData(x: Tensor): { data: TypedArray; base: number } {
  if (isContiguousLayout(x.shape, x.strides)) return { data: x.storage.data, base: x.offset };
  const copy = getKernel(K.Copy, 'cpu')([x], {})[0]!;
  return { data: copy.storage.data, base: 0 };
}

export function reduceLayout(x: Tensor, dims: readonly number[]): ReduceLayout {
  const nd = x.ndim;
  const count = dims.length === 0 ? nd : dims.length;
  const first = dims.length === 0 ? 0 : dims[0]!;
  const last = dims.length === 0 ? nd - 1 : dims[dims.length - 1]!;
  const keptShape = new Array<number>(nd);
  for (let d = 0; d < nd; d++)
    keptShape[d] = d >= first && d <= last && (dims.length === 0 || dims.includes(d)) ? 1 : x.shape[d]!;
  // dims are sorted and unique, so they form one block exactly when they span `count` dims
  if (last - first + 1 === count) {
    const { data, base } = contiguousData(x);
    return {
      data,
      base,
      O: spanSize(x.shape, 0, first),
      R: spanSize(x.shape, first, last + 1),
      I: spanSize(x.shape, last + 1, nd),
      keptShape,
    };
  }
  const kept = x.shape.map((_, i) => i).filter((i) => !dims.includes(i));
  const order = [...kept, ...dims];
  const src = new Tensor(
    x.storage,
    order.map((d) => x.shape[d]!),
    order.map((d) => x.strides[d]!),
    x.offset,
  );
  const { data, base } = contiguousData(src);
  // a kernel-local view: it must not keep holding x's storage (Note [Releasing storages])
  src.dispose();
  return {
    data,
    base,
    O: spanSize(src.shape, 0, kept.length),
    R: spanSize(src.shape, kept.length, nd),
    I: 1,
    keptShape,
  };
}

/** The product of shape[from..to); dims past the end (dim 0 of a 0-dim tensor) count as 1. */
function spanSize(shape: readonly number[], from: number, to: number): number {
  let n = 1;
  for (let d = from; d < Math.min(to, shape.length); d++) n *= shape[d]!;
  return n;
}

/** The output shape of a reduction over `dims` (empty = all) from its keepdim shape. */
export function reducedShape(keptShape: readonly number[], dims: readonly number[], keepdim: boolean): number[] {
  if (keepdim) return [...keptShape];
  if (dims.length === 0) return [];
  return keptShape.filter((_, i) => !dims.includes(i));
}
