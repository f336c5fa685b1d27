import { describe, expect, it } from 'vitest';
import { type NestedArray, type Tensor, gradcheck, manualSeed, randn, tensor } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import { ELU, Hardswish, LeakyReLU, Mish, PReLU, SELU, Softplus } from '../index.js';
import * as F from './index.js';

interface Case {
  inputs: Record<string, NestedArray>;
  y: NestedArray;
  grads: Record<string, NestedArray>;
}
const T = loadFixture<{
  cases: Record<string, Case>;
  repr: Record<string, string>;
  preluStateDict: Record<string, number[]>;
}>('activations');

const ramp = (n: number) => Array.from({ length: n }, (_, i) => (n === 1 ? -1 : -1 + (2 * i) / (n - 1)));

const cases: [string, (x: Tensor, w: Tensor) => Tensor][] = [
  ['leakyRelu', (x) => F.leakyRelu(x)],
  ['leakyReluSlope', (x) => F.leakyRelu(x, { negativeSlope: 0.2 })],
  ['elu', (x) => F.elu(x)],
  ['eluAlpha', (x) => F.elu(x, { alpha: 0.5 })],
  ['selu', (x) => F.selu(x)],
  ['softplus', (x) => F.softplus(x)],
  ['softplusBetaThreshold', (x) => F.softplus(x, { beta: 2, threshold: 21 })],
  ['mish', (x) => F.mish(x)],
  ['hardswish', (x) => F.hardswish(x)],
  ['prelu', (x, w) => F.prelu(x, w)],
  ['preluChannels', (x, w) => F.prelu(x, w)],
  ['preluUnbatched1d', (x, w) => F.prelu(x, w)],
];

describe('the ReLU family agrees with PyTorch 1.13 (fixtures/activations.json)', () => {
  it.each(cases)('%s: values and the gradients of sum(y r), kinks and thresholds included', (name, f) => {
    const c = T.cases[name]!;
    const x = f64(c.inputs.x!, true);
    const w = c.inputs.w ? f64(c.inputs.w, true) : f64(0);
    const y = f(x, w);
    expectClose(y, c.y);
    y.mul(f64(ramp(y.numel)).reshape([...y.shape]))
      .sum()
      .backward();
    expectClose(x.grad!, c.grads.x!);
    if (c.grads.w) expectClose(w.grad!, c.grads.w);
  });

  it('the modules print as PyTorch, and PReLU(3) has one weight per channel at 0.25', () => {
    const modules = {
      leakyRelu: new LeakyReLU(),
      elu: new ELU({ alpha: 0.5 }),
      eluDefault: new ELU(),
      selu: new SELU(),
      softplus: new Softplus(),
      mish: new Mish(),
      hardswish: new Hardswish(),
      prelu: new PReLU({ numParameters: 3 }),
    };
    for (const [name, m] of Object.entries(modules)) expect(m.toString()).toBe(T.repr[name]);
    const sd = new PReLU({ numParameters: 3 }).stateDict();
    expect(Object.keys(sd)).toEqual(Object.keys(T.preluStateDict));
    expectClose(sd.weight!, T.preluStateDict.weight!);
  });

  it('the modules compute their functional forms with their options', () => {
    const x = f64(T.cases.softplusBetaThreshold!.inputs.x!);
    expectClose(new Softplus({ beta: 2, threshold: 21 }).forward(x), T.cases.softplusBetaThreshold!.y);
    expectClose(new LeakyReLU({ negativeSlope: 0.2 }).forward(x), T.cases.leakyReluSlope!.y);
    expectClose(new ELU({ alpha: 0.5 }).forward(x), T.cases.eluAlpha!.y);
    const prelu = new PReLU({ numParameters: 3 }).to('float64');
    const c = T.cases.preluChannels!;
    prelu.weight.detach().copy_(f64(c.inputs.w!));
    expectClose(prelu.forward(f64(c.inputs.x!)), c.y);
  });

  it("prelu refuses a weight that fits no channel count, with PyTorch's messages", () => {
    expect(() => F.prelu(f64([1, -2, 3]), f64([1, 2, 3]))).toThrow(
      'Mismatch of parameter numbers and input channel size. Found parameter numbers = 3 and channel size = 1.',
    );
    expect(() => F.prelu(f64([[1, 2, 3]]), f64([[1, 2, 3]]))).toThrow(
      'prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = 2',
    );
  });
});

describe('the ReLU family: gradcheck in float64 (away from the kinks, where finite differences straddle two branches)', () => {
  manualSeed(21);
  const leaf = (t: Tensor) => t.to('float64').requiresGrad_();
  // |x| >= 0.1 and away from ±3, so no finite-difference step crosses a kink
  const awayFromKinks = (t: Tensor) =>
    t
      .mul(2)
      .add(t.sign().mul(0.1))
      .add(tensor(0.0123, { dtype: 'float64' }));
  const x = () => leaf(awayFromKinks(randn([2, 3, 4]).to('float64')));
  it.each([
    ['leakyRelu', (a: Tensor) => F.leakyRelu(a, { negativeSlope: 0.3 })],
    ['elu', (a: Tensor) => F.elu(a, { alpha: 0.7 })],
    ['selu', (a: Tensor) => F.selu(a)],
    ['softplus', (a: Tensor) => F.softplus(a, { beta: 1.5, threshold: 2 })],
    ['mish', (a: Tensor) => F.mish(a)],
    ['hardswish', (a: Tensor) => F.hardswish(a)],
  ] as [string, (a: Tensor) => Tensor][])('%s', (_name, f) => {
    expect(gradcheck(f, [x()], { raiseException: true })).toBe(true);
  });

  it('prelu, in the input and in the per-channel weight', () => {
    const w = leaf(tensor([0.1, -0.5, 2.0]));
    expect(gradcheck((a: Tensor, b: Tensor) => F.prelu(a, b), [x(), w], { raiseException: true })).toBe(true);
  });
});
