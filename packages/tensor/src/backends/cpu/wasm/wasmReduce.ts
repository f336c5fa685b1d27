import type { TypedArray } from '../../../dtype.js';
import { activeWasm, getNumThreads, runParallel, splitRange } from './cpuKernels.js';
import type { WasmTask } from './threadPool.js';

/** Below this many elements the TypeScript loops win. */
const MIN_ELEMENTS = 4096;
/** Each pool thread gets at least this many elements. */
const MIN_THREAD_ELEMENTS = 1 << 17;

/**
 * Sum over the [O, R, I] layout (Note [Reduction layout]) of float32 data in wasm (read in place
 * where it lives there, Note [Storages in wasm memory]), with float64 accumulators like the
 * TypeScript fold; false when it should run in TypeScript.
 * Rows (O) are split over the pool; a single row of I = 1 (a full sum) is cut into
 * chunks whose float32 partial sums are added here in float64.
 */
export function wasmSum(data: TypedArray, base: number, O: number, R: number, I: number, out: TypedArray): boolean {
  const n = O * R * I;
  if (!(data instanceof Float32Array) || n < MIN_ELEMENTS) return false;
  const runtime = activeWasm();
  if (runtime === null) return false;
  runtime.reset();
  const x = runtime.operand(data.subarray(base, base + n));
  const threads = getNumThreads();
  if (O === 1 && I === 1) {
    const chunks = splitRange(R, threads, 16, MIN_THREAD_ELEMENTS);
    const partial = runtime.alloc(chunks.length * 4);
    runParallel(
      runtime,
      chunks.map(([s, e], t): WasmTask => ({ kernel: 'sumF32', args: [x + 4 * s, 1, e - s, 1, partial + 4 * t, 0] })),
    );
    const heap = runtime.heapF32();
    let total = 0;
    for (let t = 0; t < chunks.length; t++) total += heap[(partial >> 2) + t]!;
    out[0] = total;
    return true;
  }
  const rows = splitRange(O, threads, 1, Math.ceil(MIN_THREAD_ELEMENTS / (R * I)));
  const result = runtime.alloc(O * I * 4);
  const tasks = rows.map(([s, e]): WasmTask => {
    const acc = I === 1 ? 0 : runtime.alloc(I * 8);
    return { kernel: 'sumF32', args: [x + 4 * s * R * I, e - s, R, I, result + 4 * s * I, acc] };
  });
  runParallel(runtime, tasks);
  runtime.read(result, (out as Float32Array).subarray(0, O * I));
  return true;
}

/** Softmax / log-softmax of O contiguous float32 rows of R values in wasm; false when it should run in TypeScript. */
export function wasmSoftmaxRows(
  data: TypedArray,
  base: number,
  O: number,
  R: number,
  out: TypedArray,
  log: boolean,
): boolean {
  const n = O * R;
  if (!(data instanceof Float32Array) || n < MIN_ELEMENTS) return false;
  const runtime = activeWasm();
  if (runtime === null) return false;
  runtime.reset();
  const x = runtime.operand(data.subarray(base, base + n));
  const target = (out as Float32Array).subarray(0, n);
  const inPlace = runtime.pointerOf(target);
  const result = inPlace ?? runtime.alloc(n * 4);
  const rows = splitRange(O, getNumThreads(), 1, Math.ceil(MIN_THREAD_ELEMENTS / R));
  runParallel(
    runtime,
    rows.map(([s, e]): WasmTask => ({
      kernel: 'softmaxF32',
      args: [x + 4 * s * R, result + 4 * s * R, e - s, R, log ? 1 : 0],
    })),
  );
  if (inPlace === null) runtime.read(result, target);
  return true;
}
