import { describe, it } from 'vitest';
import type { Tensor } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import { Adam, type Optimizer, SGD } from './index.js';

type Trace = number[][];
const T = loadFixture<{ c: number[]; p0: number[]; sgdMomentumDampening: Trace; sgdNesterov: Trace; adam: Trace }>('optim');

describe('optimizers agree with PyTorch 1.13 (fixtures/optim.json)', () => {
  it.each([
    ['SGD with momentum, dampening and weight decay', (p: Tensor[]) => new SGD(p, { lr: 0.1, momentum: 0.9, dampening: 0.1, weightDecay: 0.01 }), T.sgdMomentumDampening],
    ['SGD with Nesterov momentum', (p: Tensor[]) => new SGD(p, { lr: 0.1, momentum: 0.9, nesterov: true }), T.sgdNesterov],
    ['Adam with betas and weight decay', (p: Tensor[]) => new Adam(p, { lr: 0.1, betas: [0.8, 0.9], eps: 1e-8, weightDecay: 0.1 }), T.adam],
  ] as const)('%s: each step on sum(c p²)', (_name, make: (p: Tensor[]) => Optimizer, trace: Trace) => {
    const p = f64(T.p0, true);
    const c = f64(T.c);
    const opt = make([p]);
    for (const expected of trace) {
      opt.zeroGrad();
      c.mul(p).mul(p).sum().backward();
      opt.step();
      expectClose(p, expected);
    }
  });
});
