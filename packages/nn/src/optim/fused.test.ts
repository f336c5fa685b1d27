import { describe, expect, it } from 'vitest';
import { type Tensor, manualSeed, memory, randn } from '@wiregrad/autograd';
import { expectClose } from '../__tests__/fixture.js';
import { fusedArrays } from './fused.js';
import { Adam, AdamW, type Optimizer, SGD } from './index.js';

type Make = (params: Tensor[], fused: boolean) => Optimizer;

const cases: [string, Make][] = [
  ['SGD', (p, fused) => new SGD(p, { lr: 0.1, fused })],
  ['SGD momentum', (p, fused) => new SGD(p, { lr: 0.1, momentum: 0.9, fused })],
  [
    'SGD momentum, dampening, weight decay, maximize',
    (p, fused) => new SGD(p, { lr: 0.05, momentum: 0.8, dampening: 0.2, weightDecay: 0.01, maximize: true, fused }),
  ],
  ['SGD nesterov', (p, fused) => new SGD(p, { lr: 0.1, momentum: 0.9, nesterov: true, fused })],
  ['Adam', (p, fused) => new Adam(p, { lr: 0.01, fused })],
  ['Adam weight decay, maximize', (p, fused) => new Adam(p, { lr: 0.01, weightDecay: 0.1, maximize: true, fused })],
  ['Adam amsgrad', (p, fused) => new Adam(p, { lr: 0.02, betas: [0.8, 0.9], amsgrad: true, fused })],
  ['AdamW', (p, fused) => new AdamW(p, { lr: 0.01, weightDecay: 0.1, fused })],
  ['AdamW amsgrad', (p, fused) => new AdamW(p, { lr: 0.01, amsgrad: true, fused })],
];

/** Runs 4 steps on the same seeded parameters and gradients; returns the parameters' final values. */
function train(make: Make, fused: boolean, dtype: 'float32' | 'float64', view = false): Float64Array[] {
  manualSeed(11);
  const params = [randn([7, 5], { dtype }), randn([300], { dtype })].map((p) => {
    const leaf = view ? p.reshape([-1, 1]).t() : p;
    leaf.requiresGrad = true;
    return leaf;
  });
  const opt = make(params, fused);
  for (let step = 0; step < 4; step++) {
    for (const p of params) p.grad = randn(p.shape, { dtype });
    opt.step();
  }
  return params.map((p) => Float64Array.from(p.toTypedArray()));
}

describe('fused optimizer steps (Note [Fused optimizer steps]) equal the op-by-op ones', () => {
  it.each(cases)('%s, float64: the same bits', (_, make) => {
    const [fused, plain] = [train(make, true, 'float64'), train(make, false, 'float64')];
    fused.forEach((f, i) => expect(f).toEqual(plain[i]));
  });

  it.each(cases)('%s, float32: within float32 rounding', (_, make) => {
    const [fused, plain] = [train(make, true, 'float32'), train(make, false, 'float32')];
    fused.forEach((f, i) => expectClose(Array.from(f), Array.from(plain[i]!), 1e-5, 1e-6));
  });

  it('takes contiguous cpu tensors of one floating dtype only; views run the op-by-op step with the same result', () => {
    const x = randn([3, 4]);
    expect(fusedArrays([x, randn([3, 4])])).not.toBeNull();
    expect(fusedArrays([x.t(), randn([4, 3])])).toBeNull();
    expect(fusedArrays([x, randn([3, 4], { dtype: 'float64' })])).toBeNull();
    const [, make] = cases[1]!;
    const [fused, plain] = [train(make, true, 'float64', true), train(make, false, 'float64', true)];
    fused.forEach((f, i) => expect(f).toEqual(plain[i]));
  });

  it.each(cases)('%s: the fused step allocates no temporaries, the op-by-op one does', (_, make) => {
    const allocations = (fused: boolean): number => {
      const p = randn([1000]);
      p.requiresGrad = true;
      const opt = make([p], fused);
      p.grad = randn([1000]);
      opt.step(); // the first step makes the state
      const { cpuCacheHits, cpuCacheMisses } = memory();
      opt.step();
      return memory().cpuCacheHits + memory().cpuCacheMisses - cpuCacheHits - cpuCacheMisses;
    };
    expect(allocations(true)).toBe(0);
    expect(allocations(false)).toBeGreaterThan(0);
  });

  it('bumps the version of the parameter once per step, as an in-place kernel does', () => {
    const p = randn([10]);
    p.requiresGrad = true;
    const opt = new Adam([p], { lr: 0.1 });
    p.grad = randn([10]);
    const before = p.version;
    opt.step();
    expect(p.version).toBe(before + 1);
  });
});
