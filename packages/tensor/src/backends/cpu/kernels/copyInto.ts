import { castScalar, type DType } from '../../../dtype.js';
import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { broadcastShapes, broadcastStrides, shapesEqual } from '../../../shape.js';
import { TensorError, fmtShape } from '../../../errors.js';
import type { Tensor } from '../../../tensor.js';
import { compileElementwise } from '../elementwise.js';
import { forEachOffset, isContiguousLayout } from '../strided.js';

const copyLoop = compileElementwise(1, 'x');
const toBoolLoop = compileElementwise(1, 'x !== 0 ? 1 : 0');

/**
 * Writes `src` (broadcast to dst's shape, cast to dst's dtype) into `dst`, which may be any
 * strided view. A contiguous dst takes the compiled loop; others walk dst's strides.
 */
export function copyIntoTensor(dst: Tensor, src: Tensor): void {
  if (!shapesEqual(broadcastShapes(dst.shape, src.shape), dst.shape)) {
    throw new TensorError('SHAPE_MISMATCH', `output with shape ${fmtShape(dst.shape)} doesn't match the broadcast shape ${fmtShape(broadcastShapes(dst.shape, src.shape))}`);
  }
  const srcOp = { data: src.storage.data, offset: src.offset, strides: broadcastStrides(src.shape, src.strides, dst.shape) };
  const out = dst.storage.data;
  if (isContiguousLayout(dst.shape, dst.strides)) {
    const loop = dst.dtype === 'bool' && src.dtype !== 'bool' ? toBoolLoop : copyLoop;
    loop([srcOp], out.subarray(dst.offset, dst.offset + dst.numel), dst.shape, []);
    return;
  }
  const input = srcOp.data;
  const toBool = dst.dtype === 'bool';
  forEachOffset(dst.shape, dst.strides, dst.offset, srcOp.strides, srcOp.offset, (_i, o, s) => {
    const v = input[s]!;
    out[o] = toBool ? (v !== 0 ? 1 : 0) : v;
  });
}

export function fillTensor(dst: Tensor, value: number): void {
  const v = castScalar(value, dst.dtype as DType);
  const out = dst.storage.data;
  if (isContiguousLayout(dst.shape, dst.strides)) {
    out.fill(v, dst.offset, dst.offset + dst.numel);
    return;
  }
  forEachOffset(dst.shape, dst.strides, dst.offset, null, 0, (_i, o) => {
    out[o] = v;
  });
}

export const copyIntoKernels: KernelConfig[] = [
  {
    kernelName: K.CopyInto,
    device: 'cpu',
    kernelFunc: ([dst, src]) => {
      copyIntoTensor(dst!, src!);
      return [dst!];
    },
  },
  {
    kernelName: K.Fill,
    device: 'cpu',
    kernelFunc: ([dst], attrs) => {
      fillTensor(dst!, attrs.value as number);
      return [dst!];
    },
  },
];
