import type { DeviceType } from './device.js';
import { TensorError } from './errors.js';
import type { KernelAttrs, KernelInputs, KernelName } from './kernelSpecs.js';
import type { Tensor } from './tensor.js';

/** Any kernel's attrs, as the autograd hooks and gradients see them (each kernel's own: KernelSpecs). */
export type Attrs = Readonly<Record<string, unknown>>;

/** The kernel of `N` (or of any of the names in `N`), typed by Note [Kernel specs]. */
export type KernelFunc<N extends KernelName = KernelName> = (
  inputs: KernelInputs<N>,
  attrs: KernelAttrs<N>,
) => Tensor[];

/** One kernel function for the names in `N` (a kernel written once for several names). */
export interface KernelConfigOf<N extends KernelName> {
  kernelName: N;
  device: DeviceType;
  kernelFunc(inputs: KernelInputs<N>, attrs: KernelAttrs<N>): Tensor[];
}

/** A kernel of some name: a union over the names, so that `kernelName` types `kernelFunc`. */
export type KernelConfig<N extends KernelName = KernelName> = N extends KernelName ? KernelConfigOf<N> : never;

/**
 * A registered kernel, its name's types erased (runKernel checks them at the call): a method's
 * parameters compare both ways, so every kernel function is one of these without a cast.
 */
interface ErasedKernel {
  run(inputs: readonly Tensor[], attrs: Attrs): Tensor[];
}
export type ErasedKernelFunc = ErasedKernel['run'];

/** By device, then by kernel name: a lookup per op builds no key string. */
const registry = new Map<DeviceType, Map<string, ErasedKernelFunc>>();

/**
 * Registers the kernel of `kernelName` on `device`. Registering another function under a name
 * and device that already have one warns, as tfjs does, and the new one replaces it (two copies
 * of a backend, or two kernels written for one name, are mistakes worth seeing).
 */
export function registerKernel(config: KernelConfig): void {
  let byName = registry.get(config.device);
  if (!byName) registry.set(config.device, (byName = new Map()));
  const registered = byName.get(config.kernelName);
  const kernel: ErasedKernel = { run: config.kernelFunc };
  const kernelFunc = kernel.run;
  if (registered !== undefined && registered !== kernelFunc) {
    console.warn(
      `The kernel '${config.kernelName}' for device '${config.device}' is already registered; the new one replaces it.`,
    );
  }
  byName.set(config.kernelName, kernelFunc);
}

export function getKernel(kernelName: string, device: DeviceType): ErasedKernelFunc {
  const k = registry.get(device)?.get(kernelName);
  if (!k) {
    throw new TensorError('KERNEL_NOT_REGISTERED', `kernel '${kernelName}' is not registered for device '${device}'`);
  }
  return k;
}

export function hasKernel(kernelName: string, device: DeviceType): boolean {
  return registry.get(device)?.has(kernelName) ?? false;
}
