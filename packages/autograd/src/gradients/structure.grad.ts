import {
  KernelNames as K, type Tensor, bmm, castTo, gather, indexAdd, indexSelect, maskedFill, narrow, permute, reshape,
  scatterAdd, slice, sliceScatter, transpose, zeros,
} from '@wiregrad/tensor';
import { sumToShape } from '../engine/sumToShape.js';
import { declareNonDifferentiable, registerGradient } from './registry.js';

// [B,M,K] @ [B,K,N]: dA = dC @ B^T, dB = A^T @ dC
registerGradient({
  kernelName: K.BatchMatMul,
  saveInputs: [0, 1],
  gradFunc: ([g], c) => [
    c.needsInputGrad(0) ? bmm(g!, transpose(c.input(1), 1, 2)) : null,
    c.needsInputGrad(1) ? bmm(transpose(c.input(0), 1, 2), g!) : null,
  ],
});

// Views: the gradient is the inverse view (or the sum over broadcast dims for expand).
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
registerGradient({ kernelName: K.Expand, gradFunc: ([g], c) => [sumToShape(g!, c.inputShapes[0]!)] });
registerGradient({
  kernelName: K.Slice,
  gradFunc: ([g], c) => {
    const { dim, start, end, step } = c.attrs as { dim: number; start: number; end: number; step: number };
    return [sliceScatter(g!, c.inputShapes[0]!, dim, start, end, step)];
  },
});
registerGradient({
  kernelName: K.SliceScatter,
  gradFunc: ([g], c) => {
    const { dim, start, end, step } = c.attrs as { dim: number; start: number; end: number; step: number };
    return [slice(g!, dim, start, end, step)];
  },
});

// Indexing: gather <-> scatterAdd and indexSelect <-> indexAdd are each other's gradients.
const zerosOf = (g: Tensor, shape: readonly number[]) => zeros(shape, { dtype: g.dtype, device: g.device });
registerGradient({
  kernelName: K.Gather,
  saveInputs: [1],
  gradFunc: ([g], c) => [scatterAdd(zerosOf(g!, c.inputShapes[0]!), c.attrs.dim as number, c.input(1), g!), null],
});
registerGradient({
  kernelName: K.ScatterAdd,
  saveInputs: [1],
  gradFunc: ([g], c) => [c.needsInputGrad(0) ? g! : null, null, c.needsInputGrad(2) ? gather(g!, c.attrs.dim as number, c.input(1)) : null],
});
registerGradient({
  kernelName: K.IndexSelect,
  saveInputs: [1],
  gradFunc: ([g], c) => [indexAdd(zerosOf(g!, c.inputShapes[0]!), c.attrs.dim as number, c.input(1), g!), null],
});
registerGradient({
  kernelName: K.IndexAdd,
  saveInputs: [1],
  gradFunc: ([g], c) => [c.needsInputGrad(0) ? g! : null, null, c.needsInputGrad(2) ? indexSelect(g!, c.attrs.dim as number, c.input(1)) : null],
});
registerGradient({ kernelName: K.MaskedFill, saveInputs: [1], gradFunc: ([g], c) => [maskedFill(g!, c.input(1), 0), null] });
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

// In-place writes: the target's old value gets no gradient; the source gets the written part.
registerGradient({
  kernelName: K.CopyInto,
  gradFunc: ([g], c) => [null, c.needsInputGrad(1) ? castTo(sumToShape(g!, c.inputShapes[1]!), c.inputDtypes[1]!) : null],
});
registerGradient({ kernelName: K.Fill, gradFunc: () => [null] });

declareNonDifferentiable(K.OneHot);
