import { KernelNames as K, narrow } from '@wiregrad/tensor';
import { registerGradient } from './registry.js';

// cat: each input gets its own stretch of the gradient along dim.
registerGradient({
  kernelName: K.Cat,
  gradFunc: ([g], c) => {
    const dim = c.attrs.dim as number;
    let at = 0;
    return c.inputShapes.map((shape) => {
      const piece = narrow(g!, dim, at, shape[dim]!);
      at += shape[dim]!;
      return piece;
    });
  },
});
