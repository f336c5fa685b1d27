import { CPU } from './device.js';
import { type TypedArray, typedArrayFor } from './dtype.js';
import { runKernel1 } from './dispatch.js';
import { TensorError } from './errors.js';
import * as K from './kernelNames.js';
import type { NestedArray, Tensor } from './tensor.js';
import { forEachOffset, isContiguousLayout } from './backends/cpu/strided.js';

function onCpu(t: Tensor): Tensor {
  t.storage.assertAlive();
  return t.device === CPU ? t : runKernel1(K.ToDevice, [t], { device: CPU });
}

/** A contiguous copy of the values (Float32Array, Float64Array, Int32Array, or Uint8Array for bool). */
export function toTypedArray(t: Tensor): TypedArray {
  const x = onCpu(t);
  const data = x.storage.data;
  if (isContiguousLayout(x.shape, x.strides)) return data.slice(x.offset, x.offset + x.numel);
  const out = typedArrayFor(x.dtype, x.numel);
  forEachOffset(x.shape, x.strides, x.offset, null, 0, (i, a) => {
    out[i] = data[a]!;
  });
  return out;
}

/** The value of a one-element tensor. */
export function item(t: Tensor): number {
  if (t.numel !== 1) throw new TensorError('INVALID_ARGUMENT', `a Tensor with ${t.numel} elements cannot be converted to Scalar`);
  const x = onCpu(t);
  return x.storage.data[x.offset]!;
}

/** Nested JS arrays of the values (booleans for bool tensors); a number for 0-dim tensors. */
export function tolist(t: Tensor): NestedArray {
  const flat = toTypedArray(t);
  const asValue = t.dtype === 'bool' ? (v: number) => v !== 0 : (v: number) => v;
  if (t.ndim === 0) return asValue(flat[0]!);
  let k = 0;
  const build = (depth: number): NestedArray[] => {
    const n = t.shape[depth]!;
    const out = new Array<NestedArray>(n);
    for (let i = 0; i < n; i++) out[i] = depth === t.ndim - 1 ? asValue(flat[k++]!) : build(depth + 1);
    return out;
  };
  return build(0);
}
