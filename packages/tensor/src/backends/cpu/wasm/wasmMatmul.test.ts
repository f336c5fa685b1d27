import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getNumThreads, setNumThreads } from './cpuKernels.js';
import { bothKernels, expectClose, expectIdentical } from './__tests__/parity.js';
import { sizes } from '../../../__tests__/sizes.js';
import { matmul, randn, tensor, type Tensor } from '../../../index.js';

/** float32 products accumulate in float32 in wasm (like BLAS) and in float64 in TypeScript. */
function expectProduct(x: Tensor, y: Tensor): void {
  const { ts, wasm } = bothKernels(() => matmul(x, y));
  const K = x.shape[x.ndim - 1]!;
  expectClose(wasm, ts, 1e-4, 2e-6 * Math.sqrt(K));
}

describe('wasm gemm (Note [Wasm gemm]) against the TypeScript kernel', () => {
  const threads = getNumThreads();
  afterEach(() => setNumThreads(threads));

  it.each([
    { M: 64, K: 784, N: 256 },
    { M: 67, K: 45, N: 33 },
    { M: 128, K: 784, N: 10 },
    { M: 5, K: 300, N: 9 },
    { M: 1, K: 4096, N: 3 },
    { M: 300, K: 1, N: 40 },
  ])('[$M,$K] @ [$K,$N]: full micro-tiles, ragged edges, several K slices', ({ M, K, N }) => {
    expectProduct(randn([M, K]), randn([K, N]));
  });

  it('reads transposed operands by stride (x @ W.t(), g.t() @ x) without copying them first', () => {
    const w = randn([256, 784]);
    expectProduct(randn([64, 784]), w.t());
    const g = randn([64, 256]);
    expectProduct(g.t(), randn([64, 784]));
  });

  it('batched products, broadcast batches and sliced views', () => {
    expectProduct(randn([3, 37, 50]), randn([3, 50, 29]));
    expectProduct(randn([4, 40, 60]), randn([60, 24]).expand([4, 60, 24]));
    const big = randn([90, 130]);
    expectProduct(big.slice(0, 5, 85).slice(1, 10, 110), randn([100, 48]));
  });

  it('a thin slice of a big tensor is made contiguous instead of staging the whole storage', () => {
    const wide = randn([64, 4096]);
    expectProduct(wide.slice(1, 0, 64), randn([64, 64]));
  });

  it('gives the same bits on 1 thread and on 2 (rows and columns split on micro-tile bounds)', () => {
    const a = randn([200, 300]);
    const b = randn([300, 96]);
    const c = randn([40, 300]);
    setNumThreads(1);
    const one = [matmul(a, b), matmul(c, b.t().t())].map((t) => t.toTypedArray() as Float32Array);
    setNumThreads(2);
    const two = [matmul(a, b), matmul(c, b.t().t())].map((t) => t.toTypedArray() as Float32Array);
    expectIdentical(two[0]!, one[0]!);
    expectIdentical(two[1]!, one[1]!);
  });

  it('splits a batch over the pool in claimed chunks of micro-tiles, with the same bits on 1, 2 and 3 threads (Note [Batched gemm])', () => {
    // few products: 3 of 18 row tiles (the last ragged), and of 12 column tiles: the chunks of 2
    // threads are 27 and 18 tiles, so the first ends inside the second product; a broadcast
    // (stride-0) batch; many products: 13 of 6 column tiles (the last ragged), claimed one by one
    const cases: [() => Tensor, () => Tensor][] = [
      [() => randn([3, 70, 300]), () => randn([3, 300, 60])],
      [() => randn([3, 20, 400]), () => randn([3, 400, 90])],
      [() => randn([20, 400]).expand([3, 20, 400]), () => randn([3, 400, 90])],
      [() => randn([13, 37, 200]), () => randn([13, 200, 45])],
    ];
    for (const [a, b] of cases) {
      const x = a();
      const y = b();
      const on = (n: number) => {
        setNumThreads(n);
        return matmul(x, y).toTypedArray() as Float32Array;
      };
      const one = on(1);
      expectIdentical(on(2), one);
      expectIdentical(on(3), one);
      expectProduct(x, y);
    }
  });

  it('property: any batch of products gives the bits of 1 thread on 2 threads and matches the TypeScript kernel', () => {
    fc.assert(
      fc.property(sizes([1, 5], [1, 70], [100, 300], [1, 70]), fc.boolean(), ([B, M, K, N], broadcast) => {
        const a = broadcast ? randn([M, K]).expand([B, M, K]) : randn([B, M, K]);
        const b = randn([B, K, N]);
        setNumThreads(1);
        const one = matmul(a, b).toTypedArray() as Float32Array;
        setNumThreads(2);
        expectIdentical(matmul(a, b).toTypedArray() as Float32Array, one);
        expectProduct(a, b);
      }),
      { numRuns: 25 },
    );
  });

  it('property: any shapes and transposes match the TypeScript kernel', () => {
    fc.assert(
      fc.property(sizes([1, 70], [1, 300], [1, 70]), fc.boolean(), fc.boolean(), ([M, K, N], ta, tb) => {
        const a = ta ? randn([K, M]).t() : randn([M, K]);
        const b = tb ? randn([N, K]).t() : randn([K, N]);
        expectProduct(a, b);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps infinities and NaN where they reach', () => {
    const data = randn([40, 40]).toTypedArray() as Float32Array;
    data[0] = Infinity;
    data[45] = NaN;
    const a = tensor(data).reshape([40, 40]);
    const b = randn([40, 40]);
    const { ts, wasm } = bothKernels(() => matmul(a, b));
    expect(Number.isNaN(wasm[40])).toBe(true);
    expect(Number.isFinite(wasm[0])).toBe(false);
    expectClose(wasm, ts, 1e-4, 2e-5);
  });
});
