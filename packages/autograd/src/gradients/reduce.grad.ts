import {
  KernelNames as K,
  type Tensor,
  castTo,
  div,
  expand,
  mul,
  prod,
  reshape,
  scatterAdd,
  sum,
  unsqueeze,
  where,
  zeros,
} from '@wiregrad/tensor';
import { declareNonDifferentiable, registerGradient, type GradContext } from './registry.js';

/** A reduced tensor put back to the input's shape (reduced dims re-inserted as size 1, then expanded). */
function expandBack(g: Tensor, ctx: GradContext, dims: readonly number[], keepdim: boolean): Tensor {
  const shape = ctx.inputShapes[0]!;
  const all = dims.length === 0 ? shape.map((_, i) => i) : dims;
  const kept = keepdim
    ? g
    : reshape(
        g,
        shape.map((s, i) => (all.includes(i) ? 1 : s)),
      );
  return expand(kept, shape);
}

registerGradient({
  kernelName: K.Sum,
  gradFunc: ([g], c) => {
    const { dims, keepdim } = c.attrs;
    return [expandBack(g!, c, dims, keepdim)];
  },
});

/**
 * d prod / dx_i = the product of the other elements: prod / x_i where x_i != 0; where x_i is
 * the only zero of its slice, the product of the nonzero others; 0 when the slice has more
 * zeros (torch's prod_backward, written with differentiable ops).
 */
registerGradient({
  kernelName: K.Prod,
  saveInputs: [0],
  saveOutputs: true,
  gradFunc: ([g], c) => {
    const { dims, keepdim } = c.attrs;
    const x = c.input(0);
    const isZero = x.eq(0);
    const reduceDims = dims.length === 0 ? x.shape.map((_, i) => i) : dims;
    const zeroCount = expandBack(sum(castTo(isZero, 'int32'), reduceDims, keepdim), c, dims, keepdim);
    const othersIfOneZero = expandBack(prod(where(isZero, 1, x), reduceDims, keepdim), c, dims, keepdim);
    const atZero = where(zeroCount.eq(1), othersIfOneZero, 0);
    const elsewhere = div(expandBack(c.output(), c, dims, keepdim), where(isZero, 1, x));
    return [mul(expandBack(g!, c, dims, keepdim), where(isZero, atZero, elsewhere))];
  },
});

/** max/min: over everything the gradient is shared by the tied extremes (torch's evenly_distribute_backward); along a dim it goes to the index. */
function extremum(kernelName: typeof K.Max | typeof K.Min) {
  registerGradient({
    kernelName,
    saveInputs: [0],
    saveOutputs: true,
    gradFunc: ([g], c) => {
      const { dim, keepdim } = c.attrs;
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

declareNonDifferentiable(K.Argmax, K.Argmin);
