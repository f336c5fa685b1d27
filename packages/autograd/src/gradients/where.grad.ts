import { KernelNames as K, where } from '@wiregrad/tensor';
import { ifNeeded, registerGradient, toInputShape as to } from './registry.js';

// where(cond, a, b): the gradient goes to a where cond holds, to b elsewhere; none to cond.
registerGradient({
  kernelName: K.Where,
  saveInputs: [0],
  gradFunc: ([g], c) => {
    const cond = c.input(0);
    return [
      null,
      ifNeeded(c, 1, () => to(where(cond, g!, 0), c, 1)),
      ifNeeded(c, 2, () => to(where(cond, 0, g!), c, 2)),
    ];
  },
});
