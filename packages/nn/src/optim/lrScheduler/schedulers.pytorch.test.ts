import { describe, expect, it } from 'vitest';
import { tensor } from '@wiregrad/autograd';
import { expectClose, loadFixture } from '../../__tests__/fixture.js';
import { Adam, SGD, lrScheduler as S } from '../index.js';

type Trajectory = { lr: number[][]; momentum: number[][]; lastLr: number[] };
type PlateauStep = { lr: number[]; best: number; numBadEpochs: number; cooldownCounter: number };
const T = loadFixture<{
  trajectories: Record<string, Trajectory>;
  plateau: Record<string, { metrics: number[]; steps: PlateauStep[] }>;
}>('schedulers');

/** SGD over two groups (lr 0.1 and 0.05, momentum 0.9), as gen_schedulers.py builds it. */
const sgd = () =>
  new SGD(
    [{ params: [tensor([0], { requiresGrad: true })] }, { params: [tensor([0], { requiresGrad: true })], lr: 0.05 }],
    { lr: 0.1, momentum: 0.9 },
  );

const fractional = [0.5, 1.2, 2.999, 3.0, 3.7, 5.0, 10.3, 21.0, 26.0, 27.5, 8.25];

const cases: [string, (o: SGD) => S.LRScheduler, number[]?][] = [
  ['constantLR', (o) => new S.ConstantLR(o, { factor: 0.5, totalIters: 4 })],
  ['constantLRDefault', (o) => new S.ConstantLR(o)],
  ['polynomialLR', (o) => new S.PolynomialLR(o, { totalIters: 6, power: 2.0 })],
  ['polynomialLRDefault', (o) => new S.PolynomialLR(o)],
  ['cosineWarmRestarts', (o) => new S.CosineAnnealingWarmRestarts(o, 3, { tMult: 2, etaMin: 0.01 })],
  ['cosineWarmRestartsMult1', (o) => new S.CosineAnnealingWarmRestarts(o, 4)],
  ['cosineWarmRestartsFractional', (o) => new S.CosineAnnealingWarmRestarts(o, 3, { tMult: 2 }), fractional],
  ['cosineWarmRestartsFractionalMult1', (o) => new S.CosineAnnealingWarmRestarts(o, 3), fractional],
  ['cyclicTriangular', (o) => new S.CyclicLR(o, 0.01, 0.1, { stepSizeUp: 3 })],
  [
    'cyclicTriangular2Down',
    (o) => new S.CyclicLR(o, [0.01, 0.02], [0.1, 0.2], { stepSizeUp: 2, stepSizeDown: 4, mode: 'triangular2' }),
  ],
  [
    'cyclicExpRange',
    (o) =>
      new S.CyclicLR(o, 0.01, 0.1, {
        stepSizeUp: 3,
        mode: 'exp_range',
        gamma: 0.9,
        baseMomentum: 0.7,
        maxMomentum: 0.95,
      }),
  ],
  [
    'cyclicScaleFnNoMomentum',
    (o) =>
      new S.CyclicLR(o, 0.01, 0.1, {
        stepSizeUp: 2,
        scaleFn: (x) => 0.5 ** x,
        scaleMode: 'iterations',
        cycleMomentum: false,
      }),
  ],
  [
    'sequentialWarmupExp',
    (o) =>
      new S.SequentialLR(o, [new S.LinearLR(o, { startFactor: 0.1, totalIters: 3 }), new S.ExponentialLR(o, 0.9)], [3]),
  ],
  [
    'sequentialThree',
    (o) =>
      new S.SequentialLR(
        o,
        [
          new S.ConstantLR(o, { factor: 0.5, totalIters: 2 }),
          new S.CosineAnnealingLR(o, 4, { etaMin: 0.001 }),
          new S.StepLR(o, 2, { gamma: 0.5 }),
        ],
        [2, 7],
      ),
  ],
  [
    'sequentialMultiStepPoly',
    (o) =>
      new S.SequentialLR(
        o,
        [new S.MultiStepLR(o, [1, 2], { gamma: 0.5 }), new S.PolynomialLR(o, { totalIters: 5 })],
        [4],
      ),
  ],
  [
    'chainedConstantExp',
    (o) => new S.ChainedScheduler([new S.ConstantLR(o, { factor: 0.1, totalIters: 2 }), new S.ExponentialLR(o, 0.9)]),
  ],
  [
    'chainedLinearCosine',
    (o) =>
      new S.ChainedScheduler([new S.LinearLR(o, { startFactor: 0.25, totalIters: 4 }), new S.CosineAnnealingLR(o, 8)]),
  ],
];

describe('lr schedulers agree with PyTorch 1.13 (fixtures/schedulers.json)', () => {
  it.each(cases)("%s: both groups' lr and momentum after construction and after each step", (name, make, epochs) => {
    const expected = T.trajectories[name]!;
    const opt = sgd();
    const sched = make(opt);
    const lrs = [opt.paramGroups.map((g) => g.lr)];
    const moms = [opt.paramGroups.map((g) => g.momentum)];
    for (let i = 0; i < (epochs?.length ?? 16); i++) {
      opt.step();
      sched.step(epochs?.[i]);
      lrs.push(opt.paramGroups.map((g) => g.lr));
      moms.push(opt.paramGroups.map((g) => g.momentum));
    }
    expectClose(lrs, expected.lr, 1e-12, 1e-15);
    expectClose(moms, expected.momentum, 1e-12, 1e-15);
    expectClose(sched.getLastLr(), expected.lastLr, 1e-12, 1e-15);
  });

  it.each(cases.filter(([, , epochs]) => !epochs))(
    '%s: a state dict taken after 5 steps resumes the trajectory in a new scheduler',
    (name, make) => {
      const expected = T.trajectories[name]!;
      const opt = sgd();
      const first = make(opt);
      for (let i = 0; i < 5; i++) first.step();
      const sd = first.stateDict();
      const opt2 = sgd();
      const second = make(opt2);
      second.loadStateDict(sd);
      opt2.paramGroups.forEach((g, i) =>
        Object.assign(g, { lr: opt.paramGroups[i]!.lr, momentum: opt.paramGroups[i]!.momentum }),
      );
      for (let i = 5; i < 16; i++) {
        second.step();
        expectClose(
          opt2.paramGroups.map((g) => g.lr),
          expected.lr[i + 1]!,
          1e-12,
          1e-15,
        );
      }
    },
  );
});

