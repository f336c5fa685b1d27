import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { elementwiseLoop } from '../elementwise.js';
import { runElementwise } from './tensorOperands.js';

/**
 * Clamp: [x], {min, max} (either may be null). Like torch, min is applied first, so when
 * min > max every element becomes max; NaN stays NaN (Math.max/min propagate it).
 */
export const clampKernel: KernelConfig = {
  kernelName: K.Clamp,
  device: 'cpu',
  kernelFunc: ([x], attrs) => {
    const lo = (attrs.min as number | null) ?? -Infinity;
    const hi = (attrs.max as number | null) ?? Infinity;
    const loop = elementwiseLoop(`Clamp/${x!.dtype}`, 1, 'Math.min(Math.max(x, p0), p1)');
    return [runElementwise(loop, [x!], x!.dtype, [lo, hi])];
  },
};
