import { describe, expect, it } from 'vitest';
import { arange, tensor } from '../index.js';

const close = (a: number[], b: number[], tol = 1e-6) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, -Math.log10(tol)));

describe('unary ops', () => {
  it('computes float functions (values from PyTorch)', () => {
    const x = tensor([-1, 0, 0.5, 2], { dtype: 'float64' });
    close(x.exp().tolist() as number[], [0.36787944117144233, 1, 1.6487212707001282, 7.38905609893065]);
    close(x.tanh().tolist() as number[], [-0.7615941559557649, 0, 0.46211715726000974, 0.9640275800758169]);
    close(x.sigmoid().tolist() as number[], [0.2689414213699951, 0.5, 0.6224593312018546, 0.8807970779778823]);
    close(x.gelu().tolist() as number[], [-0.15865525393145707, 0, 0.34573123063700656, 1.9544997361036416], 1e-12);
    close(x.silu().tolist() as number[], [-0.2689414213699951, 0, 0.3112296656009273, 1.7615941559557646]);
    close(x.softplus().tolist() as number[], [0.31326168751822286, 0.6931471805599453, 0.9740769841801067, 2.1269280110429727]);
    close(tensor([1, 4]).sqrt().tolist() as number[], [1, 2]);
    close(tensor([1, 4]).rsqrt().tolist() as number[], [1, 0.5]);
    close(tensor([0, Math.E - 1]).log1p().tolist() as number[], [0, 1]);
  });

  it('int inputs to float ops compute in float32; abs/neg/sign/relu keep int', () => {
    const i = arange(-2, 2);
    expect(i.exp().dtype).toBe('float32');
    expect(i.abs().tolist()).toEqual([2, 1, 0, 1]);
    expect(i.neg().dtype).toBe('int32');
    expect(i.sign().tolist()).toEqual([-1, -1, 0, 1]);
    expect(i.relu().tolist()).toEqual([0, 0, 0, 1]);
  });

  it('clamp with either bound, and its errors', () => {
    expect(tensor([-2, 0, 3]).clamp(-1, 1).tolist()).toEqual([-1, 0, 1]);
    expect(tensor([-2, 0, 3]).clamp(null, 1).tolist()).toEqual([-2, 0, 1]);
    expect(tensor([-2, 0, 3]).clamp(0).tolist()).toEqual([0, 0, 3]);
    expect(() => tensor([1]).clamp()).toThrow("At least one of 'min' or 'max' must not be None");
  });

  it('logicalNot and where', () => {
    const c = tensor([true, false]);
    expect(c.logicalNot().tolist()).toEqual([false, true]);
    expect(c.where(tensor([1, 2]), 0).tolist()).toEqual([1, 0]);
    expect(() => tensor([true]).neg()).toThrow('Negation, the `-` operator, on a bool tensor is not supported');
  });
});
