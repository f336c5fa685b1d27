import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arange, bmm, dot, matmul, mm, ones, outer, randn, tensor, type Tensor } from '../index.js';
import { sizes } from '../__tests__/sizes.js';

/** The plain triple loop, in float64, over tolist() values. */
function naive(a: number[][], b: number[][]): number[][] {
  return a.map((row) => b[0]!.map((_, j) => row.reduce((s, v, k) => s + v * b[k]![j]!, 0)));
}

function expectProduct(a: Tensor, b: Tensor, digits: number): void {
  const got = matmul(a, b).tolist() as number[][];
  const want = naive(a.tolist() as number[][], b.tolist() as number[][]);
  expect(got).toEqual(want.map((row) => row.map((v) => expect.closeTo(v, digits))));
}

describe('mm and the blocked kernel', () => {
  it.each([
    [1, 1, 1],
    [3, 5, 2],
    [7, 5, 6],
    [4, 4, 4],
    [9, 131, 13],
    [33, 260, 17],
  ])('%ix%i @ %ix.. matches the naive product (edges, K blocks)', (M, K, N) => {
    expectProduct(randn([M, K], { dtype: 'float64' }), randn([K, N], { dtype: 'float64' }), 10);
  });

  it('float32 products are float32 and close to float64 ones', () => {
    const a = randn([20, 70]);
    const b = randn([70, 9]);
    expect(mm(a, b).dtype).toBe('float32');
    expectProduct(a, b, 4);
  });

  it('reads transposed and sliced operands by stride', () => {
    const a = arange(6).reshape([3, 2]).to('float32');
    expect(a.t().matmul(a).tolist()).toEqual([
      [20, 26],
      [26, 35],
    ]);
    const big = randn([12, 10], { dtype: 'float64' });
    expectProduct(big.t(), big, 10);
    expectProduct(big.slice(0, 1, null, 2), big.t().slice(1, 2, 8), 10);
  });

  it('int32 products are exact and wrap like int32', () => {
    const a = arange(4).reshape([2, 2]);
    expect(a.matmul(a).tolist()).toEqual([
      [2, 3],
      [6, 11],
    ]);
    expect(a.matmul(a).dtype).toBe('int32');
    const big = tensor(new Int32Array([65536, 65536])).reshape([1, 2]);
    expect(big.matmul(big.t()).tolist()).toEqual([[0]]);
  });

  it('empty inner dims give zeros', () => {
    expect(mm(ones([2, 0]), ones([0, 3])).tolist()).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });
});

describe('matmul follows PyTorch for every rank', () => {
  const v = tensor([1, 2]);
  const m = tensor([
    [1, 2],
    [3, 4],
  ]);

  it('1-D @ 1-D is a 0-dim dot, 2-D @ 1-D and 1-D @ 2-D drop the promoted dim', () => {
    expect(v.matmul(v).item()).toBe(5);
    expect(v.matmul(v).shape).toEqual([]);
    expect(m.matmul(v).tolist()).toEqual([5, 11]);
    expect(v.matmul(m).tolist()).toEqual([7, 10]);
    expect(dot(v, v).item()).toBe(5);
  });

  it('batched operands broadcast their batch dims', () => {
    expect(ones([4, 1, 2, 3]).matmul(ones([5, 3, 2])).shape).toEqual([4, 5, 2, 2]);
    expect(ones([2, 3]).matmul(ones([6, 3, 4])).shape).toEqual([6, 2, 4]);
    expect(ones([3]).matmul(ones([6, 3, 4])).shape).toEqual([6, 4]);
    expect(ones([6, 2, 3]).matmul(ones([3])).shape).toEqual([6, 2]);
    const a = randn([2, 3, 4, 5], { dtype: 'float64' });
    const b = randn([3, 5, 2], { dtype: 'float64' });
    const c = a.matmul(b);
    expect(c.shape).toEqual([2, 3, 4, 2]);
    expect(c.select(0, 1).select(0, 2).tolist()).toEqual(
      naive(a.select(0, 1).select(0, 2).tolist() as number[][], b.select(0, 2).tolist() as number[][]).map((r) =>
        r.map((x) => expect.closeTo(x, 10)),
      ),
    );
  });

  it('a batch times a matrix folds into one mm (Note [matmul folding]) with the same values', () => {
    const a = randn([3, 4, 5], { dtype: 'float64' });
    const w = randn([5, 6], { dtype: 'float64' });
    const y = a.matmul(w);
    expect(y.shape).toEqual([3, 4, 6]);
    for (let i = 0; i < 3; i++)
      expect(y.select(0, i).tolist()).toEqual(
        (a.select(0, i).matmul(w).tolist() as number[][]).map((r) => r.map((x) => expect.closeTo(x, 12))),
      );
    expect(a.permute([1, 0, 2]).matmul(w).select(1, 2).tolist()).toEqual(
      (y.select(0, 2).tolist() as number[][]).map((r) => r.map((x) => expect.closeTo(x, 12))),
    );
  });

  it('bmm multiplies batch by batch; outer promotes like mul', () => {
    const a = randn([2, 3, 4], { dtype: 'float64' });
    const b = randn([2, 4, 2], { dtype: 'float64' });
    expect(bmm(a, b).select(0, 1).tolist()).toEqual(
      naive(a.select(0, 1).tolist() as number[][], b.select(0, 1).tolist() as number[][]).map((r) =>
        r.map((x) => expect.closeTo(x, 10)),
      ),
    );
    expect(outer(tensor([1, 2]), tensor([3, 4, 5])).tolist()).toEqual([
      [3, 4, 5],
      [6, 8, 10],
    ]);
    expect(outer(arange(2), tensor([0.5])).dtype).toBe('float32');
  });

  it('property: (A @ B) @ x == A @ (B @ x) for small integer matrices', () => {
    fc.assert(
      fc.property(sizes([1, 6], [1, 6], [1, 6]), ([M, K, N]) => {
        const A = arange(M * K)
          .reshape([M, K])
          .sub(3);
        const B = arange(K * N)
          .reshape([K, N])
          .mul(2);
        const x = arange(N);
        expect(A.matmul(B).matmul(x).tolist()).toEqual(A.matmul(B.matmul(x)).tolist());
      }),
    );
  });
});

