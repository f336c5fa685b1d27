import { describe, expect, it } from 'vitest';
import { arange, tensor, zeros } from './index.js';

describe('toString', () => {
  it('prints like PyTorch', () => {
    expect(tensor([[1, 2], [3, 4]]).toString()).toBe('tensor([[1., 2.],\n        [3., 4.]])');
    expect(tensor([0.5, 1.25]).toString()).toBe('tensor([0.5000, 1.2500])');
    expect(arange(3).toString()).toBe('tensor([0, 1, 2])');
    expect(tensor([true, false]).toString()).toBe('tensor([ True, False])');
    expect(tensor(2.5, { dtype: 'float64' }).toString()).toBe('tensor(2.5000, dtype=torch.float64)');
    expect(tensor([1e-5, 1]).toString()).toBe('tensor([1.0000e-05, 1.0000e+00])');
    expect(tensor([1], { requiresGrad: true }).toString()).toBe('tensor([1.], requires_grad=True)');
  });

  it('summarizes large tensors', () => {
    const s = zeros([2000]).toString();
    expect(s).toContain('...');
    expect(s.length).toBeLessThan(100);
  });
});
