import type { Tensor } from '../../../tensor.js';
import { activeWasm, getNumThreads, runParallel, splitRange } from './cpuKernels.js';
import { stageView } from './stage.js';
import type { WasmTask } from './threadPool.js';

/** Products smaller than this many multiply-adds stay in TypeScript (staging costs more than it saves). */
const MIN_WASM_MACS = 1 << 12;
/** Each pool thread gets at least this many multiply-adds. */
const MIN_THREAD_MACS = 1 << 18;

/** What the gemm adds to each product before it returns (Note [Gemm epilogue]). */
export interface GemmEpilogue {
  /** a contiguous row of N values added to every row of the product */
  bias: Tensor | null;
  relu: boolean;
}

/**
 * BatchMatMul [B,M,K] @ [B,K,N] in f32 on the wasm gemm (Note [Wasm gemm]), with an optional
 * bias row and ReLU applied in its epilogue; null when the TypeScript kernel should run
 * instead. Each product is split over the pool along its longer side (rows in multiples of
 * 4, columns in multiples of 8, the micro-tile).
 */
export function wasmMatmul(a: Tensor, b: Tensor, post: GemmEpilogue | null = null): Tensor | null {
  const [B, M, K] = a.shape as [number, number, number];
  const N = b.shape[2]!;
  if (a.dtype !== 'float32' || M * N * K < MIN_WASM_MACS || B === 0) return null;
  const runtime = activeWasm();
  if (runtime === null) return null;
  runtime.reset();
  const aPtr = stageView(runtime, a);
  const bPtr = stageView(runtime, b);
  if (aPtr === null || bPtr === null) return null;
  const biasPtr = post?.bias ? stageView(runtime, post.bias) : 0;
  if (biasPtr === null) return null;
  const act = post?.relu ? 1 : 0;
  const [as0, as1, as2] = a.strides as [number, number, number];
  const [bs0, bs1, bs2] = b.strides as [number, number, number];
  const cPtr = runtime.alloc(B * M * N * 4);
  const byRows = M >= N;
  const ranges = splitRange(
    byRows ? M : N,
    getNumThreads(),
    byRows ? 4 : 8,
    Math.ceil(MIN_THREAD_MACS / ((byRows ? N : M) * K)),
  );
  const scratch = ranges.map(([lo, hi]) => runtime.alloc(runtime.kernels.gemmScratchBytes(byRows ? N : hi - lo)));
  for (let i = 0; i < B; i++) {
    const tasks: WasmTask[] = ranges.map(([lo, hi], t) => {
      const [m0, m1, n0, n1] = byRows ? [lo, hi, 0, N] : [0, M, lo, hi];
      const aAt = aPtr + 4 * (i * as0 + m0 * as1);
      const bAt = bPtr + 4 * (i * bs0 + n0 * bs2);
      const cAt = cPtr + 4 * (i * M * N + m0 * N + n0);
      const args = [aAt, as1, as2, bAt, bs1, bs2, cAt, N, m1 - m0, n1 - n0, K, scratch[t]!];
      if (post === null) return { kernel: 'gemm', args };
      return { kernel: 'gemmBiasAct', args: [...args, biasPtr === 0 ? 0 : biasPtr + 4 * n0, act] };
    });
    runParallel(runtime, tasks);
  }
  return runtime.unstage(cPtr, [B, M, N]);
}
