import * as K from '../../../kernelNames.js';
import { broadcastShapes, shapesEqual } from '../../../shape.js';
import type { Tensor } from '../../../tensor.js';
import { activeWasm, getNumThreads, runParallel, splitRange } from './cpuKernels.js';
import type { WasmTask } from './threadPool.js';
import { type WasmRuntime, uninitializedF32 } from './wasmRuntime.js';

/** Op codes of assembly/elementwise.ts. */
export const BINARY_OPS: Readonly<Record<string, number>> = {
  [K.Add]: 0,
  [K.Sub]: 1,
  [K.Mul]: 2,
  [K.Div]: 3,
  [K.Maximum]: 4,
  [K.Minimum]: 5,
  [K.ThresholdBackward]: 6,
};
const UNARY_OPS: Readonly<Record<string, number>> = {
  [K.Neg]: 0,
  [K.Abs]: 1,
  [K.Sqrt]: 2,
  [K.Relu]: 3,
  [K.Exp]: 4,
  [K.Log]: 5,
  [K.Sigmoid]: 6,
  [K.Silu]: 7,
  [K.Gelu]: 8,
};
/** Below this many elements the TypeScript loops win (staging and the call cost more). */
export const MIN_ELEMENTS = 4096;
/** Each pool thread gets at least this many elements. */
export const MIN_THREAD_ELEMENTS = 1 << 17;

export function hasWasmBinary(kernelName: string): boolean {
  return kernelName in BINARY_OPS;
}
export function hasWasmUnary(kernelName: string): boolean {
  return kernelName in UNARY_OPS;
}

/** The elements of a contiguous float32 tensor from its offset on (a view, never a copy). */
function elements(t: Tensor, n: number): Float32Array {
  return (t.storage.data as Float32Array).subarray(t.offset, t.offset + n);
}

/**
 * Unary ops worth splitting over the pool even when their operand must be copied in and out;
 * the cheap ones are bound by that copying, which stays on this thread (Note [Streamed elementwise]).
 */
const EXPENSIVE_UNARY = new Set<string>([K.Exp, K.Log, K.Sigmoid, K.Silu, K.Gelu]);
export const CHUNK = 16384;

/**
 * Note [Streamed elementwise]
 * A cheap elementwise op costs less than copying its operands, so staging whole 4 MiB
 * operands would stream each one through memory twice. When an operand or the result does
 * not live in wasm memory (Note [Storages in wasm memory]) the op runs in chunks of 16k
 * elements on this thread: each such chunk is copied into the arena, computed and copied out
 * while it is still in L1/L2; operands and results that do live there are read and written
 * in place, and operands that are a single broadcast value are staged once. When all of them
 * live there nothing is copied, so the op is split over the pool instead (`inPlaceRanges`).
 */
function stream(
  runtime: WasmRuntime,
  operands: readonly Tensor[],
  full: readonly boolean[],
  n: number,
  shape: readonly number[],
  call: (ptrs: readonly number[], outPtr: number, len: number) => void,
): Tensor {
  runtime.reset();
  const copied = operands.map((t, i) =>
    full[i] && runtime.pointerOf(t.storage.data) === null ? elements(t, n) : null,
  );
  const ptrs = operands.map((t, i) =>
    copied[i] ? runtime.alloc(CHUNK * 4) : runtime.operand(elements(t, full[i] ? n : 1)),
  );
  const out = uninitializedF32(shape);
  const result = out.storage.data as Float32Array;
  const resultPtr = runtime.pointerOf(result);
  const outChunk = resultPtr === null ? runtime.alloc(CHUNK * 4) : 0;
  for (let s = 0; s < n; s += CHUNK) {
    const e = Math.min(n, s + CHUNK);
    const heap = runtime.heapF32();
    for (let i = 0; i < operands.length; i++) if (copied[i]) heap.set(copied[i]!.subarray(s, e), ptrs[i]! >> 2);
    const at = ptrs.map((p, i) => (full[i] && !copied[i] ? p + 4 * s : p));
    call(at, resultPtr === null ? outChunk : resultPtr + 4 * s, e - s);
    if (resultPtr === null) result.set(heap.subarray(outChunk >> 2, (outChunk >> 2) + e - s), s);
  }
  return out;
}

/**
 * The result of an op split over the pool when its full operands and its result all live in
 * wasm memory, else null. `task` gets the operands' byte offsets (a broadcast value staged or
 * in place) and the result's; the ranges start on multiples of 16 elements, so a range's
 * padded SIMD tail only rewrites values the next range writes too.
 */
function inPlaceRanges(
  runtime: WasmRuntime,
  operands: readonly Tensor[],
  full: readonly boolean[],
  n: number,
  shape: readonly number[],
  task: (ptrs: readonly number[], outPtr: number, start: number, end: number) => WasmTask,
): Tensor | null {
  if (getNumThreads() === 1 || n < 2 * MIN_THREAD_ELEMENTS) return null;
  if (operands.some((t, i) => full[i] && runtime.pointerOf(t.storage.data) === null)) return null;
  runtime.reset();
  const out = runtime.output(shape);
  if (out.staged) {
    out.tensor.dispose();
    return null;
  }
  const ptrs = operands.map((t, i) => runtime.operand(elements(t, full[i] ? n : 1)));
  const ranges = splitRange(n, getNumThreads(), 16, MIN_THREAD_ELEMENTS);
  runParallel(
    runtime,
    ranges.map(([s, e]) => task(ptrs, out.ptr, s, e)),
  );
  return out.tensor;
}