describe('ReduceLROnPlateau agrees with PyTorch 1.13', () => {
  const make: Record<string, (o: SGD) => S.ReduceLROnPlateau> = {
    minRel: (o) => new S.ReduceLROnPlateau(o, { patience: 2, factor: 0.5, cooldown: 1 }),
    maxAbsMinLr: (o) =>
      new S.ReduceLROnPlateau(o, {
        mode: 'max',
        threshold: 0.02,
        thresholdMode: 'abs',
        patience: 1,
        factor: 0.1,
        minLr: [0.002, 0.0001],
      }),
    epsSkipsTinyChange: (o) => new S.ReduceLROnPlateau(o, { patience: 0, factor: 0.5, minLr: 0.02, eps: 0.01 }),
    defaults: (o) => new S.ReduceLROnPlateau(o),
  };
  it.each(Object.keys(make))('%s: lr, best, bad epochs and cooldown after each metric', (name) => {
    const { metrics, steps } = T.plateau[name]!;
    const opt = sgd();
    const sched = make[name]!(opt);
    metrics.forEach((m, i) => {
      sched.step(i % 2 === 0 ? m : tensor(m, { dtype: 'float64' }));
      const e = steps[i]!;
      expectClose(
        opt.paramGroups.map((g) => g.lr),
        e.lr,
        1e-12,
        1e-15,
      );
      expect([sched.best, sched.numBadEpochs, sched.cooldownCounter]).toEqual([
        e.best,
        e.numBadEpochs,
        e.cooldownCounter,
      ]);
      expect(sched.getLastLr()).toEqual(opt.paramGroups.map((g) => g.lr));
    });
  });

  it('a state dict carries best, bad epochs and cooldown over', () => {
    const { metrics, steps } = T.plateau.minRel!;
    const opt = sgd();
    const a = make.minRel!(opt);
    metrics.slice(0, 6).forEach((m) => a.step(m));
    const b = make.minRel!(opt);
    b.loadStateDict(a.stateDict());
    metrics.slice(6).forEach((m, i) => {
      b.step(m);
      expectClose(
        opt.paramGroups.map((g) => g.lr),
        steps[i + 6]!.lr,
        1e-12,
        1e-15,
      );
    });
  });
});

describe("the schedulers' argument checks (PyTorch's messages)", () => {
  it('refuse bad arguments', () => {
    const o = sgd();
    expect(() => new S.ConstantLR(o, { factor: 2 })).toThrow(
      'Constant multiplicative factor expected to be between 0 and 1.',
    );
    expect(() => new S.CosineAnnealingWarmRestarts(o, 0)).toThrow('Expected positive integer T_0, but got 0');
    expect(() => new S.CosineAnnealingWarmRestarts(o, 2, { tMult: 1.5 })).toThrow(
      'Expected integer T_mult >= 1, but got 1.5',
    );
    expect(() => new S.CosineAnnealingWarmRestarts(o, 2).step(-1)).toThrow('Expected non-negative epoch, but got -1');
    expect(() => new S.CyclicLR(o, [0.1], 1)).toThrow('expected 2 values for base_lr, got 1');
    expect(() => new S.CyclicLR(o, 0.1, 1, { mode: 'sawtooth' as 'triangular' })).toThrow(
      'mode is invalid and scale_fn is None',
    );
    const adam = new Adam([tensor([0], { requiresGrad: true })]);
    expect(() => new S.CyclicLR(adam, 0.1, 1)).toThrow(
      'optimizer must support momentum with `cycle_momentum` option enabled',
    );
    expect(() => new S.SequentialLR(o, [new S.ConstantLR(o)], [3])).toThrow(
      'Sequential Schedulers expects number of schedulers provided to be one more than the number of milestone points, but got number of schedulers 1 and the number of milestones to be equal to 1',
    );
    expect(() => new S.SequentialLR(o, [new S.ConstantLR(sgd())], [])).toThrow(
      'Sequential Schedulers expects all schedulers to belong to the same optimizer, but got schedulers at index 0 to be different than the optimizer passed in.',
    );
    expect(() => new S.ChainedScheduler([new S.ConstantLR(o), new S.ConstantLR(sgd())])).toThrow(
      'ChainedScheduler expects all schedulers to belong to the same optimizer, but got schedulers at index 0 and 1 to be different',
    );
    expect(() => new S.ReduceLROnPlateau(o, { factor: 1 })).toThrow('Factor should be < 1.0.');
    expect(() => new S.ReduceLROnPlateau(o, { minLr: [0.1] })).toThrow('expected 2 min_lrs, got 1');
    expect(() => new S.ReduceLROnPlateau(o, { mode: 'mid' as 'min' })).toThrow('mode mid is unknown!');
  });
});
