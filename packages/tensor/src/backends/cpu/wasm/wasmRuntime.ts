import { platform } from '#platform';
import { type WasmHeap, setWasmHeap } from '../../../allocator.js';
import type { TypedArray } from '../../../dtype.js';
import { TensorError } from '../../../errors.js';
import { Tensor } from '../../../tensor.js';
import { KERNELS_RELAXED_SIMD_WASM_BASE64, KERNELS_WASM_BASE64 } from './kernels.generated.js';

/** The exports of assembly/index.ts (pointers are byte offsets into the shared memory). */
export interface WasmKernels {
  gemm(
    a: number,
    sa0: number,
    sa1: number,
    b: number,
    sb0: number,
    sb1: number,
    c: number,
    ldc: number,
    m: number,
    n: number,
    k: number,
    scratch: number,
  ): void;
  gemmBatch(a: number, b: number, c: number, bias: number, desc: number, u0: number, u1: number, scratch: number): void;
  gemmScratchBytes(n: number): number;
  binaryF32(op: number, mode: number, a: number, b: number, out: number, n: number, cols: number): void;
  axpyF32(x: number, y: number, n: number, alpha: number): void;
  unaryF32(op: number, x: number, out: number, n: number): void;
  unaryF32Chunks(op: number, x: number, out: number, n: number, next: number, chunk: number): void;
  sumF32(x: number, o: number, r: number, i: number, out: number, acc: number): void;
  softmaxF32(x: number, out: number, rows: number, n: number, log: number): void;
  im2colF32(x: number, geometry: number, padValue: number, out: number, p0: number, p1: number): void;
  col2imF32(cols: number, geometry: number, out: number, p0: number, p1: number): void;
}

export type WasmKernelName = keyof WasmKernels;

/**
 * Every export of WasmKernels, and whether the thread pool runs it (Note [Pool worker]): a
 * Record over the interface's names, so an export added there and not here (or the other way
 * round) does not compile; the pool's list and the exports check are derived from it.
 */
const RUN_BY_POOL: Readonly<Record<WasmKernelName, boolean>> = {
  gemm: false,
  gemmBatch: true,
  gemmScratchBytes: true,
  binaryF32: true,
  axpyF32: true,
  unaryF32: true,
  unaryF32Chunks: true,
  sumF32: true,
  softmaxF32: true,
  im2colF32: true,
  col2imF32: true,
};

const isWasmKernelName = (name: string): name is WasmKernelName => Object.hasOwn(RUN_BY_POOL, name);

/** The names of WasmKernels, in the order of RUN_BY_POOL. */
export const WASM_KERNEL_NAMES: readonly WasmKernelName[] = Object.keys(RUN_BY_POOL).filter(isWasmKernelName);

/** The kernels the thread pool runs, indexed as the pool worker indexes them. */
export const POOL_KERNEL_NAMES: readonly WasmKernelName[] = WASM_KERNEL_NAMES.filter((name) => RUN_BY_POOL[name]);

/** Whether an instance's exports hold every kernel of WasmKernels. */
function isWasmKernels(exports: unknown): exports is WasmKernels {
  return (
    typeof exports === 'object' &&
    exports !== null &&
    WASM_KERNEL_NAMES.every((name) => typeof Reflect.get(exports, name) === 'function')
  );
}

/** The parts of the WebAssembly JS API used here (the package compiles without the DOM lib). */
export interface WasmMemory {
  readonly buffer: ArrayBufferLike;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number; maximum: number; shared: boolean }) => WasmMemory;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const WebAssemblyApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const PAGE = 65536;
/** Below this the memory is left to the module (it has no data, but keep address 0 unused). */
const ARENA_BASE = PAGE;
const ALIGN = 64;

/** (module (func (param v128 v128 v128) (result v128) f32x4.relaxed_madd of the three params)) */
// prettier-ignore
const RELAXED_MADD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 8, 1, 96, 3, 123, 123, 123, 1, 123, 3, 2, 1, 0,
  10, 13, 1, 11, 0, 32, 0, 32, 1, 32, 2, 253, 133, 2, 11,
]);

