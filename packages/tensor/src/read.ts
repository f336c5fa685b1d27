import { CPU } from './device.js';
import type { TypedArray } from './dtype.js';
import { runKernel1 } from './dispatch.js';
import { TensorError } from './errors.js';
import * as K from './kernelNames.js';
import type { NestedArray, Tensor } from './tensor.js';
import { copyToArray } from './backends/cpu/kernels/copy.js';
import { checkTensor } from './validate.js';

/** `t` itself on cpu, else its copy there through the ToDevice kernel. */
function onCpu(t: Tensor): Tensor {
  t.storage.assertAlive();
  return t.device === CPU ? t : runKernel1(K.ToDevice, [t], { device: CPU });
}

/** A contiguous copy of the values: Float32Array, Float64Array, Int32Array, or Uint8Array (0/1) for bool; it aliases no storage. */
export function toTypedArray(t: Tensor): TypedArray {
  checkTensor('toTypedArray', 'input', t);
  const x = onCpu(t);
  if (x.isContiguous()) return x.storage.data.slice(x.offset, x.offset + x.numel);
  return copyToArray(x);
}

/** The value of a one-element tensor (bool as 0/1). */
export function item(t: Tensor): number {
  checkTensor('item', 'input', t);
  if (t.numel !== 1)
    throw new TensorError('INVALID_ARGUMENT', `a Tensor with ${t.numel} elements cannot be converted to Scalar`);
  const x = onCpu(t);
  return x.storage.data[x.offset]!;
}

/** Nested JS arrays of the values (booleans for bool tensors); a bare number or boolean for 0-dim tensors. */
export function tolist(t: Tensor): NestedArray {
  checkTensor('tolist', 'input', t);
  const flat = toTypedArray(t);
  const value = t.dtype === 'bool' ? (v: number) => v !== 0 : (v: number) => v;
  if (t.ndim === 0) return value(flat[0]!);
  let k = 0;
  const build = (depth: number): NestedArray[] => {
    const n = t.shape[depth]!;
    const out = new Array<NestedArray>(n);
    for (let i = 0; i < n; i++) out[i] = depth === t.ndim - 1 ? value(flat[k++]!) : build(depth + 1);
    return out;
  };
  return build(0);
}
