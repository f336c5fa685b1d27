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
  const all = dims.length === 0 ? x.shape.map((_, i) => i) : dims;
  const keptShape = x.shape.map((s, i) => (all.includes(i) ? 1 : s));
  const consecutive = all.every((d, k) => k === 0 || d === all[k - 1]! + 1);
  let src = x;
  let first = all[0] ?? 0;
  let last = all[all.length - 1] ?? -1;
  if (!consecutive) {
    const kept = x.shape.map((_, i) => i).filter((i) => !all.includes(i));
    const order = [...kept, ...all];
    src = new Tensor(x.storage, order.map((d) => x.shape[d]!), order.map((d) => x.strides[d]!), x.offset);
    first = kept.length;
    last = x.ndim - 1;
  }
  const prod = (a: number, b: number) => src.shape.slice(a, b).reduce((p, s) => p * s, 1);
  const { data, base } = contiguousData(src);
  return { data, base, O: prod(0, first), R: prod(first, last + 1), I: prod(last + 1, src.ndim), keptShape };
}

/** The output shape of a reduction over `dims` (empty = all) from its keepdim shape. */
export function reducedShape(keptShape: readonly number[], dims: readonly number[], keepdim: boolean): number[] {
  if (keepdim) return [...keptShape];
  if (dims.length === 0) return [];
  return keptShape.filter((_, i) => !dims.includes(i));
}
