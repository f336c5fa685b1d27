import type { Tensor } from '../../../tensor.js';
import type { WindowGeometry } from '../../../kernelSpecs.js';
import { dims3, dims4 } from '../../../shape.js';
import { activeWasm, getNumThreads, runParallel, splitRange } from './cpuKernels.js';
import { stageView } from './stage.js';
import type { WasmRuntime } from './wasmRuntime.js';

/** Columns with fewer values than this stay in TypeScript (staging costs more than it saves). */
export const MIN_WASM_VALUES = 1 << 8;
/** Each pool thread gets planes of at least this many column values. */
const MIN_THREAD_VALUES = 1 << 17;

/**
 * Note [Wasm im2col]
 * Im2Col and Col2Im of float32 run in WebAssembly SIMD (assembly/conv.ts); the TypeScript
 * kernels stay the reference and the float64 path (Note [Kernel choice]). Convolution stays
 * im2col + the wasm gemm (Note [Wasm gemm]) rather than a direct convolution: conv2d is the
 * composite of Note [im2col], whose two kernels are each other's gradient, so a direct kernel
 * would need a kernel name and gradients of its own. The TypeScript kernels paid a bounds
 * check per value; these check once per row and move a row's interior (stride 1) four floats
 * at a time. The geometry reaches the module as a block of i32 words (the order of the G_*
 * constants in assembly/conv.ts), and the kernels take a range of (n, c) planes, whose
 * outputs are disjoint, so each pool thread takes one range.
 *
 * Where conv2d's time goes (64x3x32x32 with 64 3x3 filters, this 2-core machine under
 * load): these kernels took it from ~39 to ~18 ms (im2col itself ~1.2 ms); the rest then
 * went to the pool's hand-offs (each of the 64 per-sample products was split over the pool
 * on its own), to copying the columns and the result through the arena, and to fresh memory
 * for the temporaries conv2d left to the GC. Now the gemm takes the whole batch in one task
 * per thread (Note [Batched gemm]), the kernels read and write big storages in place
 * (Note [Storages in wasm memory]) and conv2d releases its temporaries: ~18 -> ~4.5 ms
 * (tfjs-wasm's conv2d ~13-20 ms in the same run, bench/conv.bench.ts), ~90 % of it the
 * gemm's arithmetic at ~25 GFLOP/s a thread, which a direct kernel would not beat by much.
 */
function geometryBlock(
  runtime: WasmRuntime,
  C: number,
  H: number,
  W: number,
  strides: readonly number[],
  g: WindowGeometry,
): number {
  const words = [
    C,
    H,
    W,
    strides[0]!,
    strides[1]!,
    strides[2]!,
    strides[3] ?? 1,
    ...g.kernel,
    ...g.stride,
    g.padding[0],
    g.padding[2],
    ...g.dilation,
    ...g.outSize,
  ];
  const ptr = runtime.alloc(words.length * 4);
  new Int32Array(runtime.memory.buffer, ptr, words.length).set(words);
  return ptr;
}

/** The (n, c) planes [0, planes) cut into one range per pool thread, none with fewer than MIN_THREAD_VALUES values. */
function planeRanges(planes: number, valuesPerPlane: number): Array<[number, number]> {
  return splitRange(planes, getNumThreads(), 1, Math.ceil(MIN_THREAD_VALUES / valuesPerPlane));
}

/** Im2Col of a float32 [N, C, H, W] in wasm (Note [Wasm im2col]); null when the TypeScript kernel should run. */
export function wasmIm2col(x: Tensor, g: WindowGeometry, padValue: number): Tensor | null {
  const [N, C, H, W] = dims4(x.shape, 'Im2Col');
  const rows = C * g.kernel[0] * g.kernel[1];
  const L = g.outSize[0] * g.outSize[1];
  if (x.dtype !== 'float32' || N * rows * L < MIN_WASM_VALUES) return null;
  const runtime = activeWasm();
  if (runtime === null) return null;
  runtime.reset();
  const xPtr = stageView(runtime, x);
  if (xPtr === null) return null;
  const geometry = geometryBlock(runtime, C, H, W, x.strides, g);
  const out = runtime.output([N, rows, L]);
  runParallel(
    runtime,
    planeRanges(N * C, (rows / C) * L).map(([p0, p1]) => ({
      kernel: 'im2colF32',
      args: [xPtr, geometry, padValue, out.ptr, p0, p1],
    })),
  );
  return runtime.finish(out);
}

/** Col2Im of float32 columns [N, C·kh·kw, L] into [N, C, H, W] in wasm (Note [Wasm im2col]); null as wasmIm2col. */
export function wasmCol2im(cols: Tensor, g: WindowGeometry, inputSize: readonly [number, number]): Tensor | null {
  const [N, rows, L] = dims3(cols.shape, 'Col2Im');
  const C = rows / (g.kernel[0] * g.kernel[1]);
  const [H, W] = inputSize;
  if (cols.dtype !== 'float32' || N * rows * L < MIN_WASM_VALUES) return null;
  const runtime = activeWasm();
  if (runtime === null) return null;
  runtime.reset();
  const colsPtr = stageView(runtime, cols);
  if (colsPtr === null) return null;
  const geometry = geometryBlock(runtime, C, H, W, cols.strides, g);
  const out = runtime.output([N, C, H, W]);
  runParallel(
    runtime,
    planeRanges(N * C, (rows / C) * L).map(([p0, p1]) => ({
      kernel: 'col2imF32',
      args: [colsPtr, geometry, out.ptr, p0, p1],
    })),
  );
  return runtime.finish(out);
}
