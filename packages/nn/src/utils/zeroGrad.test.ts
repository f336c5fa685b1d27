import { describe, expect, it } from 'vitest';
import { manualSeed, memory, randn, tensor } from '@wiregrad/autograd';
import { crossEntropy } from '../functional/index.js';
import { ReLU } from '../modules/activation.js';
import { Sequential } from '../modules/container.js';
import { Linear } from '../modules/linear.js';
import { SGD, clipGradNorm_ } from '../optim/index.js';

const WEIGHT_BYTES = 64 * 32 * 4; // Linear(64, 32)'s weight gradient; its 128-byte bias gradient is not counted by memory()

/** A Linear(64, 32) after one backward; nobody has read its gradients. */
function trained(): Linear {
  manualSeed(0);
  const lin = new Linear(64, 32);
  lin
    .forward(randn([8, 64]))
    .sum()
    .backward();
  return lin;
}

describe('zeroGrad and gradients nobody else saw (Note [Gradients nobody else saw] in @wiregrad/tensor)', () => {
  it('disposes a gradient only the libraries saw: its memory is free at once, without the GC', () => {
    const lin = trained();
    const before = memory().cpuBytes;
    lin.zeroGrad();
    expect(memory().cpuBytes).toBe(before - WEIGHT_BYTES);
    expect(lin.weight.grad).toBeNull();
  });

  it('leaves a gradient the caller read alone: the caller keeps reading its values, as in PyTorch', () => {
    const lin = trained();
    const g = lin.weight.grad!;
    const values = Array.from(g.toTypedArray());
    const before = memory().cpuBytes;
    lin.zeroGrad();
    expect(lin.weight.grad).toBeNull();
    expect(memory().cpuBytes).toBe(before);
    expect(g.isDisposed).toBe(false);
    expect(Array.from(g.toTypedArray())).toEqual(values);
  });

  it('leaves a gradient the caller set alone', () => {
    const lin = new Linear(64, 32);
    const mine = randn([32, 64]);
    const values = Array.from(mine.toTypedArray());
    lin.weight.grad = mine;
    lin.zeroGrad();
    expect(lin.weight.grad).toBeNull();
    expect(mine.isDisposed).toBe(false);
    expect(Array.from(mine.toTypedArray())).toEqual(values);
  });

  it('with setToNone: false zeroes the same tensor in place, and the next backward accumulates into it', () => {
    const lin = trained();
    const g = lin.weight.grad!;
    lin.zeroGrad({ setToNone: false });
    expect(lin.weight.grad).toBe(g);
    expect(g.abs().sum().item()).toBe(0);
    const x = randn([8, 64]);
    lin.forward(x).sum().backward();
    expect(lin.weight.grad).toBe(g);
    // d(sum(x W^T + b))/dW = column sums of x, for every row of W
    const colSums = Array.from(x.sum(0).toTypedArray());
    for (const row of g.tolist() as number[][]) row.forEach((v, j) => expect(v).toBeCloseTo(colSums[j]!, 4));
  });

  it("does not count an optimizer's step or clipGradNorm_ as seeing it", () => {
    const lin = trained();
    const opt = new SGD(lin.parameters(), { lr: 0.1, momentum: 0.9 });
    clipGradNorm_(lin.parameters(), 1);
    opt.step();
    const before = memory().cpuBytes;
    opt.zeroGrad();
    expect(memory().cpuBytes).toBe(before - WEIGHT_BYTES);
  });

  it('keeps the live memory of a PyTorch-style training loop that never yields the same from its second step on', () => {
    // no tidy(), no dispose(), no await: FinalizationRegistry callbacks never run in this loop, so
    // everything the step does not release itself would stay counted (the [8, 10] logits and the
    // loss are under memory()'s 1 KiB floor)
    manualSeed(0);
    const model = new Sequential(new Linear(64, 128), new ReLU(), new Linear(128, 10));
    const opt = new SGD(model.parameters(), { lr: 0.05, momentum: 0.9 });
    const x = randn([8, 64]);
    const y = tensor(Int32Array.from({ length: 8 }, (_, i) => i % 10));
    const live: number[] = [];
    const losses: number[] = [];
    for (let step = 0; step < 20; step++) {
      opt.zeroGrad();
      const loss = crossEntropy(model.forward(x), y);
      loss.backward();
      opt.step();
      losses.push(loss.item());
      live.push(memory().cpuBytes);
    }
    expect(new Set(live.slice(1)).size).toBe(1);
    expect(losses[19]!).toBeLessThan(losses[0]! / 2); // and it trains
  });
});
