// The Select view kernel of every device (PyTorch's select, whose node is SelectBackward0).
import type { DeviceType } from '../device.js';
import * as K from '../kernelNames.js';
import { getKernel, registerKernel, type KernelFunc } from '../kernelRegistry.js';

/**
 * The slice at `index` along `dim` without that dim: the device's own Slice and Reshape kernels
 * (See Note [View kernels are device-agnostic]) run as one kernel, so autograd records one node
 * for it, as PyTorch records SelectBackward0, instead of SliceBackward0 under ReshapeBackward0.
 */
export const selectView: KernelFunc<'Select'> = ([x], attrs) => {
  const { dim, index } = attrs;
  const piece = getKernel(K.Slice, x!.device.type)([x!], { dim, start: index, end: index + 1, step: 1 })[0]!;
  return getKernel(K.Reshape, x!.device.type)([piece], { shape: x!.shape.filter((_, d) => d !== dim) });
};

for (const device of ['cpu', 'gpu'] satisfies DeviceType[])
  registerKernel({ kernelName: K.Select, device, kernelFunc: selectView });
