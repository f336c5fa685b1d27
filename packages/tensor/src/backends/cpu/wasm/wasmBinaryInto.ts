import { shapesEqual } from '../../../shape.js';
import type { Tensor } from '../../../tensor.js';
import { activeWasm, getNumThreads, runParallel, splitRange } from './cpuKernels.js';
import { BINARY_OPS, CHUNK, MIN_ELEMENTS, MIN_THREAD_ELEMENTS, rowLength } from './wasmElementwise.js';

/**
 * x op= y in wasm for a contiguous float32 x of MIN_ELEMENTS or more and a float32 y of x's
 * shape (contiguous), a single value, or a contiguous row broadcast over x's leading dims;
 * with alpha (op Add only), x += alpha y for a y of x's shape (axpyF32); 0 when it does not
 * apply (the TypeScript loop runs). Returns the count of leading
 * elements written: the wasm loop over full vectors writes whole vectors only, so the caller
 * writes the last `n % 4` (a padded tail would overwrite x's storage past x).
 * See Note [In-place fast path].
 */
export function wasmBinaryInto(kernelName: string, x: Tensor, y: Tensor, alpha = 1): number {
  const n = x.numel;
  if (n < MIN_ELEMENTS || x.dtype !== 'float32' || y.dtype !== 'float32' || !x.isContiguous()) return 0;
  let mode: number;
  let cols = 1;
  if (y.isContiguous() && shapesEqual(y.shape, x.shape)) mode = 0;
  else if (y.numel === 1) mode = 1;
  else if ((cols = rowLength(y, x.shape)) > 0) mode = 3;
  else return 0;
  if (alpha !== 1 && (mode !== 0 || kernelName !== 'Add')) return 0;
  const runtime = activeWasm();
  if (runtime === null) return 0;
  const op = BINARY_OPS[kernelName]!;
  // rows run exactly (rowLoop); vectors only over whole vectors
  const done = mode === 3 ? n : n - (n % 4);
  const align = mode === 3 ? cols : 16;
  const xs = (x.storage.data as Float32Array).subarray(x.offset, x.offset + n);
  const ys = (y.storage.data as Float32Array).subarray(y.offset, y.offset + (mode === 0 ? n : mode === 1 ? 1 : cols));
  runtime.reset();
  const xPtr = runtime.pointerOf(xs);
  const yInHeap = runtime.pointerOf(ys);
  if (xPtr !== null && (mode !== 0 || yInHeap !== null)) {
    const xp = xPtr;
    const yp = yInHeap ?? runtime.stage(ys);
    const ranges =
      getNumThreads() === 1
        ? [[0, done] as [number, number]]
        : splitRange(done, getNumThreads(), align, MIN_THREAD_ELEMENTS);
    runParallel(
      runtime,
      ranges.map(([s, e]) =>
        alpha !== 1
          ? { kernel: 'axpyF32' as const, args: [xp + 4 * s, yp + 4 * s, e - s, alpha] }
          : {
              kernel: 'binaryF32' as const,
              args: [op, mode, xp + 4 * s, mode === 0 ? yp + 4 * s : yp, xp + 4 * s, e - s, cols],
            },
      ),
    );
    return done;
  }
  // x (or y) has a buffer of its own: chunks copied in, computed and copied back (Note [Streamed elementwise])
  const chunk = mode === 3 ? Math.max(1, Math.floor(CHUNK / cols)) * cols : CHUNK;
  const xc = runtime.alloc(chunk * 4);
  const yFixed = mode === 0 ? null : (yInHeap ?? runtime.stage(ys));
  const yc = mode === 0 ? runtime.alloc(chunk * 4) : 0;
  for (let s = 0; s < done; s += chunk) {
    const e = Math.min(done, s + chunk);
    const heap = runtime.heapF32();
    heap.set(xs.subarray(s, e), xc >> 2);
    if (yFixed === null) heap.set(ys.subarray(s, e), yc >> 2);
    if (alpha !== 1) runtime.kernels.axpyF32(xc, yc, e - s, alpha);
    else runtime.kernels.binaryF32(op, mode, xc, yFixed ?? yc, xc, e - s, cols);
    xs.set(heap.subarray(xc >> 2, (xc >> 2) + e - s), s);
  }
  return done;
}
