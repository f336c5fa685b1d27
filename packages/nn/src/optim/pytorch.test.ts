import { describe, expect, it } from 'vitest';
import { type Tensor, tensor } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import { Adagrad, Adam, AdamW, type Optimizer, RMSprop, SGD, clipGradNorm_, lrScheduler } from './index.js';

type Run = { trace: number[][]; state: Record<string, number | number[]> };
type Sched = { lr: number[]; momentum: number[] };
interface Fixture {
  c: number[];
  p0: number[];
  optimizers: Record<string, Run>;
  twoGroups: { q0: number[][]; trace: [number[], number[][]][] };
  schedulers: Record<string, Sched>;
  clipGradNorm: { normType: number | 'inf'; maxNorm: number; total: number; grads: [number[][], number[]] }[];
}
const T = loadFixture<Fixture>('optim');
const c = f64(T.c);
const lossOf = (p: Tensor) => c.mul(p).mul(p).sum().add(p.pow(3).sum().mul(0.1));

const optimizers: [string, (p: Tensor[]) => Optimizer][] = [
  ['sgd', (p) => new SGD(p, { lr: 0.1 })],
  ['sgdMomentumDampening', (p) => new SGD(p, { lr: 0.1, momentum: 0.9, dampening: 0.1, weightDecay: 0.01 })],
  ['sgdNesterov', (p) => new SGD(p, { lr: 0.1, momentum: 0.9, nesterov: true })],
  ['sgdMaximize', (p) => new SGD(p, { lr: 0.01, momentum: 0.5, maximize: true })],
  ['adam', (p) => new Adam(p, { lr: 0.1 })],
  ['adamBetasWeightDecay', (p) => new Adam(p, { lr: 0.1, betas: [0.8, 0.9], eps: 1e-8, weightDecay: 0.1 })],
  ['adamAmsgrad', (p) => new Adam(p, { lr: 0.2, amsgrad: true })],
  ['adamMaximize', (p) => new Adam(p, { lr: 0.1, maximize: true })],
  ['adamw', (p) => new AdamW(p, { lr: 0.1 })],
  ['adamwAmsgrad', (p) => new AdamW(p, { lr: 0.1, weightDecay: 0.1, amsgrad: true })],
  ['rmsprop', (p) => new RMSprop(p)],
  [
    'rmspropCenteredMomentum',
    (p) => new RMSprop(p, { lr: 0.01, alpha: 0.9, weightDecay: 0.1, momentum: 0.5, centered: true }),
  ],
  ['adagrad', (p) => new Adagrad(p, { lr: 0.1 })],
  ['adagradDecay', (p) => new Adagrad(p, { lr: 0.1, lrDecay: 0.01, weightDecay: 0.1, initialAccumulatorValue: 0.5 })],
];

describe('optimizers agree with PyTorch 1.13 (fixtures/optim.json)', () => {
  it.each(optimizers)('%s: every one of 5 steps on sum(c p²) + 0.1 sum(p³), and the state after', (name, make) => {
    const { trace, state } = T.optimizers[name]!;
    const p = f64(T.p0, true);
    const opt = make([p]);
    for (const expected of trace) {
      opt.zeroGrad();
      lossOf(p).backward();
      opt.step();
      expectClose(p, expected);
    }
    const ours = opt.stateDict().state[0] ?? {};
    expect(Object.keys(ours).sort()).toEqual(Object.keys(state).sort());
    for (const [k, v] of Object.entries(state))
      expectClose(typeof ours[k] === 'number' ? (ours[k] as number) : (ours[k] as Tensor), v);
  });

  it('two parameter groups: per-group options over the defaults', () => {
    const p = f64(T.p0, true);
    const q = f64(T.twoGroups.q0, true);
    const opt = new SGD(
      [
        { params: [p], lr: 0.05 },
        { params: [q], momentum: 0.5 },
      ],
      { lr: 0.01, momentum: 0.9 },
    );
    expect(opt.paramGroups.map((g) => [g.lr, g.momentum])).toEqual([
      [0.05, 0.9],
      [0.01, 0.5],
    ]);
    for (const [ep, eq] of T.twoGroups.trace) {
      opt.zeroGrad();
      lossOf(p).add(q.pow(4).sum()).backward();
      opt.step();
      expectClose(p, ep);
      expectClose(q, eq);
    }
  });
});

