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

export function registerKernel(config: KernelConfig): void {
  registry.set(key(config.kernelName, config.device), config.kernelFunc);
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
