import type { Tensor } from '../../../tensor.js';
import { activeWasm, getNumThreads, runParallel } from './cpuKernels.js';
import { asBatch } from '../../matrixProducts.js';
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
/** With at least this many products per thread, threads claim a few whole products at a time. */
const PRODUCTS_PER_THREAD = 4;
/** A claim of whole products covers at least this many multiply-adds (an atomic add each). */
const MIN_CHUNK_MACS = 1 << 16;

/**
 * BatchMatMul [B,M,K] @ [B,K,N] (or [M,K] @ [K,N]) in f32 on the wasm gemm (Note [Wasm gemm]), with an optional
 * bias row and ReLU applied in its epilogue; null when the TypeScript kernel should run
 * instead. The whole batch is one `gemmBatch` task per pool thread, each claiming chunks of the
 * products' micro-tile rows (or columns, when N > M) until none are left (Note [Batched gemm]).
 */
export function wasmMatmul(a: Tensor, b: Tensor, post: GemmEpilogue | null = null): Tensor | null {
  const { B, M, K, N, aStrides, bStrides, outShape } = asBatch(a, b);
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
  const total = B * perProduct;
  const threads = Math.max(1, Math.min(getNumThreads(), Math.floor((B * M * N * K) / MIN_THREAD_MACS)));
  const chunk =
    B >= PRODUCTS_PER_THREAD * threads
      ? perProduct * Math.ceil(MIN_CHUNK_MACS / (M * N * K))
      : Math.ceil(total / threads);
  const desc = [B, M, N, K, ...aStrides, ...bStrides, post?.relu ? 1 : 0, byRows ? 1 : 0];
  const descPtr = runtime.alloc(desc.length * 4);
  new Int32Array(runtime.memory.buffer, descPtr, desc.length).set(desc);
  const next = runtime.alloc(4);
  new Int32Array(runtime.memory.buffer, next, 1)[0] = 0;
  const out = runtime.output(outShape);
  // a claim of columns spans at most N columns of one product at a time
  const scratchBytes = runtime.kernels.gemmScratchBytes(byRows ? N : Math.min(N, chunk * unit));
  const tasks: WasmTask[] = Array.from({ length: threads }, () => ({
    kernel: 'gemmBatch',
    args: [aPtr, bPtr, out.ptr, biasPtr, descPtr, next, chunk, runtime.alloc(scratchBytes)],
  }));
  runParallel(runtime, tasks);
  return runtime.finish(out);
}
