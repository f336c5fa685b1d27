import { describe, expect, it } from 'vitest';
import { tensor } from '@wiregrad/autograd';
import { Adagrad, SGD, lrScheduler } from '../index.js';

const sgd = (lr = 0.1) => new SGD([tensor([1], { requiresGrad: true })], { lr, momentum: 0.9 });

describe('LR schedulers', () => {
  it('record initialLr in every group and set the first lr at construction', () => {
    const opt = sgd();
    const s = new lrScheduler.LinearLR(opt, { startFactor: 0.5 });
    expect(opt.paramGroups[0]).toMatchObject({ initialLr: 0.1, lr: 0.05 });
    expect(s.baseLrs).toEqual([0.1]);
    expect(s.lastEpoch).toBe(0);
  });

  it('resuming (lastEpoch >= 0) requires initialLr in the groups', () => {
    expect(() => new lrScheduler.StepLR(sgd(), 2, { lastEpoch: 3 })).toThrow(
      "param 'initial_lr' is not specified in param_groups[0] when resuming an optimizer",
    );
  });

  it('stateDict()/loadStateDict() carry the schedule over to a new scheduler', () => {
    const opt = sgd();
    const a = new lrScheduler.CosineAnnealingLR(opt, 10);
    for (let i = 0; i < 4; i++) a.step();
    const opt2 = sgd();
    const b = new lrScheduler.CosineAnnealingLR(opt2, 10);
    b.loadStateDict(a.stateDict());
    opt2.paramGroups[0]!.lr = opt.paramGroups[0]!.lr;
    a.step();
    b.step();
    expect(b.getLastLr()).toEqual(a.getLastLr());
    expect(Object.keys(new lrScheduler.LambdaLR(sgd(), () => 1).stateDict())).not.toContain('lrLambdas');
  });

  it("check their arguments with PyTorch's messages", () => {
    expect(() => new lrScheduler.StepLR({} as never, 1)).toThrow('Object is not an Optimizer');
    expect(() => new lrScheduler.LinearLR(sgd(), { startFactor: 0 })).toThrow(
      'Starting multiplicative factor expected to be greater than 0 and less or equal to 1.',
    );
    expect(() => new lrScheduler.LinearLR(sgd(), { endFactor: 2 })).toThrow(
      'Ending multiplicative factor expected to be between 0 and 1.',
    );
    expect(() => new lrScheduler.LambdaLR(sgd(), [() => 1, () => 2])).toThrow('Expected 1 lr_lambdas, but got 2');
    expect(() => new lrScheduler.OneCycleLR(sgd(), 1)).toThrow(
      'You must define either total_steps OR (epochs AND steps_per_epoch)',
    );
    expect(() => new lrScheduler.OneCycleLR(sgd(), 1, { totalSteps: 2.5 })).toThrow(
      'Expected positive integer total_steps, but got 2.5',
    );
    expect(
      () => new lrScheduler.OneCycleLR(new Adagrad([tensor([1], { requiresGrad: true })]), 1, { totalSteps: 5 }),
    ).toThrow('optimizer must support momentum with `cycle_momentum` option enabled');
  });

  it('OneCycleLR refuses to step past totalSteps', () => {
    const s = new lrScheduler.OneCycleLR(sgd(), 1, { totalSteps: 3 });
    s.step();
    s.step();
    s.step();
    expect(() => s.step()).toThrow('Tried to step 5 times. The specified number of total steps is 3');
  });
});
