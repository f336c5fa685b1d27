// The multi-output view kernels, Split and Unbind, of every device: See Note [Multi-output views].
import type { DeviceType } from '../device.js';
import * as K from '../kernelNames.js';
import { getKernel, registerKernel, type KernelFunc } from '../kernelRegistry.js';
import type { Tensor } from '../tensor.js';
import { selectView } from './select.js';

/** Consecutive views of `sizes` along `dim`, each cut by the device's own Slice kernel. */
function pieces(x: Tensor, dim: number, sizes: readonly number[]): Tensor[] {
  const slice = getKernel(K.Slice, x.device.type);
  let start = 0;
  return sizes.map((len) => {
    const piece = slice([x], { dim, start, end: start + len, step: 1 })[0]!;
    start += len;
    return piece;
  });
}

const split: KernelFunc<'Split'> = ([x], attrs) => pieces(x!, attrs.dim, attrs.sizes);

const unbind: KernelFunc<'Unbind'> = ([x], attrs) =>
  Array.from({ length: x!.shape[attrs.dim]! }, (_, index) => selectView([x!], { dim: attrs.dim, index })[0]!);

// They only cut views with the device's Slice kernel (and Select's, for unbind), so one function serves every
// device type.
for (const device of ['cpu', 'gpu'] satisfies DeviceType[]) {
  registerKernel({ kernelName: K.Split, device, kernelFunc: split });
  registerKernel({ kernelName: K.Unbind, device, kernelFunc: unbind });
}