/** The length of the row `t` is when it broadcasts over the leading dims of `shape` (0 when it does not). */
export function rowLength(t: Tensor, shape: readonly number[]): number {
  if (!t.isContiguous() || t.numel === 0) return 0;
  const lead = shape.length - t.ndim;
  let d = 0;
  while (d < t.ndim && t.shape[d] === 1) d++;
  for (let e = d; e < t.ndim; e++) if (t.shape[e] !== shape[lead + e]) return 0;
  return t.numel;
}

/**
 * a op b in wasm for float32 operands that are both contiguous with the output's shape,
 * one of them a single value, or one of them a row broadcast over the other's leading dims
 * (a bias); null otherwise (the TypeScript loop runs).
 */
export function wasmBinary(kernelName: string, a: Tensor, b: Tensor): Tensor | null {
  if ((a.numel < MIN_ELEMENTS && b.numel < MIN_ELEMENTS) || a.dtype !== 'float32' || b.dtype !== 'float32') return null;
  const shape = shapesEqual(a.shape, b.shape) ? a.shape : broadcastShapes(a.shape, b.shape);
  const aFull = a.isContiguous() && shapesEqual(a.shape, shape);
  const bFull = b.isContiguous() && shapesEqual(b.shape, shape);
  const n = aFull ? a.numel : b.numel;
  if (n < MIN_ELEMENTS) return null;
  let mode = -1;
  let cols = 1;
  if (aFull && bFull) mode = 0;
  else if (aFull && b.numel === 1) mode = 1;
  else if (bFull && a.numel === 1) mode = 2;
  else if (aFull && (cols = rowLength(b, shape)) > 0) mode = 3;
  else if (bFull && (cols = rowLength(a, shape)) > 0) mode = 4;
  if (mode < 0) return null;
  const runtime = activeWasm();
  if (runtime === null) return null;
  const op = BINARY_OPS[kernelName]!;
  if (mode <= 2) {
    const operands = [a, b];
    const full = [aFull, bFull];
    const at = (p: number, isFull: boolean, s: number) => (isFull ? p + 4 * s : p);
    return (
      inPlaceRanges(runtime, operands, full, n, shape, ([pa, pb], po, s, e) => ({
        kernel: 'binaryF32',
        args: [op, mode, at(pa!, aFull, s), at(pb!, bFull, s), po + 4 * s, e - s, 1],
      })) ??
      stream(runtime, operands, full, n, shape, ([pa, pb], po, len) =>
        runtime.kernels.binaryF32(op, mode, pa!, pb!, po, len, 1),
      )
    );
  }
  runtime.reset();
  const aPtr = runtime.operand(elements(a, a.numel));
  const bPtr = runtime.operand(elements(b, b.numel));
  const out = runtime.output(shape);
  // a row broadcast: thread ranges start on a row
  runParallel(
    runtime,
    splitRange(n, getNumThreads(), cols, MIN_THREAD_ELEMENTS).map(([s, e]) => ({
      kernel: 'binaryF32',
      args: [op, mode, aFull ? aPtr + 4 * s : aPtr, bFull ? bPtr + 4 * s : bPtr, out.ptr + 4 * s, e - s, cols],
    })),
  );
  return runtime.finish(out);
}

/** op(x) in wasm for a contiguous float32 x; null otherwise. */
export function wasmUnary(kernelName: string, x: Tensor): Tensor | null {
  if (x.dtype !== 'float32' || x.numel < MIN_ELEMENTS || !x.isContiguous()) return null;
  const runtime = activeWasm();
  if (runtime === null) return null;
  const n = x.numel;
  const op = UNARY_OPS[kernelName]!;
  if (!EXPENSIVE_UNARY.has(kernelName) || getNumThreads() === 1 || n < 2 * MIN_THREAD_ELEMENTS) {
    return (
      inPlaceRanges(runtime, [x], [true], n, x.shape, ([px], po, s, e) => ({
        kernel: 'unaryF32',
        args: [op, px! + 4 * s, po + 4 * s, e - s],
      })) ?? stream(runtime, [x], [true], n, x.shape, ([px], po, len) => runtime.kernels.unaryF32(op, px!, po, len))
    );
  }
  runtime.reset();
  const xPtr = runtime.operand(elements(x, n));
  const out = runtime.output(x.shape);
  const next = runtime.alloc(4);
  runtime.heapF32()[next >> 2] = 0;
  // every thread runs the same task, claiming chunks until none are left (Note [Claimed chunks])
  const task: WasmTask = { kernel: 'unaryF32Chunks', args: [op, xPtr, out.ptr, n, next, CHUNK] };
  runParallel(
    runtime,
    Array.from({ length: Math.min(getNumThreads(), Math.floor(n / MIN_THREAD_ELEMENTS)) }, () => task),
  );
  return runtime.finish(out);
}
