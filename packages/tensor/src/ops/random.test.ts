import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { manualSeed, rand, randint, randLike, randn, randnLike, zeros, arange } from '../index.js';
import { Xoshiro128StarStar } from './generator.js';

describe('generator', () => {
  it('is the reference xoshiro128** (state [1, 2, 3, 4] test vector)', () => {
    const g = new Xoshiro128StarStar([1, 2, 3, 4]);
    expect(Array.from({ length: 8 }, () => g.nextUint32())).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849,
    ]);
  });

  it('seeds differing only in their high 32 bits give different streams', () => {
    const a = Xoshiro128StarStar.fromSeed(5);
    const b = Xoshiro128StarStar.fromSeed(5 + 2 ** 32);
    expect(a.nextUint32()).not.toBe(b.nextUint32());
  });
});

describe('random tensors', () => {
  it('property: manualSeed makes every generator reproducible', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const draw = () => [
          rand([3]).tolist(),
          randn([3], { dtype: 'float64' }).tolist(),
          randint(0, 10, [5]).tolist(),
          zeros([2]).normal_().tolist(),
        ];
        manualSeed(seed);
        const first = draw();
        manualSeed(seed);
        expect(draw()).toEqual(first);
      }),
      { numRuns: 20 },
    );
  });

  it('different seeds give different values', () => {
    manualSeed(1);
    const a = rand([4]).tolist();
    manualSeed(2);
    expect(rand([4]).tolist()).not.toEqual(a);
  });

  it('has the right moments and ranges', () => {
    manualSeed(0);
    const u = rand([20000], { dtype: 'float64' });
    expect(u.mean().item()).toBeCloseTo(0.5, 1);
    expect(u.min().item()).toBeGreaterThanOrEqual(0);
    expect(u.max().item()).toBeLessThan(1);
    const n = randn([20000], { dtype: 'float64' });
    expect(n.mean().item()).toBeCloseTo(0, 1);
    expect(n.std().item()).toBeCloseTo(1, 1);
    const r = randint(-2, 3, [1000]);
    expect(r.dtype).toBe('int32');
    expect(r.min().item()).toBe(-2);
    expect(r.max().item()).toBe(2);
    const high = randint(4, [500]);
    expect([high.min().item(), high.max().item()]).toEqual([0, 3]);
  });

  it('uniform_ and normal_ write in place, bump the version and return this', () => {
    manualSeed(3);
    const x = zeros([1000]);
    expect(x.uniform_(2, 3)).toBe(x);
    expect(x.version).toBe(1);
    expect(x.min().item()).toBeGreaterThanOrEqual(2);
    expect(x.max().item()).toBeLessThan(3);
    const v = zeros([4, 500]).t();
    v.normal_(10, 0.5);
    expect(v.mean().item()).toBeCloseTo(10, 1);
    expect(v.std().item()).toBeCloseTo(0.5, 1);
  });

  it('randLike / randnLike keep shape, dtype and device', () => {
    const like = zeros([2, 3], { dtype: 'float64' });
    expect(randLike(like).shape).toEqual([2, 3]);
    expect(randnLike(like).dtype).toBe('float64');
  });

  it("refuses non-float dtypes and bad bounds with torch's messages", () => {
    expect(() => rand([2], { dtype: 'int32' })).toThrow(`"check_uniform_bounds" not implemented for 'Int'`);
    expect(() => randn([2], { dtype: 'bool' })).toThrow(`"normal_kernel_cpu" not implemented for 'Bool'`);
    expect(() => randLike(arange(3))).toThrow(`not implemented for 'Int'`);
    expect(() => randint(3, 3, [2])).toThrow("random_ expects 'from' to be less than 'to', but got from=3 >= to=3");
    expect(() => zeros([2]).uniform_(2, 1)).toThrow(
      'uniform_ expects to return a [from, to) range, but found from=2 > to=1',
    );
    expect(() => zeros([2]).normal_(0, -1)).toThrow('normal expects std >= 0.0, but found std -1');
    expect(() => manualSeed(NaN)).toThrow('manualSeed expects a finite number');
    expect(() => rand([-1])).toThrow('invalid shape');
  });
});
