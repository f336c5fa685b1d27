import { describe, expect, it } from 'vitest';
import { manualSeed, tensor, randn } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential, crossEntropy, mseLoss } from './index.js';
import { Adam, SGD } from './optim/index.js';

describe('nn', () => {
  it('Linear has PyTorch shapes and init bounds', () => {
    const l = new Linear(4, 3);
    expect(l.weight.shape).toEqual([3, 4]);
    expect(l.bias!.shape).toEqual([3]);
    expect(l.weight.abs().max().item()).toBeLessThanOrEqual(0.5);
    expect(new Linear(4, 3, { bias: false }).parameters()).toHaveLength(1);
    expect(l.forward(randn([5, 4])).shape).toEqual([5, 3]);
  });

  it('crossEntropy and mseLoss match PyTorch values', () => {
    const logits = tensor([[1, 2, 3], [1, 1, 1]], { dtype: 'float64' });
    // torch.nn.functional.cross_entropy(logits, [2, 0]) = 0.9503...
    expect(crossEntropy(logits, tensor(new Int32Array([2, 0]))).item()).toBeCloseTo((0.4076059644443806 + 1.0986122886681098) / 2, 12);
    expect(mseLoss(tensor([1, 2]), tensor([3, 2])).item()).toBe(2);
  });

  it('an MLP learns XOR with SGD + momentum', () => {
    manualSeed(3);
    const model = new Sequential(new Linear(2, 8), new ReLU(), new Linear(8, 2));
    const opt = new SGD(model.parameters(), { lr: 0.1, momentum: 0.9 });
    const xs = tensor([[0, 0], [0, 1], [1, 0], [1, 1]]);
    const ys = tensor(new Int32Array([0, 1, 1, 0]));
    for (let i = 0; i < 300; i++) {
      opt.zeroGrad();
      crossEntropy(model.forward(xs), ys).backward();
      opt.step();
    }
    expect(model.forward(xs).argmax(1).tolist()).toEqual([0, 1, 1, 0]);
  });

  it('train()/eval() reach every submodule; zeroGrad clears every parameter', () => {
    const inner = new Sequential(new Linear(2, 2), new ReLU());
    const model = new Sequential(inner, new Linear(2, 1));
    model.eval();
    expect([model.training, inner.training, inner.layers[0]!.training]).toEqual([false, false, false]);
    model.train();
    expect(inner.layers[1]!.training).toBe(true);
    expect(model.namedParameters().map(([n]) => n)).toEqual(['0.0.weight', '0.0.bias', '1.weight', '1.bias']);
    model.forward(randn([3, 2])).sum().backward();
    model.zeroGrad();
    expect(model.parameters().every((p) => p.grad === null)).toBe(true);
  });

  it('Adam fits a linear regression: the loss falls by orders of magnitude', () => {
    manualSeed(11);
    const xs = randn([64, 3]);
    const ys = xs.matmul(tensor([[1.5], [-2], [0.5]])).add(0.3);
    const model = new Linear(3, 1);
    const opt = new Adam(model.parameters(), { lr: 0.05 });
    const losses: number[] = [];
    for (let i = 0; i < 300; i++) {
      opt.zeroGrad();
      const loss = mseLoss(model.forward(xs), ys);
      losses.push(loss.item());
      loss.backward();
      opt.step();
    }
    expect(losses.at(-1)!).toBeLessThan(losses[0]! * 1e-3);
  });
});