const schedulers: [string, (o: Optimizer) => lrScheduler.LRScheduler, ((ps: Tensor[]) => Optimizer)?][] = [
  ['stepLR', (o) => new lrScheduler.StepLR(o, 3, { gamma: 0.5 })],
  ['multiStepLR', (o) => new lrScheduler.MultiStepLR(o, [2, 5, 5, 9], { gamma: 0.1 })],
  ['exponentialLR', (o) => new lrScheduler.ExponentialLR(o, 0.9)],
  ['cosineAnnealingLR', (o) => new lrScheduler.CosineAnnealingLR(o, 5, { etaMin: 0.01 })],
  ['lambdaLR', (o) => new lrScheduler.LambdaLR(o, (e) => 0.95 ** e)],
  ['linearLR', (o) => new lrScheduler.LinearLR(o, { startFactor: 0.25, endFactor: 1.0, totalIters: 4 })],
  ['oneCycleLR', (o) => new lrScheduler.OneCycleLR(o, 1.0, { totalSteps: 13 })],
  [
    'oneCycleLRLinearThreePhase',
    (o) =>
      new lrScheduler.OneCycleLR(o, 0.5, {
        totalSteps: 13,
        annealStrategy: 'linear',
        threePhase: true,
        pctStart: 0.25,
      }),
  ],
  [
    'oneCycleLRAdam',
    (o) => new lrScheduler.OneCycleLR(o, 0.01, { epochs: 3, stepsPerEpoch: 5 }),
    (ps) => new Adam(ps, { lr: 0.1 }),
  ],
  [
    'chainedExponentialStep',
    (o) => chain(new lrScheduler.ExponentialLR(o, 0.9), new lrScheduler.StepLR(o, 3, { gamma: 0.5 })),
  ],
];

/** Two schedulers stepping one optimizer (PyTorch's chainable form): getLastLr is the second's. */
function chain(a: lrScheduler.LRScheduler, b: lrScheduler.LRScheduler): lrScheduler.LRScheduler {
  return Object.assign(Object.create(b) as lrScheduler.LRScheduler, {
    step: () => {
      a.step();
      b.step();
    },
  });
}

describe('lr schedulers agree with PyTorch 1.13 (fixtures/optim.json)', () => {
  it.each(schedulers)(
    '%s: the lr (and momentum) after construction and after each of 12 steps',
    (name, make, makeOpt) => {
      const opt = makeOpt
        ? makeOpt([tensor([1], { requiresGrad: true })])
        : new SGD([tensor([1], { requiresGrad: true })], { lr: 0.1, momentum: 0.9 });
      const sched = make(opt);
      const momentum = () => {
        const g = opt.paramGroups[0] as unknown as { momentum?: number; betas?: number[] };
        return g.betas ? g.betas[0]! : g.momentum!;
      };
      const lrs = [sched.getLastLr()[0]!];
      const moms = [momentum()];
      for (let i = 0; i < 12; i++) {
        opt.step();
        sched.step();
        lrs.push(sched.getLastLr()[0]!);
        moms.push(momentum());
      }
      expectClose(lrs, T.schedulers[name]!.lr, 1e-12);
      expectClose(moms, T.schedulers[name]!.momentum, 1e-12);
    },
  );
});

describe('clipGradNorm_ agrees with PyTorch 1.13', () => {
  it.each(T.clipGradNorm.map((f) => [String(f.normType), f] as const))(
    'norm type %s: the total norm and the clipped gradients',
    (_n, f) => {
      const a = f64(
        [
          [0, 0],
          [0, 0],
        ],
        true,
      );
      const b = f64([0, 0, 0], true);
      a.grad = f64([
        [3, -4],
        [1, 0.5],
      ]);
      b.grad = f64([-2, 0, 6]);
      const total = clipGradNorm_([a, b], f.maxNorm, { normType: f.normType === 'inf' ? Infinity : f.normType });
      expectClose(total, f.total);
      expectClose(a.grad, f.grads[0]);
      expectClose(b.grad, f.grads[1]);
    },
  );
});
