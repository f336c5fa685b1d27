import { KernelNames as K, type Tensor, add, castTo, div, log, mul, neg, pow, sub, where } from '@wiregrad/tensor';
import { declareNonDifferentiable, ifNeeded, registerGradient, toInputShape as to } from './registry.js';

// Each gradient is summed back to its input's (pre-broadcast) shape.
registerGradient({
  kernelName: K.Add,
  gradFunc: ([g], c) => [ifNeeded(c, 0, () => to(g!, c, 0)), ifNeeded(c, 1, () => to(g!, c, 1))],
});
registerGradient({
  kernelName: K.Sub,
  gradFunc: ([g], c) => [ifNeeded(c, 0, () => to(g!, c, 0)), ifNeeded(c, 1, () => to(neg(g!), c, 1))],
});
registerGradient({
  kernelName: K.Mul,
  saveInputs: [0, 1],
  gradFunc: ([g], c) => [
    ifNeeded(c, 0, () => to(mul(g!, c.input(1)), c, 0)),
    ifNeeded(c, 1, () => to(mul(g!, c.input(0)), c, 1)),
  ],
});
registerGradient({
  kernelName: K.Div,
  saveInputs: [0, 1],
  gradFunc: ([g], c) => [
    ifNeeded(c, 0, () => to(div(g!, c.input(1)), c, 0)),
    ifNeeded(c, 1, () => to(neg(div(mul(g!, c.input(0)), mul(c.input(1), c.input(1)))), c, 1)),
  ],
});
registerGradient({
  kernelName: K.Pow,
  saveInputs: [0, 1],
  saveOutputs: true,
  gradFunc: ([g], c) => [
    // d/da a^b = b a^(b-1), masked to 0 where b == 0 so that 0^0 stays finite (torch's pow_backward_self)
    ifNeeded(c, 0, () => {
      const b = c.input(1);
      return to(where(b.eq(0), 0, mul(mul(g!, b), pow(c.input(0), sub(b, 1)))), c, 0);
    }),
    // d/db a^b = a^b log a, masked to 0 where a == 0 and b >= 0 (torch's pow_backward_exponent)
    ifNeeded(c, 1, () => {
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
      return [ifNeeded(c, 0, () => to(mul(g!, share), c, 0)), ifNeeded(c, 1, () => to(mul(g!, sub(1, share)), c, 1))];
    },
  });
}
extremum(K.Maximum, (a, b) => a.gt(b));
extremum(K.Minimum, (a, b) => a.lt(b));

declareNonDifferentiable(K.Equal, K.NotEqual, K.Less, K.LessEqual, K.Greater, K.GreaterEqual);
