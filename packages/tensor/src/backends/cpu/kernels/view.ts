import type { Device } from '../../../device.js';
import * as K from '../../../kernelNames.js';
import { getKernel, type KernelConfig, type KernelFunc } from '../../../kernelRegistry.js';
import { viewStrides } from '../../../shape.js';
import { Tensor } from '../../../tensor.js';

/**
 * Note [View kernels are device-agnostic]
 * Reshape, Permute, Expand and Slice only compute a new (shape, strides, offset) over the
 * same Storage, so one implementation serves every device; `viewKernels(device)` registers
 * them for a device type. Reshape falls back to the device's Copy kernel when the strides
 * cannot express the new shape (PyTorch's reshape = view or contiguous().view()).
 */
const reshape: KernelFunc<'Reshape'> = ([x], attrs) => {
  const shape = attrs.shape;
  const strides = viewStrides(x!.shape, x!.strides, shape);
  if (strides) return [new Tensor(x!.storage, shape, strides, x!.offset)];
  const copy = getKernel(K.Copy, x!.device.type)([x!], {})[0]!;
  return [new Tensor(copy.storage, shape)];
};

const permute: KernelFunc<'Permute'> = ([x], attrs) => {
  const dims = attrs.dims;
  return [
    new Tensor(
      x!.storage,
      dims.map((d) => x!.shape[d]!),
      dims.map((d) => x!.strides[d]!),
      x!.offset,
    ),
  ];
};

const expand: KernelFunc<'Expand'> = ([x], attrs) => {
  const shape = attrs.shape;
  const lead = shape.length - x!.ndim;
  const strides = shape.map((size, i) =>
    i < lead ? 0 : x!.shape[i - lead] === 1 && size !== 1 ? 0 : x!.strides[i - lead]!,
  );
  return [new Tensor(x!.storage, shape, strides, x!.offset)];
};

const slice: KernelFunc<'Slice'> = ([x], attrs) => {
  const { dim, start, end, step } = attrs;
  const shape = [...x!.shape];
  const strides = [...x!.strides];
  shape[dim] = Math.max(0, Math.ceil((end - start) / step));
  const offset = x!.offset + (shape[dim]! > 0 ? start * strides[dim]! : 0);
  strides[dim] = strides[dim]! * step;
  return [new Tensor(x!.storage, shape, strides, offset)];
};

export function viewKernels(device: Device['type']): KernelConfig[] {
  return [
    { kernelName: K.Reshape, device, kernelFunc: reshape },
    { kernelName: K.Permute, device, kernelFunc: permute },
    { kernelName: K.Expand, device, kernelFunc: expand },
    { kernelName: K.Slice, device, kernelFunc: slice },
  ];
}
