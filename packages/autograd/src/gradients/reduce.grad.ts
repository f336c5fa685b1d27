import { KernelNames as K, type Tensor, castTo, div, expand, exp, mul, reshape, scatterAdd, sub, sum, zeros, unsqueeze } from '@wiregrad/tensor';
import { declareNonDifferentiable, registerGradient, type GradContext } from './registry.js';

/** The gradient of a reduction, re-expanded to the input's shape (reduced dims put back as size 1). */
function expandBack(g: Tensor, ctx: GradContext, dims: readonly number[], keepdim: boolean): Tensor {
  const shape = ctx.inputShapes[0]!;
  const all = dims.length === 0 ? shape.map((_, i) => i) : dims;
  const kept = keepdim ? g : reshape(g, shape.map((s, i) => (all.includes(i) ? 1 : s)));
  return expand(kept, shape);
}

registerGradient({
  kernelName: K.Sum,
  gradFunc: ([g], c) => {
    const { dims, keepdim } = c.attrs as { dims: number[]; keepdim: boolean };
    return [expandBack(g!, c, dims, keepdim)];
  },
});

// d prod / dx_i = prod / x_i (inputs with zeros are not special-cased)
registerGradient({
  kernelName: K.Prod,
  saveInputs: [0],
  saveOutputs: true,
  gradFunc: ([g], c) => {
    const { dims, keepdim } = c.attrs as { dims: number[]; keepdim: boolean };
    return [div(mul(expandBack(g!, c, dims, keepdim), expandBack(c.output(), c, dims, keepdim)), c.input(0))];
  },
});

/** max/min: over everything the gradient is shared by the tied maxima; along a dim it goes to the index. */
function extremum(kernelName: string) {
  registerGradient({
    kernelName,
    saveInputs: [0],
    saveOutputs: true,
    gradFunc: ([g], c) => {
      const { dim, keepdim } = c.attrs as { dim: number | null; keepdim: boolean };
      const x = c.input(0);
      if (dim === null) {
        const mask = castTo(x.eq(c.output()), g!.dtype);
        return [mul(div(mask, sum(mask)), g!)];
      }
      const indices = c.output(1);
      const idx = keepdim ? indices : unsqueeze(indices, dim);
      const gk = keepdim ? g! : unsqueeze(g!, dim);
      return [scatterAdd(zeros(x.shape, { dtype: g!.dtype, device: g!.device }), dim, idx, gk)];
    },
  });
}
extremum(K.Max);
extremum(K.Min);

registerGradient({
  kernelName: K.Softmax,
  saveOutputs: true,
  gradFunc: ([g], c) => {
    const y = c.output();
    const dim = c.attrs.dim as number;
    return [mul(y, sub(g!, sum(mul(g!, y), dim, true)))];
  },
});
registerGradient({
  kernelName: K.LogSoftmax,
  saveOutputs: true,
  gradFunc: ([g], c) => {
    const dim = c.attrs.dim as number;
    return [sub(g!, mul(exp(c.output()), sum(g!, dim, true)))];
  },
});

declareNonDifferentiable(K.Argmax, K.Argmin);
