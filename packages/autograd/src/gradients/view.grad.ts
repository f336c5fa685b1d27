import { KernelNames as K, permute, reshape, sliceScatter } from '@wiregrad/tensor';
import { registerGradient, toInputShape } from './registry.js';

// Views: the gradient is the inverse view, or the sum over the broadcast dims for expand.
registerGradient({ kernelName: K.Reshape, gradFunc: ([g], c) => [reshape(g!, c.inputShapes[0]!)] });
registerGradient({
  kernelName: K.Permute,
  gradFunc: ([g], c) => {
    const dims = c.attrs.dims as number[];
    const inverse = new Array<number>(dims.length);
    dims.forEach((d, i) => (inverse[d] = i));
    return [permute(g!, inverse)];
  },
});
registerGradient({ kernelName: K.Expand, gradFunc: ([g], c) => [toInputShape(g!, c, 0)] });
registerGradient({
  kernelName: K.Slice,
  gradFunc: ([g], c) => {
    const { dim, start, end, step } = c.attrs as { dim: number; start: number; end: number; step: number };
    return [sliceScatter(g!, c.inputShapes[0]!, dim, start, end, step)];
  },
});
