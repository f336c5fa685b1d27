import { describe, expect, it } from 'vitest';
import { type Tensor, empty, manualSeed, zeros } from '@wiregrad/autograd';
import { loadFixture } from './__tests__/fixture.js';
import { Linear, init } from './index.js';

const T = loadFixture<{
  gains: Record<string, number>;
  leakyGains: [number, number][];
  fans: [number[], [number, number]][];
}>('modules');

/** min, max, mean and variance of a tensor's values. */
function stats(t: Tensor): { min: number; max: number; mean: number; var: number } {
  const v = Array.from(t.toTypedArray(), Number);
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  return { min: Math.min(...v), max: Math.max(...v), mean, var: v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length };
}

describe('nn.init (PyTorch 1.13 formulas, fixtures/modules.json)', () => {
  it('calculateGain for every nonlinearity, and leaky_relu slopes', () => {
    for (const [name, gain] of Object.entries(T.gains))
      expect(init.calculateGain(name as init.Nonlinearity)).toBeCloseTo(gain, 15);
    for (const [a, gain] of T.leakyGains) expect(init.calculateGain('leaky_relu', a)).toBeCloseTo(gain, 15);
    expect(() => init.calculateGain('swish' as init.Nonlinearity)).toThrow('Unsupported nonlinearity swish');
  });

  it('fan in / fan out of linear and conv weights', () => {
    for (const [shape, fans] of T.fans) expect(init.calculateFanInAndFanOut(zeros(shape))).toEqual(fans);
    expect(() => init.calculateFanInAndFanOut(zeros([3]))).toThrow(
      'Fan in and fan out can not be computed for tensor with fewer than 2 dimensions',
    );
  });

  it('kaimingUniform_ fills U(±gain·√(3/fan)) and kaimingNormal_ has std gain/√fan', () => {
    manualSeed(0);
    const w = init.kaimingUniform_(empty([200, 300]), { a: 0, nonlinearity: 'relu' });
    const bound = Math.sqrt(2) * Math.sqrt(3 / 300);
    const s = stats(w);
    expect(s.max).toBeLessThanOrEqual(bound);
    expect(s.min).toBeGreaterThanOrEqual(-bound);
    expect(s.max).toBeGreaterThan(0.99 * bound);
    expect(s.var).toBeCloseTo(bound ** 2 / 3, 4);
    const n = stats(init.kaimingNormal_(empty([200, 300]), { mode: 'fan_out' }));
    expect(Math.sqrt(n.var) / (Math.sqrt(2) / Math.sqrt(200))).toBeCloseTo(1, 1);
  });

  it('xavier, uniform, normal, constant, ones, zeros, eye', () => {
    manualSeed(1);
    const xu = stats(init.xavierUniform_(empty([100, 400]), 2));
    const a = 2 * Math.sqrt(6 / 500);
    expect(xu.max).toBeLessThanOrEqual(a);
    expect(xu.max).toBeGreaterThan(0.99 * a);
    expect(Math.sqrt(stats(init.xavierNormal_(empty([100, 400]))).var) / Math.sqrt(2 / 500)).toBeCloseTo(1, 1);
    const u = stats(init.uniform_(empty([10000]), -3, -1));
    expect([u.min >= -3, u.max < -1]).toEqual([true, true]);
    expect(stats(init.normal_(empty([20000]), 5, 0.5)).mean).toBeCloseTo(5, 1);
    expect(init.constant_(empty([2]), 0.25).tolist()).toEqual([0.25, 0.25]);
    expect(init.ones_(empty([2])).tolist()).toEqual([1, 1]);
    expect(init.zeros_(empty([2])).tolist()).toEqual([0, 0]);
    expect(init.eye_(empty([2, 3])).tolist()).toEqual([
      [1, 0, 0],
      [0, 1, 0],
    ]);
  });

  it('initialisers run under noGrad on parameters that require grad, on any device', () => {
    const l = new Linear(3, 2);
    expect(() => init.normal_(l.weight)).not.toThrow();
    expect(l.weight.gradFn).toBeNull();
    const g = zeros([4, 4]).to('gpu:0');
    init.uniform_(g, 1, 2);
    expect(stats(g.cpu()).min).toBeGreaterThanOrEqual(1);
  });

  it("Linear's default init is PyTorch's: weight and bias in ±1/√inFeatures, spread over the range", () => {
    manualSeed(2);
    const l = new Linear(400, 300);
    const bound = 1 / Math.sqrt(400);
    const w = stats(l.weight);
    expect(w.max).toBeLessThanOrEqual(bound);
    expect(w.min).toBeGreaterThanOrEqual(-bound);
    expect(w.max).toBeGreaterThan(0.99 * bound);
    expect(w.var).toBeCloseTo(bound ** 2 / 3, 5);
    const b = stats(l.bias!);
    expect(b.max).toBeLessThanOrEqual(bound);
    expect(b.min).toBeGreaterThanOrEqual(-bound);
  });
});
