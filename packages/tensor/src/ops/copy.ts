import { Device, type DeviceLike, device as toDevice } from '../device.js';
import { type DType, assertDType } from '../dtype.js';
import { runKernel1 } from '../dispatch.js';
import * as K from '../kernelNames.js';
import { Tensor } from '../tensor.js';
import { castTo } from './operands.js';
import { argumentError, checkInt, checkTensor } from '../validate.js';

/** `x` itself when already contiguous, else a contiguous copy (PyTorch's contiguous()). */
export function contiguous(x: Tensor): Tensor {
  checkTensor('contiguous', 'input', x);
  return x.isContiguous() ? x : runKernel1(K.Copy, [x]);
}

/** A contiguous copy with its own storage. */
export function clone(x: Tensor): Tensor {
  checkTensor('clone', 'input', x);
  return runKernel1(K.Copy, [x]);
}

/** `x` on `target`: itself when already there, else a copy through the ToDevice kernel. */
export function moveTo(x: Tensor, target: Device): Tensor {
  checkTensor('moveTo', 'input', x);
  return x.device === target ? x : runKernel1(K.ToDevice, [x], { device: target });
}

export type ToTarget = DeviceLike | DType | { device?: DeviceLike; dtype?: DType };

const DTYPE_NAMES: ReadonlySet<string> = new Set(['float32', 'float64', 'int32', 'bool']);

/** PyTorch's `to`: a device, a dtype, or both; returns `x` when nothing changes. */
export function to(x: Tensor, target: ToTarget): Tensor {
  checkTensor('to', 'input', x);
  const plain = typeof target === 'object' && target !== null && !Array.isArray(target);
  if (typeof target !== 'string' && !plain)
    throw argumentError('to', 'target', 'a device, a dtype or { device, dtype }', target);
  const spec: { device?: DeviceLike; dtype?: DType } =
    typeof target === 'string'
      ? DTYPE_NAMES.has(target)
        ? { dtype: target as DType }
        : { device: target as DeviceLike }
      : target instanceof Device
        ? { device: target }
        : target;
  let out = x;
  if (spec.dtype !== undefined) {
    assertDType(spec.dtype);
    out = castTo(out, spec.dtype);
  }
  if (spec.device !== undefined) out = moveTo(out, toDevice(spec.device));
  return out;
}

export function cpu(x: Tensor): Tensor {
  checkTensor('cpu', 'input', x);
  return moveTo(x, toDevice('cpu'));
}
export function gpu(x: Tensor, index = 0): Tensor {
  checkTensor('gpu', 'input', x);
  checkInt('gpu', 'index', index);
  return moveTo(x, toDevice(`gpu:${index}`));
}

/** A view of `x`'s storage outside the autograd graph (PyTorch's detach). */
export function detach(x: Tensor): Tensor {
  checkTensor('detach', 'input', x);
  return new Tensor(x.storage, x.shape, x.strides, x.offset);
}
