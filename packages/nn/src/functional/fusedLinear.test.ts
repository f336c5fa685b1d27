import { describe, expect, it, vi } from 'vitest';
import { Tensor, grad, manualSeed, randn, relu } from '@wiregrad/autograd';
import { Linear, ReLU, Sequential } from '../index.js';
import { linear } from './index.js';

type DType = 'float32' | 'float64';

/** The output and the gradients of x, W and b for a seeded upstream gradient. */
function run(f: (x: Tensor, w: Tensor, b: Tensor) => Tensor, dtype: DType, xShape: number[], N: number) {
  manualSeed(2);
  const x = randn(xShape, { dtype });
  const w = randn([N, xShape.at(-1)!], { dtype });
  const b = randn([N], { dtype });
  for (const t of [x, w, b]) t.requiresGrad = true;
  const y = f(x, w, b);
  y.backward(randn(y.shape, { dtype }));
  return { name: y.gradFn!.name(), values: [y, x.grad!, w.grad!, b.grad!].map((t) => Array.from(t.toTypedArray())) };
}

function expectNear(got: number[][], want: number[][], tol: number): void {
  got.forEach((g, k) => {
    const w = want[k]!;
    expect(g).toHaveLength(w.length);
    const bad = g.findIndex((v, i) => !(Math.abs(v - w[i]!) <= tol * (1 + Math.abs(w[i]!))));
    if (bad >= 0) expect.fail(`result ${k}, element ${bad}: ${g[bad]}, want ${w[bad]}`);
  });
}

/** Whether the graph behind t has a node of this name. */
function graphHas(t: Tensor, name: string): boolean {
  const seen = new Set<unknown>();
  const stack = [t.gradFn];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || seen.has(node)) continue;
    seen.add(node);
    if (node.name() === name) return true;
    for (const [next] of node.nextFunctions) stack.push(next);
  }
  return false;
}

describe('fused linear + relu (Note [Fused linear]) equals linear then relu', () => {
  it.each([
    ['float32', [64, 784], 256, 1e-4],
    ['float32', [2, 5, 30], 7, 1e-5],
    ['float64', [9, 20], 6, 1e-12],
  ] as const)('%s x %j, %i outputs: the output and the gradients of x, W and b', (dtype, xShape, N, tol) => {
    const fused = run((x, w, b) => linear(x, w, b, { activation: 'relu' }), dtype, [...xShape], N);
    const plain = run((x, w, b) => relu(linear(x, w, b)), dtype, [...xShape], N);
    expect(fused.name).toBe('LinearReLUBackward');
    expect(plain.name).not.toBe(fused.name);
    expect(fused.values[0]!.some((v) => v === 0) && fused.values[0]!.some((v) => v > 0)).toBe(true);
    expectNear(fused.values, plain.values, tol);
  });

  it("a Sequential's Linear followed by ReLU runs fused and gives the layer-by-layer result", () => {
    manualSeed(4);
    const model = new Sequential(new Linear(30, 16), new ReLU(), new Linear(16, 4));
    const x = randn([8, 30]);
    const byLayer = (): number[][] => {
      model.zeroGrad();
      const h = model.layers.reduce((t, layer) => layer.forward(t), x);
      h.sum().backward();
      return [h, ...model.parameters()].map((t) => Array.from((t.grad ?? t).toTypedArray()));
    };
    const fused = (): number[][] => {
      model.zeroGrad();
      const h = model.forward(x);
      expect(graphHas(h, 'LinearReLUBackward')).toBe(true);
      h.sum().backward();
      return [h, ...model.parameters()].map((t) => Array.from((t.grad ?? t).toTypedArray()));
    };
    expectNear(fused(), byLayer(), 1e-5);
  });

  it('double backward (createGraph) gives the composite second derivative', () => {
    const second = (f: (x: Tensor, w: Tensor, b: Tensor) => Tensor): number[] => {
      manualSeed(8);
      const [x, w, b] = [
        randn([5, 4], { dtype: 'float64' }),
        randn([3, 4], { dtype: 'float64' }),
        randn([3], { dtype: 'float64' }),
      ];
      for (const t of [x, w, b]) t.requiresGrad = true;
      const [gx] = grad([f(x, w, b).pow(2).sum()], [x], { createGraph: true });
      const [gw] = grad([gx!.pow(2).sum()], [w]);
      return Array.from(gw!.toTypedArray());
    };
    expectNear(
      [second((x, w, b) => linear(x, w, b, { activation: 'relu' }))],
      [second((x, w, b) => relu(linear(x, w, b)))],
      1e-12,
    );
  });
  it.each([
    ['x', 0],
    ['W', 1],
  ] as const)(
    'backward computes only the gradients asked for: with %s frozen, one product fewer, the others as before',
    (frozen, k) => {
      const grads = (fuse: boolean, freeze: boolean) => {
        manualSeed(6);
        const ts = [randn([16, 40]), randn([24, 40]), randn([24])];
        ts.forEach((t, i) => (t.requiresGrad = !(freeze && i === k)));
        const [x, w, b] = ts as [Tensor, Tensor, Tensor];
        const y = fuse ? linear(x, w, b, { activation: 'relu' }) : relu(linear(x, w, b));
        const products = vi.spyOn(Tensor.prototype, 'matmul');
        y.backward(randn(y.shape));
        const calls = products.mock.calls.length;
        products.mockRestore();
        return { calls, grads: ts.map((t) => (t.grad ? Array.from(t.grad.toTypedArray()) : null)) };
      };
      const all = grads(true, true);
      expect(all.calls).toBe(1);
      expect(grads(true, false).calls).toBe(2);
      expect(all.grads[k]).toBeNull();
      const plain = grads(false, true);
      expect(plain.grads[k]).toBeNull();
      const kept = (g: (number[] | null)[]) => g.filter((v): v is number[] => v !== null);
      expectNear(kept(all.grads), kept(plain.grads), 1e-5);
    },
  );
});
