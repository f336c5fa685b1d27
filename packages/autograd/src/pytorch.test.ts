import { describe, expect, it } from 'vitest';
import { TORCH } from './__tests__/torch.fixture.js';
import { type NestedArray, type Tensor, grad, tensor } from './index.js';

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
  it('an MLP (x Wᵀ + b, relu, log-softmax + gather): the loss and every parameter gradient', () => {
    const { mlp } = TORCH;
    const [w1, b1, w2, b2] = [mlp.w1, mlp.b1, mlp.w2, mlp.b2].map((v) => f64(v, true)) as [
      Tensor,
      Tensor,
      Tensor,
      Tensor,
    ];
    const logits = f64(mlp.x).matmul(w1.t()).add(b1).relu().matmul(w2.t()).add(b2);
    // cross entropy as torch computes it: -log_softmax(logits)[i, target[i]]
    const picked = logits
      .logSoftmax(1)
      .gather(1, tensor(new Int32Array(mlp.target)).unsqueeze(1))
      .neg();
    const loss = picked.mean();
    expect(loss.item()).toBeCloseTo(mlp.loss, 12);
    expect(picked.sum().item()).toBeCloseTo(mlp.lossSum, 12);
    loss.backward();
    expectClose(w1.grad!.tolist(), mlp.grads.w1);
    expectClose(b1.grad!.tolist(), mlp.grads.b1);
    expectClose(w2.grad!.tolist(), mlp.grads.w2);
    expectClose(b2.grad!.tolist(), mlp.grads.b2);
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
    [
      'maximum (ties split)',
      (a: Tensor, b: Tensor) => a.maximum(b).sum(),
      [
        [1, 2, 3],
        [1, 5, 0],
      ],
      g.maximumTies,
    ],
    [
      'max over everything (ties share)',
      (t: Tensor) => t.max(),
      [
        [
          [3, 1],
          [3, 3],
        ],
      ],
      g.maxAllTies,
    ],
    [
      'prod with zeros',
      (t: Tensor) => t.prod(1).sum(),
      [
        [
          [2, 0, 3],
          [0, 0, 4],
          [1.5, 2, -1],
        ],
      ],
      g.prodZeros,
    ],
    [
      'pow at 0^0 and 0^2',
      (a: Tensor, b: Tensor) => a.pow(b).sum(),
      [
        [0, 0, 2],
        [0, 2, 0.5],
      ],
      g.powZero,
    ],
    [
      'std and var',
      (t: Tensor) => t.std(1).sum().add(t.var(0).sum()),
      [
        [
          [1, 2, 4],
          [0.5, -1, 3],
        ],
      ],
      g.stdVar,
    ],
    [
      'logsumexp',
      (t: Tensor) => t.logsumexp(1).sum(),
      [
        [
          [1, 2, 3],
          [-1, 0, 10],
        ],
      ],
      g.logsumexp,
    ],
  ] as [string, (...t: Tensor[]) => Tensor, NestedArray[], NestedArray[]][])(
    'gradient of %s',
    (_name, fn, values, expected) => {
      const inputs = values.map((v) => f64(v, true));
      fn(...inputs).backward();
      inputs.forEach((t, i) => expectClose(t.grad!.tolist(), expected[i]!));
    },
  );

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
