import { describe, expect, it } from 'vitest';
import { Function, type FunctionCtx, type Node, type Tensor, grad, gradAccumulator, tensor } from './index.js';

const leaf = (v: number[] = [1, 2]) => tensor(v, { dtype: 'float64', requiresGrad: true });

describe('Note [Tensor hooks] and node hooks', () => {
  it('a node pre-hook replaces the incoming gradient (the docs example: a.grad == 2)', () => {
    const a = leaf([1]);
    const b = a.mul(1);
    (b.gradFn as Node).registerPrehook((gradOutputs) => gradOutputs.map((g) => g && g.mul(2)));
    b.sum().backward();
    expect(a.grad!.tolist()).toEqual([2]);
  });

  it('a node post-hook replaces the gradients it computed', () => {
    const a = leaf([1]);
    const b = a.mul(1);
    (b.gradFn as Node).registerHook((gradInputs) => gradInputs.map((g) => g && g.mul(2)));
    b.sum().backward();
    expect(a.grad!.tolist()).toEqual([2]);
  });

  it('order at one node: tensor hooks, retain_grad, node pre-hooks, apply, post-hooks', () => {
    const log: string[] = [];
    const x = leaf([1]);
    const y = x.mul(3);
    const node = y.gradFn as Node;
    y.retainGrad();
    y.registerHook((g) => (log.push(`tensor hook ${g.item()}`), g.mul(10)));
    node.registerPrehook(([g]) => void log.push(`pre-hook ${g!.item()}`));
    node.registerHook(([gx], [g]) => void log.push(`post-hook ${gx!.item()} from ${g!.item()}`));
    y.sum().backward();
    expect(log).toEqual(['tensor hook 1', 'pre-hook 10', 'post-hook 30 from 10']);
    expect(y.grad!.item()).toBe(10); // retain_grad saw the hooked gradient
    expect(x.grad!.item()).toBe(30);
  });

  it('tensor hooks run where grad() only captures; a node that also runs captures before its hooks (like PyTorch)', () => {
    const x = leaf([1]);
    const h = x.mul(2);
    x.registerHook((g) => g.mul(10));
    h.registerHook((g) => g.mul(100));
    const z = () => h.mul(h).sum(); // dz/dh = 2h = 4
    expect(grad(z(), h)[0]!.item()).toBe(400); // h's node only captures: hooked first
    const [gx, gh] = grad(z(), [x, h]);
    expect(gh!.item()).toBe(4); // h's node also runs (x is below it): the capture takes the raw gradient
    expect(gx!.item()).toBe(4 * 100 * 2 * 10); // the node itself runs on the hooked one
    expect(x.grad).toBeNull();
  });

  it('a hook on a leaf runs before accumulation; remove() undoes it', () => {
    const x = leaf();
    const handle = x.registerHook((g) => g.mul(2));
    x.sum().backward();
    expect(x.grad!.tolist()).toEqual([2, 2]);
    handle.remove();
    x.sum().backward();
    expect(x.grad!.tolist()).toEqual([3, 3]);
  });

  it('post-accumulate-grad hooks see the updated .grad, on leaves only', () => {
    const x = leaf();
    const seen: number[][] = [];
    const handle = x.registerPostAccumulateGradHook((p) => void seen.push(p.grad!.tolist() as number[]));
    x.mul(3).sum().backward();
    x.mul(3).sum().backward();
    handle.remove();
    x.mul(3).sum().backward();
    expect(seen).toEqual([
      [3, 3],
      [6, 6],
    ]);
    expect(() => x.mul(1).registerPostAccumulateGradHook(() => {})).toThrow(
      'post accumulate grad hooks cannot be registered on non-leaf tensors',
    );
  });

  it("AccumulateGrad takes over the gradient its pre-hooks made, in PyTorch's hook order (Note [Gradients a hook made])", () => {
    const t = leaf([0.7]);
    const order: string[] = [];
    t.registerHook((g) => {
      order.push('tensor pre-hook');
      return g.sub(2);
    });
    const acc = gradAccumulator(t)!;
    acc.registerPrehook((gradOutputs) => {
      order.push('node pre-hook');
      return [gradOutputs[0]!.div(5)];
    });
    t.registerPostAccumulateGradHook((p) => {
      order.push('post-accumulate-grad hook');
      p.grad!.add_(0.5);
    });
    let stolen = false;
    acc.registerHook((_gradInputs, gradOutputs) => {
      order.push('node post-hook');
      stolen = gradOutputs[0] === t.grad;
      t.grad = gradOutputs[0]!.mul(10);
    });
    t.mul(1).sum().backward();
    expect(order).toEqual(['tensor pre-hook', 'node pre-hook', 'post-accumulate-grad hook', 'node post-hook']);
    // .grad IS the node's input, so the post-hook sees the in-place update: ((1 - 2) / 5 + 0.5) * 10
    expect(stolen).toBe(true);
    expect(t.grad!.item()).toBeCloseTo(3, 12);
  });

  it('a gradient the pre-hooks did not make, and one already accumulated into, are copied or added as before', () => {
    const t = leaf([1, 2]);
    const kept = tensor([5, 5], { dtype: 'float64' });
    gradAccumulator(t)!.registerPrehook(() => [kept]);
    t.sum().backward();
    expect(t.grad).not.toBe(kept);
    expect(t.grad!.tolist()).toEqual([5, 5]);
    t.sum().backward();
    expect(kept.tolist()).toEqual([5, 5]);
    expect(t.grad!.tolist()).toEqual([10, 10]);
  });

  it("retainGrad sums a non-leaf's gradient over passes; hooks need requires_grad", () => {
    const x = leaf();
    const y = x.mul(2);
    y.retainGrad();
    expect(y.retainsGrad).toBe(true);
    y.sum().backward(undefined, { retainGraph: true });
    y.sum().backward();
    expect(y.grad!.tolist()).toEqual([2, 2]);
    expect(() => tensor([1]).registerHook(() => {})).toThrow(
      "cannot register a hook on a tensor that doesn't require gradient",
    );
    expect(() => tensor([1]).retainGrad()).toThrow("can't retain_grad on Tensor that has requires_grad=False");
  });

  it('a hook on one output of a multi-output node gets null when only a sibling output was differentiated (PyTorch passes None)', () => {
    class Pair extends Function {
      static override forward(_ctx: FunctionCtx, x: Tensor): Tensor[] {
        return [x.mul(2), x.mul(3)];
      }
      static override backward(_ctx: FunctionCtx, ga: Tensor, gb: Tensor): Tensor {
        return ga.mul(2).add(gb.mul(3));
      }
    }
    const x = leaf([1]);
    const [a, b] = Pair.apply<Tensor[]>(x);
    const seen: (number | null)[] = [];
    a!.registerHook((g: Tensor | null) => {
      seen.push(g === null ? null : g.item());
      // like PyTorch, what the hook returns becomes the gradient, even in place of None
      return g ?? tensor([5], { dtype: 'float64' });
    });
    b!.sum().backward(undefined, { retainGraph: true });
    expect(seen).toEqual([null]);
    expect(x.grad!.item()).toBe(5 * 2 + 3);
    a!.sum().backward();
    expect(seen).toEqual([null, 1]);
  });
});
