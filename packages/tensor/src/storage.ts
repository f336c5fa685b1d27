import {
  MIN_CACHED_BYTES,
  MIN_HEAP_BYTES,
  cacheStats,
  giveBackBuffer,
  giveBackHeapFloats,
  takeBuffer,
  takeHeapFloats,
} from './allocator.js';
import { CPU, type Device } from './device.js';
import { bytesPerElement, type DType, type TypedArray, typedArrayFor } from './dtype.js';
import { TensorError } from './errors.js';

/**
 * Note [Storage and version counter]
 * A Storage is the memory behind one or more tensors. Views share it, so they share its
 * `version`: every in-place kernel bumps it once, and autograd compares the version a
 * saved tensor had against the current one (PyTorch's VariableVersion lives on the
 * storage's impl in the same way). On cpu `data` holds the typed array; other devices
 * keep their buffer in `handle` and leave `data` null.
 *
 * Note [Releasing storages]
 * JS cannot count references, so a storage counts *holds* instead: every Tensor over it
 * (the first one and each view) holds it from its creation until its dispose(), and so do
 * autograd's saved tensors (retain/release) and anything else that must keep the memory
 * past its owner's dispose() (a pending send). When the last hold is released the storage
 * is freed: its cpu buffer goes back to the cache (Note [Caching allocator]) or its device
 * buffer is deleted, and every later access throws DISPOSED. A disposed tensor whose
 * storage is still held elsewhere (a view of it, a saved tensor) keeps reading the live
 * memory, as in PyTorch, so no held storage is ever reused under a reader. A storage
 * dropped without its holds released is collected by the GC as before (never cached; a
 * block of wasm memory is freed once its array is collected, Note [Storages in wasm memory]).
 */
export class Storage {
  version = 0;
  private disposedFlag = false;
  private readonly tracked: boolean;
  private holdCount = 0;
  /** where `cpuData` came from: the caching allocator or the wasm heap, which take it back on dispose */
  private origin: 'own' | 'cache' | 'heap' = 'own';

  constructor(
    readonly device: Device,
    readonly dtype: DType,
    readonly length: number,
    private cpuData: TypedArray | null,
    public handle: unknown = null,
  ) {
    finalizers.get(device.type)?.register(this, handle, this);
    this.tracked = device.type !== 'cpu' || this.byteLength >= TRACK_CPU_BYTES;
    if (this.tracked) {
      track(this, +1);
      liveRegistry.register(this, { gpu: device.type !== 'cpu', bytes: this.byteLength }, this);
    }
  }

  /**
   * A cpu storage of `length` elements from the caching allocator, float32 ones of
   * MIN_HEAP_BYTES or more in wasm memory where it can (Note [Storages in wasm memory]):
   * zero-filled, or with whatever reused memory held when `zeroed` is false (for kernels
   * that write every element).
   */
  static allocate(dtype: DType, length: number, zeroed = true): Storage {
    const bytes = length * bytesPerElement(dtype);
    if (bytes < MIN_CACHED_BYTES) return new Storage(CPU, dtype, length, typedArrayFor(dtype, length));
    const inHeap = dtype === 'float32' && bytes >= MIN_HEAP_BYTES ? takeHeapFloats(length, zeroed) : null;
    const data = inHeap ?? typedArrayOver(dtype, takeBuffer(bytes, zeroed), length);
    const s = new Storage(CPU, dtype, length, data);
    s.origin = inHeap ? 'heap' : 'cache';
    return s;
  }

  get byteLength(): number {
    return this.length * bytesPerElement(this.dtype);
  }

  /** The cpu typed array; throws on other devices (move the tensor with `.cpu()` first). */
  get data(): TypedArray {
    if (this.disposedFlag) throw new TensorError('DISPOSED', 'Tensor storage was disposed; it cannot be used any more');
    if (this.cpuData === null) {
      throw new TensorError(
        'DEVICE_MISMATCH',
        `storage lives on ${this.device.toString()}; call .cpu() to read it on the host`,
      );
    }
    return this.cpuData;
  }

  get disposed(): boolean {
    return this.disposedFlag;
  }

