import { describe, expect, it } from 'vitest';
import { arange, manualSeed, rand, randint, randn, tensor, zeros } from '../index.js';

describe('in-place ops', () => {
  it('bump the version and return this', () => {
    const x = zeros([2]);
    expect(x.add_(1)).toBe(x);
    x.mul_(3).sub_(1).div_(2).clamp_(0, 0.75);
    expect(x.tolist()).toEqual([0.75, 0.75]);
    expect(x.version).toBe(5);
    x.zero_();
    x.fill_(2);
    expect(x.tolist()).toEqual([2, 2]);
    expect(x.version).toBe(7);
  });

  it('copy_ broadcasts and casts', () => {
    const x = zeros([2, 2], { dtype: 'int32' });
    x.copy_(tensor([1.9, -2.5]));
    expect(x.tolist()).toEqual([[1, -2], [1, -2]]);
  });

  it("refuses a float result into an int tensor, with PyTorch's message", () => {
    expect(() => arange(3).add_(1.5)).toThrow("result type Float can't be cast to the desired output type Int");
  });
});

describe('random', () => {
  it('manualSeed makes every generator reproducible', () => {
    manualSeed(42);
    const a = [rand([3]).tolist(), randn([3]).tolist(), randint(0, 10, [5]).tolist()];
    manualSeed(42);
    expect([rand([3]).tolist(), randn([3]).tolist(), randint(0, 10, [5]).tolist()]).toEqual(a);
  });

  it('has the right moments', () => {
    manualSeed(0);
    const u = rand([20000], { dtype: 'float64' });
    expect(u.mean().item()).toBeCloseTo(0.5, 1);
    expect(u.min().item()).toBeGreaterThanOrEqual(0);
    expect(u.max().item()).toBeLessThan(1);
    const n = randn([20000], { dtype: 'float64' });
    expect(n.mean().item()).toBeCloseTo(0, 1);
    expect(n.std().item()).toBeCloseTo(1, 1);
    const r = randint(-2, 3, [1000]);
    expect(r.min().item()).toBe(-2);
    expect(r.max().item()).toBe(2);
    expect(zeros([1000]).uniform_(2, 3).min().item()).toBeGreaterThanOrEqual(2);
  });
});
