import { KernelNames as K, exp, mul, sub, sum } from '@wiregrad/tensor';
import { registerGradient } from './registry.js';

// softmax: dx = y (g - sum(g y)); logSoftmax: dx = g - exp(y) sum(g), both along dim.
registerGradient({
  kernelName: K.Softmax,
  saveOutputs: true,
  gradFunc: ([g], c) => {
    const y = c.output();
    return [mul(y, sub(g!, sum(mul(g!, y), c.attrs.dim, true)))];
  },
});
registerGradient({
  kernelName: K.LogSoftmax,
  saveOutputs: true,
  gradFunc: ([g], c) => [sub(g!, mul(exp(c.output()), sum(g!, c.attrs.dim, true)))],
});
