import { KernelNames as K, permute, reshape, sliceScatter, stack, unsqueeze } from '@wiregrad/tensor';
import { orZeros, registerGradient, toInputShape } from './registry.js';

// Views: the gradient is the inverse view, or the sum over the broadcast dims for expand.
registerGradient({ kernelName: K.Reshape, gradFunc: ([g], c) => [reshape(g!, c.inputShapes[0]!)] });
registerGradient({
  kernelName: K.Permute,
  gradFunc: ([g], c) => {
    const dims = c.attrs.dims;
    const inverse = new Array<number>(dims.length);
    dims.forEach((d, i) => (inverse[d] = i));
    return [permute(g!, inverse)];
  },
});
registerGradient({ kernelName: K.Expand, gradFunc: ([g], c) => [toInputShape(g!, c, 0)] });
registerGradient({
  kernelName: K.Slice,
  gradFunc: ([g], c) => {
    const { dim, start, end, step } = c.attrs;
    return [sliceScatter(g!, c.inputShapes[0]!, dim, start, end, step)];
  },
});

// select: zeros of the input's shape with the gradient at the index (PyTorch's select_backward)
registerGradient({
  kernelName: K.Select,
  gradFunc: ([g], c) => {
    const { dim, index } = c.attrs;
    return [sliceScatter(unsqueeze(g!, dim), c.inputShapes[0]!, dim, index, index + 1, 1)];
  },
});

// unbind: one node for every slice (See Note [Multi-output views]); their gradients, zeros for a
// slice that got none, stacked back along dim (PyTorch's unbind_backward).
registerGradient({
  kernelName: K.Unbind,
  gradFunc: (grads, c) => {
    const dim = c.attrs.dim;
    const shape = c.inputShapes[0]!.filter((_, d) => d !== dim);
    return [
      stack(
        grads.map((g) => orZeros(g, shape, c)),
        dim,
      ),
    ];
  },
});
