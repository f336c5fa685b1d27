import type { DeviceType } from './device.js';
import { TensorError } from './errors.js';
import type { Tensor } from './tensor.js';

export type Attrs = Readonly<Record<string, unknown>>;
export type KernelFunc = (inputs: readonly Tensor[], attrs: Attrs) => Tensor[];

export interface KernelConfig {
  kernelName: string;
  device: DeviceType;
  kernelFunc: KernelFunc;
}

/** By device, then by kernel name: a lookup per op builds no key string. */
const registry = new Map<DeviceType, Map<string, KernelFunc>>();

/**
 * Registers the kernel of `kernelName` on `device`. Registering another function under a name
 * and device that already have one warns, as tfjs does, and the new one replaces it (two copies
 * of a backend, or two kernels written for one name, are mistakes worth seeing).
 */
export function registerKernel(config: KernelConfig): void {
  let byName = registry.get(config.device);
  if (!byName) registry.set(config.device, (byName = new Map()));
  const registered = byName.get(config.kernelName);
  if (registered !== undefined && registered !== config.kernelFunc) {
    console.warn(
      `The kernel '${config.kernelName}' for device '${config.device}' is already registered; the new one replaces it.`,
    );
  }
  byName.set(config.kernelName, config.kernelFunc);
}

export function getKernel(kernelName: string, device: DeviceType): KernelFunc {
  const k = registry.get(device)?.get(kernelName);
  if (!k) {
    throw new TensorError('KERNEL_NOT_REGISTERED', `kernel '${kernelName}' is not registered for device '${device}'`);
  }
  return k;
}

export function hasKernel(kernelName: string, device: DeviceType): boolean {
  return registry.get(device)?.has(kernelName) ?? false;
}
