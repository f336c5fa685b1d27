import { TensorError, fmtShape } from '../../../errors.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { contiguousStrides } from '../../../shape.js';
import { Tensor } from '../../../tensor.js';
import { compileElementwise } from '../elementwise.js';
import { copyIntoTensor } from './copyInto.js';
import { runElementwise } from './tensorOperands.js';

function checkIndex(i: number, size: number, dim: number): number {
  if (i < -size || i >= size) throw new TensorError('INDEX_OUT_OF_RANGE', `index ${i} is out of bounds for dimension ${dim} with size ${size}`);
  return i < 0 ? i + size : i;
}

/** Calls fn(k, offsetInA) for the k-th element (row-major) of `shape`, walking tensor `a`'s strides. */
function walk(shape: readonly number[], a: Tensor, fn: (k: number, aOff: number) => void): void {
  const nd = shape.length;
  const coord = new Array<number>(nd).fill(0);
  const n = shape.reduce((p, s) => p * s, 1);
  for (let k = 0; k < n; k++) {
    let off = a.offset;
    for (let d = 0; d < nd; d++) off += coord[d]! * a.strides[d]!;
    fn(k, off);
    for (let d = nd - 1; d >= 0; d--) {
      if (++coord[d]! < shape[d]!) break;
      coord[d] = 0;
    }
  }
}

/**
 * The offset in `t` of the k-th element (row-major) of `shape`, with the coordinate at
 * `dim` replaced by `i` (no replacement when dim is -1). `t` is read with its own strides.
 */
function offsetOf(t: Tensor, shape: readonly number[], k: number, dim = -1, i = 0): number {
  let off = t.offset;
  let rem = k;
  for (let d = shape.length - 1; d >= 0; d--) {
    const c = rem % shape[d]!;
    rem = (rem - c) / shape[d]!;
    off += (d === dim ? i : c) * t.strides[d]!;
  }
  return off;
}

function checkGatherShapes(x: Tensor, index: Tensor, dim: number, what: string): void {
  if (index.ndim !== x.ndim) throw new TensorError('SHAPE_MISMATCH', `Index tensor must have the same number of dimensions as ${what} tensor`);
  index.shape.forEach((s, d) => {
    if (d !== dim && s > x.shape[d]!) {
      throw new TensorError('SHAPE_MISMATCH', `Size does not match at dimension ${d} expected index ${fmtShape(index.shape)} to be smaller than self ${fmtShape(x.shape)} apart from dimension ${dim}`);
    }
  });
}

/** out[p] = x[p with p[dim] := index[p]] (torch.gather); index has x's rank. */
const gather: KernelConfig['kernelFunc'] = ([x, index], attrs) => {
  const dim = attrs.dim as number;
  checkGatherShapes(x!, index!, dim, 'input');
  const out = Tensor.empty(index!.shape, x!.dtype);
  const o = out.storage.data;
  const idx = index!.storage.data;
  const xd = x!.storage.data;
  walk(index!.shape, index!, (k, iOff) => {
    o[k] = xd[offsetOf(x!, index!.shape, k, dim, checkIndex(idx[iOff]!, x!.shape[dim]!, dim))]!;
  });
  return [out];
};

/** x + src scattered along dim at index (torch.scatter_add, out of place). */
const scatterAdd: KernelConfig['kernelFunc'] = ([x, index, src], attrs) => {
  const dim = attrs.dim as number;
  checkGatherShapes(x!, index!, dim, 'self');
  const out = Tensor.empty(x!.shape, x!.dtype);
  copyIntoTensor(out, x!);
  const o = out.storage.data;
  const idx = index!.storage.data;
  const s = src!.storage.data;
  walk(index!.shape, index!, (k, iOff) => {
    const i = checkIndex(idx[iOff]!, x!.shape[dim]!, dim);
    const at = offsetOf(out, index!.shape, k, dim, i);
    o[at] = o[at]! + s[offsetOf(src!, index!.shape, k)]!;
  });
  return [out];
};

function selectView(t: Tensor, dim: number, i: number): Tensor {
  return new Tensor(
    t.storage,
    t.shape.filter((_, d) => d !== dim),
    t.strides.filter((_, d) => d !== dim),
    t.offset + i * t.strides[dim]!,
  );
}

