import { describe, expect, it } from 'vitest';
import { type Tensor, tensor, tidy } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import { Adadelta, Adamax, NAdam, type Optimizer, RAdam } from './index.js';

type Run = { trace: number[][]; state: Record<string, number | number[]> };
const T = loadFixture<{ c: number[]; p0: number[]; optimizers: Record<string, Run> }>('optimizers');
const c = f64(T.c);
const lossOf = (p: Tensor) => c.mul(p).mul(p).sum().add(p.pow(3).sum().mul(0.1)).add(p.pow(4).sum().mul(0.05));

const optimizers: [string, (p: Tensor[]) => Optimizer][] = [
  ['nadam', (p) => new NAdam(p, { lr: 0.1 })],
  ['nadamWeightDecay', (p) => new NAdam(p, { lr: 0.05, betas: [0.8, 0.9], weightDecay: 0.1, momentumDecay: 0.01 })],
  ['radam', (p) => new RAdam(p, { lr: 0.1 })],
  ['radamRectified', (p) => new RAdam(p, { lr: 0.1, betas: [0.9, 0.9], weightDecay: 0.05 })],
  ['adamax', (p) => new Adamax(p, { lr: 0.1 })],
  [
    'adamaxWeightDecayMaximize',
    (p) => new Adamax(p, { lr: 0.01, betas: [0.8, 0.95], weightDecay: 0.1, maximize: true }),
  ],
  ['adadelta', (p) => new Adadelta(p)],
  ['adadeltaOptions', (p) => new Adadelta(p, { lr: 0.5, rho: 0.8, eps: 1e-4, weightDecay: 0.1 })],
  ['adadeltaMaximize', (p) => new Adadelta(p, { lr: 0.1, maximize: true })],
];

describe('NAdam, RAdam, Adamax and Adadelta agree with PyTorch 1.13 (fixtures/optimizers.json)', () => {
  it.each(optimizers)('%s: every one of 10 steps, and the state (PyTorch keys) after', (name, make) => {
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

  it.each(optimizers)(
    '%s: a state dict saved after 4 steps resumes the same trajectory in a new optimizer',
    (name, make) => {
      const { trace } = T.optimizers[name]!;
      const p = f64(T.p0, true);
      const first = make([p]);
      for (let i = 0; i < 4; i++) {
        first.zeroGrad();
        lossOf(p).backward();
        first.step();
      }
      const second = make([p]);
      second.loadStateDict(first.stateDict());
      for (const expected of trace.slice(4)) {
        second.zeroGrad();
        lossOf(p).backward();
        second.step();
        expectClose(p, expected);
      }
    },
  );

  it.each(optimizers)(
    '%s: steps inside tidy() like outside it (Note [Optimizer state outlives tidy])',
    (name, make) => {
      const [inScope, plain] = [f64(T.p0, true), f64(T.p0, true)];
      const [a, b] = [make([inScope]), make([plain])];
      for (let i = 0; i < 3; i++) {
        tidy(() => {
          a.zeroGrad();
          lossOf(inScope).backward();
          a.step();
        });
        b.zeroGrad();
        lossOf(plain).backward();
        b.step();
      }
      expect(inScope.tolist()).toEqual(plain.tolist());
      expectClose(plain, T.optimizers[name]!.trace[2]!);
    },
  );

  it("refuses bad hyperparameters with PyTorch's messages", () => {
    const p = [tensor([1], { requiresGrad: true })];
    expect(() => new NAdam(p, { momentumDecay: -1 })).toThrow('Invalid momentum_decay value: -1');
    expect(() => new RAdam(p, { betas: [0.9, 1] })).toThrow('Invalid beta parameter at index 1: 1');
    expect(() => new Adamax(p, { eps: -1 })).toThrow('Invalid epsilon value: -1');
    expect(() => new Adadelta(p, { rho: 1.5 })).toThrow('Invalid rho value: 1.5');
    expect(() => new Adadelta(p, { lr: '1' as unknown as number })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it("PyTorch 1.13's defaults", () => {
    const p = [tensor([1], { requiresGrad: true })];
    const opts = (o: Optimizer) => {
      const { params: _p, ...rest } = o.paramGroups[0]!;
      return rest;
    };
    expect(opts(new NAdam(p))).toEqual({
      lr: 2e-3,
      betas: [0.9, 0.999],
      eps: 1e-8,
      weightDecay: 0,
      momentumDecay: 4e-3,
    });
    expect(opts(new RAdam(p))).toEqual({ lr: 1e-3, betas: [0.9, 0.999], eps: 1e-8, weightDecay: 0 });
    expect(opts(new Adamax(p))).toEqual({ lr: 2e-3, betas: [0.9, 0.999], eps: 1e-8, weightDecay: 0, maximize: false });
    expect(opts(new Adadelta(p))).toEqual({ lr: 1.0, rho: 0.9, eps: 1e-6, weightDecay: 0, maximize: false });
  });
});
