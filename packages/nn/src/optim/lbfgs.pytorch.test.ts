import { describe, expect, it } from 'vitest';
import { type Tensor, tensor, tidy } from '@wiregrad/autograd';
import { expectClose, f64, loadFixture } from '../__tests__/fixture.js';
import { LBFGS, type LBFGSOptions } from './index.js';
import { cubicInterpolate } from './strongWolfe.js';

type Step = { p: number[]; loss: number; evals: number };
const T = loadFixture<{
  c: number[];
  p0: number[];
  lbfgs: Record<string, { trace: Step[]; funcEvals: number; nIter: number }>;
  rosenbrock: { trace: Step[]; funcEvals: number; nIter: number };
}>('optimizers');
const c = f64(T.c);
const lossOf = (p: Tensor) => c.mul(p).mul(p).sum().add(p.pow(3).sum().mul(0.1)).add(p.pow(4).sum().mul(0.05));

const cases: [string, LBFGSOptions][] = [
  ['default', { lr: 1 }],
  ['strongWolfe', { lr: 1, lineSearchFn: 'strong_wolfe' }],
  ['strongWolfeSmallHistory', { lr: 0.5, maxIter: 7, historySize: 2, lineSearchFn: 'strong_wolfe' }],
  ['fixedStepMaxEval', { lr: 0.1, maxIter: 5, maxEval: 3 }],
];

function run(opts: LBFGSOptions, p: Tensor, opt = new LBFGS([p], opts)) {
  let calls = 0;
  const closure = () => {
    calls++;
    opt.zeroGrad();
    const loss = lossOf(p);
    loss.backward();
    return loss;
  };
  return {
    opt,
    step: () => {
      const before = calls;
      const loss = opt.step(closure) as Tensor;
      return { loss: loss.item(), evals: calls - before };
    },
  };
}

describe('LBFGS agrees with PyTorch 1.13 (fixtures/optimizers.json)', () => {
  it.each(cases)(
    '%s: p, the returned loss and the closure calls of each of 4 steps; func_evals and n_iter',
    (name, opts) => {
      const { trace, funcEvals, nIter } = T.lbfgs[name]!;
      const p = f64(T.p0, true);
      const { opt, step } = run(opts, p);
      for (const expected of trace) {
        const { loss, evals } = step();
        expectClose(p, expected.p, 1e-8, 1e-10);
        expectClose(loss, expected.loss, 1e-8, 1e-10);
        expect(evals).toBe(expected.evals);
      }
      const state = opt.stateDict().state[0]!;
      expect([state.func_evals, state.n_iter]).toEqual([funcEvals, nIter]);
    },
  );

  it("Rosenbrock's function of two parameters (flattened together), with the line search's zoom phase", () => {
    const { trace, funcEvals, nIter } = T.rosenbrock;
    const a = f64([-1.5], true);
    const b = f64([2.0], true);
    const opt = new LBFGS([a, b], { lr: 1, maxIter: 10, lineSearchFn: 'strong_wolfe' });
    let calls = 0;
    const closure = () => {
      calls++;
      opt.zeroGrad();
      const loss = a
        .neg()
        .add(1)
        .pow(2)
        .add(b.sub(a.pow(2)).pow(2).mul(100))
        .sum();
      loss.backward();
      return loss;
    };
    for (const expected of trace) {
      const before = calls;
      const loss = opt.step(closure) as Tensor;
      expectClose([a.item(), b.item()], expected.p, 1e-8, 1e-10);
      expectClose(loss, expected.loss, 1e-8, 1e-10);
      expect(calls - before).toBe(expected.evals);
    }
    expect([opt.stateDict().state[0]!.func_evals, opt.stateDict().state[0]!.n_iter]).toEqual([funcEvals, nIter]);
  });

  it('the history (old_dirs, old_stps, ro, d, prev_flat_grad) round-trips through a state dict', () => {
    const { trace } = T.lbfgs.strongWolfeSmallHistory!;
    const opts = cases[2]![1];
    const p = f64(T.p0, true);
    const first = run(opts, p);
    first.step();
    const sd = first.opt.stateDict();
    expect(Object.keys(sd.state[0]!).sort()).toEqual(
      [
        'H_diag',
        'al',
        'd',
        'func_evals',
        'n_iter',
        'old_dirs',
        'old_stps',
        'prev_flat_grad',
        'prev_loss',
        'ro',
        't',
      ].sort(),
    );
    expect((sd.state[0]!.old_dirs as Tensor[]).length).toBe(2);
    const second = run(opts, p);
    second.opt.loadStateDict(sd);
    for (const expected of trace.slice(1)) {
      second.step();
      expectClose(p, expected.p, 1e-8, 1e-10);
    }
  });

  it('steps inside tidy() like outside it: its history outlives the scope of the step that made it', () => {
    const opts = cases[2]![1];
    const [inScope, plain] = [f64(T.p0, true), f64(T.p0, true)];
    const [a, b] = [run(opts, inScope), run(opts, plain)];
    for (let i = 0; i < 3; i++) {
      tidy(() => void a.step());
      b.step();
    }
    expect(inScope.tolist()).toEqual(plain.tolist());
    const state = a.opt.state.get(inScope)!;
    const kept = [state.d, state.prev_flat_grad, ...(state.old_dirs as Tensor[]), ...(state.old_stps as Tensor[])];
    expect(kept).toHaveLength(6);
    for (const t of kept) expect((t as Tensor).isDisposed).toBe(false);
  });

  it('needs a closure, one parameter group, and strong_wolfe or no line search', () => {
    const p = tensor([1], { requiresGrad: true });
    expect(() => new LBFGS([p]).step()).toThrow('LBFGS.step() needs a closure');
    expect(() => new LBFGS([{ params: [p] }, { params: [tensor([2], { requiresGrad: true })] }])).toThrow(
      "LBFGS doesn't support per-parameter options (parameter groups)",
    );
    expect(() => new LBFGS([p], { lineSearchFn: 'backtracking' as 'strong_wolfe' })).toThrow(
      "only 'strong_wolfe' is supported",
    );
    expect(new LBFGS([p], { maxIter: 9 }).paramGroups[0]!.maxEval).toBe(11);
  });

  it('cubicInterpolate: the minimiser of the cubic through two points, clamped; the midpoint without one', () => {
    // f(x) = x³ - 3x has its local minimum at 1: through (0, 0, -3) and (2, 2, 9)
    expect(cubicInterpolate(0, 0, -3, 2, 2, 9)).toBeCloseTo(1, 12);
    expect(cubicInterpolate(2, 2, 9, 0, 0, -3)).toBeCloseTo(1, 12);
    expect(cubicInterpolate(0, 0, -3, 2, 2, 9, [1.5, 3])).toBe(1.5);
    // no real minimiser (d1² < g1 g2): the middle of the bounds
    expect(cubicInterpolate(0, 0, 2, 1, 1, 2)).toBe(0.5);
  });
});
