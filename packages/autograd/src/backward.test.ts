import { describe, expect, it } from 'vitest';
import {
  type Node,
  backward,
  checkpoint,
  enableGrad,
  grad,
  inferenceMode,
  isGradEnabled,
  tensor,
  type Tensor,
} from './index.js';

const leaf = (v: number[] = [1, 2]) => tensor(v, { dtype: 'float64', requiresGrad: true });

describe('backward() and grad() options, as torch.autograd', () => {
  it('backward(inputs=) accumulates only into those inputs, and a non-leaf input keeps its grad', () => {
    const a = leaf([1]);
    const b = leaf([2]);
    const h = a.mul(b);
    h.mul(h)
      .sum()
      .backward(undefined, { inputs: [h, b] });
    expect(h.grad!.tolist()).toEqual([4]); // 2h
    expect(b.grad!.tolist()).toEqual([4]); // 2h * a
    expect(a.grad).toBeNull();
    expect(() => a.sum().backward(undefined, { inputs: [] })).toThrow(
      "'inputs' argument to backward() cannot be empty.",
    );
  });

  it('retainGraph defaults to createGraph; .grad built under createGraph can be differentiated again', () => {
    const x = leaf([2]);
    const y = x.pow(3).sum();
    y.backward(undefined, { createGraph: true });
    expect(x.grad!.tolist()).toEqual([12]);
    expect(x.grad!.requiresGrad).toBe(true);
    const [d2] = grad(x.grad!.sum(), x);
    expect(d2!.tolist()).toEqual([12]); // 6x
    y.backward(); // the graph was retained
    expect(x.grad!.tolist()).toEqual([24]);
  });

  it('grad() sums gradients over several outputs with their gradOutputs', () => {
    const x = leaf([1, 2]);
    const [g] = grad([x.mul(2), x.mul(x)], x, {
      gradOutputs: [tensor([1, 1], { dtype: 'float64' }), tensor([1, 10], { dtype: 'float64' })],
    });
    expect(g!.tolist()).toEqual([2 + 2, 2 + 40]);
  });

  it("PyTorch's argument errors, word for word", () => {
    const x = leaf();
    const y = x.mul(2);
    expect(() => y.backward(tensor([1, 2, 3], { dtype: 'float64' }))).toThrow(
      'Mismatch in shape: grad_output[0] has a shape of [3] and output[0] has a shape of [2].',
    );
    expect(() => grad(y.sum(), [])).toThrow('grad requires non-empty inputs.');
    expect(() => grad(y.sum(), tensor([1]))).toThrow('One of the differentiated Tensors does not require grad');
    expect(() => grad(y.sum(), x, { materializeGrads: true, allowUnused: false })).toThrow(
      'Expected allowUnused to be true or not passed when materializeGrads: true, but got: allowUnused: false.',
    );
    expect(() => backward([y.sum(), tensor(1)])).toThrow(
      'element 1 of tensors does not require grad and does not have a grad_fn',
    );
  });

  it('a node learns which of its inputs the pass needs (task_should_compute_output)', () => {
    const a = leaf([1]);
    const b = leaf([2]);
    const y = a.mul(b);
    const seen: boolean[][] = [];
    (y.gradFn as Node).registerPrehook(
      () => void seen.push([0, 1].map((i) => (y.gradFn as Node).taskShouldComputeOutput(i))),
    );
    const gradIns: (Tensor | null)[][] = [];
    (y.gradFn as Node).registerHook((gradInputs) => void gradIns.push(gradInputs));
    grad(y.sum(), a, { retainGraph: true });
    y.sum().backward();
    expect(seen).toEqual([
      [true, false],
      [true, true],
    ]);
    expect(gradIns[0]![1]).toBeNull(); // MulBackward0 skipped b's gradient
  });
});

describe('grad modes inside backward', () => {
  it('nodes run with grad mode off, or on under createGraph (the GraphTask keeps it)', () => {
    const modes: boolean[] = [];
    const x = leaf([1]);
    const y = x.exp();
    (y.gradFn as Node).registerPrehook(() => void modes.push(isGradEnabled()));
    y.sum().backward(undefined, { retainGraph: true });
    grad(y.sum(), x, { createGraph: true });
    expect(modes).toEqual([false, true]);
  });

  it('inference tensors are immutable outside inferenceMode and cannot require grad', () => {
    const t = inferenceMode(() => tensor([1, 2]).mul(2));
    expect(() => t.add_(1)).toThrow('Inplace update to inference tensor outside InferenceMode is not allowed.');
    inferenceMode(() => t.add_(1));
    expect(t.tolist()).toEqual([3, 5]);
    expect(() => (t.requiresGrad = true)).toThrow(
      'Setting requiresGrad: true on inference tensor outside InferenceMode is not allowed.',
    );
  });
});

describe('reentrant backward and checkpoint', () => {
  it("a nested backward's nodes all run before the outer pass goes on (deeper tasks pop first)", () => {
    const log: string[] = [];
    const w = leaf([1]);
    const x = leaf([1]);
    const b = x.mul(1);
    const a = x.mul(1); // created later: runs first
    (a.gradFn as Node).registerPrehook(() => {
      // hooks run with the pass's grad mode (off): build the inner graph with it on
      const inner = enableGrad(() => w.exp().sin());
      (inner.gradFn as Node).registerPrehook(() => void log.push('inner sin'));
      backward(enableGrad(() => inner.sum()));
      log.push('inner done');
    });
    (b.gradFn as Node).registerPrehook(() => void log.push('outer b'));
    a.add(b).sum().backward();
    expect(log).toEqual(['inner sin', 'inner done', 'outer b']);
    expect(w.grad!.item()).toBeCloseTo(Math.cos(Math.E) * Math.E, 12);
  });

  it('checkpoint is refused with backward(inputs=), like grad()', () => {
    const b = leaf();
    expect(() =>
      checkpoint((t) => t.mul(2), b)
        .sum()
        .backward(undefined, { inputs: [b] }),
    ).toThrow(
      'Checkpointing is not compatible with .grad() or when an `inputs` parameter is passed to .backward(). Please use .backward() and do not pass its `inputs` argument.',
    );
  });
});
