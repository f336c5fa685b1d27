import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  add,
  arange,
  broadcastShapes,
  div,
  maximum,
  minimum,
  mul,
  pow,
  sub,
  tensor,
  zeros,
  Tensor,
  TensorError,
  type DType,
} from '../index.js';

const f64 = (data: number[] | number[][]) => tensor(data, { dtype: 'float64' });

describe('arithmetic', () => {
  it('add/sub/mul/div broadcast rows against columns', () => {
    const a = tensor([[1, 2, 3]]);
    const b = tensor([[10], [20]]);
    expect(a.add(b).tolist()).toEqual([
      [11, 12, 13],
      [21, 22, 23],
    ]);
    expect(b.sub(a).tolist()).toEqual([
      [9, 8, 7],
      [19, 18, 17],
    ]);
    expect(a.mul(b).tolist()).toEqual([
      [10, 20, 30],
      [20, 40, 60],
    ]);
    expect(b.div(a).shape).toEqual([2, 3]);
    expect(
      tensor([3, 6])
        .div(tensor([2, 4]))
        .tolist(),
    ).toEqual([1.5, 1.5]);
  });

  it('broadcasts [N, C] + [C], 0-dim and size-1 operands, on either side', () => {
    const m = arange(6).reshape([2, 3]);
    expect(m.add(tensor([100, 200, 300], { dtype: 'int32' })).tolist()).toEqual([
      [100, 201, 302],
      [103, 204, 305],
    ]);
    expect(m.add(tensor(1, { dtype: 'int32' })).tolist()).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(add(10, m).tolist()).toEqual([
      [10, 11, 12],
      [13, 14, 15],
    ]);
    expect(sub(10, f64([1, 2]), { alpha: 2 }).tolist()).toEqual([8, 6]);
    expect(div(1, tensor([4])).tolist()).toEqual([0.25]);
    expect(mul(tensor([[2]]), arange(3)).tolist()).toEqual([[0, 2, 4]]);
  });

  it('add and sub scale the second operand by alpha; fractional alpha needs a float result', () => {
    expect(
      tensor([1, 2])
        .add(tensor([1, 1]), { alpha: 3 })
        .tolist(),
    ).toEqual([4, 5]);
    expect(tensor([1, 2]).sub(1, { alpha: 2 }).tolist()).toEqual([-1, 0]);
    expect(arange(2).add(arange(2), { alpha: 3 }).tolist()).toEqual([0, 4]);
    expect(tensor([1]).add(arange(1).add(1), { alpha: 0.5 }).tolist()).toEqual([1.5]);
    expect(() => arange(2).add(arange(2), { alpha: 1.5 })).toThrow(
      'For integral input tensors, argument alpha must not be a floating point number.',
    );
  });

  it('divides truly: int32 / int32 is float32 (values from PyTorch)', () => {
    const i = tensor(new Int32Array([5, -7, 0]));
    expect(i.div(2).dtype).toBe('float32');
    expect(i.div(2).tolist()).toEqual([2.5, -3.5, 0]);
    expect(i.div(0).tolist()).toEqual([Infinity, -Infinity, NaN]);
    expect(
      tensor([1])
        .div(tensor([-0]))
        .tolist(),
    ).toEqual([-Infinity]);
  });

  it('int32 arithmetic wraps like torch.int32', () => {
    const big = tensor(new Int32Array([65536]));
    expect(big.mul(big).tolist()).toEqual([0]);
    expect(
      tensor(new Int32Array([2147483647]))
        .add(1)
        .tolist(),
    ).toEqual([-2147483648]);
  });

  it('bool arithmetic stays bool (add is or, mul is and); bool - bool is refused', () => {
    expect(
      tensor([true, false])
        .add(tensor([true, true]))
        .tolist(),
    ).toEqual([true, true]);
    expect(
      tensor([true, false])
        .mul(tensor([true, true]))
        .tolist(),
    ).toEqual([true, false]);
    expect(() => tensor([true]).sub(tensor([false]))).toThrow(
      'Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.',
    );
  });

  it('pow with tensor or number on either side (values from PyTorch)', () => {
    expect(
      f64([2, 3])
        .pow(f64([0.5, -1]))
        .tolist(),
    ).toEqual([Math.SQRT2, 1 / 3]);
    expect(pow(2, tensor(new Int32Array([1, 2, 3]))).tolist()).toEqual([2, 4, 8]);
    expect(pow(2, tensor(new Int32Array([1, 2, 3]))).dtype).toBe('int32');
    expect(pow(2.5, tensor(new Int32Array([1, 2]))).tolist()).toEqual([2.5, 6.25]);
    expect(tensor([2, 3]).pow(2).tolist()).toEqual([4, 9]);
    expect(() => arange(3).pow(-1)).toThrow('Integers to negative integer powers are not allowed.');
    expect(tensor([2]).pow(-1).tolist()).toEqual([0.5]);
  });

  it('maximum / minimum propagate NaN from either side', () => {
    expect(maximum(tensor([1, NaN, 3]), tensor([NaN, 2, 1])).tolist()).toEqual([NaN, NaN, 3]);
    expect(minimum(tensor([1, NaN, 3]), tensor([NaN, 2, 1])).tolist()).toEqual([NaN, NaN, 1]);
    expect(tensor([1, 4]).minimum(2).tolist()).toEqual([1, 2]);
    expect(arange(3).maximum(1).dtype).toBe('int32');
  });

  it('works on strided views (transposed, sliced, expanded) without changing them', () => {
    const m = arange(6).reshape([2, 3]);
    expect(m.t().add(m.t()).tolist()).toEqual([
      [0, 6],
      [2, 8],
      [4, 10],
    ]);
    expect(
      m
        .t()
        .add(arange(3).reshape([3, 1]))
        .tolist(),
    ).toEqual([
      [0, 3],
      [2, 5],
      [4, 7],
    ]);
    expect(m.slice(1, 0, null, 2).mul(10).tolist()).toEqual([
      [0, 20],
      [30, 50],
    ]);
    expect(
      m
        .select(1, 1)
        .add(tensor([1, 1], { dtype: 'int32' }).expand([2]))
        .tolist(),
    ).toEqual([2, 5]);
    expect(m.tolist()).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
  });

  it("throws PyTorch's broadcasting message and rejects non-tensor operands", () => {
    expect(() => tensor([[1, 2, 3]]).add(tensor([[1, 2, 3, 4]]))).toThrow(
      'The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1',
    );
    let err: unknown;
    try {
      tensor([1, 2]).mul(tensor([1, 2, 3]));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TensorError);
    expect((err as TensorError).code).toBe('BROADCAST');
    expect(() => add(tensor([1]), '1' as unknown as number)).toThrow(
      'expected a Tensor, number or boolean operand, got string',
    );
  });
});

