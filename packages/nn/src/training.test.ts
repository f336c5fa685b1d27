import { describe, expect, it } from 'vitest';
import { manualSeed, tensor, randn } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential, crossEntropy, mseLoss } from './index.js';
import { Adam, SGD } from './optim/index.js';

describe('training end to end', () => {
  it('Linear has PyTorch shapes and init bounds', () => {
    const l = new Linear(4, 3);
    expect(l.weight.shape).toEqual([3, 4]);
    expect(l.bias!.shape).toEqual([3]);
    expect(l.weight.abs().max().item()).toBeLessThanOrEqual(0.5);
    expect(new Linear(4, 3, { bias: false }).parameters()).toHaveLength(1);
    expect(l.forward(randn([5, 4])).shape).toEqual([5, 3]);
  });

  it('an MLP learns XOR with SGD + momentum', () => {
    manualSeed(3);
    const model = new Sequential(new Linear(2, 8), new ReLU(), new Linear(8, 2));
    const opt = new SGD(model.parameters(), { lr: 0.1, momentum: 0.9 });
    const xs = tensor([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    const ys = tensor(new Int32Array([0, 1, 1, 0]));
    for (let i = 0; i < 300; i++) {
      opt.zeroGrad();
      crossEntropy(model.forward(xs), ys).backward();
      opt.step();
    }
    expect(model.forward(xs).argmax(1).tolist()).toEqual([0, 1, 1, 0]);
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
