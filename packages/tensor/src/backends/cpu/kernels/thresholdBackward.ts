import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { perDtype } from '../compiledLoops.js';
import { compileElementwise } from '../elementwise.js';
import { wasmBinary } from '../wasm/wasmElementwise.js';
import { runElementwise } from './tensorOperands.js';

// PyTorch's `self <= threshold ? 0 : grad`, so a NaN in y passes the gradient through
const loopFor = perDtype(() => compileElementwise(2, 'y <= p0 ? 0 : x'));

/** ThresholdBackward (Note [Kernel names]): the SIMD kernel for float32 at threshold 0, else one TypeScript pass. */
export const thresholdBackwardKernel: KernelConfig = {
  kernelName: K.ThresholdBackward,
  device: 'cpu',
  kernelFunc: ([grad, y], attrs) => {
    const fast = attrs.threshold === 0 ? wasmBinary(K.ThresholdBackward, grad!, y!) : null;
    return [fast ?? runElementwise(loopFor(grad!.dtype), [grad!, y!], grad!.dtype, [attrs.threshold])];
  },
};
