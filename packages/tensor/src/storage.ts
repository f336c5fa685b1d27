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
  private readonly tracked: boolean;

  constructor(
    readonly device: Device,
    readonly dtype: DType,
    readonly length: number,
    private readonly cpuData: TypedArray | null,
    public handle: unknown = null,
  ) {
    finalizers.get(device.type)?.register(this, handle, this);
    this.tracked = device.type !== 'cpu' || this.byteLength >= TRACK_CPU_BYTES;
    if (this.tracked) {
      track(this, +1);
      liveRegistry.register(this, { gpu: device.type !== 'cpu', bytes: this.byteLength }, this);
    }
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
    if (this.tracked) {
      liveRegistry.unregister(this);
      track(this, -1);
    }
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

const liveRegistry = new FinalizationRegistry<{ gpu: boolean; bytes: number }>(({ gpu, bytes }) => account(gpu, bytes, -1));

export interface MemoryInfo {
  cpuBytes: number;
  gpuBytes: number;
  tensors: number;
}

/** Live storages (not views: views share one) and their bytes per kind of device; cpu storages under 1 KiB are not counted. */
export function memory(): MemoryInfo {
  return { ...live };
}