/** Whether this engine runs relaxed SIMD (Note [Relaxed SIMD gemm]); asked at each call, so a flag set at run time counts. */
export function relaxedSimdSupported(): boolean {
  return WebAssemblyApi.validate(RELAXED_MADD_PROBE);
}

export interface WasmRuntimeOptions {
  /** instantiate the relaxed-SIMD build (Note [Relaxed SIMD gemm]); default: where the engine supports it */
  relaxedSimd?: boolean;
}

/**
 * Note [Wasm arena]
 * The wasm kernels work on a shared WebAssembly.Memory that every thread of the pool
 * instantiates the module over. Big float32 storages live in it already (Note [Storages in
 * wasm memory]): a kernel takes their byte offsets (operand(), output()) and reads and
 * writes them in place. Other operands are staged: copied into a staging region, a bump
 * allocator reset at the start of each kernel call (kernels never nest), and results are
 * copied out of it. Regions are 64-byte aligned and padded, so a SIMD loop may run over the
 * tail of a region without touching its neighbour. One break, which only grows, lays the
 * memory out: storage blocks and staging regions are both carved at it, and a kernel that
 * needs more staging than the region has gets a new region at least twice as large (the old
 * one is abandoned, so at most as much again is wasted).
 */
export class WasmRuntime implements WasmHeap {
  readonly module: object;
  readonly memory: WasmMemory;
  readonly kernels: WasmKernels;
  /** true when this runtime runs the relaxed-SIMD build of the kernels */
  readonly relaxedSimd: boolean;
  private stageBase = ARENA_BASE;
  private stageEnd: number;
  private top = ARENA_BASE;
  /** the end of the carved memory */
  private brk: number;
  private f32: Float32Array;
  /** every buffer object the memory had when a storage's floats were viewed (a grow makes a new one) */
  private readonly heapBuffers = new WeakSet<ArrayBufferLike>();

  constructor(opts: WasmRuntimeOptions = {}) {
    this.relaxedSimd = opts.relaxedSimd ?? relaxedSimdSupported();
    const bytes = this.relaxedSimd ? KERNELS_RELAXED_SIMD_WASM_BASE64 : KERNELS_WASM_BASE64;
    this.module = new WebAssemblyApi.Module(platform.decodeBase64(bytes));
    this.memory = new WebAssemblyApi.Memory({ initial: 256, maximum: 65536, shared: true });
    const instance = new WebAssemblyApi.Instance(this.module, { env: { memory: this.memory } });
    if (!isWasmKernels(instance.exports))
      throw new TensorError('KERNEL_FAILED', 'the WebAssembly kernels lack an export of WasmKernels');
    this.kernels = instance.exports;
    this.f32 = new Float32Array(this.memory.buffer);
    this.brk = this.stageEnd = this.memory.buffer.byteLength;
  }

  /** Starts a kernel call: every region allocated by the previous call is free again. */
  reset(): void {
    this.top = this.stageBase;
  }

  /** A fresh 64-byte-aligned staging region of `bytes` (plus padding); returns its byte offset. */
  alloc(bytes: number): number {
    const size = Math.ceil((bytes + 16) / ALIGN) * ALIGN;
    if (this.top + size > this.stageEnd) {
      const region = Math.max(size, 2 * (this.stageEnd - this.stageBase));
      const base = this.carve(region);
      if (base === null)
        throw new TensorError('KERNEL_FAILED', `wasm memory cannot grow by ${region} bytes for a kernel's operands`);
      this.stageBase = this.top = base;
      this.stageEnd = base + region;
    }
    const ptr = this.top;
    this.top = ptr + size;
    return ptr;
  }

