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

/** MR and NR of assembly/gemm.ts: the rows and columns of one unit of work (Note [Batched gemm]). */
const UNIT_ROWS = 4;
const UNIT_COLS = 8;

/**
 * BatchMatMul [B,M,K] @ [B,K,N] in f32 on the wasm gemm (Note [Wasm gemm]), with an optional
 * bias row and ReLU applied in its epilogue; null when the TypeScript kernel should run
 * instead. The whole batch is one `gemmBatch` call per pool thread (Note [Batched gemm]): the
 * products' micro-tile rows (or columns, when N > M) are numbered product after product and
 * each thread takes one range of them.
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
  const byRows = M >= N;
  const unit = byRows ? UNIT_ROWS : UNIT_COLS;
  const perProduct = Math.ceil((byRows ? M : N) / unit);
  const unitMacs = unit * (byRows ? N : M) * K;
  const desc = [M, N, K, ...a.strides, ...b.strides, post?.relu ? 1 : 0, byRows ? 1 : 0];
  const descPtr = runtime.alloc(desc.length * 4);
  new Int32Array(runtime.memory.buffer, descPtr, desc.length).set(desc);
  const cPtr = runtime.alloc(B * M * N * 4);
  const ranges = splitRange(B * perProduct, getNumThreads(), 1, Math.ceil(MIN_THREAD_MACS / unitMacs));
  const tasks: WasmTask[] = ranges.map(([u0, u1]) => {
    // a column range never spans more than N columns of one product at a time
    const scratch = runtime.alloc(runtime.kernels.gemmScratchBytes(byRows ? N : Math.min(N, (u1 - u0) * unit)));
    return { kernel: 'gemmBatch', args: [aPtr, bPtr, cPtr, biasPtr, descPtr, u0, u1, scratch] };
  });
  runParallel(runtime, tasks);
  return runtime.unstage(cPtr, [B, M, N]);
}
