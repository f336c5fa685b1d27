import { describe, expect, it } from 'vitest';
import { arange, tensor, where } from '../index.js';

describe('where', () => {
  const cond = () => tensor([true, false, true]);

  it('picks from a where cond is true, else from b, broadcasting all three', () => {
    expect(where(cond(), tensor([1, 2, 3]), tensor([-1, -2, -3])).tolist()).toEqual([1, -2, 3]);
    expect(where(tensor([[true], [false]]), tensor([1, 2]), tensor([[10], [20]])).tolist()).toEqual([
      [1, 2],
      [20, 20],
    ]);
    // the method form is PyTorch's x.where(cond, y)
    expect(tensor(7).where(cond(), 0).tolist()).toEqual([7, 0, 7]);
  });

  it('promotes a and b like a binary op, with JS numbers on either side', () => {
    expect(where(cond(), arange(3), 0.5).dtype).toBe('float32');
    expect(where(cond(), arange(3), 0.5).tolist()).toEqual([0, 0.5, 2]);
    expect(where(cond(), 1, arange(3)).dtype).toBe('int32');
    expect(where(cond(), tensor([1], { dtype: 'float64' }), tensor([1], { dtype: 'float32' })).dtype).toBe('float64');
    expect(where(cond(), 1, 0).dtype).toBe('int32');
    expect(where(cond(), 1.5, 0).tolist()).toEqual([1.5, 0, 1.5]);
  });

  it('reads strided operands', () => {
    const m = arange(6).reshape([2, 3]);
    expect(where(m.t().gt(2), m.t(), m.t().neg()).tolist()).toEqual([
      [0, 3],
      [-1, 4],
      [-2, 5],
    ]);
  });

  it("refuses a non-bool condition with PyTorch's message", () => {
    expect(() => where(tensor([1]), 1, 0)).toThrow(
      'where expected condition to be a boolean tensor, but got a tensor with dtype Float',
    );
    expect(() => where(cond(), tensor([1, 2]), 0)).toThrow(
      'The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0',
    );
  });
});
