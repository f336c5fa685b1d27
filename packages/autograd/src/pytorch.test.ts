import { describe, expect, it } from 'vitest';
import { TORCH } from './__tests__/torch.fixture.js';
import { type NestedArray, type Tensor, grad, noGrad, tensor } from './index.js';
import { Linear, ReLU, Sequential, crossEntropy } from './nn/index.js';
import { Adam, SGD, type Optimizer } from './optim/index.js';

// Values computed offline by PyTorch (scripts/torchFixtures.py), never by this implementation.
const f64 = (v: NestedArray, requiresGrad = false) => tensor(v, { dtype: 'float64', requiresGrad });

/** Elementwise closeness of nested arrays (relative 1e-9, absolute 1e-12). */
function expectClose(actual: NestedArray, expected: NestedArray): void {
  const flat = (v: NestedArray): number[] => (Array.isArray(v) ? v.flatMap(flat) : [Number(v)]);
  const a = flat(actual);
  const e = flat(expected);
  expect(a).toHaveLength(e.length);
  a.forEach((v, i) => expect(Math.abs(v - e[i]!)).toBeLessThanOrEqual(1e-12 + 1e-9 * Math.abs(e[i]!)));
}

describe('agreement with PyTorch 1.13 (fixtures)', () => {
  it('an MLP (Linear, ReLU, crossEntropy): the loss and every parameter gradient', () => {
    const { mlp } = TORCH;
    const l1 = new Linear(2, 3, { dtype: 'float64' });
    const l2 = new Linear(3, 3, { dtype: 'float64' });
    noGrad(() => {
      l1.weight.copy_(f64(mlp.w1));
      l1.bias!.copy_(f64(mlp.b1));
      l2.weight.copy_(f64(mlp.w2));
      l2.bias!.copy_(f64(mlp.b2));
    });
    const model = new Sequential(l1, new ReLU(), l2);
    const target = tensor(new Int32Array(mlp.target));
    const loss = crossEntropy(model.forward(f64(mlp.x)), target);
    expect(loss.item()).toBeCloseTo(mlp.loss, 12);
    expect(crossEntropy(model.forward(f64(mlp.x)), target, { reduction: 'sum' }).item()).toBeCloseTo(mlp.lossSum, 12);
    loss.backward();
    expect(model.namedParameters().map(([name]) => name)).toEqual(['0.weight', '0.bias', '2.weight', '2.bias']);
    expectClose(l1.weight.grad!.tolist(), mlp.grads.w1);
    expectClose(l1.bias!.grad!.tolist(), mlp.grads.b1);
    expectClose(l2.weight.grad!.tolist(), mlp.grads.w2);
    expectClose(l2.bias!.grad!.tolist(), mlp.grads.b2);
  });

  it.each([
    ['SGD with momentum, dampening and weight decay', (p: Tensor[]) => new SGD(p, { lr: 0.1, momentum: 0.9, dampening: 0.1, weightDecay: 0.01 }), TORCH.optim.sgdMomentumDampening],
    ['SGD with Nesterov momentum', (p: Tensor[]) => new SGD(p, { lr: 0.1, momentum: 0.9, nesterov: true }), TORCH.optim.sgdNesterov],
    ['Adam with betas and weight decay', (p: Tensor[]) => new Adam(p, { lr: 0.1, betas: [0.8, 0.9], eps: 1e-8, weightDecay: 0.1 }), TORCH.optim.adam],
  ] as const)('%s: three steps on sum(c p²)', (_name, make: (p: Tensor[]) => Optimizer, trace) => {
    const p = f64(TORCH.optim.p0, true);
    const c = f64(TORCH.optim.c);
    const opt = make([p]);
    for (const expected of trace) {
      opt.zeroGrad();
      c.mul(p).mul(p).sum().backward();
      opt.step();
      expectClose(p.tolist(), expected);
    }
  });

  const g = TORCH.grads;
  const pts = [-1.5, -0.2, 0, 0.7, 2.5];
  it.each([
    ['gelu', (t: Tensor) => t.gelu().sum(), [pts], g.gelu],
    ['silu', (t: Tensor) => t.silu().sum(), [pts], g.silu],
    ['softplus', (t: Tensor) => t.softplus().sum(), [pts], g.softplus],
    ['relu (0 at 0)', (t: Tensor) => t.relu().sum(), [pts], g.relu],
    ['abs (0 at 0)', (t: Tensor) => t.abs().sum(), [pts], g.abs],
    ['clamp (1 on the bounds)', (t: Tensor) => t.clamp(-0.2, 0.7).sum(), [pts], g.clampBounds],
    ['maximum (ties split)', (a: Tensor, b: Tensor) => a.maximum(b).sum(), [[1, 2, 3], [1, 5, 0]], g.maximumTies],
    ['max over everything (ties share)', (t: Tensor) => t.max(), [[[3, 1], [3, 3]]], g.maxAllTies],
    ['prod with zeros', (t: Tensor) => t.prod(1).sum(), [[[2, 0, 3], [0, 0, 4], [1.5, 2, -1]]], g.prodZeros],
    ['pow at 0^0 and 0^2', (a: Tensor, b: Tensor) => a.pow(b).sum(), [[0, 0, 2], [0, 2, 0.5]], g.powZero],
    ['std and var', (t: Tensor) => t.std(1).sum().add(t.var(0).sum()), [[[1, 2, 4], [0.5, -1, 3]]], g.stdVar],
    ['logsumexp', (t: Tensor) => t.logsumexp(1).sum(), [[[1, 2, 3], [-1, 0, 10]]], g.logsumexp],
  ] as [string, (...t: Tensor[]) => Tensor, NestedArray[], NestedArray[]][])('gradient of %s', (_name, fn, values, expected) => {
    const inputs = values.map((v) => f64(v, true));
    fn(...inputs).backward();
    inputs.forEach((t, i) => expectClose(t.grad!.tolist(), expected[i]!));
  });

  it('a second derivative through createGraph', () => {
    const { x, d1, d2 } = TORCH.secondDerivative;
    const t = f64(x, true);
    const [first] = grad(t.sin().mul(t.exp()).sum(), t, { createGraph: true });
    expectClose(first!.tolist(), d1);
    const [second] = grad(first!.sum(), t);
    expectClose(second!.tolist(), d2);
  });

  it('in-place writes into a row and a transposed column of a non-leaf', () => {
    const x = f64(TORCH.inplaceViews.x, true);
    const y = x.mul(1);
    y.select(0, 1).mul_(f64([1, 2, 3]));
    y.t().select(0, 2).mul_(x.select(1, 0));
    y.mul(y).sum().backward();
    expectClose(x.grad!.tolist(), TORCH.inplaceViews.grad);
  });
});
