import { describe, expect, expectTypeOf, it } from 'vitest';
import type { sum } from '../ops/reduce.js';
import type { add } from '../ops/binary.js';
import { tensor, type Tensor } from '../index.js';

describe('method types are derived from the functions (MethodsOf)', () => {
  it('a method takes what its function takes after the tensor, and returns what it returns', () => {
    expectTypeOf<Tensor['sum']>().parameters.toEqualTypeOf<
      Parameters<typeof sum> extends [Tensor, ...infer A] ? A : never
    >();
    expectTypeOf<Tensor['add']>().returns.toEqualTypeOf<ReturnType<typeof add>>();
    const t = tensor([
      [1, 2],
      [3, 4],
    ]);
    expect(t.sum(1, true).tolist()).toEqual([[3], [7]]);
    expect(t.max(1).values.tolist()).toEqual([2, 4]);
    expect(t.where(t.gt(2), 0).tolist()).toEqual([
      [0, 0],
      [3, 4],
    ]);
  });
});
