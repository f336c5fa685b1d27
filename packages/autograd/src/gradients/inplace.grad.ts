import { KernelNames as K, castTo } from '@wiregrad/tensor';
import { ifNeeded, registerGradient, toInputShape } from './registry.js';

// In-place writes (See Note [In-place ops] in @wiregrad/tensor): the target's old value is
// overwritten, so it gets no gradient; the source gets the written part, back in its shape and dtype.
registerGradient({
  kernelName: K.CopyInto,
  gradFunc: ([g], c) => [null, ifNeeded(c, 1, () => castTo(toInputShape(g!, c, 1), c.inputDtypes[1]!))],
});
registerGradient({ kernelName: K.Fill, gradFunc: () => [null] });