  /** Tensors, saved tensors and other holders keeping this storage alive (Note [Releasing storages]). */
  get holds(): number {
    return this.holdCount;
  }

  assertAlive(): void {
    if (this.disposedFlag) throw new TensorError('DISPOSED', 'Tensor storage was disposed; it cannot be used any more');
  }

  /** One more holder: the storage stays alive until it calls release(). */
  retain(): void {
    this.holdCount++;
  }

  /** One holder fewer; the last one frees the storage. */
  release(): void {
    if (--this.holdCount <= 0) this.dispose();
  }

  /** Frees the memory now, whoever still holds it (tensors over it throw DISPOSED from then on). */
  dispose(): void {
    if (this.disposedFlag) return;
    this.disposedFlag = true;
    finalizers.get(this.device.type)?.unregister(this);
    if (this.tracked) {
      liveRegistry.unregister(this);
      track(this, -1);
    }
    disposeHooks.get(this.device.type)?.(this.handle);
    this.handle = null;
    const data = this.cpuData;
    this.cpuData = null;
    if (data === null) return;
    if (this.origin === 'cache') giveBackBuffer(data.buffer as ArrayBuffer);
    else if (this.origin === 'heap') giveBackHeapFloats(data as Float32Array);
  }
}

const CTORS = { float32: Float32Array, float64: Float64Array, int32: Int32Array, bool: Uint8Array } as const;

function typedArrayOver(dtype: DType, buf: ArrayBuffer, length: number): TypedArray {
  return new CTORS[dtype](buf, 0, length);
}

type DisposeHook = (handle: unknown) => void;
const disposeHooks = new Map<string, DisposeHook>();
const finalizers = new Map<string, FinalizationRegistry<unknown>>();

/**
 * Lets a device backend free its buffer when a storage is disposed, or collected by the
 * GC without a dispose() (a FinalizationRegistry holds the handle, never the storage).
 */
export function onStorageDispose(deviceType: string, hook: DisposeHook): void {
  disposeHooks.set(deviceType, hook);
  finalizers.set(deviceType, new FinalizationRegistry<unknown>((handle) => hook(handle)));
}

// Note [memory() and the GC]: live storages are counted, not referenced: allocation adds,
// dispose() or the GC (through a FinalizationRegistry, which never keeps its targets alive)
// subtracts. A WeakRef per storage would pin every temporary until the current job ends.
// Registering every tiny cpu storage made the GC the largest cost of a scalar autograd
// chain, so cpu storages under TRACK_CPU_BYTES are not counted; device storages always are.
export const TRACK_CPU_BYTES = 1024;
const live = { cpuBytes: 0, gpuBytes: 0, tensors: 0 };

function account(gpu: boolean, bytes: number, sign: 1 | -1): void {
  live.tensors += sign;
  if (gpu) live.gpuBytes += sign * bytes;
  else live.cpuBytes += sign * bytes;
}

function track(s: Storage, sign: 1 | -1): void {
  account(s.device.type !== 'cpu', s.byteLength, sign);
}

const liveRegistry = new FinalizationRegistry<{ gpu: boolean; bytes: number }>(({ gpu, bytes }) =>
  account(gpu, bytes, -1),
);

export interface MemoryInfo {
  /** bytes of live cpu storages (PyTorch's memory_allocated) */
  cpuBytes: number;
  gpuBytes: number;
  /** live storages */
  tensors: number;
  /** bytes the cpu caching allocator keeps for reuse, besides cpuBytes (reserved = cpuBytes + cpuCachedBytes) */
  cpuCachedBytes: number;
  /** cpu allocations served from the cache, and with fresh memory, since the process started */
  cpuCacheHits: number;
  cpuCacheMisses: number;
}

/** Live storages (not views: views share one) and their bytes per kind of device, and the cpu cache; cpu storages under 1 KiB are not counted (Note [memory() and the GC]). */
export function memory(): MemoryInfo {
  const c = cacheStats();
  return { ...live, cpuCachedBytes: c.cachedBytes, cpuCacheHits: c.hits, cpuCacheMisses: c.misses };
}
