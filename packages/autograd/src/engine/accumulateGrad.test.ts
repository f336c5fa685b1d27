import { describe, expect, it } from 'vitest';
import { manualSeed, randn } from '../index.js';

describe("AccumulateGrad adds later gradients into .grad in place (PyTorch's AccumulateGrad)", () => {
  it('a second backward adds into the same .grad storage, and equals the sum of the two gradients', () => {
    manualSeed(1);
    const x = randn([4096], { requiresGrad: true });
    const w = randn([4096]);
    x.mul(w).sum().backward();
    const grad = x.grad!;
    const first = Float64Array.from(grad.toTypedArray());
    const version = grad.version;
    x.mul(x).sum().backward();
    expect(x.grad).toBe(grad);
    expect(grad.version).toBe(version + 1);
    const xs = x.toTypedArray();
    const ws = w.toTypedArray();
    const got = grad.toTypedArray();
    first.forEach((g, i) => expect(got[i]).toBeCloseTo(Math.fround(g + Math.fround(2 * xs[i]!)), 5));
    expect(Array.from(first, (g, i) => g - ws[i]!).every((d) => d === 0)).toBe(true);
  });

  it('under createGraph .grad is replaced by the out-of-place sum, which has a graph', () => {
    const x = randn([8], { requiresGrad: true });
    x.mul(x).sum().backward();
    const grad = x.grad!;
    x.mul(x).sum().backward(undefined, { createGraph: true });
    expect(x.grad).not.toBe(grad);
    expect(x.grad!.requiresGrad).toBe(true);
    const xs = x.toTypedArray();
    x.grad!.toTypedArray().forEach((g, i) => expect(g).toBeCloseTo(4 * xs[i]!, 5));
  });
});