  /** `bytes` (rounded up to 64) at the break, growing the memory; null when it cannot grow. */
  carve(bytes: number): number | null {
    const ptr = this.brk;
    const end = ptr + Math.ceil(bytes / ALIGN) * ALIGN;
    const size = this.memory.buffer.byteLength;
    if (end > size) {
      try {
        this.memory.grow(Math.ceil((end - size) / PAGE));
      } catch {
        return null;
      }
    }
    this.brk = end;
    return ptr;
  }

  /** `length` floats of the memory at byte offset `ptr`, as a storage's data. */
  floats(ptr: number, length: number): Float32Array {
    const buffer = this.memory.buffer;
    this.heapBuffers.add(buffer);
    return new Float32Array(buffer, ptr, length);
  }

  /** The byte offset of `data`'s first element when it is a view of this memory (a storage's floats), else null. */
  pointerOf(data: TypedArray): number | null {
    return this.heapBuffers.has(data.buffer) ? data.byteOffset : null;
  }

  /** The memory as floats (re-created after the memory grew). */
  heapF32(): Float32Array {
    if (this.f32.length * 4 !== this.memory.buffer.byteLength) this.f32 = new Float32Array(this.memory.buffer);
    return this.f32;
  }

  /** Copies `src` into a fresh region; returns its byte offset. */
  stage(src: Float32Array): number {
    const ptr = this.alloc(src.length * 4);
    this.heapF32().set(src, ptr >> 2);
    return ptr;
  }

  /** The byte offset of `src`'s floats for a kernel that only reads them: in place when they live in the memory, else staged. */
  operand(src: Float32Array): number {
    return this.pointerOf(src) ?? this.stage(src);
  }

  /** Copies the floats at byte offset `ptr` into all of `dst`. */
  read(ptr: number, dst: Float32Array): void {
    dst.set(this.heapF32().subarray(ptr >> 2, (ptr >> 2) + dst.length));
  }

  /** A new contiguous float32 tensor holding the floats at byte offset `ptr`. */
  unstage(ptr: number, shape: readonly number[]): Tensor {
    const out = uninitializedF32(shape);
    this.read(ptr, out.storage.data as Float32Array);
    return out;
  }

  /**
   * A new contiguous float32 tensor for a kernel's result and the byte offset to write it at:
   * the tensor's own floats when they live in the memory, else a staging region that
   * finish() copies out.
   */
  output(shape: readonly number[]): KernelOutput {
    const tensor = uninitializedF32(shape);
    const inPlace = this.pointerOf(tensor.storage.data);
    return { tensor, ptr: inPlace ?? this.alloc(tensor.numel * 4), staged: inPlace === null };
  }

  /** The result of a kernel that wrote `out`. */
  finish(out: KernelOutput): Tensor {
    if (out.staged) this.read(out.ptr, out.tensor.storage.data as Float32Array);
    return out.tensor;
  }

  /** Runs one wasm kernel call on this thread. */
  call(task: { kernel: WasmKernelName; args: readonly number[] }): void {
    (this.kernels[task.kernel] as (...a: number[]) => void)(...task.args);
  }
}

export interface KernelOutput {
  tensor: Tensor;
  /** byte offset the kernel writes the result at */
  ptr: number;
  /** true when `ptr` is a staging region, copied into the tensor by finish() */
  staged: boolean;
}

/**
 * A float32 tensor whose storage is not zero-filled, for results a kernel overwrites
 * entirely: zeroing (or first-touching fresh pages of) a 4 MiB buffer costs more than the
 * SIMD add that fills it. The memory comes from the caching allocator (Note [Caching allocator]).
 */
export function uninitializedF32(shape: readonly number[]): Tensor {
  return Tensor.uninitialized(shape, 'float32');
}

let runtime: WasmRuntime | null | undefined;

/** The thread's wasm runtime, created on first use; null where WebAssembly SIMD or shared memory is missing. */
export function wasmRuntime(): WasmRuntime | null {
  if (runtime === undefined) {
    try {
      runtime = new WasmRuntime();
    } catch {
      runtime = null;
    }
  }
  return runtime;
}

setWasmHeap(wasmRuntime);
