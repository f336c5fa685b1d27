import { describe, expect, it } from 'vitest';
import { type Tensor, gradcheck, grad, manualSeed, randn } from '@wiregrad/autograd';
import fc from 'fast-check';
import { canFuseLstmCell, fusedLstmCell } from './fusedLstmCell.js';
import { lstmGates } from './rnn.js';

type Cell = (gates: Tensor, cx: Tensor) => [Tensor, Tensor];

/** h', c' and the gradients of gates and c for random upstream gradients of h' and c' (either may be left out). */
function stepAndGrads(
  cell: Cell,
  dtype: 'float32' | 'float64',
  seed: number,
  [n, h]: [number, number],
  upstream: 'both' | 'h' | 'c',
): { values: number[][]; grads: number[][]; name: string } {
  manualSeed(seed);
  const gates = randn([n, 4 * h], { dtype }).mul(2);
  const cx = randn([n, h], { dtype });
  gates.requiresGrad = true;
  cx.requiresGrad = true;
  const [hy, cy] = cell(gates, cx);
  const [gh, gc] = [randn([n, h], { dtype }), randn([n, h], { dtype })];
  const loss =
    upstream === 'both' ? hy.mul(gh).sum().add(cy.mul(gc).sum()) : (upstream === 'h' ? hy.mul(gh) : cy.mul(gc)).sum();
  loss.backward();
  return {
    values: [hy, cy].map((t) => Array.from(t.toTypedArray())),
    grads: [gates.grad!, cx.grad!].map((t) => Array.from(t.toTypedArray())),
    name: hy.gradFn!.name(),
  };
}

function expectNear(got: number[][], want: number[][], tol: number): void {
  expect(got.map((g) => g.length)).toEqual(want.map((w) => w.length));
  got.forEach((g, t) =>
    g.forEach((v, i) => expect(Math.abs(v - want[t]![i]!)).toBeLessThanOrEqual(tol * (1 + Math.abs(want[t]![i]!)))),
  );
}

describe('fused LSTM cell (Note [Fused LSTM cell]) equals the composite of chunk, sigmoid, tanh, mul and add', () => {
  for (const dtype of ['float64', 'float32'] as const) {
    it.each(['both', 'h', 'c'] as const)(`${dtype}, upstream gradient of %s: values and gradients`, (upstream) => {
      const fused = stepAndGrads(fusedLstmCell, dtype, 3, [5, 7], upstream);
      const composite = stepAndGrads(lstmGates, dtype, 3, [5, 7], upstream);
      expect(fused.name).toBe('LstmCellBackward');
      expect(composite.name).not.toBe(fused.name);
      const tol = dtype === 'float64' ? 1e-12 : 2e-6;
      expectNear(fused.values, composite.values, tol);
      expectNear(fused.grads, composite.grads, tol);
    });
  }

  it('agrees with the composite on any batch and hidden size (property, float64)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 9 }), fc.nat(1000), (n, h, seed) => {
        const fused = stepAndGrads(fusedLstmCell, 'float64', seed, [n, h], 'both');
        const composite = stepAndGrads(lstmGates, 'float64', seed, [n, h], 'both');
        expectNear(fused.values, composite.values, 1e-12);
        expectNear(fused.grads, composite.grads, 1e-12);
      }),
      { numRuns: 25 },
    );
  });

  it('gradcheck: gates and cell state, through both outputs', () => {
    manualSeed(11);
    const gates = randn([3, 8], { dtype: 'float64', requiresGrad: true });
    const cx = randn([3, 2], { dtype: 'float64', requiresGrad: true });
    expect(
      gradcheck(
        (g, c) => {
          const [hy, cy] = fusedLstmCell(g!, c!);
          return hy.mul(3).add(cy);
        },
        [gates, cx],
        { raiseException: true },
      ),
    ).toBe(true);
  });

  it('double backward (createGraph) gives the composite second derivative', () => {
    const secondOf = (cell: Cell): number[] => {
      manualSeed(13);
      const gates = randn([3, 8], { dtype: 'float64', requiresGrad: true });
      const cx = randn([3, 2], { dtype: 'float64', requiresGrad: true });
      const [hy, cy] = cell(gates, cx);
      const [gg, gcx] = grad([hy.mul(cy).sum()], [gates, cx], { createGraph: true });
      const second = grad([gg!.pow(2).sum().add(gcx!.pow(2).sum())], [gates, cx]);
      return second.flatMap((t) => Array.from(t!.toTypedArray()));
    };
    const fused = secondOf(fusedLstmCell);
    expect(fused.some((v) => v !== 0)).toBe(true);
    expectNear([fused], [secondOf(lstmGates)], 1e-12);
  });

  it('fuses contiguous or not cpu float operands of matching shapes only', () => {
    const gates = randn([4, 12]);
    expect(canFuseLstmCell(gates, randn([4, 3]))).toBe(true);
    expect(canFuseLstmCell(gates, randn([3, 4]).t())).toBe(true);
    expect(canFuseLstmCell(gates, randn([4, 4]))).toBe(false);
    expect(canFuseLstmCell(gates, randn([4, 3], { dtype: 'float64' }))).toBe(false);
    expect(canFuseLstmCell(gates.reshape([2, 2, 12]), randn([2, 2, 3]))).toBe(false);
  });
});
