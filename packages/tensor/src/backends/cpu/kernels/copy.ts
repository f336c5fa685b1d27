import { type DType, type TypedArray, typedArrayFor } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { broadcastStrides, contiguousStrides } from '../../../shape.js';
import { Tensor } from '../../../tensor.js';

/** One side of a strided copy: a typed array read or written at `offset + Σ index·stride`. */
export interface Layout {
  data: TypedArray;
  offset: number;
  strides: readonly number[];
}

/**
 * Note [Strided copy]
 * Every structure kernel that moves values (Copy, Cast, CopyInto, Cat, IndexSelect,
 * SliceScatter, reading a view) ends in `copyStrided`: it writes the `src` layout into the
 * `dst` layout, both of `shape`, converting through the destination's typed array (float64 ->
 * float32 rounds, float -> int32 truncates like a C cast; a bool destination normalises to
 * 0/1 with NaN true, like torch). Dims that both layouts can merge are coalesced first and
 * size-1 dims dropped, so a slice of rows is one run and a transposed matrix two loops; the
 * innermost dim is a tight loop with one stride per side. When both sides are a single
 * contiguous run the copy is one `TypedArray.set`, and a broadcast scalar is one `fill`.
 */
export function copyStrided(shape: readonly number[], dst: Layout, src: Layout, toBool: boolean): void {
  const dims: number[] = [];
  const ds: number[] = [];
  const ss: number[] = [];
  for (let d = 0; d < shape.length; d++) {
    const n = shape[d]!;
    if (n === 0) return;
    if (n === 1) continue;
    const last = dims.length - 1;
    if (last >= 0 && ds[last] === n * dst.strides[d]! && ss[last] === n * src.strides[d]!) {
      dims[last]! *= n;
      ds[last] = dst.strides[d]!;
      ss[last] = src.strides[d]!;
    } else {
      dims.push(n);
      ds.push(dst.strides[d]!);
      ss.push(src.strides[d]!);
    }
  }
  const out = dst.data;
  const input = src.data;
  const nd = dims.length;
  if (nd === 0) {
    out[dst.offset] = toBool ? (input[src.offset] !== 0 ? 1 : 0) : input[src.offset]!;
    return;
  }
  const inner = dims[nd - 1]!;
  const di = ds[nd - 1]!;
  const si = ss[nd - 1]!;
  if (nd === 1 && di === 1 && !toBool) {
    if (si === 1) out.set(input.subarray(src.offset, src.offset + inner), dst.offset);
    else if (si === 0) out.fill(input[src.offset]!, dst.offset, dst.offset + inner);
    else for (let j = 0, q = src.offset; j < inner; j++, q += si) out[dst.offset + j] = input[q]!;
    return;
  }
  const idx = new Array<number>(nd).fill(0);
  let outer = 1;
  for (let d = 0; d < nd - 1; d++) outer *= dims[d]!;
  let p = dst.offset;
  let q = src.offset;
  for (let o = 0; o < outer; o++) {
    if (toBool) for (let j = 0, a = p, b = q; j < inner; j++, a += di, b += si) out[a] = input[b] !== 0 ? 1 : 0;
    else for (let j = 0, a = p, b = q; j < inner; j++, a += di, b += si) out[a] = input[b]!;
    for (let d = nd - 2; d >= 0; d--) {
      idx[d]!++;
      p += ds[d]!;
      q += ss[d]!;
      if (idx[d]! < dims[d]!) break;
      p -= ds[d]! * dims[d]!;
      q -= ss[d]! * dims[d]!;
      idx[d] = 0;
    }
  }
}

/** Writes `src` (broadcast to `dst`'s shape by the caller's check) into the tensor view `dst`. */
export function copyIntoTensor(dst: Tensor, src: Tensor): void {
  copyStrided(
    dst.shape,
    { data: dst.storage.data, offset: dst.offset, strides: dst.strides },
    { data: src.storage.data, offset: src.offset, strides: broadcastStrides(src.shape, src.strides, dst.shape) },
    dst.dtype === 'bool' && src.dtype !== 'bool',
  );
}

/** A fresh contiguous tensor with `x`'s values as `dtype` (Copy when the dtype is x's own, else Cast). */
export function contiguousCopy(x: Tensor, dtype: DType = x.dtype): Tensor {
  const out = Tensor.uninitialized(x.shape, dtype);
  const data = out.storage.data;
  copyStrided(
    x.shape,
    { data, offset: 0, strides: contiguousStrides(x.shape) },
    { data: x.storage.data, offset: x.offset, strides: x.strides },
    dtype === 'bool' && x.dtype !== 'bool',
  );
  return out;
}

/**
 * A fresh typed array (owned by no storage) with `x`'s values in row-major order: what
 * toTypedArray() hands out must never alias a cached buffer (Note [Caching allocator]).
 */
export function copyToArray(x: Tensor): TypedArray {
  const data = typedArrayFor(x.dtype, x.numel);
  copyStrided(
    x.shape,
    { data, offset: 0, strides: contiguousStrides(x.shape) },
    { data: x.storage.data, offset: x.offset, strides: x.strides },
    false,
  );
  return data;
}

export const copyKernels: KernelConfig[] = [
  { kernelName: K.Copy, device: 'cpu', kernelFunc: ([x]) => [contiguousCopy(x!)] },
  {
    kernelName: K.CopyInto,
    device: 'cpu',
    kernelFunc: ([dst, src]) => {
      copyIntoTensor(dst!, src!);
      return [dst!];
    },
  },
];
