import { platform } from '#platform';
import { envCount } from '../../../envCount.js';
import { TensorError } from '../../../errors.js';
import { ThreadPool, type WasmTask } from './threadPool.js';
import { type WasmRuntime, wasmRuntime } from './wasmRuntime.js';

/** 'auto': WebAssembly SIMD kernels and the thread pool where they help; 'typescript': the reference kernels only. */
export type CpuKernelMode = 'auto' | 'typescript';

export interface CpuKernelInfo {
  mode: CpuKernelMode;
  /** true when the WebAssembly SIMD kernels are in use */
  wasm: boolean;
  /** true when they are the relaxed-SIMD build (Note [Relaxed SIMD gemm]) */
  relaxedSimd: boolean;
  /** threads a big kernel is split over, the calling thread included */
  threads: number;
  /**
   * threads the pool runs those parts on now, the calling thread included: 1 until a big
   * kernel started the pool, on a page until its Web Workers have started, and on a page that
   * is not cross-origin isolated (Note [Pool on the web])
   */
  poolThreads: number;
}

/**
 * Note [Kernel choice]
 * The cpu device picks its kernels itself: float32 kernels big enough to repay staging
 * their operands (Note [Wasm arena]) run in WebAssembly SIMD, and those big enough to
 * repay waking the pool are split over `getNumThreads()` threads; everything else runs
 * the TypeScript kernels, which stay the reference the wasm kernels are tested against.
 * `setCpuKernels('typescript')` (or WIREGRAD_CPU_KERNELS=typescript) forces the
 * TypeScript kernels for debugging; `setNumThreads` (or WIREGRAD_NUM_THREADS) sets the
 * pool size, which defaults to the number of cores.
 */
let mode: CpuKernelMode = platform.env('WIREGRAD_CPU_KERNELS') === 'typescript' ? 'typescript' : 'auto';
let threads = envCount(platform.env('WIREGRAD_NUM_THREADS'), 1) ?? platform.cores();
let pool: ThreadPool | null = null;

export function setCpuKernels(next: CpuKernelMode): void {
  if (next !== 'auto' && next !== 'typescript') {
    throw new TensorError('INVALID_ARGUMENT', `setCpuKernels expects 'auto' or 'typescript', got ${String(next)}`);
  }
  mode = next;
}

/** PyTorch's torch.set_num_threads: the threads big cpu kernels are split over (>= 1). */
export function setNumThreads(n: number): void {
  if (!Number.isInteger(n) || n < 1)
    throw new TensorError('INVALID_ARGUMENT', `setNumThreads expects an integer >= 1, got ${n}`);
  threads = n;
}

export function getNumThreads(): number {
  return threads;
}

export function cpuKernelInfo(): CpuKernelInfo {
  const runtime = activeWasm();
  return {
    mode,
    wasm: runtime !== null,
    relaxedSimd: runtime?.relaxedSimd ?? false,
    threads,
    poolThreads: pool?.readyThreads() ?? 1,
  };
}

/** Stops the pool's workers (they never keep a process alive; this makes the exit prompt and explicit). */
export async function shutdownThreadPool(): Promise<void> {
  const old = pool;
  pool = null;
  await old?.close();
}

/** The wasm runtime when the wasm kernels are enabled and available. */
export function activeWasm(): WasmRuntime | null {
  return mode === 'auto' ? wasmRuntime() : null;
}

/** Runs wasm tasks at once on the pool (the first on this thread); at most getNumThreads() of them. */
export function runParallel(runtime: WasmRuntime, tasks: readonly WasmTask[]): void {
  if (tasks.length === 1) {
    runtime.call(tasks[0]!);
    return;
  }
  // a pool is kept when the thread count shrinks (its extra workers just sleep) and replaced when it grows
  if (pool === null || pool.threads < tasks.length) {
    void pool?.close();
    pool = new ThreadPool(runtime, threads);
  }
  pool.run(tasks);
}

/**
 * Cuts [0, n) into at most `parts` ranges whose starts are multiples of `align`, none
 * smaller than `minSize` (so small work stays on one thread).
 */
export function splitRange(n: number, parts: number, align: number, minSize: number): Array<[number, number]> {
  const count = Math.max(1, Math.min(parts, Math.floor(n / Math.max(minSize, 1))));
  const step = Math.ceil(n / count / align) * align;
  const ranges: Array<[number, number]> = [];
  for (let start = 0; start < n; start += step) ranges.push([start, Math.min(n, start + step)]);
  return ranges.length > 0 ? ranges : [[0, n]];
}
