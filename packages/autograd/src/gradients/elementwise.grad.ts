import { KernelNames as K, type Tensor, add, div, exp, gelu, log, mul, neg, sigmoid, sign, sub, where, cos, sin, pow, castTo, moveTo, type DType } from '@wiregrad/tensor';
import { sumToShape } from '../engine/sumToShape.js';
import { declareNonDifferentiable, registerGradient, type GradContext } from './registry.js';

const to = (g: Tensor, ctx: GradContext, i: number) => sumToShape(g, ctx.inputShapes[i]!);
const only = (ctx: GradContext, i: number, f: () => Tensor): Tensor | null => (ctx.needsInputGrad(i) ? f() : null);

// Binary: each gradient is reduced back to its input's (pre-broadcast) shape.
registerGradient({ kernelName: K.Add, gradFunc: ([g], c) => [only(c, 0, () => to(g!, c, 0)), only(c, 1, () => to(g!, c, 1))] });
registerGradient({ kernelName: K.Sub, gradFunc: ([g], c) => [only(c, 0, () => to(g!, c, 0)), only(c, 1, () => to(neg(g!), c, 1))] });
registerGradient({
  kernelName: K.Mul,
  saveInputs: [0, 1],
  gradFunc: ([g], c) => [only(c, 0, () => to(mul(g!, c.input(1)), c, 0)), only(c, 1, () => to(mul(g!, c.input(0)), c, 1))],
});
registerGradient({
  kernelName: K.Div,
  saveInputs: [0, 1],
  gradFunc: ([g], c) => [
    only(c, 0, () => to(div(g!, c.input(1)), c, 0)),
    only(c, 1, () => to(neg(div(mul(g!, c.input(0)), mul(c.input(1), c.input(1)))), c, 1)),
  ],
});
registerGradient({
  kernelName: K.Pow,
  saveInputs: [0, 1],
  saveOutputs: true,
  gradFunc: ([g], c) => [
    only(c, 0, () => {
      const b = c.input(1);
      // d/da a^b = b * a^(b-1); torch masks b == 0 to 0 so that 0^0 stays finite
      return to(where(b.eq(0), 0, mul(mul(g!, b), pow(c.input(0), sub(b, 1)))), c, 0);
    }),
    only(c, 1, () => {
      const a = c.input(0);
      return to(where(mul(a.eq(0), c.input(1).ge(0)), 0, mul(mul(g!, c.output()), log(a))), c, 1);
    }),
  ],
});

/** maximum/minimum: the gradient goes to the selected input; ties split it in half, like torch. */
function extremum(kernelName: string, pick: (a: Tensor, b: Tensor) => Tensor) {
  registerGradient({
    kernelName,
    saveInputs: [0, 1],
    gradFunc: ([g], c) => {
      const a = c.input(0);
      const b = c.input(1);
      const share = add(castTo(pick(a, b), g!.dtype), mul(castTo(a.eq(b), g!.dtype), 0.5));
      return [only(c, 0, () => to(mul(g!, share), c, 0)), only(c, 1, () => to(mul(g!, sub(1, share)), c, 1))];
    },
  });
}
extremum(K.Maximum, (a, b) => a.gt(b));
extremum(K.Minimum, (a, b) => a.lt(b));

// Unary: d/dx written with the saved input (x) or output (y).
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
registerGradient({
  kernelName: K.Clamp,
  saveInputs: [0],
  gradFunc: ([g], c) => {
    const x = c.input(0);
    const { min, max } = c.attrs as { min: number | null; max: number | null };
    let keep = x.eq(x);
    if (min !== null) keep = mul(keep, x.ge(min));
    if (max !== null) keep = mul(keep, x.le(max));
    return [where(keep, g!, 0)];
  },
});
registerGradient({
  kernelName: K.Where,
  saveInputs: [0],
  gradFunc: ([g], c) => {
    const cond = c.input(0);
    return [null, only(c, 1, () => to(where(cond, g!, 0), c, 1)), only(c, 2, () => to(where(cond, 0, g!), c, 2))];
  },
});

// Copies and moves: the gradient goes back the same way.
registerGradient({ kernelName: K.Copy, gradFunc: ([g]) => [g!] });
registerGradient({ kernelName: K.Cast, gradFunc: ([g], c) => [castTo(g!, c.inputDtypes[0] as DType)] });
registerGradient({ kernelName: K.ToDevice, gradFunc: ([g], c) => [moveTo(g!, c.inputDevices[0]!)] });

declareNonDifferentiable(K.Equal, K.NotEqual, K.Less, K.LessEqual, K.Greater, K.GreaterEqual, K.LogicalNot, K.Sign);