const indexSelect: KernelConfig['kernelFunc'] = ([x, index], attrs) => {
  const dim = attrs.dim as number;
  const idx = index!.storage.data;
  const shape = [...x!.shape];
  shape[dim] = index!.numel;
  const out = Tensor.empty(shape, x!.dtype);
  for (let k = 0; k < index!.numel; k++) {
    const i = checkIndex(idx[index!.offset + k * (index!.strides[0] ?? 1)]!, x!.shape[dim]!, dim);
    copyIntoTensor(selectView(out, dim, k), selectView(x!, dim, i));
  }
  return [out];
};

const addLoop = compileElementwise(2, 'x + y');
const indexAdd: KernelConfig['kernelFunc'] = ([x, index, src], attrs) => {
  const dim = attrs.dim as number;
  const out = Tensor.empty(x!.shape, x!.dtype);
  copyIntoTensor(out, x!);
  const idx = index!.storage.data;
  for (let k = 0; k < index!.numel; k++) {
    const i = checkIndex(idx[index!.offset + k * (index!.strides[0] ?? 1)]!, x!.shape[dim]!, dim);
    const dst = selectView(out, dim, i);
    copyIntoTensor(dst, runElementwise(addLoop, [dst, selectView(src!, dim, k)], out.dtype));
  }
  return [out];
};

const maskedFillLoop = compileElementwise(2, 'y ? p0 : x');
const maskedFill: KernelConfig['kernelFunc'] = ([x, mask], attrs) => [runElementwise(maskedFillLoop, [x!, mask!], x!.dtype, [attrs.value as number])];

const oneHot: KernelConfig['kernelFunc'] = ([index], attrs) => {
  const C = attrs.numClasses as number;
  const out = Tensor.empty([...index!.shape, C], 'int32');
  const o = out.storage.data;
  const idx = index!.storage.data;
  walk(index!.shape, index!, (k, iOff) => {
    const v = idx[iOff]!;
    if (v < 0 || v >= C) throw new TensorError('INDEX_OUT_OF_RANGE', `Class values must be smaller than num_classes (${C}) and non-negative, got ${v}`);
    o[k * C + v] = 1;
  });
  return [out];
};

const sliceScatter: KernelConfig['kernelFunc'] = ([src], attrs) => {
  const { inputShape, dim, start, end, step } = attrs as { inputShape: number[]; dim: number; start: number; end: number; step: number };
  const out = Tensor.empty(inputShape, src!.dtype);
  const strides = contiguousStrides(inputShape);
  const shape = [...inputShape];
  shape[dim] = Math.max(0, Math.ceil((end - start) / step));
  const viewStrides = [...strides];
  viewStrides[dim] = strides[dim]! * step;
  if (shape[dim]! > 0) copyIntoTensor(new Tensor(out.storage, shape, viewStrides, start * strides[dim]!), src!);
  return [out];
};

const cat: KernelConfig['kernelFunc'] = (inputs, attrs) => {
  const dim = attrs.dim as number;
  const first = inputs[0]!;
  const shape = [...first.shape];
  shape[dim] = inputs.reduce((n, t) => n + t.shape[dim]!, 0);
  const out = Tensor.empty(shape, first.dtype);
  let at = 0;
  for (const t of inputs) {
    const len = t.shape[dim]!;
    if (len === 0) continue;
    copyIntoTensor(new Tensor(out.storage, t.shape, out.strides, at * out.strides[dim]!), t);
    at += len;
  }
  if (shape[dim] !== at) throw new TensorError('SHAPE_MISMATCH', `cat produced ${at} of ${fmtShape(shape)}`);
  return [out];
};

export const indexingKernels: KernelConfig[] = [
  { kernelName: K.Gather, device: 'cpu', kernelFunc: gather },
  { kernelName: K.ScatterAdd, device: 'cpu', kernelFunc: scatterAdd },
  { kernelName: K.IndexSelect, device: 'cpu', kernelFunc: indexSelect },
  { kernelName: K.IndexAdd, device: 'cpu', kernelFunc: indexAdd },
  { kernelName: K.MaskedFill, device: 'cpu', kernelFunc: maskedFill },
  { kernelName: K.OneHot, device: 'cpu', kernelFunc: oneHot },
  { kernelName: K.SliceScatter, device: 'cpu', kernelFunc: sliceScatter },
  { kernelName: K.Cat, device: 'cpu', kernelFunc: cat },
];
