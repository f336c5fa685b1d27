import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { cpuKernelInfo } from './cpuKernels.js';
import { bothKernels, expectClose } from './__tests__/parity.js';
import { WasmRuntime, relaxedSimdSupported } from './wasmRuntime.js';
import { manualSeed, matmul, randn } from '../../../index.js';

// Node 20 runs relaxed SIMD only behind this flag (later versions by default, and Node 24 no
// longer knows it: V8 printed "Error: unrecognized flag" into the test output); set before the
// first kernel call, so this file's runtime is the relaxed build (Note [Relaxed SIMD gemm])
if (Number(process.versions.node.split('.')[0]) < 22) setFlagsFromString('--experimental-wasm-relaxed-simd');

/** C = A @ B (row-major, m x k times k x n) on one runtime's gemm. */
function gemmOn(runtime: WasmRuntime, a: Float32Array, b: Float32Array, m: number, k: number, n: number): Float32Array {
  runtime.reset();
  const pa = runtime.stage(a);
  const pb = runtime.stage(b);
  const pc = runtime.alloc(m * n * 4);
  const scratch = runtime.alloc(runtime.kernels.gemmScratchBytes(n));
  runtime.kernels.gemm(pa, k, 1, pb, n, 1, pc, n, m, n, k, scratch);
  const c = new Float32Array(m * n);
  runtime.read(pc, c);
  return c;
}

describe('relaxed SIMD gemm (Note [Relaxed SIMD gemm])', () => {
  it('is detected here once the engine flag is set', () => {
    expect(relaxedSimdSupported()).toBe(true);
    expect(cpuKernelInfo().relaxedSimd).toBe(true);
  });

  it.each([
    [64, 784, 256],
    [67, 45, 33],
    [4, 1000, 8],
    [128, 128, 128],
  ])('the relaxed and the plain build agree within float32 rounding: [%i,%i] @ [.., %i]', (m, k, n) => {
    manualSeed(m * 7 + k);
    const a = randn([m, k]).toTypedArray() as Float32Array;
    const b = randn([k, n]).toTypedArray() as Float32Array;
    const relaxed = new WasmRuntime({ relaxedSimd: true });
    const plain = new WasmRuntime({ relaxedSimd: false });
    expect([relaxed.relaxedSimd, plain.relaxedSimd]).toEqual([true, false]);
    expectClose(gemmOn(relaxed, a, b, m, k, n), gemmOn(plain, a, b, m, k, n), 1e-4, 2e-6 * Math.sqrt(k));
  });

  it('matmul on the relaxed build (and its pool) matches the TypeScript kernel', () => {
    manualSeed(3);
    const a = randn([200, 300]);
    const b = randn([300, 96]);
    const { ts, wasm } = bothKernels(() => matmul(a, b));
    expectClose(wasm, ts, 1e-4, 2e-6 * Math.sqrt(300));
  });
});
