import {
  KernelNames as K,
  type Tensor,
  add,
  castTo,
  cos,
  div,
  exp,
  gelu,
  mul,
  neg,
  pow,
  sigmoid,
  sign,
  sin,
  sub,
  where,
  zerosLike,
} from '@wiregrad/tensor';
import { declareNonDifferentiable, registerGradient } from './registry.js';

// d/dx written with the saved input (x) or the saved output (y).
const unaryX = (kernelName: string, d: (g: Tensor, x: Tensor) => Tensor) =>
  registerGradient({ kernelName, saveInputs: [0], gradFunc: ([g], c) => [d(g!, c.input(0))] });
const unaryY = (kernelName: string, d: (g: Tensor, y: Tensor) => Tensor) =>
  registerGradient({ kernelName, saveOutputs: true, gradFunc: ([g], c) => [d(g!, c.output())] });

registerGradient({ kernelName: K.Neg, gradFunc: ([g]) => [neg(g!)] });
unaryY(K.Exp, (g, y) => mul(g, y));
unaryX(K.Log, (g, x) => div(g, x));
unaryX(K.Log1p, (g, x) => div(g, add(x, 1)));
unaryY(K.Sqrt, (g, y) => div(g, mul(y, 2)));
unaryY(K.Rsqrt, (g, y) => mul(mul(g, pow(y, 3)), -0.5));
unaryX(K.Abs, (g, x) => mul(g, sign(x)));
unaryX(K.Sin, (g, x) => mul(g, cos(x)));
unaryX(K.Cos, (g, x) => neg(mul(g, sin(x))));
unaryY(K.Tanh, (g, y) => mul(g, sub(1, mul(y, y))));
unaryY(K.Sigmoid, (g, y) => mul(g, mul(y, sub(1, y))));
unaryY(K.Relu, (g, y) => mul(g, castTo(y.gt(0), g.dtype)));
// gelu'(x) = Φ(x) + x φ(x), with Φ(x) = gelu(x) / x (1/2 at 0) and φ the normal density
unaryX(K.Gelu, (g, x) => {
  const cdf = where(x.eq(0), 0.5, div(gelu(x), x));
  const pdf = mul(exp(mul(mul(x, x), -0.5)), 0.3989422804014327);
  return mul(g, add(cdf, mul(x, pdf)));
});
unaryX(K.Silu, (g, x) => {
  const s = sigmoid(x);
  return mul(g, mul(s, add(1, mul(x, sub(1, s)))));
});
unaryX(K.Softplus, (g, x) => mul(g, sigmoid(x)));

// clamp: the gradient passes where min <= x <= max (NaN inputs get none), like torch's clamp_backward
registerGradient({
  kernelName: K.Clamp,
  saveInputs: [0],
  gradFunc: ([g], c) => {
    const x = c.input(0);
    const { min, max } = c.attrs;
    let keep = x.eq(x);
    if (min !== null) keep = mul(keep, x.ge(min));
    if (max !== null) keep = mul(keep, x.le(max));
    return [where(keep, g!, 0)];
  },
});

// sign is piecewise constant: PyTorch records SignBackward0 with a zero gradient (derivatives.yaml's zeros_like(grad))
registerGradient({ kernelName: K.Sign, gradFunc: ([g]) => [zerosLike(g!)] });

declareNonDifferentiable(K.LogicalNot);
