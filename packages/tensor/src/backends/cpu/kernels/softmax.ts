import * as K from '../../../kernelNames.js';
import type { KernelConfig, KernelFunc } from '../../../kernelRegistry.js';
import { Tensor } from '../../../tensor.js';
import { reduceLayout } from './reduceLayout.js';

/** Softmax / LogSoftmax along `dim`, max-shifted for stability. See Note [Reduction layout]. */
function softmaxKernel(kernelName: string, logOut: boolean): KernelConfig {
  const kernelFunc: KernelFunc = ([x], attrs) => {
    const { data, base, O, R, I } = reduceLayout(x!, [attrs.dim as number]);
    const out = Tensor.empty(x!.shape, x!.dtype);
    const o_ = out.storage.data;
    for (let o = 0; o < O; o++) {
      for (let i = 0; i < I; i++) {
        const at = (r: number) => (o * R + r) * I + i;
        let max = -Infinity;
        for (let r = 0; r < R; r++) max = Math.max(max, data[base + at(r)]!);
        if (max === -Infinity) max = 0;
        let sum = 0;
        for (let r = 0; r < R; r++) sum += Math.exp(data[base + at(r)]! - max);
        if (logOut) {
          const lse = max + Math.log(sum);
          for (let r = 0; r < R; r++) o_[at(r)] = data[base + at(r)]! - lse;
        } else {
          for (let r = 0; r < R; r++) o_[at(r)] = Math.exp(data[base + at(r)]! - max) / sum;
        }
      }
    }
    return [out];
  };
  return { kernelName, device: 'cpu', kernelFunc };
}

export const softmaxKernels: KernelConfig[] = [softmaxKernel(K.Softmax, false), softmaxKernel(K.LogSoftmax, true)];
