import {
  KernelNames as K,
  type Tensor,
  gather,
  indexAdd,
  indexSelect,
  maskedFill,
  scatterAdd,
  slice,
  zeros,
} from '@wiregrad/tensor';
import { declareNonDifferentiable, ifNeeded, registerGradient, toInputShape } from './registry.js';

// gather <-> scatterAdd, indexSelect <-> indexAdd and slice <-> sliceScatter are each other's gradients.
const zerosOf = (g: Tensor, shape: readonly number[]) => zeros(shape, { dtype: g.dtype, device: g.device });

registerGradient({
  kernelName: K.Gather,
  saveInputs: [1],
  gradFunc: ([g], c) => [scatterAdd(zerosOf(g!, c.inputShapes[0]!), c.attrs.dim, c.input(1), g!), null],
});
registerGradient({
  kernelName: K.ScatterAdd,
  saveInputs: [1],
  gradFunc: ([g], c) => [ifNeeded(c, 0, () => g!), null, ifNeeded(c, 2, () => gather(g!, c.attrs.dim, c.input(1)))],
});
registerGradient({
  kernelName: K.IndexSelect,
  saveInputs: [1],
  gradFunc: ([g], c) => [indexAdd(zerosOf(g!, c.inputShapes[0]!), c.attrs.dim, c.input(1), g!), null],
});
registerGradient({
  kernelName: K.IndexAdd,
  saveInputs: [1],
  gradFunc: ([g], c) => [
    ifNeeded(c, 0, () => g!),
    null,
    ifNeeded(c, 2, () => indexSelect(g!, c.attrs.dim, c.input(1))),
  ],
});
registerGradient({
  kernelName: K.SliceScatter,
  gradFunc: ([g], c) => {
    const { dim, start, end, step } = c.attrs;
    return [slice(g!, dim, start, end, step)];
  },
});
// the filled positions get no gradient (the mask may broadcast x up, hence the sum back)
registerGradient({
  kernelName: K.MaskedFill,
  saveInputs: [1],
  gradFunc: ([g], c) => [toInputShape(maskedFill(g!, c.input(1), 0), c, 0), null],
});

declareNonDifferentiable(K.OneHot);
