import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { Tensor } from '../../../tensor.js';
import { copyIntoTensor } from './copy.js';

/** Cat: inputs of one dtype and rank, equal sizes except along `dim`; each is copied into its block. */
export const catKernel: KernelConfig = {
  kernelName: K.Cat,
  device: 'cpu',
  kernelFunc: (inputs, attrs) => {
    const dim = attrs.dim;
    const first = inputs[0]!;
    const shape = [...first.shape];
    shape[dim] = inputs.reduce((n, t) => n + t.shape[dim]!, 0);
    const out = Tensor.empty(shape, first.dtype);
    let at = 0;
    for (const t of inputs) {
      const block = new Tensor(out.storage, t.shape, out.strides, at * out.strides[dim]!);
      copyIntoTensor(block, t);
      block.dispose();
      at += t.shape[dim]!;
    }
    return [out];
  },
};
