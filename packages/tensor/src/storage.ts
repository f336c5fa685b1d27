import type { Device } from './device.js';
import { bytesPerElement, type DType, type TypedArray } from './dtype.js';
import { TensorError } from './errors.js';

/**
 * Note [Storage and version counter]
 * A Storage is the memory behind one or more tensors. Views share it, so they share its
 * `version`: every in-place kernel bumps it once, and autograd compares the version a
 * saved tensor had against the current one (PyTorch's VariableVersion lives on the
 * storage's impl in the same way). On cpu `data` holds the typed array; other devices
 * keep their buffer in `handle` and leave `data` null.
 */
export class Storage {
  version = 0;
  private disposedFlag = false;

  constructor(
    readonly device: Device,
    readonly dtype: DType,
    readonly length: number,
    private readonly cpuData: TypedArray | null,
    public handle: unknown = null,
  ) {
    liveStorages.add(new WeakRef(this));
    finalizers.get(device.type)?.register(this, handle, this);
  }

  get byteLength(): number {
    return this.length * bytesPerElement(this.dtype);
  }

  /** The cpu typed array; throws on other devices (move the tensor with `.cpu()` first). */
  get data(): TypedArray {
    if (this.disposedFlag) throw new TensorError('DISPOSED', 'Tensor storage was disposed; it cannot be used any more');
    if (this.cpuData === null) {
      throw new TensorError('DEVICE_MISMATCH', `storage lives on ${this.device.toString()}; call .cpu() to read it on the host`);
    }
    return this.cpuData;
  }

  get disposed(): boolean {
    return this.disposedFlag;
  }

  assertAlive(): void {
    if (this.disposedFlag) throw new TensorError('DISPOSED', 'Tensor storage was disposed; it cannot be used any more');
  }

  /** Frees the memory now. Device backends hook in through `onDispose`. */
  dispose(): void {
    if (this.disposedFlag) return;
    this.disposedFlag = true;
    finalizers.get(this.device.type)?.unregister(this);
    disposeHooks.get(this.device.type)?.(this.handle);
    this.handle = null;
  }
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

// Note [memory() and the GC]: live storages are tracked through WeakRefs, so counting them
// never keeps a tensor alive; collected or disposed ones drop out on the next count.
const liveStorages = new Set<WeakRef<Storage>>();

export interface MemoryInfo {
  cpuBytes: number;
  gpuBytes: number;
  tensors: number;
}

export function memory(): MemoryInfo {
  const info: MemoryInfo = { cpuBytes: 0, gpuBytes: 0, tensors: 0 };
  for (const ref of liveStorages) {
    const s = ref.deref();
    if (!s || s.disposed) {
      liveStorages.delete(ref);
      continue;
    }
    info.tensors++;
    if (s.device.type === 'cpu') info.cpuBytes += s.byteLength;
    else info.gpuBytes += s.byteLength;
  }
  return info;
}
