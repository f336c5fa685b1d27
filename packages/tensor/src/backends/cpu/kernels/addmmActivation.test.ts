import { afterEach, describe, expect, it } from 'vitest';
import * as K from '../../../kernelNames.js';
import { getNumThreads, setNumThreads } from '../wasm/cpuKernels.js';
import { bothKernels, expectClose } from '../wasm/__tests__/parity.js';
import { manualSeed, matmul, randn, relu, runKernel1, type Tensor } from '../../../index.js';

/** relu(x @ w.t() + b) as three kernels. */
const unfused = (x: Tensor, w: Tensor, b: Tensor) => relu(matmul(x, w.t()).add(b));
const fused = (x: Tensor, w: Tensor, b: Tensor) => runKernel1(K.AddmmActivation, [b, x, w.t()]);

describe('AddmmActivation (Note [Gemm epilogue]) equals matmul, bias add and relu', () => {
  const threads = getNumThreads();
  afterEach(() => setNumThreads(threads));

  it.each([
    [64, 784, 256, 1],
    [64, 784, 256, 2],
    [8, 600, 256, 2],
    [67, 45, 33, 2],
    [3, 5, 4, 1],
  ])('float32 [%i,%i] @ [%i..]ᵀ on %i thread(s): the wasm epilogue and the TypeScript kernel', (M, K_, N, t) => {
    manualSeed(M + N);
    const [x, w, b] = [randn([M, K_]), randn([N, K_]), randn([N])];
    setNumThreads(t);
    const want = unfused(x, w, b).toTypedArray() as Float32Array;
    const { ts, wasm } = bothKernels(() => fused(x, w, b));
    expect(want.some((v) => v === 0) && want.some((v) => v > 0)).toBe(true);
    expectClose(wasm, want, 1e-4, 2e-6 * Math.sqrt(K_));
    expectClose(ts, want, 1e-4, 2e-6 * Math.sqrt(K_));
  });

  it('float64 runs the TypeScript kernel, to rounding', () => {
    manualSeed(1);
    const [x, w, b] = [
      randn([9, 20], { dtype: 'float64' }),
      randn([7, 20], { dtype: 'float64' }),
      randn([7], { dtype: 'float64' }),
    ];
    expectClose(fused(x, w, b).toTypedArray(), unfused(x, w, b).toTypedArray(), 1e-12, 1e-12);
  });

  it('keeps NaN where it reaches, as relu does', () => {
    const x = randn([16, 32]);
    const b = randn([40]);
    b.storage.data[3] = NaN;
    const w = randn([40, 32]);
    const got = fused(x, w, b).toTypedArray() as Float32Array;
    for (let r = 0; r < 16; r++) expect(Number.isNaN(got[r * 40 + 3])).toBe(true);
  });
});