describe("matmul errors carry PyTorch's texts", () => {
  it.each<[string, () => unknown, string]>([
    ['2-D shapes', () => ones([2, 3]).matmul(ones([4, 5])), 'mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)'],
    ['1-D @ 2-D', () => ones([3]).matmul(ones([4, 5])), 'mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)'],
    ['2-D @ 1-D', () => ones([2, 3]).matmul(ones([4])), 'size mismatch, got input (2), mat (2x3), vec (4)'],
    [
      '3-D @ 2-D',
      () => ones([2, 2, 3]).matmul(ones([4, 5])),
      'mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)',
    ],
    [
      '3-D @ 3-D',
      () => ones([2, 2, 3]).matmul(ones([2, 4, 5])),
      'Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].',
    ],
    [
      'batch dims',
      () => ones([3, 2, 3]).matmul(ones([2, 3, 5])),
      'The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0',
    ],
    [
      'dtypes',
      () => ones([2, 3]).mm(ones([3, 2], { dtype: 'float64' })),
      'expected m1 and m2 to have the same dtype, but got: float != double',
    ],
    [
      '0-D',
      () => tensor(1).matmul(ones([2])),
      'both arguments to matmul need to be at least 1D, but they are 0D and 1D',
    ],
    [
      'bool',
      () => mm(ones([2, 2], { dtype: 'bool' }), ones([2, 2], { dtype: 'bool' })),
      `"addmm_impl_cpu_" not implemented for 'Bool'`,
    ],
    ['mm ranks', () => mm(ones([3]), ones([3, 3])), 'self must be a matrix, got 1-D tensor of shape [3]'],
    ['bmm ranks', () => bmm(ones([2, 3]), ones([3, 3, 5])), 'batch1 must be a 3D tensor'],
    [
      'bmm shapes',
      () => bmm(ones([2, 2, 3]), ones([3, 3, 5])),
      'Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [3, 3].',
    ],
    [
      'dot sizes',
      () => ones([3]).dot(ones([4])),
      'inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 elements respectively',
    ],
    ['dot ranks', () => dot(ones([3, 1]), ones([3])), '1D tensors expected, but got 2D and 1D tensors'],
    [
      'dot dtypes',
      () => dot(ones([3]), ones([3], { dtype: 'float64' })),
      'dot : expected both vectors to have same dtype, but found Float and Double',
    ],
    ['outer ranks', () => outer(ones([3]), ones([3, 1])), 'outer: Expected 1-D argument vec2, but got 2-D'],
  ])('%s', (_name, fn, message) => {
    expect(fn).toThrow(message);
  });
});
