import * as K from '../../../kernelNames.js';
import type { KernelConfig } from '../../../kernelRegistry.js';
import { perDtype } from '../compiledLoops.js';
import { compileElementwise } from '../elementwise.js';
import { runElementwise } from './tensorOperands.js';

const loopFor = perDtype(() => compileElementwise(1, 'Math.min(Math.max(x, p0), p1)'));

/**
 * Clamp: [x], {min, max} (either may be null). Like torch, min is applied first, so when
 * min > max every element becomes max; NaN stays NaN (Math.max/min propagate it).
 */
export const clampKernel: KernelConfig = {
  kernelName: K.Clamp,
  device: 'cpu',
  kernelFunc: ([x], attrs) => {
    const lo = attrs.min ?? -Infinity;
    const hi = attrs.max ?? Infinity;
    return [runElementwise(loopFor(x!.dtype), [x!], x!.dtype, [lo, hi])];
  },
};