describe('comparisons', () => {
  it('give bool, comparing in the promoted dtype', () => {
    const a = tensor([1, 2, 3]);
    expect(a.eq(2).tolist()).toEqual([false, true, false]);
    expect(a.ne(2).tolist()).toEqual([true, false, true]);
    expect(a.lt(2).tolist()).toEqual([true, false, false]);
    expect(a.le(2).tolist()).toEqual([true, true, false]);
    expect(a.gt(2).tolist()).toEqual([false, false, true]);
    expect(a.ge(2).tolist()).toEqual([false, true, true]);
    for (const r of [a.eq(2), a.ne(2), a.lt(2), a.le(2), a.gt(2), a.ge(2)]) expect(r.dtype).toBe('bool');
    expect(arange(1, 4).lt(2.5).tolist()).toEqual([true, true, false]);
    expect(tensor([true, false]).eq(1).tolist()).toEqual([true, false]);
    expect(
      tensor([NaN])
        .eq(tensor([NaN]))
        .tolist(),
    ).toEqual([false]);
    expect(
      tensor([[1], [2]])
        .lt(tensor([1, 2, 3]))
        .tolist(),
    ).toEqual([
      [false, true, true],
      [false, false, true],
    ]);
  });
});

describe('broadcast and promotion laws (properties)', () => {
  const dim = fc.integer({ min: 1, max: 4 });
  const shapes = fc
    .array(dim, { minLength: 0, maxLength: 4 })
    .chain((shape) =>
      fc.tuple(
        fc.constant(shape),
        fc.array(fc.boolean(), { minLength: shape.length, maxLength: shape.length }),
        fc.integer({ min: 0, max: shape.length }),
      ),
    );

  it('the result shape is broadcastShapes(a, b) in either order, and each element is a[i] + b[j]', () => {
    fc.assert(
      fc.property(shapes, ([shape, ones, drop]) => {
        // b: some dims squeezed to 1, some leading dims dropped
        const other = shape.map((s, i) => (ones[i] ? 1 : s)).slice(drop);
        const a = arange(shape.reduce((p, s) => p * s, 1)).reshape(shape);
        const b = zeros(other).add(1000);
        const r = a.add(b);
        expect(r.shape).toEqual(broadcastShapes(shape, other));
        expect(b.add(a).shape).toEqual(r.shape);
        expect(r.sum().item()).toBe(a.sum().item() * (r.numel / a.numel) + 1000 * r.numel);
      }),
    );
  });

  it('a + b - b == a for float64 tensors of broadcastable shapes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -100, max: 100 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: -50, max: 50 }),
        (xs, s) => {
          const a = tensor(xs, { dtype: 'float64' });
          const b = tensor([[s], [s + 1]], { dtype: 'float64' });
          expect(a.add(b).sub(b).tolist()).toEqual([xs, xs]);
        },
      ),
    );
  });

  it('results carry the promoted dtype for every pair of tensor dtypes', () => {
    const dtypes: DType[] = ['bool', 'int32', 'float32', 'float64'];
    fc.assert(
      fc.property(fc.constantFrom(...dtypes), fc.constantFrom(...dtypes), (da, db) => {
        const r = mul(zeros([2], { dtype: da }), zeros([2], { dtype: db }));
        expect(r).toBeInstanceOf(Tensor);
        expect(r.dtype).toBe(dtypes[Math.max(dtypes.indexOf(da), dtypes.indexOf(db))]);
      }),
    );
  });
});
