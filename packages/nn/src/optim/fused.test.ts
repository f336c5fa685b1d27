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

  /** Tensors allocated by the second step (the first makes the state) on a parameter of n floats. */
  const allocations = (make: Make, fused: boolean, n = 1000): number => {
    const p = randn([n]);
    p.requiresGrad = true;
    const opt = make([p], fused);
    p.grad = randn([n]);
    opt.step();
    const { cpuCacheHits, cpuCacheMisses } = memory();
    opt.step();
    return memory().cpuCacheHits + memory().cpuCacheMisses - cpuCacheHits - cpuCacheMisses;
  };

  it.each(cases.slice(2))('%s: the fused step allocates no temporaries, the op-by-op one does', (_, make) => {
    expect(allocations(make, true)).toBe(0);
    expect(allocations(make, false)).toBeGreaterThan(0);
  });

  it.each(cases.slice(0, 2))('%s: both steps allocate nothing (add_ with alpha and mul_ run in place)', (_, make) => {
    expect(allocations(make, true)).toBe(0);
    expect(allocations(make, false)).toBe(0);
    expect(allocations(make, true, 5000)).toBe(0);
  });

  it.each(cases.slice(0, 4))(
    '%s: a float32 parameter of 4096 floats or more steps op by op on the SIMD kernels, the values as before',
    (_, make) => {
      const steps = (fused: boolean, dtype: 'float32' | 'float64') => {
        manualSeed(12);
        const [p, ...grads] = [randn([5000]), randn([5000]), randn([5000])].map((t) => t.to(dtype));
        p!.requiresGrad = true;
        const opt = make([p!], fused);
        for (const g of grads) {
          p!.grad = g;
          opt.step();
        }
        return { p: Array.from(p!.toTypedArray()), version: p!.version };
      };
      const [fused, plain] = [steps(true, 'float32'), steps(false, 'float32')];
      expect(fused).toEqual(plain); // the same op-by-op path, so the same bits
      expectClose(fused.p, steps(true, 'float64').p, 1e-5, 1e-6);
    },
  );

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
