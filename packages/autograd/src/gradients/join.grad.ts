import { KernelNames as K, cat, narrow } from '@wiregrad/tensor';
import { orZeros, registerGradient } from './registry.js';

// cat: each input gets its own stretch of the gradient along dim.
registerGradient({
  kernelName: K.Cat,
  gradFunc: ([g], c) => {
    const dim = c.attrs.dim;
    let at = 0;
    return c.inputShapes.map((shape) => {
      const piece = narrow(g!, dim, at, shape[dim]!);
      at += shape[dim]!;
      return piece;
    });
  },
});

// split and chunk: one node for every piece (See Note [Multi-output views]); their gradients,
// zeros for a piece that got none, joined back along dim (PyTorch's split_backward).
registerGradient({
  kernelName: K.Split,
  gradFunc: (grads, c) => {
    const { dim, sizes } = c.attrs;
    const shape = c.inputShapes[0]!;
    const pieceShape = (len: number) => shape.map((s, d) => (d === dim ? len : s));
    return [
      cat(
        sizes.map((len, i) => orZeros(grads[i] ?? null, pieceShape(len), c)),
        dim,
      ),
    ];
  },
});
