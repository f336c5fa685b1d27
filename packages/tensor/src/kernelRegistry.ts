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

const registry = new Map<string, KernelFunc>();
const key = (name: string, device: DeviceType) => `${name}/${device}`;

/**
 * Registers the kernel of `kernelName` on `device`. Registering another function under a name
 * and device that already have one warns, as tfjs does, and the new one replaces it (two copies
 * of a backend, or two kernels written for one name, are mistakes worth seeing).
 */
export function registerKernel(config: KernelConfig): void {
  const k = key(config.kernelName, config.device);
  const registered = registry.get(k);
  if (registered !== undefined && registered !== config.kernelFunc) {
    console.warn(
      `The kernel '${config.kernelName}' for device '${config.device}' is already registered; the new one replaces it.`,
    );
  }
  registry.set(k, config.kernelFunc);
}

export function getKernel(kernelName: string, device: DeviceType): KernelFunc {
  const k = registry.get(key(kernelName, device));
  if (!k) {
    throw new TensorError('KERNEL_NOT_REGISTERED', `kernel '${kernelName}' is not registered for device '${device}'`);
  }
  return k;
}

export function hasKernel(kernelName: string, device: DeviceType): boolean {
  return registry.has(key(kernelName, device));
}
